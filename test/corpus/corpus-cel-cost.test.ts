/**
 * Every corpus CRD installs on the real server, so none may have a rule over the cost budget:
 * crdx must report no cost error on them, and must estimate every rule and messageExpression it
 * does not reject at compile time (no "not estimated" finding).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { buildCrd, isCrdManifest } from '../../src/crd/model.js';
import { parseFile } from '../../src/manifest/parse.js';
import { analyzeCrdSchemas } from '../../src/schema/analyze.js';
import { crdCosts } from '../../src/rules/cel-cost.js';
import { STATIC_ESTIMATED_COST_LIMIT } from '../../src/schema/cel/cost-crd.js';
import { corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';
import { cel } from '../helpers/cel.js';

describe.skipIf(!HAVE_CORPUS)('corpus CRDs: static CEL cost', () => {
  const tally = { crds: 0, expressions: 0, rejected: 0, maxShare: 0 };
  const rejected: string[] = [];
  for (const f of corpusFiles('crds')) {
    if (!f.text.includes('x-kubernetes-validations')) continue;
    it(`${f.project}/${f.path.split('/').pop()}`, () => {
      for (const m of parseFile(f).flatMap((d) => d.manifests).filter(isCrdManifest)) {
        const crd = buildCrd(m, DEFAULT_KUBE_VERSION, cel);
        tally.crds++;
        for (const { cost } of crdCosts({ crd, schemaAnalysis: () => analyzeCrdSchemas(crd) })) {
          expect(cost.errors.map((e) => `${e.field}: ${e.detail}`)).toEqual([]);
          expect(cost.skipped.map((s) => `${s.loc.field}: ${s.why}`)).toEqual([]);
          tally.expressions += cost.expressions.length;
          tally.rejected += cost.rejected.length;
          rejected.push(...cost.rejected.map((r) => `${f.project}: ${r.expr}`));
          for (const x of cost.expressions) {
            expect(x.cost).toBeLessThanOrEqual(STATIC_ESTIMATED_COST_LIMIT);
            tally.maxShare = Math.max(tally.maxShare, Number(x.cost) / Number(STATIC_ESTIMATED_COST_LIMIT));
          }
        }
      }
    });
  }
  it('estimated expressions', () => {
    console.log(`corpus cost: ${tally.expressions} expressions estimated in ${tally.crds} CRDs, none over budget (${tally.rejected} rejected by the checker); the most expensive uses ${(tally.maxShare * 100).toFixed(1)}% of the per-rule limit`);
    if (process.env['CRDX_SHOW_REJECTED']) console.log(rejected.join('\n'));
    expect(tally.expressions).toBeGreaterThan(0);
  });
});
