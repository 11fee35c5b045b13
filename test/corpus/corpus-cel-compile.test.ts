import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { lintSources } from '../../src/engine/lint.js';
import { analyzeCrdSchemas } from '../../src/schema/analyze.js';
import { corpusFiles, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';
import { cel } from '../helpers/cel.js';

if (!HAVE_CORPUS) console.warn(NO_CORPUS_REASON);

/** Every x-kubernetes-validations rule in a raw schema (rule texts, empty ones included). */
function countRules(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + countRules(x), 0);
  if (v === null || typeof v !== 'object') return 0;
  let n = 0;
  for (const [k, x] of Object.entries(v)) {
    if (k === 'x-kubernetes-validations' && Array.isArray(x)) n += x.length;
    n += countRules(x);
  }
  return n;
}

/**
 * The corpus CRDs install on real servers, so the server compiles every one of their rules: crdx
 * must compile (parse, type-check, validate) each of them, reject none and leave none unchecked.
 */
describe.skipIf(!HAVE_CORPUS)('corpus CRD rules compile as on the server (../shared/corpus/crds)', () => {
  const files = corpusFiles('crds');
  const result = lintSources(
    files.map((f) => ({ path: f.path, text: f.text })),
    { kubeVersion: DEFAULT_KUBE_VERSION, cel },
  );
  const analyses = result.crds.flatMap((crd) => analyzeCrdSchemas(crd));
  const stats = { compiled: 0, rejected: 0, unchecked: 0 };
  for (const a of analyses) {
    stats.compiled += a.celStats.compiled;
    stats.rejected += a.celStats.rejected;
    stats.unchecked += a.celStats.unchecked;
  }
  const total = analyses.reduce((n, a) => n + countRules(a.target.schema), 0);
  // a schema shared by several versions is compiled once; the server compiles it per version
  const perVersion = analyses.reduce((n, a) => n + countRules(a.target.schema) * Math.max(1, a.target.versions.length), 0);

  it('compiles every rule of the corpus (1,245 rules)', () => {
    expect(perVersion).toBe(1245);
    // 783 rules in the 269 distinct version schemas
    expect(stats).toEqual({ compiled: total, rejected: 0, unchecked: 0 });
    expect(total).toBe(783);
  });
  it('reports no compile error and no unchecked rule', () => {
    const f = result.findings.filter((x) => x.ruleId === 'cel-compile' || (x.ruleId === 'cel-not-evaluated' && x.messageId === 'compile'));
    expect(f.map((x) => `${x.file}:${x.line} ${x.message}`)).toEqual([]);
  });
});
