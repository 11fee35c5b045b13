/**
 * `lint` of a large input runs on two threads (src/engine/lint-parallel.ts, a real worker thread here):
 * its output is byte for byte the one-thread output. CRDX_PARALLEL_MIN_BYTES=1 makes small inputs take
 * the threaded path; CRDX_TRACE_THREADS=1 proves a worker ran. Needs `npm run build:dist` first.
 */
import { execa } from 'execa';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CORPUS, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function lint(args: string[], env: Record<string, string>) {
  const r = await execa('node', ['bin/kubectl-crdx', 'lint', '-o', 'json', ...args], { cwd: ROOT, reject: false, env: { NO_COLOR: '1', ...env } });
  return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

async function same(args: string[]): Promise<void> {
  const one = await lint(args, { CRDX_WORKERS: '0', CRDX_TRACE_THREADS: '1' });
  const two = await lint(args, { CRDX_PARALLEL_MIN_BYTES: '1', CRDX_TRACE_THREADS: '1' });
  expect(one.stderr).not.toMatch(/worker thread/);
  expect(two.stderr).toMatch(/^crdx: \d+ of \d+ files linted in a worker thread$/m);
  expect(two.stderr).not.toMatch(/worker failed/);
  expect(two.code).toBe(one.code);
  expect(two.stdout).toBe(one.stdout);
  expect(JSON.parse(one.stdout).findings.length).toBeGreaterThan(0);
}

describe('lint on two threads', { timeout: 120_000 }, () => {
  it('fixtures: the same findings, summary and exit code as on one thread', async () => {
    await same(['fixtures/crds', 'fixtures/simulate']);
  });

  it.skipIf(!HAVE_CORPUS)(`corpus samples with --crd: the same output${HAVE_CORPUS ? '' : ` (${NO_CORPUS_REASON})`}`, async () => {
    await same(['--crd', join(CORPUS, 'crds'), join(CORPUS, 'samples')]);
  });

  it('small inputs stay on one thread', async () => {
    const r = await lint(['fixtures/crds'], { CRDX_TRACE_THREADS: '1' });
    expect(r.stderr).not.toMatch(/worker thread/);
  });
});
