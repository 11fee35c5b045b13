/**
 * `kubectl crdx test` against the real server: every case of every test file under fixtures/ is
 * replayed on a real apiextensions-apiserver, its answer turned into the same Outcome the runner
 * builds, and the case's expectations compared with it by the runner's own comparison
 * (src/crdtest/expect.ts). The runner's verdict on each case must be the server's; the outcomes
 * themselves (status code, causes, warnings, the object or Scale as stored) are compared too.
 *
 * The requests (src/crdtest/run.ts documents them): create is a dry-run POST; update, status,
 * scale-get and scale-update first really create the oldObject (else the object), then send a
 * dry-run PUT (main endpoint, /status, /scale) or GET /scale; the object is deleted afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEFAULT_KUBE_VERSION, formatKubeVersion } from '../../src/core/kube-version.js';
import { isRecord } from '../../src/core/types.js';
import { compare } from '../../src/crdtest/expect.js';
import { parseTestFile } from '../../src/crdtest/parse.js';
import { runTestFile, withoutGenerated } from '../../src/crdtest/run.js';
import type { Cause, Outcome, TestCase, TestFile } from '../../src/crdtest/types.js';
import { wireValue } from '../../src/cr/wire.js';
import { isCrdManifest } from '../../src/crd/model.js';
import { parseFile, type Manifest } from '../../src/manifest/parse.js';
import { readNamedFiles, type NamedFiles } from '../../src/io/test-files.js';
import { deleteAllCRDs, goAvailable, installCRD, startHarness, type Harness, type Response } from './harness.js';
import { sortKeys } from './common.js';
import { scaffoldTestFile } from '../../src/crdtest/scaffold.js';
import { buildCrd } from '../../src/crd/model.js';
import { corpusFiles, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';
import { cel } from '../helpers/cel.js';

const ROOT = join(import.meta.dirname, '..', '..');
const HAVE_GO = goAvailable();
type Obj = Record<string, unknown>;

function testFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.crdx-test\.ya?ml$/.test(e.name)) out.push(p);
    }
  };
  walk(join(ROOT, 'fixtures'));
  return out;
}

interface Loaded {
  readonly path: string;
  readonly model: TestFile;
  readonly named: NamedFiles;
  readonly crds: Obj[];
}

async function load(path: string): Promise<Loaded> {
  const rel = relative(ROOT, path);
  const parsed = parseTestFile({ path: rel, text: readFileSync(path, 'utf8') });
  if (!parsed.file) throw new Error(`${rel}: ${JSON.stringify(parsed.errors)}`);
  const model = parsed.file;
  const named = await readNamedFiles(
    path,
    model.crds.flatMap((c) => (c.inline ? [] : [c.pattern])),
    model.cases.flatMap((c) => [c.object, c.oldObject]).flatMap((x) => (x && !x.inline ? [x.file] : [])),
    ROOT,
  );
  const crds: Obj[] = [];
  for (const c of model.crds) {
    if (c.inline) crds.push(c.value);
    else for (const f of named.crdFiles.get(c.pattern) ?? []) for (const d of parseFile(f)) for (const m of d.manifests) if (isCrdManifest(m)) crds.push(m.value);
  }
  return { path: rel, model, named, crds };
}

function partManifest(model: TestFile, named: NamedFiles, src: TestCase['object']): Manifest {
  if (!src.inline) return parseFile(named.objectFiles.get(src.file)!)[0]!.manifests[0]!;
  const root = model.root;
  return { ...root, base: src.path, value: src.value, locate: (p, at) => root.locate([...src.path, ...p], at) };
}

function unique(causes: Cause[]): Cause[] {
  const seen = new Set<string>();
  return causes.filter((c) => {
    const k = `${c.reason}\0${c.field ?? ''}\0${c.message}`;
    return seen.has(k) ? false : (seen.add(k), true);
  });
}

/** The server's answer as the runner's Outcome. */
function outcomeOf(r: Response): Outcome {
  if (r.status >= 200 && r.status < 300) return { allowed: true, code: r.status, causes: [], warnings: r.warnings, result: withoutGenerated(r.body) };
  const causes: Cause[] = Array.isArray(r.body?.details?.causes) && r.body.details.causes.length > 0
    ? r.body.details.causes.map((c: { field?: string; reason?: string; message?: string }) => ({ ...(c.field !== undefined ? { field: c.field } : {}), reason: c.reason ?? '', message: c.message ?? '' }))
    : [{ reason: String(r.body?.reason ?? ''), message: String(r.body?.message ?? r.body ?? '') }];
  return { allowed: false, code: r.status, causes: unique(causes), warnings: r.warnings };
}

