#!/usr/bin/env node
// The playground (site/) as static files in dist/site/ (npm run build:site; npm run build:dist
// calls it too):
//
//   index.html, style.css  as written in site/
//   app.js       the page (CodeMirror 6 and the UI), a classic script
//   engine.js    the engine's Web Worker, loaded after the page is up: a classic script that holds
//                the worker's code as a string, which the page starts from a Blob URL. Classic
//                scripts and blob workers run from file:// in Chromium, where module scripts, fetch()
//                and a worker started from a file: URL are refused (origin null)
//   examples.js  the examples from fixtures/, loaded after the page is up
//
// The worker bundle holds no Node built-in: Buffer is the `buffer` package, process.env is empty,
// and node:crypto (X.509, used by lint --old only) is a stub that says so (site/shims/).
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'site');

const browser = {
  absWorkingDir: root,
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: ['chrome110', 'firefox115', 'safari16'],
  legalComments: 'none',
  minify: true,
  write: false,
  metafile: true,
  logLevel: 'warning',
};

/** Refuses a browser bundle that still reaches for Node. */
function assertNoNode(name, metafile) {
  const bad = Object.keys(metafile.inputs).filter((f) => f.startsWith('node:') || /^(fs|path|crypto|worker_threads|url|module|os)$/.test(f));
  if (bad.length > 0) throw new Error(`${name}: Node built-ins in a browser bundle: ${bad.join(', ')}`);
}

/** Every fixture the page offers, split into the page's panes. */
function examples() {
  const fx = join(root, 'fixtures');
  const read = (...p) => (existsSync(join(fx, ...p)) ? readFileSync(join(fx, ...p), 'utf8') : '');
  const dirs = (p) => readdirSync(join(fx, p)).filter((d) => statSync(join(fx, p, d)).isDirectory()).sort();
  const list = [];
  // kubectl's --validate the fixture runs with (its args file), when not strict
  const validate = (...p) => /--validate[= ](\w+)/.exec(read(...p, 'args'))?.[1];
  const add = (x, v) => list.push(v && v !== 'strict' && v !== 'true' ? { ...x, validate: v } : x);
  // simulations first: a CRD and an object, the page's whole story
  for (const d of dirs('simulate')) add({ name: `simulate/${d}`, crds: read('simulate', d, 'crd.yaml'), object: read('simulate', d, 'input.yaml'), old: '' }, validate('simulate', d));
  for (const d of dirs('status')) add({ name: `status/${d}`, crds: read('status', d, 'crd.yaml'), object: read('status', d, 'new.yaml'), old: read('status', d, 'old.yaml') }, validate('status', d));
  for (const d of dirs('scale')) add({ name: `scale/${d}`, crds: read('scale', d, 'crd.yaml'), object: read('scale', d, 'input.yaml'), old: '' }, validate('scale', d));
  for (const f of readdirSync(join(fx, 'crds')).sort()) list.push({ name: `crds/${f}`, crds: read('crds', f), object: '', old: '' });
  // each rule's invalid fixtures, as lint reads them: the whole file in the CRD pane
  for (const r of dirs('rules'))
    for (const kind of ['invalid'])
      if (existsSync(join(fx, 'rules', r, kind)))
        for (const f of readdirSync(join(fx, 'rules', r, kind)).filter((x) => /\.ya?ml$/.test(x)).sort()) list.push({ name: `rules/${r}/${kind}/${f}`, crds: read('rules', r, kind, f), object: '', old: '' });
  return list;
}

export async function buildSite() {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const worker = await build({
    ...browser,
    entryPoints: ['site/worker.ts'],
    inject: ['site/shims/globals.ts'],
    alias: { 'node:crypto': './site/shims/node-crypto.ts' },
  });
  assertNoNode('engine', worker.metafile);
  const workerCode = worker.outputFiles[0].text;
  writeFileSync(join(out, 'engine.js'), `self.crdxWorkerSource=${JSON.stringify(workerCode)};\n`);
  const app = await build({ ...browser, entryPoints: ['site/app.ts'] });
  assertNoNode('app', app.metafile);
  writeFileSync(join(out, 'app.js'), app.outputFiles[0].text);
  writeFileSync(join(out, 'examples.js'), `self.crdxExamples=${JSON.stringify(examples())};\n`);
  for (const f of ['index.html', 'style.css']) copyFileSync(join(root, 'site', f), join(out, f));
  return sizes();
}

/** Bytes and gzip -9 bytes of each file of dist/site/. */
export function sizes() {
  const rows = readdirSync(out)
    .sort()
    .map((f) => {
      const b = readFileSync(join(out, f));
      return { file: f, bytes: b.length, gzip: gzipSync(b, { level: 9 }).length };
    });
  return { rows, total: rows.reduce((n, r) => n + r.bytes, 0), totalGzip: rows.reduce((n, r) => n + r.gzip, 0) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const s = await buildSite();
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  for (const r of s.rows) console.log(`${relative(root, join(out, r.file)).padEnd(28)} ${kb(r.bytes).padStart(11)}  gzip ${kb(r.gzip).padStart(10)}`);
  console.log(`${'total'.padEnd(28)} ${kb(s.total).padStart(11)}  gzip ${kb(s.totalGzip).padStart(10)}`);
}
