/**
 * The CEL libraries crdx evaluates (src/schema/cel/), replayed on a real apiextensions-apiserver:
 * for each library a CRD whose rules use it, and objects that pass and fail them, sent as dry-run
 * creates. crdx must evaluate every rule (no cel-not-evaluated) and its causes must be the server's,
 * all of them, exactly (the server's answer is the expectation: nothing here is hand-written).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeVersion } from '../../src/core/kube-version.js';
import { defaultSources } from '../../src/engine/default.js';
import { defaultMinor, deleteAllCRDs, goAvailable, installCRD, startHarness, type Harness } from './harness.js';
import { cel } from '../helpers/cel.js';
import { crdOf, GROUP, LIBS, objOf } from './cel-libs.cases.js';

const HAVE_GO = goAvailable();
// CRDX_CEL_LIBS_MINOR=36 replays the same cases on the 1.36 server (crdx simulating 1.36)
const MINOR = Number(process.env['CRDX_CEL_LIBS_MINOR'] ?? defaultMinor());
const KUBE: KubeVersion = { major: 1, minor: MINOR };

const tally = new Map<string, { cases: number; agreed: number; failing: number }>();

describe.skipIf(!HAVE_GO)('CEL libraries agree with a real apiextensions-apiserver', () => {
  let h: Harness;
  const notInstalled = new Map<string, string>();
  beforeAll(async () => {
    h = await startHarness(MINOR === defaultMinor() ? {} : { minor: MINOR });
    await deleteAllCRDs(h);
    for (const l of LIBS) {
      const err = await installCRD(h, crdOf(l));
      if (err) notInstalled.set(l.name, err);
    }
  }, 1_800_000);
  afterAll(async () => {
    for (const [lib, t] of tally) console.log(`conformance tally (cel-libs, 1.${MINOR}) ${lib}: ${t.agreed}/${t.cases} cases agree (${t.failing} rejected by the server)`);
    await deleteAllCRDs(h).catch(() => undefined);
    await h?.stop();
  });

  for (const l of LIBS) {
    describe(l.name, () => {
      it('the CRD is accepted by the server', () => {
        expect(notInstalled.get(l.name) ?? '').toBe('');
      });
      for (const [name, spec] of Object.entries(l.cases)) {
        it(name, async () => {
          // JSON, not YAML: a key like `n` would be YAML 1.1's false
          const crdText = JSON.stringify(crdOf(l));
          const obj = objOf(l, name, spec);
          const run = defaultSources([{ path: `${name}.yaml`, text: JSON.stringify(obj) }], [{ path: 'crd.yaml', text: crdText }], { kubeVersion: KUBE, cel });
          const o = run.objects[0]!;
          expect(o.result.celNotEvaluated, JSON.stringify(o.findings.map((f) => f.message))).toBe(false);
          const res = await h.request('POST', `/apis/${GROUP}/v1/namespaces/default/${l.name}?dryRun=All`, obj);
          const causes = res.status === 422 ? ((res.body?.details?.causes ?? []) as { reason: string; field: string; message: string }[]) : [];
          const theirs = [...new Set(causes.map((c) => `${c.reason} ${c.field}: ${c.message}`))].sort();
          const ours = [...new Set(o.findings.filter((f) => f.server).map((f) => `${f.server!.reason} ${f.server!.field}: ${f.server!.message}`))].sort();
          const t = tally.get(l.name) ?? { cases: 0, agreed: 0, failing: 0 };
          tally.set(l.name, t);
          t.cases++;
          if (theirs.length > 0) t.failing++;
          if (JSON.stringify(theirs) === JSON.stringify(ours)) t.agreed++;
          expect(ours, `server: HTTP ${res.status} ${JSON.stringify(res.body?.message ?? '')}`).toEqual(theirs);
        });
      }
    });
  }
});
