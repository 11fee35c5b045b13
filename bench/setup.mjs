// Bench set-up (run by bench/run.mjs; needs `npm run build:dist`): writes into .bench/ (gitignored)
//   .bench/bin/{kubeconform,kubectl-validate}   the peers, `go install`ed at pinned versions
//   .bench/crds/<project>_*.yaml                  the corpus CRDs that the large input uses
//   .bench/large/crs-NN.yaml                     ~10k custom resources (corpus samples, renamed copies)
//   .bench/schemas/<group>/<kind>_<version>.json the CRD schemas converted to JSON Schema for kubeconform
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document, parseAllDocuments, stringify, visit } from 'yaml';
import { CrdCatalog } from '../dist/cr/catalog.js';
import { simulateCreate } from '../dist/cr/create.js';
import { wireValue } from '../dist/cr/wire.js';
import { buildCrd, isCrdManifest } from '../dist/crd/model.js';
import { parseFile } from '../dist/manifest/parse.js';

export const ROOT = join(import.meta.dirname, '..');
export const BENCH = join(ROOT, '.bench');
export const CORPUS = join(ROOT, '..', 'shared', 'corpus');

/** Pinned peers: `go list -m -versions` shows what the module proxy has. */
export const PEERS = {
  kubeconform: { module: 'github.com/yannh/kubeconform/cmd/kubeconform', version: 'v0.8.0' },
  'kubectl-validate': { module: 'sigs.k8s.io/kubectl-validate', version: 'v0.0.4' },
};
export const LARGE_OBJECTS = 10_000;
const LARGE_FILES = 20;
const KUBE = { major: 1, minor: 36 };

const log = (s) => process.stderr.write(`${s}\n`);

/** Installs the peers with `go install` into .bench/bin; a peer that cannot be installed is left out (with a message). */
export function installPeers() {
  const bin = join(BENCH, 'bin');
  mkdirSync(bin, { recursive: true });
  const have = {};
  for (const [name, { module, version }] of Object.entries(PEERS)) {
    const exe = join(bin, name);
    const stamp = join(bin, `${name}.version`);
    if (!existsSync(exe) || !existsSync(stamp) || readFileSync(stamp, 'utf8') !== version) {
      log(`bench: go install ${module}@${version}`);
      try {
        execFileSync('go', ['install', `${module}@${version}`], { env: { ...process.env, GOBIN: bin }, stdio: ['ignore', 'ignore', 'inherit'] });
        writeFileSync(stamp, version);
      } catch (e) {
        log(`bench: ${name} not installed (${e.message.split('\n')[0]}): left out`);
        continue;
      }
    }
    have[name] = { exe, version };
  }
  return have;
}

export function corpusFiles(kind) {
  const root = join(CORPUS, kind);
  return readdirSync(root)
    .sort()
    .flatMap((p) =>
      readdirSync(join(root, p))
        .filter((f) => /\.ya?ml$/.test(f))
        .sort()
        .map((f) => ({ project: p, name: f, path: join(root, p, f), text: readFileSync(join(root, p, f), 'utf8') })),
    );
}

// ---- openAPIV3Schema (Kubernetes' OpenAPI subset) -> JSON Schema for kubeconform ----------------

/**
 * The structural schema as a JSON Schema (draft 4 keywords, which kubeconform's validator reads):
 * `nullable` adds "null" to the type, `x-kubernetes-int-or-string` becomes integer-or-string,
 * `x-kubernetes-embedded-resource` and `x-kubernetes-preserve-unknown-fields` stay open, other
 * `x-kubernetes-*` keys are dropped, a required property with a default is not required (the
 * server defaults before it validates). Formats are dropped (kubeconform would not assert them either
 * way, and the server's format list is its own).
 */
