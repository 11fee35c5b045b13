/**
 * The language server's entry (`kubectl crdx lsp`, with vscode-languageserver), imported here and
 * nowhere else, as src/io/lazy-deps.ts imports the cluster client and the spinner: the split ESM
 * build and the single executable use this import() as written; the CLI bundle replaces this module
 * with one that asks bin/kubectl-crdx to import dist/cli/lsp.mjs (scripts/build.mjs, `hostImports`).
 * It lives in src/cli, not src/io, because the entry serves the process's stdio (and io/ must not
 * import the CLI).
 */
export const importLspEntry = (): Promise<typeof import('./lsp-entry.js')> => import('./lsp-entry.js');
