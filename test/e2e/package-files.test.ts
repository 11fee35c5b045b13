/**
 * What `npm pack` ships: the built CLI (dist/cli/process.js, the lint worker dist/engine/lint-worker.js
 * and their lazily loaded chunks), bin/,
 * README.md, LICENSE and package.json; no sources, tests, fixtures or internal bundles.
 * Needs `npm run build` first.
 */
import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('npm pack', { timeout: 60_000 }, () => {
  it('holds only built code, bin, README, LICENSE and package.json', async () => {
    const r = await execa('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, reject: false });
    expect(r.exitCode).toBe(0);
    const [pack] = JSON.parse(String(r.stdout)) as [{ files: { path: string }[] }];
    const files = pack.files.map((f) => f.path).sort();
    const other = files.filter((f) => !/^dist\/chunks\/[\w-]+\.js$/.test(f));
    expect(other).toEqual(['LICENSE', 'README.md', 'bin/kubectl-crdx', 'dist/cli/process.js', 'dist/engine/lint-worker.js', 'package.json']);
    // every chunk the entry reaches is in the package (and nothing else of dist/)
    const reached = new Set<string>();
    const visit = (rel: string): void => {
      if (reached.has(rel)) return;
      reached.add(rel);
      const text = readFileSync(join(ROOT, rel), 'utf8');
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+\.js)"/g)) visit(join(rel, '..', m[1]!));
    };
    visit('dist/cli/process.js');
    visit('dist/engine/lint-worker.js');
    expect([...reached].sort()).toEqual(files.filter((f) => f.startsWith('dist/')));
  });

  it('the bin runs the packaged entry', () => {
    const bin = readFileSync(join(ROOT, 'bin', 'kubectl-crdx'), 'utf8');
    expect(bin).toMatch(/^#!\/usr\/bin\/env node/);
    expect(bin).toContain("from '../dist/cli/process.js'");
    expect(existsSync(join(ROOT, 'dist', 'cli', 'process.js'))).toBe(true);
  });
});