export function toJsonSchema(s) {
  if (Array.isArray(s)) return s.map(toJsonSchema);
  if (s === null || typeof s !== 'object') return s;
  const out = {};
  for (const [k, v] of Object.entries(s)) {
    if (k.startsWith('x-kubernetes-') || k === 'nullable' || k === 'format' || k === 'example' || k === 'externalDocs') continue;
    if (k === 'properties' || k === 'definitions' || k === 'patternProperties') {
      out[k] = Object.fromEntries(Object.entries(v ?? {}).map(([p, sub]) => [p, toJsonSchema(sub)]));
    } else if (k === 'items' || k === 'additionalProperties' || k === 'not' || k === 'allOf' || k === 'anyOf' || k === 'oneOf') {
      out[k] = toJsonSchema(v);
    } else {
      out[k] = v;
    }
  }
  // the server defaults before it validates: a required field with a default is never missing
  if (Array.isArray(out.required) && out.properties) {
    out.required = out.required.filter((p) => !(s.properties?.[p] && 'default' in s.properties[p]));
    if (out.required.length === 0) delete out.required;
  }
  if (s['x-kubernetes-int-or-string'] === true) {
    delete out.type;
    out.anyOf = [...(out.anyOf ?? []), { type: 'integer' }, { type: 'string' }];
  }
  if (s.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

function writeSchemas(crdFiles) {
  const dir = join(BENCH, 'schemas');
  rmSync(dir, { recursive: true, force: true });
  let n = 0;
  for (const f of crdFiles)
    for (const doc of parseFile(f))
      for (const m of doc.manifests) {
        if (!isCrdManifest(m)) continue;
        const spec = m.value.spec;
        for (const v of spec.versions ?? []) {
          const schema = v.schema?.openAPIV3Schema ?? spec.validation?.openAPIV3Schema;
          if (!schema) continue;
          const js = toJsonSchema(schema);
          // apiVersion, kind and metadata are checked by the server itself, not by the CRD schema
          js.properties = { ...(js.properties ?? {}), apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } };
          mkdirSync(join(dir, spec.group), { recursive: true });
          writeFileSync(join(dir, spec.group, `${spec.names.kind.toLowerCase()}_${v.name}.json`), JSON.stringify(js));
          n++;
        }
      }
  return n;
}

/** Sample objects of the corpus that the API server would accept (checked with crdx's own simulation). */
function acceptedSamples(crdFiles) {
  const crds = crdFiles.flatMap((f) => parseFile(f).flatMap((d) => d.manifests)).filter(isCrdManifest).map((m) => ({ m, crd: buildCrd(m, KUBE, undefined) }));
  const catalog = new CrdCatalog(crds.map((c) => c.crd));
  const out = [];
  for (const f of corpusFiles('samples'))
    for (const doc of parseFile(f))
      for (const m of doc.manifests) {
        if (isCrdManifest(m)) continue;
        const l = catalog.lookup(m.apiVersion ?? '', m.kind ?? '');
        // objects of versions with CEL rules are left out (no CEL engine is loaded here)
        if (!l.ok || l.served.hasCel) continue;
        const r = simulateCreate(wireValue(m), l.served, { kube: KUBE, skipStorage: true });
        if (r.errors.length > 0 || r.decodeError || r.celNotEvaluated) continue;
        const group = (m.apiVersion ?? '').split('/')[0];
        const crdSrc = crds.find((c) => c.m.value.spec?.group === group && c.m.value.spec?.names?.kind === m.kind);
        out.push({ value: m.value, crdFile: crdSrc?.m.file });
      }
  return out;
}

/** Writes the bench inputs (once; delete .bench/large to regenerate). Returns what the bench needs to know. */
export function prepareInputs() {
  if (!existsSync(join(CORPUS, 'crds'))) throw new Error(`no corpus at ${CORPUS}`);
  const crdFiles = corpusFiles('crds');
  const largeDir = join(BENCH, 'large');
  const crdDir = join(BENCH, 'crds');
  const meta = join(BENCH, 'large.json');
  if (!existsSync(meta)) {
    log('bench: generating the large input');
    const samples = acceptedSamples(crdFiles);
    if (samples.length === 0) throw new Error('no corpus sample is accepted by its CRD');
    rmSync(largeDir, { recursive: true, force: true });
    rmSync(crdDir, { recursive: true, force: true });
    mkdirSync(largeDir, { recursive: true });
    // only the CRD files the samples need, so every tool loads the same CRDs
    const used = new Set(samples.map((s) => s.crdFile?.path).filter(Boolean));
    for (const f of crdFiles.filter((x) => used.has(x.path))) {
      // flat: kubectl-validate reads the files of --local-crds, not its subdirectories
      mkdirSync(crdDir, { recursive: true });
      writeFileSync(join(crdDir, `${f.project}_${f.name}`), f.text);
    }
    const perFile = Math.ceil(LARGE_OBJECTS / LARGE_FILES);
    for (let file = 0; file < LARGE_FILES; file++) {
      const docs = [];
      for (let i = file * perFile; i < Math.min(LARGE_OBJECTS, (file + 1) * perFile); i++) {
        const s = samples[i % samples.length];
        const v = structuredClone(s.value);
        v.metadata = { ...(v.metadata ?? {}), name: `${String(v.metadata?.name ?? 'obj').slice(0, 40)}-${i}` };
        docs.push(stringify(v, { lineWidth: 0 }));
      }
      writeFileSync(join(largeDir, `crs-${String(file).padStart(2, '0')}.yaml`), docs.join('---\n'));
    }
    const schemas = writeSchemas(corpusFiles('crds').filter((f) => used.has(f.path)));
    writeFileSync(meta, JSON.stringify({ samples: samples.length, objects: LARGE_OBJECTS, crdFiles: used.size, schemas }));
  }
  return JSON.parse(readFileSync(meta, 'utf8'));
}

export const TEST_CASES = 1_000;
const TEST_CRD = join('argo-cd', 'applicationset-crd.yaml');
const TEST_SAMPLE = join('argo-cd', 'applicationset-list-example.yaml');

/**
 * The input of the `crdx test` row (once; delete .bench/crdx-test to regenerate): a test file of
 * TEST_CASES cases against the corpus ApplicationSet CRD (argo-cd, 1.4 MB, status subresource) built
 * from its corpus sample, five kinds in turn: a create with parts of the stored object checked, an
 * update (generation 2), a /status write, a GET /scale the server answers 404 (no scale
 * subresource), and an object the server refuses (a string where a list goes).
 */
export function prepareTestBench() {
  const dir = join(BENCH, 'crdx-test');
  const file = join(dir, 'large.crdx-test.yaml');
  if (existsSync(file)) return { file, cases: TEST_CASES };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'applicationsets.yaml'), readFileSync(join(CORPUS, 'crds', TEST_CRD), 'utf8'));
  const sample = parseFile({ path: TEST_SAMPLE, text: readFileSync(join(CORPUS, 'samples', TEST_SAMPLE), 'utf8') })[0].manifests[0].value;
  const obj = (i, edit = (o) => o) => {
    const o = structuredClone(sample);
    o.metadata = { name: `appset-${i}`, labels: { team: `t${i % 7}` } };
    return edit(o);
  };
  const rev = (r) => (o) => ((o.spec.template.spec.source.targetRevision = r), o);
  const cases = [];
  for (let i = 0; i < TEST_CASES; i++) {
    switch (i % 5) {
      case 0:
        cases.push({ name: `case ${i}: create`, object: obj(i), allowed: true, result: { metadata: { name: `appset-${i}`, namespace: 'default', generation: 1 }, spec: { goTemplate: true, template: { spec: { project: 'default' } } } } });
        break;
      case 1:
        cases.push({ name: `case ${i}: update`, oldObject: obj(i), object: obj(i, rev(`v${i}`)), allowed: true, result: { metadata: { generation: 2 }, spec: { template: { spec: { source: { targetRevision: `v${i}` } } } } } });
        break;
      case 2:
        cases.push({ name: `case ${i}: status`, operation: 'status', object: obj(i, (o) => ((o.status = { conditions: [{ type: 'ResourcesUpToDate', status: 'True', message: 'ok', reason: 'ApplicationSetUpToDate' }] }), o)), allowed: true, result: { status: { conditions: [{ type: 'ResourcesUpToDate', status: 'True', message: 'ok', reason: 'ApplicationSetUpToDate' }] } } });
        break;
      case 3:
        cases.push({ name: `case ${i}: no scale`, operation: 'scale-get', object: obj(i), denied: [{ reason: 'NotFound', message: `applicationsets.argoproj.io "appset-${i}" not found` }] });
        break;
      default:
        cases.push({ name: `case ${i}: generators is a list`, object: obj(i, (o) => ((o.spec.generators = 'list'), o)), denied: [{ field: 'spec.generators', type: 'TypeInvalid', messageContains: 'must be of type array' }] });
    }
  }
  writeFileSync(file, `# generated by bench/setup.mjs\n${stringify({ crds: ['applicationsets.yaml'], cases }, { lineWidth: 0 })}`);
  return { file, cases: TEST_CASES };
}

