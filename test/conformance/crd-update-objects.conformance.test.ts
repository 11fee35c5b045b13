/**
 * Differential conformance of `lint --old --objects` (rule stored-objects): objects are really
 * created under OLD on a real apiextensions-apiserver, the CRD is updated to NEW (a real PUT), and
 * each object is then, as a client would on its next write:
 *  - read (GET at its apiVersion: a 404 when NEW no longer serves it),
 *  - PUT back unchanged (validation ratcheting applies),
 *  - PUT with a label added (the root changes, the rest is ratcheted),
 *  - created afresh under another name (dryRun=All: no ratcheting).
 * The server's answers (HTTP status and the set of causes "reason field: message") are compared
 * with crdx's verdicts: the stored-objects findings of lintSources for the no-op PUT and the create
 * (update causes plus create-only causes), and simulateUpdate for the labelled PUT.
 *
 * Cases: the stored-objects fixtures, the upgrade-safety fixtures with fixtures/rules/stored-objects
 * /objects/widgets.yaml, and seeded revisions of the corpus CRDs that have samples (read from
 * ../shared/corpus at test time): bounds tightened, a required field added, a CEL rule added that
 * the samples' values break, the samples' versions no longer served. The last test runs the CLI
 * with --old cluster against the same server: the live objects are listed page by page.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import type { Finding } from '../../src/core/types.js';
import { CrdCatalog } from '../../src/cr/catalog.js';
import { simulateNextWrite } from '../../src/cr/next-write.js';
import { simulateUpdate } from '../../src/cr/update.js';
import { buildCrd } from '../../src/crd/model.js';
import { lintSources } from '../../src/engine/lint.js';
import { parseFile, type SourceFile } from '../../src/manifest/parse.js';
import { toCause } from '../../src/core/field-error.js';
import { cel } from '../helpers/cel.js';
import { corpusFiles, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';
import { causeText, CRD_API, deleteAllCRDs, goAvailable, putCRD, send, startHarness, Tally, skipCreateDelay, waitForCondition, type Harness } from './harness.js';

const ROOT = join(import.meta.dirname, '..', '..');
const RULES = join(ROOT, 'fixtures', 'rules');
const HAVE_GO = goAvailable();
if (!HAVE_GO) console.warn('crd-update-objects conformance skipped: it needs Go on PATH to build the real apiextensions-apiserver (test/apiserver)');
if (!HAVE_CORPUS) console.warn(NO_CORPUS_REASON);

type Obj = Record<string, any>;

interface Verdict {
  readonly status: number;
  readonly causes: readonly string[];
}

function docs(text: string, path: string): Obj[] {
  return parseFile({ path, text })
    .flatMap((d) => d.manifests)
    .map((m) => m.value as Obj);
}

function serverVerdict(r: { status: number; body: any }): Verdict {
  const causes = ((r.body?.details?.causes ?? []) as { reason: string; field: string; message: string }[]).map((c) => causeText(c.reason, c.field, c.message));
  // 200 and 201 alike: accepted
  return { status: r.status === 201 ? 200 : r.status, causes: [...new Set(causes)].sort() };
}

function objectPath(crd: Obj, o: Obj, name?: string): string {
  const [group, version] = String(o['apiVersion']).split('/');
  const plural = crd['spec']['names']['plural'];
  const ns = crd['spec']['scope'] === 'Cluster' ? '' : `namespaces/${o['metadata']?.['namespace'] ?? 'default'}/`;
  return `/apis/${group}/${version}/${ns}${plural}${name !== undefined ? `/${encodeURIComponent(name)}` : ''}`;
}

/** Creates the CRD and waits until its objects can be written; else why not. */
async function install(h: Harness, crd: Obj): Promise<{ ok: true } | { ok: false; why: string }> {
  const r = await send(h, 'POST', CRD_API, crd);
  if (r.status !== 201) return { ok: false, why: `old refused by the server: HTTP ${r.status} ${JSON.stringify(r.body?.message)}` };
  const name = String(crd['metadata']['name']);
  const ok = await waitForCondition(h, name, 'Established', (c) => c?.status === 'True', 30_000);
  if (ok?.status !== 'True') return { ok: false, why: `old not established: ${JSON.stringify(ok)}` };
  await skipCreateDelay(h, name);
  // objects of an earlier case stay in etcd when their CRD is deleted: remove them (the handler
  // may answer 404 for a moment after Established)
  const version = (crd['spec']['versions'] as Obj[]).find((v) => v['served'] === true)?.['name'];
  const list = objectPath(crd, { apiVersion: `${crd['spec']['group']}/${version}`, metadata: {} });
  for (let attempt = 1; attempt <= 200; attempt++) {
    const r = await send(h, 'DELETE', list);
    if (r.status === 200) return { ok: true };
    await new Promise((res) => setTimeout(res, 150));
  }
  return { ok: false, why: `the objects of old cannot be deleted (${list})` };
}

