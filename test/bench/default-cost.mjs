#!/usr/bin/env node
// Per-object cost of `default` (decode + validate + storage read-back) and of lint's custom-resource
// check (decode + validate), against the cost of parsing the same object's YAML, over the corpus
// samples that have a CRD in the corpus. Run after `npm run build:dist`:
//   node test/bench/default-cost.mjs [iterations]
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseFile } from '../../dist/manifest/parse.js';
import { buildCrd, isCrdManifest } from '../../dist/crd/model.js';
import { CrdCatalog } from '../../dist/cr/catalog.js';
import { simulateCreate } from '../../dist/cr/create.js';
import { wireValue } from '../../dist/cr/wire.js';
import { loadCel } from '../../dist/schema/cel-syntax.js';

const CORPUS = join(import.meta.dirname, '..', '..', '..', 'shared', 'corpus');
if (!existsSync(CORPUS)) {
  console.error(`no corpus at ${CORPUS}`);
  process.exit(2);
}
const N = Number(process.argv[2] ?? 200);
const kube = { major: 1, minor: 36 };
const cel = await loadCel();
const files = (k) => readdirSync(join(CORPUS, k)).sort().flatMap((p) => readdirSync(join(CORPUS, k, p)).sort().map((f) => ({ path: join(CORPUS, k, p, f), text: readFileSync(join(CORPUS, k, p, f), 'utf8') })));

const crds = files('crds').flatMap((f) => parseFile(f).flatMap((d) => d.manifests)).filter(isCrdManifest).map((m) => buildCrd(m, kube, cel));
const catalog = new CrdCatalog(crds);

// one source text per object: each document of the sample files on its own
const objects = [];
for (const f of files('samples'))
  for (const doc of f.text.split(/^---\s*$/m)) {
    const src = { path: f.path, text: doc };
    const m = parseFile(src).flatMap((d) => d.manifests)[0];
    if (!m || isCrdManifest(m)) continue;
    const l = catalog.lookup(m.apiVersion ?? '', m.kind ?? '');
    if (l.ok) objects.push({ src, served: l.served });
  }

const ms = (t) => Number(t) / 1e6;
// first use of each CRD version: the schema preparation (pruned defaults, compiled validator)
let t = process.hrtime.bigint();
for (const o of objects) {
  const m = parseFile(o.src)[0].manifests[0];
  simulateCreate(wireValue(m), o.served, { kube });
}
const first = ms(process.hrtime.bigint() - t);

const bytes = objects.reduce((a, o) => a + o.src.text.length, 0);
const time = (fn) => {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < N; i++) for (const o of objects) fn(o);
  return ms(process.hrtime.bigint() - t0) / (N * objects.length);
};
const parsed = objects.map((o) => parseFile(o.src)[0].manifests[0]);
let k = 0;
const parse = time((o) => parseFile(o.src));
k = 0;
const full = time(() => {
  const m = parsed[k++ % parsed.length];
  simulateCreate(wireValue(m), objects[(k - 1) % objects.length].served, { kube });
});
k = 0;
const validate = time(() => {
  const m = parsed[k++ % parsed.length];
  simulateCreate(wireValue(m), objects[(k - 1) % objects.length].served, { kube, skipStorage: true });
});
console.log(`${objects.length} objects (${(bytes / objects.length / 1024).toFixed(1)} KiB of YAML on average), ${N} rounds`);
console.log(`first pass incl. per-CRD-version preparation: ${first.toFixed(1)} ms in total`);
console.log(`parse YAML:                          ${(parse * 1000).toFixed(0)} µs/object`);
console.log(`default (decode+validate+read-back): ${(full * 1000).toFixed(0)} µs/object (${((full / parse) * 100).toFixed(0)}% of parsing)`);
console.log(`lint check (decode+validate):        ${(validate * 1000).toFixed(0)} µs/object (${((validate / parse) * 100).toFixed(0)}% of parsing)`);