/**
 * A copy of the corpus CRDs (block YAML, as the corpus is) with one version added to each CRD: a copy of its
 * storage version under a new name, served and not stored (the input of the lint --old row).
 */
export function reviseCorpus(src, out) {
  let crds = 0;
  for (const project of readdirSync(src).sort())
    for (const f of readdirSync(join(src, project)).sort()) {
      if (!/\.ya?ml$/.test(f)) continue;
      const docs = parseAllDocuments(readFileSync(join(src, project, f), 'utf8'))
        .map((d) => d.toJS({ maxAliasCount: -1 }))
        .filter((d) => d !== null && d !== undefined);
      const texts = docs.map((d) => {
        const versions = d?.kind === 'CustomResourceDefinition' ? d.spec?.versions : undefined;
        if (Array.isArray(versions) && versions.length > 0) {
          const storage = versions.find((v) => v?.storage) ?? versions[0];
          const names = new Set(versions.map((v) => v?.name));
          let i = 90;
          while (names.has(`v${i}`)) i++;
          versions.push({ ...structuredClone(storage), name: `v${i}`, storage: false });
          crds++;
        }
        // 1.1: strings such as yes stay quoted, as kubectl reads them. A string with a tab is written
        // double-quoted, as in the corpus: in a block scalar the tab would start a line, which sends
        // the file to crdx's slow YAML path, and this row would measure that instead of the update
        const doc = new Document(d, { version: '1.1' });
        visit(doc, { Scalar: (_, n) => void (typeof n.value === 'string' && n.value.includes('\t') && (n.type = 'QUOTE_DOUBLE')) });
        return doc.toString({ lineWidth: 0 });
      });
      mkdirSync(join(out, project), { recursive: true });
      writeFileSync(join(out, project, f), texts.join('---\n'));
    }
  return { dir: out, crds };
}
