/**
 * Differential conformance of `default` (and of lint's custom-resource rules): every custom
 * resource of the golden fixtures (fixtures/simulate), of the rule fixtures (fixtures/rules/custom-resource*)
 * and of the corpus samples is sent to a real apiextensions-apiserver as a dry-run create, after
 * its CRDs were really created and Established. Compared:
 *  - the verdict: 201 / 422 / 400 against accepted / errors / decode error;
 *  - 201: the returned object, minus what the server generates (uid, resourceVersion,
 *    creationTimestamp, generation, managedFields; the namespace and generated name when the input
 *    had none), against `default`'s output;
 *  - 422: the set of (reason, field) causes against lint's;
 *  - the unknown-field warnings, in order (from a fieldValidation=Strict request);
 *  - an object of a CRD crdx says the server refuses or never serves (unmatched, crd-rejected): the
 *    case's CRDs are created in order, whatever the answers, and the object gets 404 (no resource).
 * CEL causes are compared when crdx evaluated every rule of the object (celNotEvaluated false); else counted, not compared.
 * CRDX_EXTRA_SAMPLES=DIR (with CRDX_EXTRA_CRDS=DIR) adds custom resources from outside the corpus.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { buildCrd, isCrdManifest, type Crd } from '../../src/crd/model.js';
import { wireValue } from '../../src/cr/wire.js';
import { defaultSources } from '../../src/engine/default.js';
import { parseFile, type Manifest, type SourceFile } from '../../src/manifest/parse.js';
import { yamlFiles } from '../helpers/files.js';
import { corpusFiles, extraCrdFiles, extraSampleFiles, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';
import { createCRD, deleteAllCRDs, goAvailable, installCRD, startHarness, waitForCondition, type Harness } from './harness.js';
import { splitApiVersion } from '../../src/cr/catalog.js';
import { isRecord } from '../../src/core/types.js';
import { CEL_RUNTIME, celMessages, normalizeServer, resourcePath, sortKeys } from './common.js';
import { cel } from '../helpers/cel.js';

const ROOT = join(import.meta.dirname, '..', '..');
const HAVE_GO = goAvailable();
if (!HAVE_CORPUS) console.warn(NO_CORPUS_REASON);
const KUBE = DEFAULT_KUBE_VERSION;

type Obj = Record<string, unknown>;

interface Case {
  readonly kind: 'fixture' | 'corpus' | 'extra';
  readonly name: string;
  readonly files: readonly SourceFile[];
  readonly crdFiles: readonly SourceFile[];
  readonly crds: readonly Crd[];
}

function read(p: string): SourceFile {
  return { path: p.slice(ROOT.length + 1), text: readFileSync(p, 'utf8') };
}

function collectCases(): Case[] {
  const cases: Case[] = [];
  const sim = join(ROOT, 'fixtures', 'simulate');
  for (const d of existsSync(sim) ? readdirSync(sim).sort() : [])
    cases.push({ kind: 'fixture', name: `simulate/${d}`, files: [read(join(sim, d, 'input.yaml'))], crdFiles: [read(join(sim, d, 'crd.yaml'))], crds: [] });
  for (const id of ['custom-resource', 'custom-resource-warnings'])
    for (const p of yamlFiles(join(ROOT, 'fixtures', 'rules', id))) cases.push({ kind: 'fixture', name: p.slice(ROOT.length + 1), files: [read(p)], crdFiles: [], crds: [] });
  if (HAVE_CORPUS) {
    const corpusCrds = corpusFiles('crds').flatMap((f) => parseFile(f).flatMap((d) => d.manifests)).filter(isCrdManifest).map((m) => buildCrd(m, KUBE, cel));
    for (const f of corpusFiles('samples')) cases.push({ kind: 'corpus', name: `${f.project}/${f.path.split('/').pop()}`, files: [{ path: f.path, text: f.text }], crdFiles: [], crds: corpusCrds });
    // CRDX_EXTRA_SAMPLES / CRDX_EXTRA_CRDS: custom resources and CRDs from outside the corpus
    const extra = extraSampleFiles();
    if (extra.length > 0) {
      const extraCrds = [...extraCrdFiles().flatMap((f) => parseFile(f).flatMap((d) => d.manifests)).filter(isCrdManifest).map((m) => buildCrd(m, KUBE, cel)), ...corpusCrds];
      for (const f of extra) cases.push({ kind: 'extra', name: `${f.project}/${f.path.split('/').pop()}`, files: [{ path: f.path, text: f.text }], crdFiles: [], crds: extraCrds });
    }
  }
  return cases;
}

const tally: Record<string, { compared: number; agreed: number; celGap: number }> = {};
const skipped: string[] = [];
/** CEL-caused causes of the server compared with crdx's (objects whose rules crdx evaluated fully). */
const celTally = { compared: 0, agreed: 0 };
function count(kind: string, agreed: boolean, celGap = false): void {
  const t = (tally[kind] ??= { compared: 0, agreed: 0, celGap: 0 });
  t.compared++;
  if (agreed) t.agreed++;
  if (celGap) t.celGap++;
}

