#!/usr/bin/env node
// Production build: esbuild bundles src/ into dist/ as ESM with code splitting, so every
// `await import()` of the sources (the lint and default commands, the CEL parser, the cluster
// client) stays a separate chunk that is only read when used. Type checking is `npm run
// typecheck` (tsc), which `npm test` runs first.
//
//   node scripts/build.mjs          dist/ (ESM, split): bin/kubectl-crdx imports dist/cli/main.js
//   node scripts/build.mjs --sea [FILE]  .build/sea/kubectl-crdx.cjs: one CommonJS file, nothing
//                                   external, for the Node single executable (scripts/package.mjs),
//                                   and beside it client-node.cjs, the cluster client, an asset of it
import { build } from 'esbuild';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sea = process.argv.includes('--sea');

/** Loaded lazily and heavy (~0.6 s to import): stays a runtime dependency, never bundled into dist/. */
export const EXTERNAL = ['@kubernetes/client-node'];

/**
 * yaml's parser reads process.env.LOG_TOKENS (a debug switch) for every token, and reading
 * process.env is a call into the runtime: about a fifth of the parse time. The bundle has it off.
 */
const yamlNoTokenLog = {
  name: 'yaml-no-token-log',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]yaml[\\/]dist[\\/]parse[\\/]parser\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const patched = text.replace('if (node_process.env.LOG_TOKENS)', 'if (false)');
      const warnings = patched === text ? [{ text: 'yaml parser: LOG_TOKENS check not found, left as is' }] : [];
      return { contents: patched, loader: 'js', warnings };
    });
  },
};

/**
 * yaml's foldLines (every plain and quoted scalar goes through it) compiles two RegExps per call
 * before it looks for a line break; without a `\n` its first RegExp cannot match and it returns the
 * source unchanged, so the bundle returns early for single-line scalars (most of them).
 */
const yamlFoldLinesFastPath = {
  name: 'yaml-fold-lines-fast-path',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]yaml[\\/]dist[\\/]compose[\\/]resolve-flow-scalar\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const patched = text.replace('function foldLines(source) {', "function foldLines(source) {\n    if (source.indexOf('\\n') === -1)\n        return source;");
      const warnings = patched === text ? [{ text: 'yaml resolve-flow-scalar: foldLines not found, left as is' }] : [];
      return { contents: patched, loader: 'js', warnings };
    });
  },
};

const common = {
  plugins: [yamlNoTokenLog, yamlFoldLinesFastPath],
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
  // identifiers are not minified: names stay readable in stack traces (CRDX_DEBUG)
  minifySyntax: true,
  minifyWhitespace: true,
};

/**
 * In the single executable, the cluster client (most of the code, and only used with --cluster) is
 * not part of the main script, which V8 parses at every start: it is a second bundle stored as an
 * asset of the executable (sea-config.json `assets`), compiled when first imported.
 */
const SEA_CLIENT_ASSET = 'client-node.cjs';
const seaClientFromAsset = {
  name: 'sea-client-from-asset',
  setup(b) {
    b.onResolve({ filter: /^@kubernetes\/client-node$/ }, () => ({ path: 'client-node', namespace: 'sea-asset' }));
    b.onLoad({ filter: /.*/, namespace: 'sea-asset' }, () => ({
      loader: 'js',
      contents: `const { getAsset } = require('node:sea');
const Module = require('node:module');
const m = new Module(${JSON.stringify(SEA_CLIENT_ASSET)});
m.filename = ${JSON.stringify(SEA_CLIENT_ASSET)};
m._compile(getAsset(${JSON.stringify(SEA_CLIENT_ASSET)}, 'utf8'), ${JSON.stringify(SEA_CLIENT_ASSET)});
module.exports = m.exports;`,
    }));
  },
};

if (sea) {
  const outfile = process.argv[process.argv.indexOf('--sea') + 1] ?? '.build/sea/kubectl-crdx.cjs';
  const cjs = { ...common, format: 'cjs', splitting: false, minifyIdentifiers: true };
  await build({
    ...cjs,
    stdin: { contents: "module.exports = require('@kubernetes/client-node');", resolveDir: root, sourcefile: 'client-node-asset.cjs', loader: 'js' },
    outfile: join(dirname(outfile), SEA_CLIENT_ASSET),
  });
  // one file: dynamic imports are inlined. V8 pre-parses all of it at start-up, so identifiers are
  // minified too (a smaller script parses faster), and the cluster client is the asset built above
  await build({ ...cjs, plugins: [...common.plugins, seaClientFromAsset], entryPoints: ['src/cli/sea-entry.ts'], outfile });
} else {
  const esm = {
    ...common,
    outbase: 'src',
    outdir: 'dist',
    format: 'esm',
    splitting: true,
    external: EXTERNAL,
    // bundled CommonJS dependencies may call require() for Node built-ins
    metafile: true,
    banner: { js: "import { createRequire as __crdxCreateRequire } from 'node:module'; const require = __crdxCreateRequire(import.meta.url);" },
  };
  // The product: one entry (what bin/kubectl-crdx runs), so a cold start reads as few files as
  // possible: dist/cli/process.js (commander, the CLI), then per command one lazy chunk.
  // dist/engine/lint-worker.js: the worker thread of a parallel lint (src/engine/lint-parallel.ts)
  const product = await build({ ...esm, entryPoints: ['src/cli/process.ts', 'src/engine/lint-worker.ts'], chunkNames: 'chunks/[name]-[hash]' });
  // Modules imported by scripts/gen-docs.mjs, test/bench and tools, bundled apart from the product
  // so they do not split its chunks.
  const internal = await build({
    ...esm,
    entryPoints: [
      'src/cli/main.ts',
      'src/rules/index.ts',
      'src/docs.ts',
      'src/manifest/parse.ts',
      'src/crd/model.ts',
      'src/cr/catalog.ts',
      'src/cr/create.ts',
      'src/cr/wire.ts',
    ],
    chunkNames: 'internal/[name]-[hash]',
  });
  // files of earlier builds are removed (dist/ is not wiped first: a concurrent run of the built
  // CLI keeps working while this build writes)
  const written = new Set([...Object.keys(product.metafile.outputs), ...Object.keys(internal.metafile.outputs)].map((f) => join(root, f)));
  for (const f of readdirSync(join(root, 'dist'), { recursive: true, withFileTypes: true }))
    if (f.isFile() && !written.has(join(f.parentPath ?? f.path, f.name))) rmSync(join(f.parentPath ?? f.path, f.name));
}
