/**
 * A lint split over two threads (src/engine/lint-parallel.ts) gives what one lintSources over all the
 * files gives: here the worker's share runs in-process (same code as the worker thread); the built CLI
 * with a real worker thread is compared in test/e2e/lint-threads.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { lintSources } from '../../src/engine/lint.js';
import { lintShare, lintSplit, mayHoldCrd, splitFiles } from '../../src/engine/lint-parallel.js';
import type { SourceFile } from '../../src/manifest/parse.js';
import { CORPUS, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';
import { yamlFiles } from '../helpers/files.js';
import { cel } from '../helpers/cel.js';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (paths: string[]): SourceFile[] => paths.map((p) => ({ path: relative(ROOT, p), text: readFileSync(p, 'utf8') }));

async function same(files: SourceFile[], crdFiles: SourceFile[] = []): Promise<number> {
  const opts = { kubeVersion: DEFAULT_KUBE_VERSION, cel, crdFiles };
  const one = lintSources(files, opts);
  let shared = 0;
  const two = await lintSplit(files, opts, async (req) => {
    shared = req.files.length;
    return lintShare(req, cel);
  });
  expect(two, 'the split gave the worker nothing').toBeDefined();
  expect(two!.findings).toEqual(one.findings);
  const { files: f, documents, errors, warnings, unchecked } = one.summary;
  expect(two!.summary).toEqual({ files: f, documents, errors, warnings, ...(unchecked ? { unchecked } : {}) });
  expect(two!.checked).toBe(one.checked);
  return shared;
}

describe('lint on two threads = lint on one', () => {
  it('files that may hold a CRD are found (the kind named, or escapes that could spell it)', () => {
    expect(mayHoldCrd({ path: 'a', text: 'kind: CustomResourceDefinition\n' })).toBe(true);
    expect(mayHoldCrd({ path: 'a', text: '{"kind": "\\u0043ustomResourceDefinition"}' })).toBe(true);
    expect(mayHoldCrd({ path: 'a', text: 'kind: "\\x43ustomResourceDefinition"\n' })).toBe(true);
    expect(mayHoldCrd({ path: 'a', text: 'kind: Widget\nspec:\n  re: "a\\\\d"\n' })).toBe(false);
  });

  it('the worker gets only files that hold no CRD, and about half of the bytes', () => {
    const f = (path: string, n: number, crd = false): SourceFile => ({ path, text: `${crd ? 'kind: CustomResourceDefinition\n' : 'kind: W\n'}#${'x'.repeat(n)}\n` });
    const s = splitFiles([f('crd', 100, true), f('a', 100), f('b', 100), f('c', 100), f('d', 100)]);
    expect(s.crdBearing.map((x) => x.path)).toEqual(['crd']);
    expect(s.there.map((x) => x.path)).toEqual(['c', 'd']);
    expect(s.here.map((x) => x.path)).toEqual(['crd', 'a', 'b']);
  });

  it('fixtures: CRDs and custom resources in the input (every finding, summary and count)', async () => {
    const shared = await same(read([...yamlFiles(join(ROOT, 'fixtures', 'crds')), ...yamlFiles(join(ROOT, 'fixtures', 'simulate'))]));
    expect(shared).toBeGreaterThan(0);
  });

  it.skipIf(!HAVE_CORPUS)(`corpus samples against the corpus CRDs given with --crd, and in the input${HAVE_CORPUS ? '' : ` (${NO_CORPUS_REASON})`}`, { timeout: 120_000 }, async () => {
    const crds = read(yamlFiles(join(CORPUS, 'crds')));
    const samples = read(yamlFiles(join(CORPUS, 'samples')));
    expect(await same(samples, crds)).toBeGreaterThan(10);
    expect(await same([...samples.slice(0, 20), ...crds.slice(0, 30), ...samples.slice(20)])).toBeGreaterThan(10);
  });
});
