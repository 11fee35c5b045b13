/**
 * What `npm pack` ships: the built CLI (the bundle dist/cli/kubectl-crdx.cjs, its code cache made by
 * the build, the spinner dist/cli/spinner.mjs, the language server dist/cli/lsp.mjs, the lint worker
 * dist/engine/lint-worker.js and its lazily loaded chunks), the committed entry lib/kubectl-crdx.cjs
 * (run where dist/ is absent), bin/, the rule pages (docs/rules/), the JSON Schema of test files
 * (schema/), README.md, LICENSE and package.json; no sources, tests, fixtures or internal bundles.
 * And what npm would run or fetch at install: nothing.
 * Needs `npm run build:dist` first.
 */
import { execa } from 'execa';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('npm pack', { timeout: 60_000 }, () => {
  it('holds only built code, bin, the rule pages, the test-file schema, README, LICENSE and package.json', async () => {
    const r = await execa('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, reject: false });
    expect(r.exitCode).toBe(0);
    const [pack] = JSON.parse(String(r.stdout)) as [{ files: { path: string }[] }];
    const files = pack.files.map((f) => f.path).sort();
    // every rule's page, for `kubectl crdx rules ID`
    const pages = files.filter((f) => f.startsWith('docs/rules/'));
    expect(pages).toEqual(readdirSync(join(ROOT, 'docs', 'rules')).map((f) => `docs/rules/${f}`).sort());
    const other = files.filter((f) => !/^dist\/chunks\/[\w-]+\.js$/.test(f) && !pages.includes(f));
    const cache = other.filter((f) => /^dist\/cli\/[0-9a-f]{16}-v[\d.]+-\w+\.v8cache$/.test(f));
    expect(cache).toHaveLength(1);
    expect(other.filter((f) => !cache.includes(f))).toEqual([
      'LICENSE',
      'README.md',
      'bin/kubectl-crdx',
      'bin/load-bundle.cjs',
      'bin/package.json',
      'dist/cli/kubectl-crdx.cjs',
      'dist/cli/lsp.mjs',
      'dist/cli/spinner.mjs',
      'dist/engine/lint-worker.js',
      'lib/kubectl-crdx.cjs',
      'package.json',
      'schema/crdx-test.schema.json',
    ]);
    // the bundles, the spinner and the language server are whole: they import no file of dist/
    for (const f of ['dist/cli/kubectl-crdx.cjs', 'dist/cli/spinner.mjs', 'dist/cli/lsp.mjs', 'lib/kubectl-crdx.cjs']) expect(readFileSync(join(ROOT, f), 'utf8')).not.toMatch(/(?:from|import\(|require\()\s*"\.{1,2}\//);
    // every chunk the entry reaches is in the package (and nothing else of dist/)
    const reached = new Set<string>();
    const visit = (rel: string): void => {
      if (reached.has(rel)) return;
      reached.add(rel);
      const text = readFileSync(join(ROOT, rel), 'utf8');
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+\.js)"/g)) visit(join(rel, '..', m[1]!));
    };
    visit('dist/engine/lint-worker.js');
    expect([...reached].sort()).toEqual(files.filter((f) => f.startsWith('dist/') && !f.startsWith('dist/cli/')));
  });

  it('no script npm runs for an install, from the registry or from git, and no dependency to fetch', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    // install scripts run for every user (npm 11 warns about them); prepare, prepack and build make
    // npm prepare a git dependency (install its devDependencies, build): what pre-commit installs
    for (const s of ['preinstall', 'install', 'postinstall', 'prepare', 'prepack', 'build']) expect(pkg.scripts, s).not.toHaveProperty(s);
    expect(pkg.dependencies ?? {}).toEqual({});
    // the cluster client: only for --cluster, installed by the user
    expect(Object.keys(pkg.peerDependencies ?? {})).toEqual(['@kubernetes/client-node']);
    expect(pkg.peerDependenciesMeta?.['@kubernetes/client-node']?.optional).toBe(true);
  });

  it('the bin runs the packaged entry', () => {
    const bin = readFileSync(join(ROOT, 'bin', 'kubectl-crdx'), 'utf8');
    expect(bin).toMatch(/^#!\/usr\/bin\/env node/);
    expect(bin).toContain("path.join(__dirname, '..', 'dist', 'cli', 'kubectl-crdx.cjs')");
    expect(bin).toContain("path.join(__dirname, '..', 'lib', 'kubectl-crdx.cjs')");
    expect(existsSync(join(ROOT, 'dist', 'cli', 'kubectl-crdx.cjs'))).toBe(true);
    // CommonJS (it defines the bundle's require); the package itself is ESM
    expect(JSON.parse(readFileSync(join(ROOT, 'bin', 'package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
  });
});