/** PUT the NEW CRD for real; false when the server refuses the update (nothing to compare). */
async function replace(h: Harness, next: Obj): Promise<boolean> {
  const body: Obj = { ...next };
  delete body['status'];
  const { response } = await putCRD(h, body);
  if (response.status !== 200) return false;
  // the serving info of the custom resources is rebuilt from the informer's event
  await new Promise((res) => setTimeout(res, 700));
  return true;
}

/** The object as a client would write it: namespace default for namespaced kinds, a name. */
function normalized(crd: Obj, o: Obj): Obj | undefined {
  const c = structuredClone(o);
  const md = (c['metadata'] ??= {});
  if (typeof md['name'] !== 'string' || md['name'] === '') return undefined;
  if (crd['spec']['scope'] === 'Cluster') delete md['namespace'];
  else md['namespace'] = 'default';
  delete md['resourceVersion'];
  delete md['uid'];
  return c;
}

const tally = new Tally();

const TOUCH = 'crdx.example.com/touched';

/**
 * Disagreements understood but not fixed here, each with why. They are tallied on their own line
 * and must keep disagreeing (else they are taken off).
 */
const KNOWN: Record<string, string> = {};
const sortCauses = (fs: readonly Finding[]): string[] => [...new Set(fs.filter((f) => f.server).map((f) => causeText(f.server!.reason, f.server!.field, f.server!.message)))].sort();

/**
 * One case: OLD installed, the objects created under it, NEW put in place; each created object is
 * compared on its three writes. Returns the disagreements.
 */
