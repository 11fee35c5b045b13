/**
 * The heavy modules only some commands load: the cluster client and the spinner (cluster mode); the
 * language server's entry is src/cli/lazy-lsp.ts. They are imported here and nowhere else, so each
 * build decides how: the split ESM build (dist/chunks, the
 * worker, tests) and the single executable use these import() calls as written; the CLI bundle
 * (dist/cli/kubectl-crdx.cjs, run by bin/kubectl-crdx from V8's code cache) replaces this module
 * with one that asks bin/kubectl-crdx to import them (scripts/build.mjs, `hostImports`), because
 * code compiled with a cache through node:vm cannot run import() itself.
 */
export const importClientNode = (): Promise<typeof import('@kubernetes/client-node')> => import('@kubernetes/client-node');
export const importOra = (): Promise<typeof import('ora')> => import('ora');
