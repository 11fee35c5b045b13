/**
 * The language server on this process's stdio (`kubectl crdx lsp`, and the VS Code extension's
 * bundled server). Loaded lazily: the CLI bundle imports it from its own file (dist/cli/lsp.mjs, see
 * src/cli/lazy-lsp.ts), so lint's cold start never compiles the LSP library.
 *
 * The protocol's `exit` notification ends the process (vscode-languageserver's node connection calls
 * process.exit: 0 after `shutdown`, else 1, as LSP specifies), as does the end of stdin.
 */
import { createConnection } from 'vscode-languageserver/node';
import { readCrdFiles } from '../io/crd-files.js';
import type { SourceFile } from '../manifest/parse.js';
import { startServer } from '../lsp/server.js';
import { loadCel } from '../schema/cel-syntax.js';
import { VERSION } from './version.js';

export function serveStdio(): void {
  const connection = createConnection(process.stdin, process.stdout);
  startServer(connection, { readCrdFiles, readClusterCrds, toolVersion: VERSION, loadCel });
}

/** The installed CRDs of a kubeconfig context (KUBECONFIG or ~/.kube/config), read-only, as `lint --cluster` lists them. */
async function readClusterCrds(context: string): Promise<SourceFile[]> {
  const { connect } = await import('../io/cluster.js');
  const { listInstalledCrds } = await import('../io/cluster-source.js');
  const cluster = await connect({ context, requestTimeoutMs: 10_000, chunkSize: 500 }, { env: process.env, userAgent: `kubectl-crdx/${VERSION} (lsp)` });
  try {
    return await listInstalledCrds(cluster);
  } finally {
    cluster.close();
  }
}
