/**
 * The replay shared by the CEL library suites (cel-libs, cel-runtime-cost): every library's CRD is
 * installed on a real apiextensions-apiserver, and each of its cases is sent as a dry-run create;
 * crdx must evaluate every rule (no cel-not-evaluated) and give exactly the server's causes. A tally
 * line per library says how many cases agree and how many the server rejected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeVersion } from '../../src/core/kube-version.js';
import { defaultSources } from '../../src/engine/default.js';
import { cel } from '../helpers/cel.js';
import { crdOf, GROUP, objOf, type Lib } from './cel-libs.cases.js';
import { deleteAllCRDs, installCRD, startHarness, type Harness, type StartOptions } from './harness.js';

export interface ReplayOptions {
  /** The suite's name in its tally lines. */
  readonly suite: string;
  readonly libs: readonly Lib[];
  readonly kube: KubeVersion;
  /** How the server is started (its minor). */
  readonly server?: StartOptions;
  /** Put before each library's name in the tally lines. */
  readonly tallyPrefix?: string;
  /** Each case's timeout (vitest's default when absent). */
  readonly caseTimeout?: number;
}

/** Declares, inside the caller's describe, the hooks and one describe per library with its cases. */
export function replayLibraries(o: ReplayOptions): void {
  const tally = new Map<string, { cases: number; agreed: number; failing: number }>();
  let h: Harness;
  const notInstalled = new Map<string, string>();
  beforeAll(async () => {
    h = await startHarness(o.server ?? {});
    await deleteAllCRDs(h);
    for (const l of o.libs) {
      const err = await installCRD(h, crdOf(l));
      if (err) notInstalled.set(l.name, err);
    }
  }, 1_800_000);
  afterAll(async () => {
    for (const [lib, t] of tally) console.log(`conformance tally (${o.suite}) ${lib}: ${t.agreed}/${t.cases} cases agree (${t.failing} rejected by the server)`);
    await deleteAllCRDs(h).catch(() => undefined);
    await h?.stop();
  });

  for (const l of o.libs) {
    describe(l.name, () => {
      it('the CRD is accepted by the server', () => {
        expect(notInstalled.get(l.name) ?? '').toBe('');
      });
      for (const [name, spec] of Object.entries(l.cases)) {
        it(
          name,
          async () => {
            // JSON, not YAML: a key like `n` would be YAML 1.1's false
            const crdText = JSON.stringify(crdOf(l));
            const obj = objOf(l, name, spec);
            const run = defaultSources([{ path: `${name}.yaml`, text: JSON.stringify(obj) }], [{ path: 'crd.yaml', text: crdText }], { kubeVersion: o.kube, cel });
            const r = run.objects[0]!;
            expect(r.result.celNotEvaluated, JSON.stringify(r.findings.map((f) => f.message))).toBe(false);
            const res = await h.request('POST', `/apis/${GROUP}/v1/namespaces/default/${l.name}?dryRun=All`, obj);
            const causes = res.status === 422 ? ((res.body?.details?.causes ?? []) as { reason: string; field: string; message: string }[]) : [];
            // every cause as often as it comes (two rules failing with the same message are two causes)
            const theirs = causes.map((c) => `${c.reason} ${c.field}: ${c.message}`).sort();
            const ours = r.findings.filter((f) => f.server).map((f) => `${f.server!.reason} ${f.server!.field}: ${f.server!.message}`).sort();
            const key = `${o.tallyPrefix ?? ''}${l.name}`;
            const t = tally.get(key) ?? { cases: 0, agreed: 0, failing: 0 };
            tally.set(key, t);
            t.cases++;
            if (theirs.length > 0) t.failing++;
            if (JSON.stringify(theirs) === JSON.stringify(ours)) t.agreed++;
            expect(ours, `server: HTTP ${res.status} ${JSON.stringify(res.body?.message ?? '')}`).toEqual(theirs);
          },
          o.caseTimeout,
        );
      }
    });
  }
}