async function runCase(h: Harness, label: string, oldCrd: Obj, newCrd: Obj, objects: readonly Obj[], tallyKind: string, mustCompare: boolean): Promise<string[]> {
  const problems: string[] = [];
  /** Nothing to compare: tallied, and a problem for a case that must compare (a fixture). */
  const nothing = (why: string, detail: string): string[] => {
    tally.notCompared(`${tallyKind} (${why})`);
    return mustCompare ? [`${label}: nothing compared, ${detail}`] : [];
  };
  await deleteAllCRDs(h);
  try {
    const installed = await install(h, oldCrd);
    if (!installed.ok) return nothing('old refused by the server', installed.why);
    const created: Obj[] = [];
    const refused: string[] = [];
    for (const o0 of objects) {
      const o = normalized(oldCrd, o0);
      if (!o) continue;
      const r = await send(h, 'POST', objectPath(oldCrd, o), o);
      if (r.status === 201) created.push(o);
      else refused.push(`HTTP ${r.status} ${JSON.stringify(r.body?.message)}`);
    }
    if (created.length === 0) return nothing('no object created', `no object created under old (${objects.length} given; ${refused.join('; ') || 'none with a name'})`);
    const files: SourceFile[] = created.map((o, i) => ({ path: `object-${i}.json`, text: JSON.stringify(o) }));
    const oldFile = { path: 'old.json', text: JSON.stringify(oldCrd) };
    const r = lintSources([{ path: 'new.json', text: JSON.stringify(newCrd) }], { kubeVersion: DEFAULT_KUBE_VERSION, cel, old: [oldFile], objects: files });
    if (!(await replace(h, newCrd))) {
      // the server refuses NEW: no object write to compare, but crdx must refuse it too
      const accepted = r.summary.updates?.find((u) => u.name === newCrd['metadata']['name'])?.accepted;
      tally.count(`${tallyKind}: update refused by the server`, accepted === false);
      if (accepted !== false) problems.push(`${label}: the server refused the update, crdx ${accepted === undefined ? 'saw no update' : 'accepted it'}`);
      return problems;
    }
    const newC = buildCrd(parseFile({ path: 'n.json', text: JSON.stringify(newCrd) })[0]!.manifests[0]!, DEFAULT_KUBE_VERSION, cel);
    const oldC = buildCrd(parseFile({ path: 'o.json', text: JSON.stringify(oldCrd) })[0]!.manifests[0]!, DEFAULT_KUBE_VERSION, cel);
    const newCatalog = new CrdCatalog([newC]);
    const oldCatalog = new CrdCatalog([oldC]);
    for (const [i, o] of created.entries()) {
      const name = String(o['metadata']['name']);
      const own = r.findings.filter((f) => f.ruleId === 'stored-objects' && f.file === files[i]!.path);
      const notServed = own.some((f) => f.messageId === 'notServed');
      const celSkipped = own.some((f) => f.messageId === 'celNotEvaluated');
      const updateF = own.filter((f) => f.messageId === 'update');
      const failed = own.find((f) => f.messageId === 'updateFailed');
      const oursUpdate: Verdict = notServed ? { status: 404, causes: [] } : failed ? { status: failed.response!.code, causes: [] } : { status: updateF.length > 0 ? 422 : 200, causes: sortCauses(updateF) };
      const createF = own.filter((f) => f.messageId === 'create' || f.messageId === 'update');
      const oursCreate: Verdict = notServed ? { status: 404, causes: [] } : { status: createF.length > 0 ? 422 : 200, causes: sortCauses(createF) };

      const got = await send(h, 'GET', objectPath(newCrd, o, name));
      let theirsUpdate: Verdict;
      let theirsCreate: Verdict;
      let theirsTouched: Verdict | undefined;
      let oursTouched: Verdict | undefined;
      if (got.status !== 200) {
        theirsUpdate = { status: got.status, causes: [] };
        theirsCreate = { status: got.status, causes: [] };
      } else {
        theirsUpdate = serverVerdict(await send(h, 'PUT', objectPath(newCrd, o, name), got.body));
        // the no-op PUT may have written (defaults or a new storage version): read it again
        const again = await send(h, 'GET', objectPath(newCrd, o, name));
        const touched = structuredClone(again.status === 200 ? again.body : got.body);
        touched.metadata.labels = { ...(touched.metadata.labels ?? {}), [TOUCH]: 'yes' };
        theirsTouched = serverVerdict(await send(h, 'PUT', `${objectPath(newCrd, o, name)}?dryRun=All`, touched));
        const fresh = structuredClone(got.body);
        for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields']) delete fresh.metadata[k];
        fresh.metadata.name = `${name}-crdx`;
        theirsCreate = serverVerdict(await send(h, 'POST', `${objectPath(newCrd, o)}?dryRun=All`, fresh));
        // crdx on the labelled PUT: the stored object as crdx reads it, the label added
        const w = simulateNextWrite(o, oldCatalog, newCatalog, { kube: DEFAULT_KUBE_VERSION });
        if (w.update && newCatalog.lookup(String(o['apiVersion']), String(o['kind'])).ok) {
          const lk = newCatalog.lookup(String(o['apiVersion']), String(o['kind']));
          if (lk.ok) {
            const body = structuredClone(w.update.old);
            body['metadata'] = { ...(body['metadata'] as Obj), labels: { ...((body['metadata'] as Obj)['labels'] ?? {}), [TOUCH]: 'yes' } };
            const u = simulateUpdate(w.update.old, body, lk.served, { kube: DEFAULT_KUBE_VERSION, via: 'main', skipStorage: true });
            oursTouched = u.failure
              ? { status: u.failure.code, causes: [] }
              : { status: u.errors.length > 0 ? 422 : 200, causes: [...new Set(u.errors.map((e) => toCause(e)).map((c) => causeText(c.reason, c.field, c.message)))].sort() };
          }
        }
      }
      const suffix = celSkipped ? ' (CEL not evaluated)' : '';
      const cmp = (what: string, ours: Verdict, theirs: Verdict) => {
        const agreed = JSON.stringify(ours) === JSON.stringify(theirs);
        const key = `${label} ${name} ${what}`;
        const known = KNOWN[key];
        tally.count(`${tallyKind}: ${what}${suffix}${known !== undefined ? ' (known divergence)' : ''}`, agreed);
        if (known !== undefined) {
          // a known divergence must stay one: when crdx starts agreeing, take it off the list
          if (agreed) problems.push(`${key}: agrees now; remove it from KNOWN`);
          return;
        }
        if (!agreed && !celSkipped) problems.push(`${key}:\n  server ${JSON.stringify(theirs)}\n  crdx   ${JSON.stringify(ours)}`);
      };
      cmp('no-op update', oursUpdate, theirsUpdate);
      cmp('create', oursCreate, theirsCreate);
      if (theirsTouched) cmp('update with a label', oursTouched ?? { status: -1, causes: ['crdx: no verdict'] }, theirsTouched);
    }
  } finally {
    await deleteAllCRDs(h);
  }
  return problems;
}

