/**
 * The Node globals the engine reads, for the browser build (esbuild `inject`): Buffer (byte
 * lengths, base64: the `buffer` package, the browser's standard stand-in for Node's) and an empty
 * process.env (manifest/parse.ts reads one debug switch).
 */
export { Buffer } from 'buffer';
export const process = { env: {} as Record<string, string | undefined> };
