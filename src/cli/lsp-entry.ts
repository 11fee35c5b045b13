/**
 * The language server on this process's stdio (`kubectl crdx lsp`, and the VS Code extension's
 * bundled server). Loaded lazily: the CLI bundle imports it from its own file (dist/cli/lsp.mjs, see
 * src/io/lazy-deps.ts), so lint's cold start never compiles the LSP library.
 *
 * The protocol's `exit` notification ends the process (vscode-languageserver's node connection calls
 * process.exit: 0 after `shutdown`, else 1, as LSP specifies), as does the end of stdin.
 */
import { createConnection } from 'vscode-languageserver/node';
import { readCrdFiles } from '../io/crd-files.js';
import { startServer } from '../lsp/server.js';
import { VERSION } from './version.js';

export function serveStdio(): void {
  const connection = createConnection(process.stdin, process.stdout);
  startServer(connection, { readCrdFiles, toolVersion: VERSION });
}