function fixtureNew(dir: string): { file: string; text: string }[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.yaml'))
        .sort()
        .map((f) => ({ file: f, text: readFileSync(join(dir, f), 'utf8') }))
    : [];
}

// ---- seeded revisions of corpus CRDs ----
const clone = (o: Obj): Obj => structuredClone(o);
function specSchemas(crd: Obj): Obj[] {
  return (crd['spec']['versions'] as Obj[]).map((v) => v['schema']?.['openAPIV3Schema']?.['properties']?.['spec']).filter((s): s is Obj => s !== undefined && s['properties'] !== undefined);
}
function tighten(s: Obj, depth = 0): void {
  if (depth > 6 || typeof s !== 'object' || s === null) return;
  if (s['type'] === 'string' && s['enum'] === undefined && s['format'] === undefined && s['x-kubernetes-int-or-string'] !== true) s['maxLength'] = 3;
  if (s['type'] === 'integer') s['maximum'] = 1;
  for (const p of Object.values((s['properties'] ?? {}) as Obj)) tighten(p, depth + 1);
  if (s['items']) tighten(s['items'], depth + 1);
}
type Mutation = (crd: Obj, samples: readonly Obj[]) => Obj | undefined;
const MUTATIONS: Record<string, Mutation> = {
  'bounds tightened': (o) => {
    const c = clone(o);
    const ss = specSchemas(c);
    if (ss.length === 0) return undefined;
    for (const s of ss) tighten(s);
    return c;
  },
  'required field added': (o) => {
    const c = clone(o);
    const ss = specSchemas(c);
    if (ss.length === 0) return undefined;
    for (const s of ss) {
      s['properties']['crdxAdded'] = { type: 'string' };
      s['required'] = [...(s['required'] ?? []), 'crdxAdded'];
    }
    return c;
  },
  'CEL rule added': (o, samples) => {
    const c = clone(o);
    const ss = specSchemas(c);
    const key = samples.map((x) => Object.keys(x['spec'] ?? {})[0]).find((k) => k !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(k));
    if (ss.length === 0 || key === undefined) return undefined;
    for (const s of ss) if (s['properties'][key]) s['x-kubernetes-validations'] = [...(s['x-kubernetes-validations'] ?? []), { rule: `!has(self.${key})`, message: `${key} is no longer allowed` }];
    return c;
  },
  'versions no longer served': (o) => {
    const c = clone(o);
    const vs = c['spec']['versions'] as Obj[];
    const storage = vs.find((v) => v['storage'] === true)!;
    for (const v of vs) v['served'] = false;
    vs.push({ ...clone(storage), name: 'v90crdx', served: true, storage: true });
    storage['storage'] = false;
    return c;
  },
};