interface Target {
  readonly base: string;
  readonly namespaced: boolean;
}

/** The collection URL of an object: its group, version and plural from the installed CRDs. */
function targetOf(crds: readonly Obj[], o: Obj): Target {
  const [group, version] = String(o['apiVersion']).split('/');
  const crd = crds.find((c) => {
    const s = c['spec'] as any;
    return s.group === group && s.names.kind === o['kind'];
  });
  if (!crd) throw new Error(`no CRD for ${String(o['apiVersion'])} ${String(o['kind'])}`);
  const spec = crd['spec'] as any;
  const namespaced = spec.scope !== 'Cluster';
  const md = isRecord(o['metadata']) ? o['metadata'] : {};
  const ns = typeof md['namespace'] === 'string' && md['namespace'] !== '' ? md['namespace'] : 'default';
  return { base: `/apis/${group}/${version}/${namespaced ? `namespaces/${ns}/` : ''}${spec.names.plural}`, namespaced };
}

const name = (o: Obj) => String((o['metadata'] as Obj | undefined)?.['name'] ?? '');

/** Sends the case's request(s) to the server; undefined outcome when the first object could not be created. */
async function replay(h: Harness, crds: readonly Obj[], tc: TestCase, object: Obj, oldObject: Obj | undefined): Promise<{ outcome?: Outcome; error?: string }> {
  const t = targetOf(crds, object);
  // the case's fieldValidation; without one, kubectl's (Strict), as the runner's default
  const q = `?dryRun=All&fieldValidation=${tc.fieldValidation ?? 'Strict'}`;
  if (tc.operation === 'create') return { outcome: outcomeOf(await h.request('POST', `${t.base}${q}`, object)) };
  const first = oldObject ?? object;
  const ft = targetOf(crds, first);
  const made = await h.request('POST', `${ft.base}?fieldValidation=Warn`, first);
  if (made.status !== 201) return { error: `HTTP ${made.status}: ${JSON.stringify(made.body?.message ?? made.body)}` };
  const path = `${ft.base}/${encodeURIComponent(name(made.body))}`;
  try {
    if (tc.operation === 'scale-get') return { outcome: outcomeOf(await h.request('GET', `${path}/scale`)) };
    if (tc.operation === 'scale-update') {
      const md = made.body.metadata as Obj;
      const scale = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: md['name'], ...(md['namespace'] ? { namespace: md['namespace'] } : {}) }, spec: { replicas: tc.replicas } };
      return { outcome: outcomeOf(await h.request('PUT', `${path}/scale?dryRun=All`, scale)) };
    }
    const md = isRecord(object['metadata']) ? object['metadata'] : {};
    const body = md['resourceVersion'] === undefined ? { ...object, metadata: { ...md, resourceVersion: (made.body.metadata as Obj)['resourceVersion'] } } : object;
    const sub = tc.operation === 'status' ? '/status' : '';
    const tp = `${targetOf(crds, object).base}/${encodeURIComponent(name(object))}`;
    return { outcome: outcomeOf(await h.request('PUT', `${tp}${sub}${q}`, body)) };
  } finally {
    const del = await h.request('DELETE', path);
    if (del.status !== 200 && del.status !== 404) throw new Error(`DELETE ${path}: ${del.status}`);
    for (let i = 0; i < 100 && (await h.request('GET', path)).status !== 404; i++) await new Promise((r) => setTimeout(r, 50));
  }
}