describe.skipIf(!HAVE_GO)('default agrees with a real apiextensions-apiserver (dry-run create)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 1_800_000);
  afterAll(async () => {
    const t = Object.entries(tally).map(([k, v]) => `${k} ${v.agreed}/${v.compared}${v.celGap ? ` (${v.celGap} with CEL-only causes, not compared)` : ''}`);
    console.log(`CEL causes compared: ${celTally.agreed}/${celTally.compared} agree`);
    console.log(`conformance tally (default): ${t.join(', ')}; skipped: ${skipped.length}${skipped.length ? `\n  ${skipped.join('\n  ')}` : ''}`);
    await h?.stop();
  });

  /** The case's CRDs created in order (whatever the server answers), then each object: 404, no such resource. */
  function refusedCrdCase(c: Case, objects: readonly Manifest[]): void {
    const crds = [...c.crdFiles, ...c.files].flatMap((f) => parseFile(f).flatMap((d) => d.manifests)).filter(isCrdManifest).map((m) => m.value);
    describe(`${c.kind}: ${c.name}, objects of CRDs the server refuses or does not serve`, () => {
      beforeAll(async () => {
        await deleteAllCRDs(h);
        for (const crd of crds) {
          const r = await createCRD(h, crd);
          // a created CRD: once the naming controller has decided on its names
          if (r.status === 201) await waitForCondition(h, String(r.body.metadata.name), 'NamesAccepted', (x) => x !== undefined, 60_000);
        }
      }, 300_000);
      afterAll(async () => {
        await deleteAllCRDs(h);
      }, 120_000);
      objects.forEach((m, i) => {
        it(`#${i} ${m.kind}/${m.name ?? '(generated)'}: no such resource (404)`, async () => {
          const { group, version } = splitApiVersion(m.apiVersion ?? '');
          const spec = (crds.find((x) => isRecord(x['spec']) && x['spec']['group'] === group && isRecord(x['spec']['names']) && x['spec']['names']['kind'] === m.kind)?.['spec'] ?? {}) as Obj;
          const plural = String((spec['names'] as Obj | undefined)?.['plural'] ?? '');
          const md = isRecord(m.value['metadata']) ? m.value['metadata'] : {};
          const ns = spec['scope'] === 'Cluster' ? '' : `namespaces/${encodeURIComponent(typeof md['namespace'] === 'string' ? md['namespace'] : 'default')}/`;
          const res = await h.request('POST', `/apis/${group}/${version}/${ns}${plural}?dryRun=All`, wireValue(m));
          count(c.kind, res.status === 404);
          expect(res.status, `${m.kind} ${m.name}: ${JSON.stringify(res.body?.message ?? '')}`).toBe(404);
        });
      });
    });
  }

  const only = process.env['CRDX_DEFAULT_ONLY'];
  for (const c of collectCases()) {
    if (only !== undefined && !new RegExp(only).test(c.name)) continue;
    // replayed with fieldValidation=Warn (the three modes: field-validation.conformance.test.ts)
    const run = defaultSources(c.files, c.crdFiles, { kubeVersion: KUBE, cel, crds: c.crds, fieldValidation: 'Warn' });
    for (const u of run.unmatched) if (u.code !== 'crd-rejected') skipped.push(`${c.name}: ${u.manifest.kind} ${u.manifest.name ?? ''}: ${u.message}`);
    // objects of a CRD crdx says the server refuses or never serves: the server finds no such resource
    const refused = run.unmatched.filter((u) => u.code === 'crd-rejected');
    if (refused.length > 0) refusedCrdCase(c, refused.map((u) => u.manifest));
    if (run.objects.length === 0) continue;
    const needed = [...new Set(run.objects.map((o) => o.result.served.crd))];
    describe(`${c.kind}: ${c.name}`, () => {
      let ready = true;
      beforeAll(async () => {
        await deleteAllCRDs(h);
        for (const crd of needed) {
          const problem = await installCRD(h, crd.manifest.value);
          if (problem) {
            ready = false;
            skipped.push(`${c.name}: CRD ${crd.name} ${problem}`);
          }
        }
      }, 300_000);
      afterAll(async () => {
        await deleteAllCRDs(h);
      }, 120_000);

      run.objects.forEach((o, i) => {
        it(`#${i} ${o.manifest.kind}/${o.manifest.name ?? '(generated)'}`, async (ctx) => {
          if (!ready) ctx.skip();
          const input = wireValue(o.manifest);
          const path = resourcePath(o);
          const res = await h.request('POST', `${path}?dryRun=All&fieldValidation=Warn`, input);
          const ours = o.result;
          const ourCauses = [...new Set(o.findings.filter((f) => f.server).map((f) => `${f.server!.reason} ${f.server!.field}: ${f.server!.message}`))].sort();
          const both = `\n--- server: HTTP ${res.status} ${JSON.stringify(res.body?.details?.causes ?? res.body?.message ?? '')}\n--- ours: ${JSON.stringify(o.findings.map((f) => f.message))}`;

          if (res.status === 422) {
            const causes = (res.body?.details?.causes ?? []) as { reason: string; field: string; message: string }[];
            const cel = celMessages(...needed);
            const isCel = (x: { message: string }) => CEL_RUNTIME.test(x.message) || cel.some((m) => x.message.endsWith(m));
            // CEL causes are compared when crdx evaluated every rule of the object
            const isGap = (x: { message: string }) => ours.celNotEvaluated && isCel(x);
            const gap = causes.filter(isGap);
            if (!ours.celNotEvaluated) {
              const celCauses = causes.filter(isCel).map((x) => `${x.reason} ${x.field}: ${x.message}`);
              celTally.compared += celCauses.length;
              celTally.agreed += celCauses.filter((x) => ourCauses.includes(x)).length;
            }
            const theirs = [...new Set(causes.filter((x) => !isGap(x)).map((x) => `${x.reason} ${x.field}: ${x.message}`))].sort();
            const agreed = JSON.stringify(theirs) === JSON.stringify(ourCauses) && (theirs.length > 0 || ours.value !== undefined);
            count(c.kind, agreed, gap.length > 0);
            if (theirs.length === 0 && gap.length > 0) expect(ourCauses, both).toEqual([]);
            else expect(ourCauses, both).toEqual(theirs);
          } else if (res.status === 400) {
            count(c.kind, ours.decodeError !== undefined);
            expect(ours.decodeError?.message, both).toBe(String(res.body?.message ?? ''));
          } else {
            expect(res.status, both).toBe(201);
            const theirsValue = sortKeys(normalizeServer(res.body as Obj, input));
            const agreed =
              ours.value !== undefined && JSON.stringify(sortKeys(ours.value)) === JSON.stringify(theirsValue) && JSON.stringify(ours.warnings.map((w) => w.text)) === JSON.stringify(res.warnings);
            count(c.kind, agreed);
            expect(ours.errors.map((e) => `${e.field}: ${e.detail}`), both).toEqual([]);
            expect(ours.decodeError, both).toBeUndefined();
            expect(sortKeys(ours.value), both).toEqual(theirsValue);
          }
          // the warnings the server sent, in its order (a decode failure sends none of the decode's)
          if (res.status !== 400) expect(ours.warnings.map((w) => w.text), both).toEqual(res.warnings);
        });
      });
    });
  }
});