describe.skipIf(!HAVE_GO)('lint --old --objects agrees with a real apiextensions-apiserver on the next write of stored objects', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ port: 18541 });
  }, 1_800_000);
  afterAll(async () => {
    const line = tally.line('stored objects');
    if (line !== undefined) console.log(line);
    await h?.stop();
  });

  const cases: { label: string; old: string; objects: string; next: { file: string; text: string }[] }[] = [
    {
      label: 'stored-objects',
      old: join(RULES, 'stored-objects', 'old', 'gadgets.yaml'),
      objects: join(RULES, 'stored-objects', 'objects', 'gadgets.yaml'),
      next: [...fixtureNew(join(RULES, 'stored-objects', 'invalid')), ...fixtureNew(join(RULES, 'stored-objects', 'valid'))],
    },
    {
      label: 'upgrade-safety',
      old: join(RULES, 'upgrade-safety', 'old', 'widgets.yaml'),
      objects: join(RULES, 'stored-objects', 'objects', 'widgets.yaml'),
      next: [...fixtureNew(join(RULES, 'upgrade-safety', 'invalid')), ...fixtureNew(join(RULES, 'upgrade-safety', 'valid'))].filter((f) => f.text.includes('# old: ../old/widgets.yaml')),
    },
  ];
  for (const c of cases)
    for (const n of c.next) {
      it(`fixture: ${c.label}/${n.file}`, async () => {
        const oldCrd = docs(readFileSync(c.old, 'utf8'), c.old)[0]!;
        const objects = docs(readFileSync(c.objects, 'utf8'), c.objects);
        const problems = await runCase(h, `${c.label}/${n.file}`, oldCrd, docs(n.text, n.file)[0]!, objects, 'fixture', true);
        expect(problems.join('\n')).toBe('');
      }, 300_000);
    }

  // corpus CRDs with samples of their kind
  const samples = corpusFiles('samples').flatMap((f) => docs(f.text, f.path));
  for (const f of corpusFiles('crds')) {
    const crds = docs(f.text, f.path).filter((d) => d['apiVersion'] === 'apiextensions.k8s.io/v1' && d['kind'] === 'CustomResourceDefinition');
    for (const crd of crds) {
      const mine = samples.filter((s) => typeof s['apiVersion'] === 'string' && s['apiVersion'].split('/')[0] === crd['spec']?.['group'] && s['kind'] === crd['spec']?.['names']?.['kind']);
      if (mine.length === 0) continue;
      it(`corpus: ${f.project}/${crd['metadata']['name']}`, async () => {
        const problems: string[] = [];
        for (const [kind, mutate] of Object.entries(MUTATIONS)) {
          const next = mutate(crd, mine);
          if (!next) continue;
          problems.push(...(await runCase(h, `${crd['metadata']['name']} (${kind})`, crd, next, mine, `corpus ${kind}`, false)));
        }
        expect(problems.join('\n')).toBe('');
      }, 600_000);
    }
  }

  it('--old cluster: the live objects of the updated CRD, listed page by page', async () => {
    const { execa } = await import('execa');
    const oldPath = join(RULES, 'stored-objects', 'old', 'gadgets.yaml');
    const newPath = join(RULES, 'stored-objects', 'invalid', 'tightened.yaml');
    const oldCrd = docs(readFileSync(oldPath, 'utf8'), oldPath)[0]!;
    await deleteAllCRDs(h);
    try {
      expect(await install(h, oldCrd)).toEqual({ ok: true });
      // 7 objects listed 3 at a time (3 pages); sizes 0, 3, … 18
      for (let i = 0; i < 7; i++) {
        const o = { apiVersion: 'example.com/v1alpha1', kind: 'Gadget', metadata: { name: `g${i}`, namespace: 'default' }, spec: { size: i * 3, color: 'red' } };
        expect((await send(h, 'POST', objectPath(oldCrd, o), o)).status).toBe(201);
      }
      const bin = join(ROOT, 'bin', 'kubectl-crdx');
      const r = await execa('node', [bin, 'lint', '--cluster', '--kubeconfig', h.kubeconfig, '--chunk-size', '3', '--old', 'cluster', '-o', 'json', newPath], { reject: false, stdin: 'ignore' });
      expect(r.stderr).toBe('');
      const out = JSON.parse(String(r.stdout));
      const u = out.summary.updates[0];
      expect(u.objects).toBe(7);
      // size 12, 15 and 18 are above the new maximum of 10: a fresh create fails (an error), the no-op update passes
      const broken = (out.findings as Finding[]).filter((f) => f.ruleId === 'stored-objects' && f.severity === 'error');
      expect([...new Set(broken.map((f) => f.object?.name))].sort()).toEqual(['g4', 'g5', 'g6']);
      for (const f of broken) expect(f.file).toMatch(/^cluster:[^/]+\/gadgets\.example\.com\/default\/g[456]$/);
      expect(u.affected).toBe(3);
      expect(r.exitCode).toBe(1);
    } finally {
      await deleteAllCRDs(h);
    }
  }, 120_000);
});
