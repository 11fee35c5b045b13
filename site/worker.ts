/**
 * The playground's Web Worker: receives the editors' texts, answers with the engine's verdict
 * (engine.ts). Built as a classic script (an IIFE) that the page starts from a Blob URL, so the
 * page works from file:// as well as from any static host.
 */
import type { CelEngine } from '../src/core/cel-engine.js';
import { celFor, loadCel } from '../src/schema/cel-syntax.js';
import { check, type CheckInput, type CheckResult } from './engine.js';

export interface Request {
  readonly id: number;
  readonly input: CheckInput;
}
export type Response = { readonly id: number; readonly result: CheckResult } | { readonly id: number; readonly error: string };

const cel = (files: readonly { text: string }[]): Promise<CelEngine | undefined> => celFor(files, loadCel);

self.onmessage = async (e: MessageEvent<Request>) => {
  const { id, input } = e.data;
  let out: Response;
  try {
    out = { id, result: await check(input, cel) };
  } catch (err) {
    // a bug of the engine: shown on the page, with what the CLI would need to reproduce it
    out = { id, error: err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err) };
  }
  (self as unknown as Worker).postMessage(out);
};
