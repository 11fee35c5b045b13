/**
 * Differential conformance of `lint --old` (CRD updates): the OLD CRDs are really created on a real
 * apiextensions-apiserver (and left to become Established, or not when their names conflict), then
 * each NEW CRD is PUT with dryRun=All, fieldValidation=Strict and the current resourceVersion.
 * crdx must give the same verdict and exactly the same causes (reason, field, message), and the
 * same warnings, twice: once with OLD as the files were written (storedVersions and Established
 * inferred), once with OLD as the server returns it (`kubectl get crd -o yaml`: status included).
 *
 * Cases: fixtures/update/<case>/{old,new}.yaml, and seeded revisions of every corpus CRD (a version
 * added, the storage version switched, the stored version removed, a field removed or retyped,
 * kind, scope, plural or group changed).
 * CRDX_RECORD=1 writes the server's answer of each fixture to fixtures/update/<case>/server.json
 * (the unit test test/unit/crd-update.test.ts compares crdx with those recordings).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import type { Finding } from '../../src/core/types.js';
import { lintSources } from '../../src/engine/lint.js';
import { parseFile, type SourceFile } from '../../src/manifest/parse.js';
import { cel } from '../helpers/cel.js';
import { corpusFiles, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';
import { causeText, CRD_API, deleteAllCRDs, goAvailable, putCRD, send, startHarness, Tally, waitForCondition, type Harness } from './harness.js';

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURES = join(ROOT, 'fixtures', 'update');
const HAVE_GO = goAvailable();
if (!HAVE_GO) console.warn('crd-update conformance skipped: it needs Go on PATH to build the real apiextensions-apiserver (test/apiserver)');
if (!HAVE_CORPUS) console.warn(NO_CORPUS_REASON);

type Obj = Record<string, any>;

/** One answer: the HTTP status, the causes (sorted "reason field: message") and the warnings. */
interface Verdict {
  /** HTTP status; 0: no answer (the server panics on the request and drops the connection). */
  readonly status: number;
  readonly causes: readonly string[];
  readonly warnings: readonly string[];
}

function crdDocs(text: string, path: string): Obj[] {
  return parseFile({ path, text })
    .flatMap((d) => d.manifests)
    .filter((m) => m.kind === 'CustomResourceDefinition')
    .map((m) => m.value as Obj);
}

