/**
 * lib/kubectl-crdx.cjs is committed: it is what bin/kubectl-crdx runs where dist/ was not built (an
 * install from git, as pre-commit's `language: node` does, needs no build step and no
 * devDependencies). It must be exactly what `npm run build:entry` makes of the sources and lockfile
 * of this tree, and a package without dist/ must lint as the development build does.
 */
import { execa } from 'execa';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectFixtureLint, ROOT } from '../release/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'crdx-entry-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('committed entry lib/kubectl-crdx.cjs', { timeout: 60_000 }, () => {
  it('is what npm run build:entry makes of this tree (else: npm run build:entry, and commit it)', async () => {
    const fresh = join(dir, 'fresh.cjs');
    const r = await execa('node', ['scripts/build.mjs', '--entry', fresh], { cwd: ROOT, reject: false });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const committed = readFileSync(join(ROOT, 'lib', 'kubectl-crdx.cjs'));
    const built = readFileSync(fresh);
    // compared as a boolean first: a diff of two 1 MB lines is no help
    expect(committed.equals(built), 'lib/kubectl-crdx.cjs is stale: run `npm run build:entry` and commit it').toBe(true);
  });

  it('bin/kubectl-crdx runs it when dist/ is absent: the development build findings', async () => {
    const pkg = join(dir, 'pkg');
    mkdirSync(join(pkg, 'lib'), { recursive: true });
    cpSync(join(ROOT, 'bin'), join(pkg, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'lib', 'kubectl-crdx.cjs'), join(pkg, 'lib', 'kubectl-crdx.cjs'));
    const r = await execa('node', [join(pkg, 'bin', 'kubectl-crdx'), 'lint', '-o', 'json', 'fixtures/crds'], {
      cwd: ROOT,
      reject: false,
      env: { NO_COLOR: '1', CRDX_CACHE_DIR: join(dir, 'cache') },
    });
    await expectFixtureLint({ exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) });
  });
});
