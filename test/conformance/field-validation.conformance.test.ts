/**
 * Field validation (kubectl's --validate, the request's fieldValidation) against a real
 * apiextensions-apiserver, in the three modes Strict, Warn and Ignore:
 *  - CRDs: the crd-decode and crd-warnings fixtures, and every corpus CRD with unknown fields put
 *    in (a version, the names, the schema root and a property schema), POSTed with dryRun as kubectl
 *    sends them (JSON, keys in Go's sorted order); lint's verdict, its 400 message
 *    (`response.message`, exactly) and its warnings (the findings are in input order) must be the server's;
 *  - custom resources: the default golden cases, the custom-resource rule fixtures and every corpus
 *    sample with unknown fields put in (root, root metadata, spec), POSTed with dryRun; the
 *    simulated create's status, 400 message, 422 causes, warnings (in order) and stored object
 *    must be the server's;
 *  - the real kubectl (KUBECTL or /usr/bin/kubectl) with --validate=strict|warn|ignore sends what
 *    crdx assumes: its 400 text ends with crdx's message, its warnings are crdx's.
 * Duplicate keys never reach the server through kubectl (it keeps the last value: see
 * bad-input.conformance.test.ts), so they are not a field-validation case here.
 */
import { decodeCases } from '../helpers/decode-cases.js';
import { execa } from 'execa';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FieldValidation } from '../../src/core/field-validation.js';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { isRecord, type Finding } from '../../src/core/types.js';
import { buildCrd, isCrdManifest, type Crd } from '../../src/crd/model.js';
import { toCause } from '../../src/core/field-error.js';
import { wireValue } from '../../src/cr/wire.js';
import { defaultSources, type DefaultedObject } from '../../src/engine/default.js';
import { lintSources } from '../../src/engine/lint.js';
import { parseFile, type SourceFile } from '../../src/manifest/parse.js';
import { yamlFiles } from '../helpers/files.js';
import { corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';
import { CRD_API, deleteAllCRDs, goAvailable, installCRD, startHarness, type Harness, type Response } from './harness.js';
import { CEL_RUNTIME, celMessages, normalizeServer, resourcePath, sortKeys } from './common.js';
import { cel } from '../helpers/cel.js';

const ROOT = join(import.meta.dirname, '..', '..');
const HAVE_GO = goAvailable();
const KUBE = DEFAULT_KUBE_VERSION;
const MODES: readonly FieldValidation[] = ['Strict', 'Warn', 'Ignore'];
const KUBECTL = process.env['KUBECTL'] ?? '/usr/bin/kubectl';
const HAVE_KUBECTL = existsSync(KUBECTL);

type Obj = Record<string, unknown>;

const tally: Record<string, { compared: number; agreed: number }> = {};
function count(kind: string, agreed: boolean): void {
  const t = (tally[kind] ??= { compared: 0, agreed: 0 });
  t.compared++;
  if (agreed) t.agreed++;
}

function read(p: string): SourceFile {
  return { path: p.slice(ROOT.length + 1), text: readFileSync(p, 'utf8') };
}

// ---------------------------------------------------------------------------------------------
// CRDs
// ---------------------------------------------------------------------------------------------

/** A corpus CRD with unknown fields put in where the v1 types have none. */
function withUnknownCrdFields(crd: Obj): Obj {
  const c = structuredClone(crd);
  const spec = c['spec'] as Obj;
  (spec['names'] as Obj)['pluralz'] = 'x';
  const versions = spec['versions'] as Obj[];
  const v0 = versions[0]!;
  v0['storge'] = true;
  const schema = isRecord(v0['schema']) ? (v0['schema'] as Obj)['openAPIV3Schema'] : undefined;
  if (isRecord(schema)) {
    schema['readOnly'] = true;
    const props = schema['properties'];
    if (isRecord(props)) {
      const first = Object.keys(props).sort()[0];
      if (first !== undefined && isRecord(props[first])) (props[first] as Obj)['examples'] = ['e'];
    }
  }
  return c;
}

interface CrdCase {
  readonly name: string;
  readonly text: string;
}

function crdCases(): CrdCase[] {
  const out: CrdCase[] = [];
  for (const id of ['crd-decode', 'crd-warnings'])
    for (const p of yamlFiles(join(ROOT, 'fixtures', 'rules', id))) out.push({ name: p.slice(ROOT.length + 1), text: readFileSync(p, 'utf8') });
  // versions whose fields differ only by unknown fields are hoisted once those are dropped
  const shared = join(ROOT, 'fixtures', 'rules', 'selectable-fields', 'valid', 'shared-after-unknown-fields-drop.yaml');
  out.push({ name: shared.slice(ROOT.length + 1), text: readFileSync(shared, 'utf8') });
  // type errors in the decoder's words, and what items and the like drop without a word
  for (const c of decodeCases) out.push({ name: `decode: ${c.name}`, text: c.text });
  for (const f of corpusFiles('crds'))
    for (const d of parseFile({ path: f.path, text: f.text }))
      for (const m of d.manifests)
        if (isCrdManifest(m) && m.value['apiVersion'] === 'apiextensions.k8s.io/v1')
          out.push({ name: `corpus ${f.project}/${String((m.value['metadata'] as Obj)?.['name'])}`, text: JSON.stringify(withUnknownCrdFields(m.value)) });
  return out;
}

const causeKey = (reason: string, field: string): string => `${reason} ${field}`;

function compareCrd(res: Response, findings: readonly Finding[]): { agreed: boolean; why: string } {
  const errors = findings.filter((f) => f.severity === 'error');
  const ourWarnings = findings.filter((f) => f.ruleId === 'crd-warnings').map((f) => f.message).sort();
  const theirWarnings = res.warnings.filter((w) => w.startsWith('unknown field "')).sort();
  const why = `server: HTTP ${res.status} ${JSON.stringify(res.body?.message ?? '')} warnings ${JSON.stringify(res.warnings)}\nlint: ${JSON.stringify(
    findings.map((f) => `${f.severity} ${f.ruleId}: ${f.message}${f.response ? ` [${f.response.code} ${f.response.message}]` : ''}`),
  )}`;
  if (res.status === 400) {
    const decode = errors.filter((f) => f.ruleId === 'crd-decode');
    const responses = [...new Set(decode.map((f) => f.response?.message).filter((m) => m !== undefined))];
    // type errors and strict unknown fields alike: the server's one answer, exactly
    const agreed = decode.length > 0 && responses.length === 1 && responses[0] === res.body?.message;
    return { agreed, why };
  }
  if (res.status === 422) {
    const theirs = [...new Set(((res.body?.details?.causes ?? []) as { reason: string; field: string }[]).map((x) => causeKey(x.reason, x.field)))].sort();
    const ours = [...new Set(findings.filter((f) => f.server).map((f) => causeKey(f.server!.reason, f.server!.field)))].sort();
    return { agreed: JSON.stringify(theirs) === JSON.stringify(ours) && JSON.stringify(ourWarnings) === JSON.stringify(theirWarnings), why };
  }
  if (res.status === 201 || res.status === 200) return { agreed: errors.length === 0 && JSON.stringify(ourWarnings) === JSON.stringify(theirWarnings), why };
  return { agreed: false, why };
}

// ---------------------------------------------------------------------------------------------
// custom resources
// ---------------------------------------------------------------------------------------------

interface CrCase {
  readonly name: string;
  readonly kind: 'fixture' | 'corpus';
  readonly files: readonly SourceFile[];
  readonly crdFiles: readonly SourceFile[];
  readonly crds: readonly Crd[];
}

/** A corpus sample with unknown fields put in at the root, in root metadata and in spec. */
function withUnknownObjectFields(text: string): string {
  const docs = parseFile({ path: 'sample.yaml', text }).flatMap((d) => d.manifests);
  return docs
    .map((m) => {
      const o = structuredClone(m.value);
      if (!isCrdManifest(m)) {
        o['crdxUnknownTop'] = 1;
        if (isRecord(o['metadata'])) (o['metadata'] as Obj)['crdxUnknownMeta'] = 'x';
        if (isRecord(o['spec'])) (o['spec'] as Obj)['crdxUnknownSpec'] = { a: 1 };
      }
      return JSON.stringify(o);
    })
    .join('\n---\n');
}

function crCases(): CrCase[] {
  const out: CrCase[] = [];
  const sim = join(ROOT, 'fixtures', 'simulate');
  for (const d of existsSync(sim) ? readdirSync(sim).sort() : [])
    out.push({ kind: 'fixture', name: `simulate/${d}`, files: [read(join(sim, d, 'input.yaml'))], crdFiles: [read(join(sim, d, 'crd.yaml'))], crds: [] });
  for (const id of ['custom-resource', 'custom-resource-warnings'])
    for (const p of yamlFiles(join(ROOT, 'fixtures', 'rules', id))) out.push({ kind: 'fixture', name: p.slice(ROOT.length + 1), files: [read(p)], crdFiles: [], crds: [] });
  if (HAVE_CORPUS) {
    const corpusCrds = corpusFiles('crds').flatMap((f) => parseFile(f).flatMap((d) => d.manifests)).filter(isCrdManifest).map((m) => buildCrd(m, KUBE, cel));
    for (const f of corpusFiles('samples'))
      out.push({ kind: 'corpus', name: `${f.project}/${f.path.split('/').pop()}`, files: [{ path: f.path, text: withUnknownObjectFields(f.text) }], crdFiles: [], crds: corpusCrds });
  }
  return out;
}




/** The simulated create of one object against the server's answer to the same request. */
function compareCr(o: DefaultedObject, res: Response, crds: readonly Crd[], input: Obj): { agreed: boolean; why: string } {
  const r = o.result;
  const ourWarnings = r.warnings.map((w) => w.text);
  const why = `server: HTTP ${res.status} ${JSON.stringify(res.body?.details?.causes ?? res.body?.message ?? '')} warnings ${JSON.stringify(res.warnings)}\nours: ${JSON.stringify({
    decode: r.decodeError?.message,
    strict: r.strictError?.message,
    errors: r.errors.map((e) => `${e.field}: ${e.detail}`),
    warnings: ourWarnings,
  })}`;
  const sameWarnings = JSON.stringify(ourWarnings) === JSON.stringify(res.warnings);
  if (res.status === 400) {
    const ours = r.decodeError?.message ?? r.strictError?.message;
    return { agreed: ours === res.body?.message && sameWarnings, why };
  }
  if (r.decodeError || r.strictError) return { agreed: false, why };
  if (res.status === 422) {
    const cel = celMessages(...crds);
    const isCel = (x: { message: string }) => CEL_RUNTIME.test(x.message) || cel.some((m) => x.message.endsWith(m));
    const causes = (res.body?.details?.causes ?? []) as { reason: string; field: string; message: string }[];
    const theirs = [...new Set(causes.filter((x) => !(r.celNotEvaluated && isCel(x))).map((x) => `${x.reason} ${x.field}: ${x.message}`))].sort();
    const ours = [...new Set(r.errors.map((e) => toCause(e)).map((c) => `${c.reason} ${c.field}: ${c.message}`))].sort();
    return { agreed: JSON.stringify(theirs) === JSON.stringify(ours) && sameWarnings, why };
  }
  if (res.status !== 201) return { agreed: false, why };
  const value = r.value !== undefined && JSON.stringify(sortKeys(r.value)) === JSON.stringify(sortKeys(normalizeServer(res.body as Obj, input)));
  return { agreed: value && r.errors.length === 0 && sameWarnings, why };
}

describe.skipIf(!HAVE_GO)('field validation (Strict, Warn, Ignore) agrees with a real apiextensions-apiserver', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 1_800_000);
  afterAll(async () => {
    console.log(
      `conformance tally (field validation): ${Object.entries(tally)
        .map(([k, t]) => `${k} ${t.agreed}/${t.compared}`)
        .join(', ')}`,
    );
    await h?.stop();
  });

  describe('CRDs', () => {
    for (const c of crdCases()) {
      it(c.name, async () => {
        const file = { path: 'crd.yaml', text: c.text };
        const value = sortKeys(parseFile(file)[0]!.manifests[0]!.value);
        for (const mode of MODES) {
          const res = await h.request('POST', `${CRD_API}?dryRun=All&fieldValidation=${mode}`, value);
          const findings = lintSources([file], { kubeVersion: KUBE, cel, fieldValidation: mode }).findings;
          const { agreed, why } = compareCrd(res, findings);
          count(`crd ${mode}`, agreed);
          expect(agreed, `${mode}\n${why}`).toBe(true);
        }
      });
    }
  });

  describe('custom resources', () => {
    for (const c of crCases()) {
      const runs = new Map(MODES.map((m) => [m, defaultSources(c.files, c.crdFiles, { kubeVersion: KUBE, cel, crds: c.crds, fieldValidation: m })]));
      const warn = runs.get('Warn')!;
      if (warn.objects.length === 0) continue;
      const needed = [...new Set(warn.objects.map((o) => o.result.served.crd))];
      describe(`${c.kind}: ${c.name}`, () => {
        let ready = true;
        beforeAll(async () => {
          await deleteAllCRDs(h);
          for (const crd of needed) if (await installCRD(h, crd.manifest.value)) ready = false;
        }, 300_000);
        afterAll(async () => {
          await deleteAllCRDs(h);
        }, 120_000);
        warn.objects.forEach((w, i) => {
          it(`#${i} ${w.manifest.kind}/${w.manifest.name ?? '(generated)'}`, async (ctx) => {
            if (!ready) ctx.skip();
            const input = wireValue(w.manifest);
            for (const mode of MODES) {
              const o = runs.get(mode)!.objects[i]!;
              const res = await h.request('POST', `${resourcePath(o)}?dryRun=All&fieldValidation=${mode}`, input);
              const { agreed, why } = compareCr(o, res, needed, input);
              count(`${c.kind} ${mode}${o.result.unknownFields.length > 0 ? ' (unknown fields)' : ''}`, agreed);
              expect(agreed, `${mode}\n${why}`).toBe(true);
            }
          });
        });
      });
    }
  });

  describe.skipIf(!HAVE_KUBECTL)('the real kubectl sends what crdx assumes', () => {
    const kubectl = (args: string[], input: string) => execa(KUBECTL, ['--kubeconfig', h.kubeconfig, ...args, '-f', '-'], { input, reject: false });
    const dir = join(ROOT, 'fixtures', 'simulate', 'reject-strict-unknown-fields');
    const crdText = readFileSync(join(dir, 'crd.yaml'), 'utf8');
    const objText = readFileSync(join(dir, 'input.yaml'), 'utf8');
    beforeAll(async () => {
      await deleteAllCRDs(h);
      expect(await installCRD(h, parseFile({ path: 'crd.yaml', text: crdText })[0]!.manifests[0]!.value)).toBeUndefined();
    }, 300_000);
    afterAll(async () => {
      await deleteAllCRDs(h);
    }, 120_000);
    for (const [flag, mode] of [
      [[], 'Strict'],
      [['--validate=strict'], 'Strict'],
      [['--validate=true'], 'Strict'],
      [['--validate=warn'], 'Warn'],
      [['--validate=ignore'], 'Ignore'],
      [['--validate=false'], 'Ignore'],
    ] as const) {
      it(`kubectl create --dry-run=server ${flag.join(' ') || '(no --validate)'}: ${mode}`, async () => {
        const r = await kubectl(['create', '--dry-run=server', ...flag], objText);
        const run = defaultSources([{ path: 'input.yaml', text: objText }], [{ path: 'crd.yaml', text: crdText }], { kubeVersion: KUBE, cel, fieldValidation: mode });
        const res = run.objects[0]!.result;
        const warnings = r.stderr.split('\n').filter((l) => l.startsWith('Warning: ')).map((l) => l.slice('Warning: '.length));
        expect(warnings).toEqual(res.warnings.map((w) => w.text));
        if (mode === 'Strict') {
          expect(r.exitCode).toBe(1);
          expect(r.stderr.trim().endsWith(res.strictError!.message)).toBe(true);
        } else {
          expect(r.exitCode, r.stderr).toBe(0);
          expect(res.strictError).toBeUndefined();
        }
        count(`kubectl ${mode}`, true);
      });
    }
    it('kubectl create --dry-run=server of a CRD with unknown fields, per --validate', async () => {
      const text = readFileSync(join(ROOT, 'fixtures', 'rules', 'crd-warnings', 'invalid', 'unknown-fields.yaml'), 'utf8');
      for (const [flag, mode] of [
        ['--validate=strict', 'Strict'],
        ['--validate=warn', 'Warn'],
        ['--validate=ignore', 'Ignore'],
      ] as const) {
        const r = await kubectl(['create', '--dry-run=server', flag], text);
        const findings = lintSources([{ path: 'crd.yaml', text }], { kubeVersion: KUBE, cel, fieldValidation: mode }).findings;
        const warnings = r.stderr.split('\n').filter((l) => l.startsWith('Warning: unknown field')).map((l) => l.slice('Warning: '.length));
        expect(warnings.sort(), r.stderr).toEqual(findings.filter((f) => f.ruleId === 'crd-warnings').map((f) => f.message).sort());
        const response = findings.find((f) => f.response)?.response;
        if (mode === 'Strict') expect(r.stderr.trim().endsWith(response!.message), r.stderr).toBe(true);
        else expect(r.exitCode, r.stderr).toBe(0);
        count(`kubectl crd ${mode}`, true);
      }
    });
  });
});
