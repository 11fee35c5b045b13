/**
 * Differential fuzzing of CEL compilation: CRDX_CEL_FUZZ_N (default 300) rules from the seeded
 * generator of cel-fuzz.ts (seed CRDX_CEL_FUZZ_SEED, default 1), each on spec of one CRD, are created
 * with dryRun on a real apiextensions-apiserver and linted for its minor: the same status and exactly
 * the same set of causes (reason, field, message), every cause compared (type-check, cost, program
 * construction, schema), and no rule crdx says it could not check.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { compareCreate, crdWithSpec, type Tally } from './cel-create.js';
import { FUZZ_PROPS, ruleGenerator, validationOf, type FuzzRule } from './cel-fuzz.js';
import { binaryBuilt, goAvailable, startHarness, type Harness } from './harness.js';

const CAN_RUN = goAvailable() || binaryBuilt();
if (!CAN_RUN) console.warn('cel-fuzz conformance skipped: no apiserver binary and no Go to build it (test/apiserver)');
const N = Number(process.env['CRDX_CEL_FUZZ_N'] ?? 300);
const SEED = Number(process.env['CRDX_CEL_FUZZ_SEED'] ?? 1);
// CRDX_CEL_FUZZ_MINOR=36: on the 1.36 server, crdx linting for 1.36
const MINOR = Number(process.env['CRDX_CEL_FUZZ_MINOR'] ?? DEFAULT_KUBE_VERSION.minor);

function crdFor(r: FuzzRule, i: number): string {
  return crdWithSpec({ kind: `F${i}`, props: FUZZ_PROPS, specRules: `                - ${JSON.stringify(validationOf(r))}` });
}

const next = ruleGenerator(SEED);
// CRDX_CEL_FUZZ_RULES=FILE: the rules of a JSON file ([{rule, messageExpression?, fieldPath?, reason?, optionalOldSelf?}]) instead of generated ones
const RULES_FILE = process.env['CRDX_CEL_FUZZ_RULES'];
const CASES: FuzzRule[] = RULES_FILE ? JSON.parse(readFileSync(RULES_FILE, 'utf8')) : Array.from({ length: N }, () => next());

describe.skipIf(!CAN_RUN)(`random CEL rules (seed ${SEED}) compile as on a real apiextensions-apiserver`, () => {
  let h: Harness;
  const tally: Tally = { compared: 0, agreed: 0, rejected: 0 };
  // what the server's causes were about, to show what the rules exercised
  const kinds = new Map<string, number>();
  const KINDS: readonly [string, RegExp][] = [
    ['syntax', /Syntax error/],
    ['overload', /found no matching overload/],
    ['undeclared', /undeclared reference/],
    ['undefined field', /undefined field/],
    ['rule cost', /estimated rule cost exceeds budget/],
    ['total cost', /rule cost total/],
    ['message cost', /estimated messageExpression cost exceeds budget/],
    ['not bool/string', /must evaluate to a (bool|string)/],
    ['program', /instantiation failed/],
    ['optionalOldSelf without oldSelf', /may not be set if oldSelf is not used/],
    ['fieldPath', /must be a valid path/],
    ['reason', /supported values/],
    ['regex literal', /invalid matches argument/],
    ['format literal', /error during formatting/],
  ];
  beforeAll(async () => {
    h = await startHarness(MINOR === DEFAULT_KUBE_VERSION.minor ? {} : { minor: MINOR });
  }, 600_000);
  afterAll(async () => {
    const by = [...kinds].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ');
    console.log(`conformance tally (cel-fuzz 1.${MINOR} seed ${SEED}): ${tally.agreed}/${tally.compared} CRDs agree (server rejected ${tally.rejected}; causes: ${by})`);
    await h?.stop();
  });
  CASES.forEach((c, i) => {
    it(`${i}: ${JSON.stringify(validationOf(c))}`, async () => {
      const r = await compareCreate(h, `fuzz-${i}.yaml`, crdFor(c, i), MINOR, tally);
      for (const c of r.causes) {
        const k = KINDS.find(([, re]) => re.test(c.message))?.[0] ?? 'other';
        kinds.set(k, (kinds.get(k) ?? 0) + 1);
      }
      expect(r.crdx).toEqual(r.server);
    });
  });
});