/** crdx's verdict on the NEW CRD named `name`, linted against `old`. */
function crdxVerdict(newFile: SourceFile, old: readonly SourceFile[], name: string): Verdict {
  const r = lintSources([newFile], { kubeVersion: DEFAULT_KUBE_VERSION, cel, old });
  const own = r.findings.filter((f: Finding) => f.object?.name === name && f.object?.kind === 'CustomResourceDefinition');
  const u = r.summary.updates?.find((x) => x.name === name);
  const causes = [...new Set(own.filter((f) => f.server).map((f) => causeText(f.server!.reason, f.server!.field, f.server!.message)))].sort();
  const warnings = own.filter((f) => f.ruleId === 'unrecognized-format' || f.ruleId === 'crd-warnings').map((f) => f.message.replace(/ \(type "[^"]*"\): the server warns and does not validate it$/, ''));
  // the decoder's refusal is a 400 BadRequest without causes
  const decode = own.some((f) => f.ruleId === 'crd-decode' && f.severity === 'error');
  // the server panics: no status, no causes, no warnings
  if (own.some((f) => f.aborted !== undefined)) return { status: 0, causes: [], warnings: [] };
  const status = decode ? 400 : u === undefined ? -1 : u.accepted ? 200 : 422;
  return { status, causes, warnings: warnings.sort() };
}

function serverVerdict(r: { status: number; body: any; warnings: string[] }): Verdict {
  const causes = ((r.body?.details?.causes ?? []) as { reason: string; field: string; message: string }[]).map((c) => causeText(c.reason, c.field, c.message));
  return { status: r.status, causes: [...new Set(causes)].sort(), warnings: r.status === 200 ? [...r.warnings].sort() : [] };
}

async function createInOrder(h: Harness, olds: readonly Obj[]): Promise<void> {
  for (const o of olds) {
    const r = await send(h, 'POST', CRD_API, o);
    if (r.status !== 201) throw new Error(`OLD ${o['metadata']?.['name']} not created: HTTP ${r.status} ${JSON.stringify(r.body?.message)}`);
    const name = String(o['metadata']['name']);
    const accepted = await waitForCondition(h, name, 'NamesAccepted', (c) => c !== undefined, 30_000);
    // Established, or refused by the establishing controller (an invalid conversion CA bundle)
    if (accepted?.status === 'True') await waitForCondition(h, name, 'Established', (c) => c?.status === 'True' || c?.reason === 'InvalidCABundle', 30_000);
  }
}

/** The installed CRD and the dry-run PUT of its revision; a 409 (a controller wrote its status in between) is retried. */
async function putDryRun(h: Harness, next: Obj): Promise<{ installed: Obj; verdict: Verdict }> {
  const { installed, response } = await putCRD(h, next, '?dryRun=All&fieldValidation=Strict');
  return { installed, verdict: serverVerdict(response) };
}

const tally = new Tally();

/** A seeded revision of an installed CRD: undefined when it does not apply to that CRD. */
type Mutation = (crd: Obj) => Obj | undefined;

const clone = (o: Obj): Obj => structuredClone(o);
function freshVersion(crd: Obj): string {
  const names = new Set((crd['spec']['versions'] as Obj[]).map((v) => v['name']));
  for (let i = 90; ; i++) if (!names.has(`v${i}`)) return `v${i}`;
}
function storageOf(crd: Obj): Obj {
  return (crd['spec']['versions'] as Obj[]).find((v) => v['storage'] === true)!;
}
/** The first property of the storage version's spec schema (or of the root). */
function someProperty(crd: Obj): { parent: Obj; key: string } | undefined {
  const root = storageOf(crd)['schema']?.['openAPIV3Schema'];
  for (const parent of [root?.['properties']?.['spec']?.['properties'], root?.['properties']]) {
    if (!parent) continue;
    const key = Object.keys(parent).find((k) => !['apiVersion', 'kind', 'metadata', 'status'].includes(k));
    if (key !== undefined) return { parent, key };
  }
  return undefined;
}

const MUTATIONS: Record<string, Mutation> = {
  'version added': (o) => {
    const c = clone(o);
    c['spec']['versions'].push({ ...clone(storageOf(c)), name: freshVersion(c), storage: false });
    return c;
  },
  'storage switched': (o) => {
    const c = clone(o);
    const v = { ...clone(storageOf(c)), name: freshVersion(c) };
    storageOf(c)['storage'] = false;
    c['spec']['versions'].push(v);
    return c;
  },
  'stored version removed': (o) => {
    const c = clone(o);
    const s = storageOf(c);
    c['spec']['versions'] = (c['spec']['versions'] as Obj[]).filter((v) => v !== s);
    if (c['spec']['versions'].length === 0) c['spec']['versions'].push({ ...s, name: freshVersion(o) });
    else c['spec']['versions'][0]['storage'] = true;
    return c;
  },
  'field removed': (o) => {
    const c = clone(o);
    const p = someProperty(c);
    if (!p) return undefined;
    delete p.parent[p.key];
    return c;
  },
  'field retyped': (o) => {
    const c = clone(o);
    const p = someProperty(c);
    if (!p) return undefined;
    const t = p.parent[p.key]['type'];
    p.parent[p.key] = { ...p.parent[p.key], type: t === 'string' ? 'integer' : 'string' };
    return c;
  },
  'kind changed': (o) => {
    const c = clone(o);
    c['spec']['names']['kind'] = `${c['spec']['names']['kind']}Crdx`;
    if (c['spec']['names']['listKind']) c['spec']['names']['listKind'] = `${c['spec']['names']['kind']}List`;
    return c;
  },
  'scope changed': (o) => {
    const c = clone(o);
    c['spec']['scope'] = c['spec']['scope'] === 'Cluster' ? 'Namespaced' : 'Cluster';
    return c;
  },
  'plural changed': (o) => {
    const c = clone(o);
    c['spec']['names']['plural'] = `${c['spec']['names']['plural']}crdx`;
    return c;
  },
  'group changed': (o) => {
    const c = clone(o);
    c['spec']['group'] = `crdx.${c['spec']['group']}`;
    return c;
  },
};

function fixtureCases(): string[] {
  return existsSync(FIXTURES) ? readdirSync(FIXTURES).filter((d) => existsSync(join(FIXTURES, d, 'new.yaml'))).sort() : [];
}

describe.skipIf(!HAVE_GO)('lint --old agrees with a real apiextensions-apiserver on CRD updates', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  }, 1_800_000);
  afterAll(async () => {
    const line = tally.line('crd update');
    if (line !== undefined) console.log(line);
    await h?.stop();
  });

  for (const name of fixtureCases()) {
    it(`fixture: ${name}`, async () => {
      const oldPath = join(FIXTURES, name, 'old.yaml');
      const newPath = join(FIXTURES, name, 'new.yaml');
      const oldText = readFileSync(oldPath, 'utf8');
      const newText = readFileSync(newPath, 'utf8');
      await deleteAllCRDs(h);
      try {
        await createInOrder(h, crdDocs(oldText, oldPath));
        const recorded: Record<string, Verdict> = {};
        const nexts = crdDocs(newText, newPath);
        // a fixture without a NEW CRD would compare nothing
        expect(nexts.length, `${newPath}: no CustomResourceDefinition`).toBeGreaterThan(0);
        for (const next of nexts) {
          const crdName = String(next['metadata']['name']);
          const { installed, verdict: theirs } = await putDryRun(h, next);
          recorded[crdName] = theirs;
          const fromFiles = crdxVerdict({ path: newPath, text: newText }, [{ path: oldPath, text: oldText }], crdName);
          const fromServer = crdxVerdict({ path: newPath, text: newText }, [{ path: 'installed.json', text: JSON.stringify(installed) }], crdName);
          tally.count('fixture', JSON.stringify(fromFiles) === JSON.stringify(theirs));
          tally.count('fixture (OLD from the server)', JSON.stringify(fromServer) === JSON.stringify(theirs));
          expect(fromFiles, 'OLD as written').toEqual(theirs);
          expect(fromServer, 'OLD as the server returns it').toEqual(theirs);
        }
        if (process.env['CRDX_RECORD'] === '1') writeFileSync(join(FIXTURES, name, 'server.json'), `${JSON.stringify(recorded, null, 2)}\n`);
      } finally {
        await deleteAllCRDs(h);
      }
    }, 120_000);
  }

  it('--old cluster: the installed CRDs, read with their status, are OLD', async () => {
    const { execa } = await import('execa');
    const dir = join(FIXTURES, 'names-and-stored-changed');
    await deleteAllCRDs(h);
    try {
      await createInOrder(h, crdDocs(readFileSync(join(dir, 'old.yaml'), 'utf8'), 'old.yaml'));
      const bin = join(ROOT, 'bin', 'kubectl-crdx');
      const r = await execa('node', [bin, 'lint', '--cluster', '--kubeconfig', h.kubeconfig, '--old', 'cluster', '-o', 'json', join(dir, 'new.yaml')], { reject: false, stdin: 'ignore' });
      const out = JSON.parse(String(r.stdout));
      const recorded = JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8'))['widgets.example.com'];
      const causes = (out.findings as { server?: { reason: string; field: string; message: string } }[])
        .filter((f) => f.server)
        .map((f) => causeText(f.server!.reason, f.server!.field, f.server!.message))
        .sort();
      expect(causes).toEqual(recorded.causes);
      expect(out.summary.updates[0].accepted).toBe(false);
      expect(r.exitCode).toBe(1);
    } finally {
      await deleteAllCRDs(h);
    }
  }, 120_000);

  for (const f of corpusFiles('crds')) {
    const docs = crdDocs(f.text, f.path).filter((d) => d['apiVersion'] === 'apiextensions.k8s.io/v1');
    if (docs.length === 0) continue;
    it(`corpus: ${f.project}/${f.path.split('/').pop()}`, async () => {
      await deleteAllCRDs(h);
      const problems: string[] = [];
      try {
        const installed: Obj[] = [];
        for (const d of docs) {
          const r = await send(h, 'POST', CRD_API, d);
          if (r.status !== 201) {
            // not installable on this server: nothing to update
            tally.notCompared('corpus (old refused by the server)');
            continue;
          }
          const crdName = String(d['metadata']['name']);
          const accepted = await waitForCondition(h, crdName, 'NamesAccepted', (c) => c !== undefined, 30_000);
          if (accepted?.status === 'True') await waitForCondition(h, crdName, 'Established', (c) => c?.status === 'True', 30_000);
          installed.push(d);
        }
        for (const d of installed) {
          const crdName = String(d['metadata']['name']);
          for (const [kind, mutate] of Object.entries(MUTATIONS)) {
            const next = mutate(d);
            if (!next) {
              tally.notCompared(`corpus ${kind} (does not apply)`);
              continue;
            }
            // read it again each time: controllers (API approval, naming) may still be writing its status
            let answer: { installed: Obj; verdict: Verdict };
            try {
              answer = await putDryRun(h, next);
            } catch (e) {
              // the server panics on some revisions (gateway-api ListenerSet with its CEL-checked
              // listeners list retyped to string: the type of the rules below is read through the
              // nil type of its items) and drops the connection: no answer, which crdx must give too
              if (!/socket hang up|ECONNRESET/.test(String(e))) throw e;
              const got = await send(h, 'GET', `${CRD_API}/${encodeURIComponent(crdName)}`);
              answer = { installed: got.body, verdict: { status: 0, causes: [], warnings: [] } };
            }
            const { installed, verdict: theirs } = answer;
            const oldFiles = [{ path: 'installed.json', text: JSON.stringify(installed) }];
            const ours = crdxVerdict({ path: 'new.json', text: JSON.stringify(next) }, oldFiles, crdName);
            const agreed = JSON.stringify(ours) === JSON.stringify(theirs);
            // a CEL rule the revision breaks (type-checking against the new schema) is compared like
            // any other cause, and tallied on its own line
            tally.count(
              theirs.status === 0 ? `corpus ${kind} (server panics)` : theirs.causes.some((c) => c.includes('x-kubernetes-validations')) ? `corpus ${kind} (CEL compilation)` : `corpus ${kind}`,
              agreed,
            );
            if (!agreed) problems.push(`${crdName} (${kind}):\n  server ${JSON.stringify(theirs)}\n  crdx   ${JSON.stringify(ours)}`);
          }
        }
      } finally {
        await deleteAllCRDs(h);
      }
      expect(problems.join('\n')).toBe('');
    }, 600_000);
  }
});