/** An outcome as compared: causes as a sorted set, the result with Go's key order. */
function comparable(o: Outcome | undefined): unknown {
  if (!o) return undefined;
  const json = (v: unknown) => JSON.parse(JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? Number(x) : x)));
  return {
    allowed: o.allowed,
    code: o.allowed ? 'ok' : o.code,
    causes: o.causes.map((c) => `${c.reason} ${c.field ?? '-'}: ${c.message}`).sort(),
    warnings: o.warnings,
    ...(o.allowed ? { result: sortKeys(json(o.result)) } : {}),
  };
}

const FILES = testFiles();
const tally = { cases: 0, verdictAgreed: 0, outcomeAgreed: 0, passedOnServer: 0 };

describe.skipIf(!HAVE_GO)('crdx test: fixture cases replayed on the real server', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    console.log(`crdx test fixtures: ${tally.cases} cases in ${FILES.length} files replayed; verdict agreed ${tally.verdictAgreed}/${tally.cases}, outcome agreed ${tally.outcomeAgreed}/${tally.cases}; ${tally.passedOnServer} pass on the server`);
    await h?.stop();
  });

  it('finds the fixture test files', () => {
    expect(FILES.length).toBeGreaterThan(0);
  });

  for (const file of FILES) {
    it(relative(ROOT, file), async () => {
      const l = await load(file);
      await deleteAllCRDs(h);
      for (const crd of l.crds) {
        const why = await installCRD(h, crd);
        expect(why, `${l.path}: CRD ${name(crd)}`).toBeUndefined();
      }
      const ours = runTestFile(l.model, l.named, { cel });
      expect(ours.errors).toEqual([]);
      for (const tc of l.model.cases) {
        expect(formatKubeVersion(tc.kubeVersion ?? DEFAULT_KUBE_VERSION), `${tc.name}: the server is ${formatKubeVersion(DEFAULT_KUBE_VERSION)}`).toBe(formatKubeVersion(DEFAULT_KUBE_VERSION));
        const mine = ours.cases.find((c) => c.index === tc.index)!;
        const object = wireValue(partManifest(l.model, l.named, tc.object));
        const oldObject = tc.oldObject ? wireValue(partManifest(l.model, l.named, tc.oldObject)) : undefined;
        const theirs = await replay(h, l.crds, tc, object, oldObject);
        const serverPassed = theirs.outcome !== undefined && compare(tc.expect, theirs.outcome, tc.path, l.model.root.locate).length === 0;
        tally.cases++;
        if (serverPassed) tally.passedOnServer++;
        const label = `${l.path}: ${tc.name}\n--- server: ${JSON.stringify(comparable(theirs.outcome) ?? theirs.error)}\n--- crdx:   ${JSON.stringify(comparable(mine.outcome) ?? mine.error)}`;
        if (mine.passed === serverPassed) tally.verdictAgreed++;
        if (JSON.stringify(comparable(mine.outcome)) === JSON.stringify(comparable(theirs.outcome))) tally.outcomeAgreed++;
        expect(mine.passed, label).toBe(serverPassed);
        expect(comparable(mine.outcome), label).toEqual(comparable(theirs.outcome));
      }
    });
  }
});

/**
 * The starter files `--init` writes, replayed the same way: for the fixture CRDs every case (the
 * minimal objects and the rule cases, which fail until edited: on the server as well), for every
 * corpus CRD the minimal object of each served version (accepted, with the defaults the server
 * stores as result). Cases crdx does not decide offline (CEL rules it cannot evaluate) are counted
 * apart; every decided verdict must be the server's.
 */
