/**
 * Differential fuzzing of CEL evaluation: rules from the seeded generator of cel-fuzz.ts that crdx
 * compiles (seed CRDX_CEL_EVAL_FUZZ_SEED, default 1; CRDX_CEL_EVAL_FUZZ_N generated, default 240) are
 * put on CRDs, RULES_PER_CRD at a time, installed on a real apiextensions-apiserver, and
 * OBJECTS_PER_CRD random objects of each (objectGenerator: values of every declared type, fields left
 * out now and then) are sent as dry-run creates. crdx must evaluate every rule (no
 * cel-not-evaluated) and give exactly the server's causes, every one as often as it comes: the
 * rules' messages and messageExpressions, runtime errors, cost limits, schema errors.
 */
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { defaultSources } from '../../src/engine/default.js';
import { lintSources } from '../../src/engine/lint.js';
import { cel } from '../helpers/cel.js';
import { crdObject } from '../helpers/crd.js';
import { FUZZ_PROPS, objectGenerator, ruleGenerator, validationOf, type FuzzRule } from './cel-fuzz.js';
import { binaryBuilt, deleteAllCRDs, goAvailable, installCRD, startHarness, type Harness } from './harness.js';

const CAN_RUN = goAvailable() || binaryBuilt();
if (!CAN_RUN) console.warn('cel-eval-fuzz conformance skipped: no apiserver binary and no Go to build it (test/apiserver)');
const N = Number(process.env['CRDX_CEL_EVAL_FUZZ_N'] ?? 240);
const SEED = Number(process.env['CRDX_CEL_EVAL_FUZZ_SEED'] ?? 1);
const RULES_PER_CRD = 8;
const OBJECTS_PER_CRD = 10;
const GROUP = 'fuzz.crdx.test';
// CRDX_CEL_EVAL_FUZZ_MINOR=36: on the 1.36 server, crdx simulating 1.36
const MINOR = Number(process.env['CRDX_CEL_EVAL_FUZZ_MINOR'] ?? DEFAULT_KUBE_VERSION.minor);
const KUBE = { major: 1, minor: MINOR };
const PROPS = parse(FUZZ_PROPS.replace(/^ {16}/gm, '')) as Record<string, unknown>;

function crdWith(rules: readonly FuzzRule[], i: number): Record<string, unknown> {
  return crdObject({ group: GROUP, plural: `e${i}s`, singular: `e${i}`, kind: `E${i}`, schema: { type: 'object', properties: { spec: { type: 'object', properties: PROPS, 'x-kubernetes-validations': rules.map(validationOf) } } } });
}

/** Whether crdx accepts the CRD with every rule compiled and costed (the server then must too). */
function clean(crd: Record<string, unknown>): boolean {
  const r = lintSources([{ path: 'crd.json', text: JSON.stringify(crd) }], { kubeVersion: KUBE, cel });
  return !r.findings.some((f) => f.server !== undefined || f.ruleId === 'cel-not-evaluated' || f.ruleId === 'cel-compile-panic');
}

