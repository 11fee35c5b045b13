/**
 * CEL evaluation (src/schema/cel-eval.ts) against a real apiextensions-apiserver: the corpus
 * samples whose CRDs have x-kubernetes-validations are mutated (a field removed, a string emptied or
 * changed, a number changed, a boolean flipped, a list emptied), and every mutant whose CEL rules
 * crdx evaluated fully (celNotEvaluated false) is sent as a dry-run create (fieldValidation=Warn, as
 * crdx checks it: an unknown field is dropped, not a 400). The causes that come
 * from CEL rules (a rule's message or "failed rule: ...", and "some validation rules were not
 * checked") must be the server's, exactly; causes from elsewhere are the business of
 * default.conformance.test.ts. CRDX_EXTRA_CRDS=DIR and CRDX_EXTRA_SAMPLES=DIR add CRDs and custom
 * resources from outside the corpus (other projects' install manifests and examples).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { isRecord } from '../../src/core/types.js';
import { buildCrd, isCrdManifest, type Crd } from '../../src/crd/model.js';
import { wireValue } from '../../src/cr/wire.js';
import { defaultSources, type DefaultedObject } from '../../src/engine/default.js';
import { parseFile } from '../../src/manifest/parse.js';
import { corpusFiles, extraCrdFiles, extraSampleFiles, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';
import { deleteAllCRDs, goAvailable, installCRD, startHarness, type Harness } from './harness.js';
import { celMessages } from './common.js';
import { cel } from '../helpers/cel.js';

const HAVE_GO = goAvailable();
const KUBE = DEFAULT_KUBE_VERSION;
/** At most this many mutants per sample object (the first ones whose rules crdx evaluated fully). */
const PER_OBJECT = 40;

type Obj = Record<string, unknown>;


/** Every mutation of one value: the path and the new value (undefined: removed). */
function* mutations(v: unknown, path: (string | number)[] = []): Generator<[(string | number)[], unknown]> {
  if (Array.isArray(v)) {
    if (v.length > 0) yield [path, []];
    for (let i = 0; i < v.length && i < 3; i++) yield* mutations(v[i], [...path, i]);
  } else if (isRecord(v)) {
    for (const [k, x] of Object.entries(v)) {
      yield [[...path, k], undefined];
      yield* mutations(x, [...path, k]);
    }
  } else if (typeof v === 'string') {
    yield [path, ''];
    yield [path, `${v}X`];
  } else if (typeof v === 'number') {
    yield [path, 0];
    yield [path, v + 1];
    yield [path, -1];
  } else if (typeof v === 'boolean') yield [path, !v];
}

function apply(o: Obj, path: (string | number)[], nv: unknown): Obj {
  const c = structuredClone(o);
  let cur: any = c;
  for (const p of path.slice(0, -1)) cur = cur[p];
  const last = path[path.length - 1]!;
  if (nv === undefined) {
    if (Array.isArray(cur)) cur.splice(Number(last), 1);
    else delete cur[last];
  } else cur[last] = nv;
  return c;
}

interface Mutant {
  readonly name: string;
  readonly obj: DefaultedObject;
}

function collect(): { crd: Crd; mutants: Mutant[] }[] {
  if (!HAVE_CORPUS) return [];
  const crds = [...extraCrdFiles(), ...corpusFiles('crds')].flatMap((f) => parseFile(f).flatMap((d) => d.manifests)).filter(isCrdManifest).map((m) => buildCrd(m, KUBE, cel));
  const byCrd = new Map<Crd, Mutant[]>();
  for (const f of [...extraSampleFiles(), ...corpusFiles('samples')]) {
    const run = defaultSources([{ path: f.path, text: f.text }], [], { kubeVersion: KUBE, cel, crds, fieldValidation: 'Warn' });
    for (const o of run.objects) {
      if (!o.result.served.hasCel) continue;
      const crd = o.result.served.crd;
      const list = byCrd.get(crd) ?? [];
      byCrd.set(crd, list);
      const base = wireValue(o.manifest) as Obj;
      let n = 0;
      for (const [path, nv] of mutations(base)) {
        if (n >= PER_OBJECT) break;
        if (path[0] === 'metadata' || path[0] === 'apiVersion' || path[0] === 'kind' || path.length === 0) continue;
        const m = apply(base, path, nv);
        const r = defaultSources([{ path: f.path, text: JSON.stringify(m) }], [], { kubeVersion: KUBE, cel, crds, fieldValidation: 'Warn' }).objects[0];
        if (!r || r.result.celNotEvaluated || r.result.decodeError) continue;
        n++;
        list.push({ name: `${f.project}/${f.path.split('/').pop()} ${o.manifest.kind}/${o.manifest.name ?? ''} ${path.join('.')}=${nv === undefined ? '(removed)' : JSON.stringify(nv)}`, obj: r });
      }
    }
  }
  return [...byCrd.entries()].filter(([, m]) => m.length > 0).map(([crd, mutants]) => ({ crd, mutants }));
}

const tally = { mutants: 0, agreed: 0, celCauses: 0, celAgreed: 0 };

describe.skipIf(!HAVE_GO || !HAVE_CORPUS)('CEL evaluation agrees with a real apiextensions-apiserver (dry-run create of corpus mutants)', () => {
  if (!HAVE_CORPUS) console.warn(NO_CORPUS_REASON);
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 1_800_000);
  afterAll(async () => {
    console.log(`conformance tally (cel): ${tally.agreed}/${tally.mutants} mutants agree on their CEL causes; server CEL causes matched: ${tally.celAgreed}/${tally.celCauses}`);
    await h?.stop();
  });

  for (const { crd, mutants } of collect()) {
    describe(crd.name, () => {
      let ready = true;
      beforeAll(async () => {
        await deleteAllCRDs(h);
        if (await installCRD(h, crd.manifest.value)) ready = false;
      }, 300_000);
      afterAll(async () => {
        await deleteAllCRDs(h);
      }, 120_000);
      const cel = celMessages(crd);
      const isCel = (m: string) => /failed rule: |some validation rules were not checked/.test(m) || cel.some((x) => m.endsWith(x));
      for (const m of mutants) {
        it(m.name, async (ctx) => {
          if (!ready) ctx.skip();
          const o = m.obj;
          const sv = o.result.served;
          const md = isRecord(o.manifest.value['metadata']) ? o.manifest.value['metadata'] : {};
          const ns = typeof md['namespace'] === 'string' && md['namespace'] !== '' ? md['namespace'] : 'default';
          const path = `/apis/${sv.group}/${sv.version.name}/${sv.namespaced ? `namespaces/${encodeURIComponent(ns)}/` : ''}${sv.crd.names.plural}?dryRun=All&fieldValidation=Warn`;
          const res = await h.request('POST', path, wireValue(o.manifest));
          const causes = res.status === 422 ? ((res.body?.details?.causes ?? []) as { reason: string; field: string; message: string }[]) : [];
          const theirs = [...new Set(causes.filter((c) => isCel(c.message)).map((c) => `${c.reason} ${c.field}: ${c.message}`))].sort();
          const ours = [...new Set(o.findings.filter((f) => f.server && isCel(f.server.message)).map((f) => `${f.server!.reason} ${f.server!.field}: ${f.server!.message}`))].sort();
          tally.mutants++;
          tally.celCauses += theirs.length;
          tally.celAgreed += theirs.filter((t) => ours.includes(t)).length;
          if (JSON.stringify(theirs) === JSON.stringify(ours)) tally.agreed++;
          expect(ours, `server: HTTP ${res.status} ${JSON.stringify(causes)}`).toEqual(theirs);
        });
      }
    });
  }
});
