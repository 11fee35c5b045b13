/**
 * Differential fuzzing: seeded mutations of real CRDs (fixtures and corpus) go to the real server
 * and through lint; every disagreement on the verdict or on the set of 422 causes fails.
 * CRDX_MUTANTS sets how many (default 300), CRDX_MUTANT_SEED the seed (default 1).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { sortKeys } from '../../src/core/sort-keys.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { lintSources } from '../../src/engine/lint.js';
import { parseFile } from '../../src/manifest/parse.js';
import { corpusFiles } from '../helpers/corpus.js';
import { CRD_API, goAvailable, startHarness, type Harness } from './harness.js';
import { mutate, rng, type Obj } from './mutate.js';
import { cel } from '../helpers/cel.js';

const ROOT = join(import.meta.dirname, '..', '..');
const COUNT = Number(process.env['CRDX_MUTANTS'] ?? 300);
const SEED = Number(process.env['CRDX_MUTANT_SEED'] ?? 1);
/** Causes that come from CEL (compilation, cost, evaluation of defaults). */
const CEL_CAUSE = /compilation failed|rule compile error|estimated rule cost|estimated messageExpression cost|cost total|failed rule|messageExpression compilation|must evaluate to|type information for x-kubernetes-validations|declType for CEL|evaluating rule/;

/** The messages of every x-kubernetes-validations rule of a CRD: a default failing one of them is a CEL evaluation. */
function celMessages(crd: unknown): string[] {
  const out: string[] = [];
  JSON.stringify(crd, (k, v: unknown) => {
    if (k === 'x-kubernetes-validations' && Array.isArray(v))
      for (const r of v) if (r && typeof r === 'object' && typeof (r as Obj)['message'] === 'string' && String((r as Obj)['message']).trim() !== '') out.push(String((r as Obj)['message']).trim());
    return v;
  });
  return out;
}

function seeds(): Obj[] {
  const texts = [readFileSync(join(ROOT, 'fixtures', 'crds', '01-widgets.yaml'), 'utf8')];
  for (const f of corpusFiles('crds')) if (f.text.length < 40_000) texts.push(f.text);
  const out: Obj[] = [];
  for (const text of texts)
    for (const d of parseFile({ path: 'seed.yaml', text })) for (const m of d.manifests) if (m.kind === 'CustomResourceDefinition') out.push(m.value);
  return out;
}

describe.skipIf(!goAvailable())(`mutated CRDs (${COUNT} mutants, seed ${SEED})`, () => {
  let h: Harness;
  let agreed = 0;
  let celGap = 0;
  let panics = 0;
  beforeAll(async () => {
    h = await startHarness();
  }, 1_800_000);
  afterAll(async () => {
    console.log(`conformance tally (mutants): ${agreed}/${COUNT} agree; ${celGap} responses held CEL causes of rules crdx said it could not check (left out); ${panics} requests crashed the server`);
    await h?.stop();
  });
  const base = seeds();
  const r = rng(SEED);
  for (let i = 0; i < COUNT; i++) {
    const seed = base[Math.floor(r() * base.length)]!;
    const { crd, applied } = mutate(seed, r);
    const name = String((crd['metadata'] as Obj)?.['name']);
    it(`#${i} ${name}: ${applied.join(', ')}`, async () => {
      const text = stringify(crd, { version: '1.1', aliasDuplicateObjects: false, lineWidth: 0 });
      const findings = lintSources([{ path: `mutant-${i}.yaml`, text }], { kubeVersion: DEFAULT_KUBE_VERSION, cel }).findings;
      const errors = findings.filter((f) => f.severity === 'error');
      const aborted = findings.filter((f) => f.aborted !== undefined);
      let res: { status: number; body: any };
      try {
        res = await h.request('POST', `${CRD_API}?dryRun=All&fieldValidation=Strict`, sortKeys(crd));
      } catch (e) {
        // The real server panics on some invalid CRDs (e.g. selectableFields next to a schema that
        // is not structural: a nil schema is dereferenced) and drops the connection: not created.
        // crdx must say so (a finding with `aborted`), and say what of the request the server fails on.
        panics++;
        expect(String(e), text).toMatch(/socket hang up|ECONNRESET/);
        expect(aborted.map((f) => f.ruleId), `server dropped the connection (${(e as Error).message}); lint must say so:\n${text}`).not.toEqual([]);
        agreed++;
        return;
      }
      // and only then: an answer where crdx says the server panics is a disagreement
      expect(aborted.map((f) => `${f.ruleId}: ${f.aborted}`), `the server answered HTTP ${res.status}\n${text}`).toEqual([]);
      const causes = (res.body?.details?.causes ?? []) as { reason: string; field: string; message: string }[];
      // CEL causes are compared like any other. Only where crdx said it could not check a rule (a
      // cel-not-evaluated warning: never a silent pass) are the server's CEL causes left out, and counted.
      const celMsgs = celMessages(crd);
      const unchecked = findings.some((f) => f.ruleId === 'cel-not-evaluated');
      const isGap = (c: { message: string; field: string }) =>
        unchecked && (CEL_CAUSE.test(c.message) || (/\.default(\.|\[|$)/.test(c.field) && celMsgs.some((m) => c.message.endsWith(m))));
      const gap = causes.filter(isGap);
      if (gap.length > 0) celGap++;

      // where the server could not build CEL types for a node, it compiled none of its rules: drop ours there too
      const noCel = gap.filter((c) => c.reason === 'InternalError').map((c) => c.field);
      const ours = [...new Set(findings.filter((f) => f.server && !noCel.some((p) => f.server!.field.startsWith(p))).map((f) => `${f.server!.reason} ${f.server!.field}`))].sort();
      const theirs = [...new Set(causes.filter((c) => !isGap(c) || ours.includes(`${c.reason} ${c.field}`)).map((c) => `${c.reason} ${c.field}`))].sort();
      const both = `\n--- mutant ---\n${text}\n--- server: HTTP ${res.status} ${JSON.stringify(res.body?.details?.causes ?? res.body?.message ?? '')}\n--- lint: ${JSON.stringify(errors.map((f) => (f.server ? `${f.server.reason} ${f.server.field}: ${f.server.message}` : `${f.ruleId}: ${f.message}`)))}`;
      if (res.status === 422 && gap.length > 0 && theirs.length === 0) expect(errors.filter((f) => f.server), both).toEqual([]);
      else if (res.status === 422) expect(ours, both).toEqual(theirs);
      else if (res.status === 400) expect([...new Set(errors.filter((f) => f.ruleId === 'crd-decode').map((f) => f.response?.message))], both).toEqual([res.body?.message]);
      else expect(errors.map((f) => f.message), both).toEqual([]);
      agreed++;
    });
  }
});