// rules crdx compiles, without oldSelf (a create runs no transition rule), in CRDs crdx accepts; and
// none that makes a list of a map's entries (map(), filter(), transformList() over a map): the server
// goes through a map in Go's random order, so its answer on such a list's order is random (crdx
// says it cannot know: cel-not-evaluated, test/schema/cel/map-order.test.ts)
const RANDOM_ORDER = /which the server goes through in Go's random order/;
const MAP_ORDER = /(?:self\.(?:umap|tags)|\{'a': '?[\w]+'?\}|transformMap(?:Entry)?\([^)]*\))\.(?:map|filter|transformList)\(/;
const next = ruleGenerator(SEED);
const usable = Array.from({ length: N }, () => next()).filter((r) => !/oldSelf/.test(`${r.rule} ${r.messageExpression ?? ''}`) && !MAP_ORDER.test(`${r.rule} ${r.messageExpression ?? ''}`) && r.optionalOldSelf !== true && clean(crdWith([r], 0)));
const CRDS: Record<string, unknown>[] = [];
for (let i = 0; i < usable.length; i += RULES_PER_CRD) {
  const group = usable.slice(i, i + RULES_PER_CRD);
  const crd = crdWith(group, CRDS.length);
  if (clean(crd)) CRDS.push(crd);
  // over the CRD's total cost: one rule a CRD
  else for (const r of group) CRDS.push(crdWith([r], CRDS.length));
}
const objects = objectGenerator(SEED);
const CASES = CRDS.map((crd) => ({ crd, specs: Array.from({ length: OBJECTS_PER_CRD }, () => objects()) }));

describe.skipIf(!CAN_RUN)(`random CEL rules (seed ${SEED}) evaluate on random objects as on a real apiextensions-apiserver`, () => {
  let h: Harness;
  const notInstalled = new Map<number, string>();
  const tally = { objects: 0, agreed: 0, rejected: 0, causes: 0, randomOrder: 0 };
  beforeAll(async () => {
    h = await startHarness(MINOR === DEFAULT_KUBE_VERSION.minor ? {} : { minor: MINOR });
    await deleteAllCRDs(h);
    for (const [i, c] of CASES.entries()) {
      const err = await installCRD(h, c.crd);
      if (err) notInstalled.set(i, err);
    }
  }, 1_800_000);
  afterAll(async () => {
    console.log(`conformance tally (cel-eval-fuzz 1.${MINOR} seed ${SEED}): ${tally.agreed}/${tally.objects} objects agree on ${CASES.length} CRDs of ${usable.length} rules (server rejected ${tally.rejected}, ${tally.causes} causes; ${tally.randomOrder} verdicts on a map's random order left out, as crdx reports them unknowable)`);
    await deleteAllCRDs(h).catch(() => undefined);
    await h?.stop();
  });

  CASES.forEach((c, i) => {
    const rules = ((c.crd['spec'] as any).versions[0].schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] as { rule: string }[]).map((v) => v.rule);
    describe(`CRD ${i}: ${rules.length} rules`, () => {
      it('is accepted by the server', () => {
        expect(notInstalled.get(i) ?? '').toBe('');
      });
      c.specs.forEach((spec, j) => {
        it(`object ${j}: ${JSON.stringify(spec).slice(0, 160)}`, async () => {
          const obj = { apiVersion: `${GROUP}/v1`, kind: `E${i}`, metadata: { name: `o${j}`, namespace: 'default' }, spec };
          const run = defaultSources([{ path: `o${j}.json`, text: JSON.stringify(obj) }], [{ path: 'crd.json', text: JSON.stringify(c.crd) }], { kubeVersion: KUBE, cel });
          const r = run.objects[0]!;
          // a rule failing inside a comprehension over a map of several entries: which entry's error
          // the server meets first is random (Go's map order), and crdx says it cannot know; that
          // rule's causes are left out of the comparison, and counted
          const unknowable = r.findings.filter((f) => f.ruleId === 'cel-not-evaluated' && RANDOM_ORDER.test(f.message)).map((f) => /^CEL rule "((?:[^"\\]|\\.)*)"/.exec(f.message)?.[1]);
          const unchecked = r.findings.filter((f) => f.ruleId === 'cel-not-evaluated' && !RANDOM_ORDER.test(f.message)).map((f) => f.message);
          tally.randomOrder += unknowable.length;
          const res = await h.request('POST', `/apis/${GROUP}/v1/namespaces/default/e${i}s?dryRun=All`, obj);
          const causes = res.status === 422 ? ((res.body?.details?.causes ?? []) as { reason: string; field: string; message: string }[]) : [];
          // (a finding names a rule of more than 100 characters by its first 97 and `...`)
          const ofUnknowable = (m: string): boolean =>
            unknowable.some((rule) => rule !== undefined && (rule.endsWith('...') ? m.includes(`rule: ${JSON.parse(`"${rule.slice(0, -3)}"`)}`) : m.endsWith(`rule: ${JSON.parse(`"${rule}"`)}`)));
          const theirs = causes.filter((x) => !ofUnknowable(x.message)).map((x) => `${x.reason} ${x.field}: ${x.message}`).sort();
          const ours = r.findings.filter((f) => f.server).map((f) => `${f.server!.reason} ${f.server!.field}: ${f.server!.message}`).sort();
          tally.objects++;
          if (res.status === 422) tally.rejected++;
          tally.causes += theirs.length;
          if (JSON.stringify(theirs) === JSON.stringify(ours) && unchecked.length === 0) tally.agreed++;
          expect({ causes: ours, unchecked }, `server: HTTP ${res.status} ${JSON.stringify(res.body?.message ?? '').slice(0, 300)}`).toEqual({ causes: theirs, unchecked: [] });
          expect(res.status === 201 || res.status === 422).toBe(true);
        });
      });
    });
  });
});
