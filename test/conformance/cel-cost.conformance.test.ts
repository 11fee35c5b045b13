/**
 * Static CEL cost against the real server: mutants of every corpus CRD with rules that remove or
 * tighten maxItems / maxLength / maxProperties and add or nest comprehensions, so that verdicts
 * cross the budget both ways. Each mutant goes to the server (dry-run create) and through lint;
 * the set of cost causes (reason, field and full message) must be equal, and so must the
 * presence of a 422 caused by cost. CRDX_COST_PORT / CRDX_COST_DIR pick the server's port and
 * state directory; CRDX_COST_LIMIT caps the number of seed CRDs (default all); CRDX_COST_MINOR
 * (e.g. 1.30) runs the mutants against that minor's server (the harness builds it) and lints them
 * for that minor, instead of the default. CRDX_EXTRA_CRDS=DIR adds seeds from CRDs outside the
 * corpus (before the corpus's).
 */
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { lintSources } from '../../src/engine/lint.js';
import { parseFile } from '../../src/manifest/parse.js';
import { corpusFiles, extraCrdFiles } from '../helpers/corpus.js';
import { cel } from '../helpers/cel.js';
import { CRD_API, goAvailable, startHarness, type Harness } from './harness.js';
import { COST, MUTATIONS, type Obj } from './cost-mutations.js';
import { causeKey as key, equalModuloTies, ruleCosts } from './cost-ties.js';

const LIMIT = Number(process.env['CRDX_COST_LIMIT'] ?? Infinity);
const MINOR = process.env['CRDX_COST_MINOR'] ? Number(/^(?:v?1\.)?(\d+)$/.exec(process.env['CRDX_COST_MINOR'])?.[1] ?? NaN) : undefined;
if (MINOR !== undefined && !Number.isInteger(MINOR)) throw new Error(`CRDX_COST_MINOR: not a minor: ${process.env['CRDX_COST_MINOR']}`);
const KUBE = MINOR === undefined ? DEFAULT_KUBE_VERSION : { major: 1, minor: MINOR };

function seeds(): { name: string; crd: Obj }[] {
  const out: { name: string; crd: Obj }[] = [];
  // CRDX_EXTRA_CRDS's CRDs first (CRDX_COST_LIMIT then takes those only)
  for (const f of [...extraCrdFiles(), ...corpusFiles('crds')]) {
    if (!f.text.includes('x-kubernetes-validations')) continue;
    for (const d of parseFile({ path: f.path, text: f.text }))
      for (const m of d.manifests) if (m.kind === 'CustomResourceDefinition' && JSON.stringify(m.value).includes('x-kubernetes-validations')) out.push({ name: `${f.project}/${String((m.value['metadata'] as Obj)['name'])}`, crd: m.value });
  }
  return out.slice(0, LIMIT);
}

describe.skipIf(!goAvailable())('static CEL cost: corpus mutants against the server', () => {
  let h: Harness;
  const tally = { mutants: 0, agree: 0, tieOrder: 0, serverCost: 0, crdxCost: 0, notEstimated: 0, crossedUp: 0, crossedDown: 0 };
  beforeAll(async () => {
    h = await startHarness({
      ...(MINOR !== undefined ? { minor: MINOR } : {}),
      ...(process.env['CRDX_COST_PORT'] ? { port: Number(process.env['CRDX_COST_PORT']) } : {}),
      ...(process.env['CRDX_COST_DIR'] ? { dir: process.env['CRDX_COST_DIR'] } : {}),
    });
  }, 1_800_000);
  afterAll(async () => {
    console.log(
      `cost tally (1.${KUBE.minor}): ${tally.agree}/${tally.mutants} mutants agree on the cost causes (${tally.tieOrder} of them up to the order of equal-cost contributors the server names); server rejected ${tally.serverCost} for cost, crdx ${tally.crdxCost}; ` +
        `${tally.crossedUp} mutants went over budget from a seed under it, and ${tally.crossedDown} came back under after a mutant of the same seed was over; ${tally.notEstimated} mutants had expressions crdx did not estimate`,
    );
    await h?.stop();
  });

  for (const { name, crd } of seeds()) {
    describe(name, () => {
      const verdicts = new Map<string, boolean>();
      for (const [mname, apply] of MUTATIONS) {
        const m = structuredClone(crd);
        if (!apply(m)) continue;
        it(mname, async () => {
          tally.mutants++;
          const text = stringify(m, { version: '1.1', aliasDuplicateObjects: false, lineWidth: 0 });
          const findings = lintSources([{ path: 'mutant.yaml', text }], { kubeVersion: KUBE, cel }).findings;
          const ours = findings.filter((f) => f.ruleId === 'cel-cost' && f.server).map((f) => key(f.server!.reason, f.server!.field, f.server!.message)).sort();
          const skipped = findings.filter((f) => f.ruleId === 'cel-not-evaluated' && f.messageId === 'cost');
          if (skipped.length > 0) tally.notEstimated++;
          const res = await h.request('POST', `${CRD_API}?dryRun=All&fieldValidation=Strict`, m);
          const causes = (res.body?.details?.causes ?? []) as { reason: string; field: string; message: string }[];
          const theirs = causes.filter((c) => COST.test(c.message)).map((c) => key(c.reason, c.field, c.message)).sort();
          if (theirs.length > 0) tally.serverCost++;
          if (ours.length > 0) tally.crdxCost++;
          const over = theirs.length > 0;
          const wasOver = [...verdicts.values()].some(Boolean);
          const wasUnder = [...verdicts.values()].some((v) => !v);
          if (over && wasUnder) tally.crossedUp++;
          if (!over && wasOver) tally.crossedDown++;
          verdicts.set(mname, over);
          if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
            if (equalModuloTies(ours, theirs, ruleCosts(text, KUBE))) {
              tally.tieOrder++;
              tally.agree++;
              return;
            }
          }
          expect(ours, `server HTTP ${res.status}; not estimated: ${skipped.map((f) => f.message).join('; ')}`).toEqual(theirs);
          tally.agree++;
        }, 120_000);
      }
    });
  }
});
