import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ShareRequest, ShareResult } from '../engine/lint-parallel.js';

/**
 * Whether a lint of these many bytes runs on two threads: on a machine with more than one core, for
 * inputs large enough that the worker's fixed cost pays (its start, and reading the reference CRDs
 * again: on the 2-core bench machine two threads were 10% slower than one on 6 MB of custom resources
 * and about 5% faster on 12 MB), and never in the single executable (its bundle is not a file a
 * worker can load). CRDX_WORKERS=0 turns it off; CRDX_PARALLEL_MIN_BYTES sets the size (tests, bench).
 */
export function wantThreads(bytes: number, env: NodeJS.ProcessEnv): boolean {
  if (env['CRDX_WORKERS'] === '0') return false;
  const min = Number(env['CRDX_PARALLEL_MIN_BYTES'] ?? 8 * 1024 * 1024);
  return bytes >= min && availableParallelism() > 1 && workerScript() !== undefined;
}

/** The worker's script beside the bundle's chunks (dist/engine/lint-worker.js), if there is one. */
function workerScript(): string | undefined {
  try {
    const p = fileURLToPath(new URL('../engine/lint-worker.js', import.meta.url));
    return existsSync(p) ? p : undefined;
  } catch {
    return undefined;
  }
}

/** Runs a share in a worker thread; rejects when the worker fails (the caller then lints the share here). */
export async function runInWorker(req: ShareRequest): Promise<ShareResult> {
  const script = workerScript();
  if (script === undefined) throw new Error('no worker script');
  // loaded here, not with the lint command: most lints never start a worker
  const { Worker } = await import('node:worker_threads');
  return new Promise((resolve, reject) => {
    const w = new Worker(script, { workerData: req });
    w.once('message', (m: ShareResult) => {
      resolve(m);
      void w.terminate();
    });
    w.once('error', reject);
    w.once('exit', (code) => reject(new Error(`lint worker exited with ${code}`)));
  });
}
