/**
 * `mkdir -p` that always ends. Node 20's `mkdirSync(dir, { recursive: true })` never returns for a
 * path under /proc: mkdir of the missing child fails with ENOENT, of its parent with EEXIST, and
 * Node retries the child for ever. Here each directory is tried once, from the deepest missing one
 * up to the first that exists, then created top down; any other error is thrown. (bin/kubectl-crdx
 * has the same steps for the code cache, before the bundle is loaded.)
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export function makeDirs(dir: string, mode = 0o700): void {
  const missing: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    try {
      mkdirSync(d, { mode });
      break;
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') break;
      if (code !== 'ENOENT' || dirname(d) === d) throw e;
      missing.push(d);
    }
  }
  for (const d of missing.reverse()) mkdirSync(d, { mode });
}
