import type { ExitCode } from '../core/errors.js';
import { importLspEntry } from './lazy-lsp.js';

/** `kubectl crdx lsp`: serves until the client's `exit` notification (or the end of stdin) ends the process. */
export async function runLsp(): Promise<ExitCode> {
  (await importLspEntry()).serveStdio();
  return new Promise<ExitCode>(() => {});
}