const INIT_SOURCES = [join(ROOT, 'fixtures', 'crds', '01-widgets.yaml'), ...readdirSync(join(ROOT, 'fixtures', 'tests', 'crds')).map((f) => join(ROOT, 'fixtures', 'tests', 'crds', f))];
const initTally = { cases: 0, decided: 0, agreed: 0, outcomeAgreed: 0, passedOnServer: 0, crds: 0, refused: 0 };
if (!HAVE_CORPUS) console.warn(NO_CORPUS_REASON);

describe.skipIf(!HAVE_GO)('crdx test --init: starter files replayed on the real server', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    console.log(`crdx test --init: ${initTally.crds} CRD files, ${initTally.cases} cases replayed, ${initTally.decided} decided offline; verdict agreed ${initTally.agreed}/${initTally.decided}, outcome agreed ${initTally.outcomeAgreed}/${initTally.decided}; ${initTally.passedOnServer} pass on the server; ${initTally.refused} files not run (CRD refused)`);
    await h?.stop();
  });

  const sources = [...INIT_SOURCES.map((p) => ({ path: p, text: readFileSync(p, 'utf8'), all: true })), ...corpusFiles('crds').map((f) => ({ path: f.path, text: f.text, all: false }))];
  it('replays the starter cases', async () => {
    for (const src of sources) {
      const rel = relative(ROOT, src.path);
      const crdFile = { path: rel, text: src.text };
      const ms = parseFile(crdFile).flatMap((d) => d.manifests).filter(isCrdManifest);
      const crds = ms.map((m) => buildCrd(m, DEFAULT_KUBE_VERSION, cel));
      if (crds.length === 0) continue;
      initTally.crds++;
      const s = scaffoldTestFile(crds, 'crd.yaml', DEFAULT_KUBE_VERSION);
      const parsed = parseTestFile({ path: `${rel}.crdx-test.yaml`, text: s.text });
      expect(parsed.errors, rel).toEqual([]);
      const model = parsed.file!;
      const named: NamedFiles = { crdFiles: new Map([['crd.yaml', [crdFile]]]), objectFiles: new Map(), problems: new Map() };
      const ours = runTestFile(model, named, { cel });
      if (ours.errors.length > 0) {
        initTally.refused++;
        continue;
      }
      await deleteAllCRDs(h);
      const values = ms.map((m) => m.value);
      for (const crd of values) expect(await installCRD(h, crd), `${rel}: CRD ${name(crd)}`).toBeUndefined();
      for (const tc of model.cases) {
        if (!src.all && tc.expect.allowed !== true) continue;
        const mine = ours.cases.find((c) => c.index === tc.index)!;
        const object = wireValue(partManifest(model, named, tc.object));
        const oldObject = tc.oldObject ? wireValue(partManifest(model, named, tc.oldObject)) : undefined;
        const theirs = await replay(h, values, tc, object, oldObject);
        initTally.cases++;
        const serverPassed = theirs.outcome !== undefined && compare(tc.expect, theirs.outcome, tc.path, model.root.locate).length === 0;
        if (serverPassed) initTally.passedOnServer++;
        if (mine.outcome?.undecided !== undefined) continue;
        initTally.decided++;
        const label = `${rel}: ${tc.name}\n--- server: ${JSON.stringify(comparable(theirs.outcome) ?? theirs.error)}\n--- crdx:   ${JSON.stringify(comparable(mine.outcome) ?? mine.error)}`;
        if (mine.passed === serverPassed) initTally.agreed++;
        if (JSON.stringify(comparable(mine.outcome)) === JSON.stringify(comparable(theirs.outcome))) initTally.outcomeAgreed++;
        expect.soft(mine.passed, label).toBe(serverPassed);
        expect.soft(comparable(mine.outcome), label).toEqual(comparable(theirs.outcome));
      }
    }
  }, 1_800_000);
});
