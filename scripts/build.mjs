#!/usr/bin/env node
// Production build with esbuild. Type checking is `npm run typecheck` (tsc), which `npm test` runs
// first.
//
//   node scripts/build.mjs          dist/cli/kubectl-crdx.cjs: the CLI as one CommonJS file, which
//                                   bin/kubectl-crdx compiles with V8's code cache (V8 compiles each
//                                   function when first called, so code a run does not use costs
//                                   little), and the cache this Node makes of it; dist/cli/spinner.mjs
//                                   (ora, cluster mode only); the lint worker and the modules tests and
//                                   scripts import, as ESM split into chunks
//   node scripts/build.mjs --sea [FILE]  .build/sea/kubectl-crdx.cjs: the main script of the Node
//                                   single executable (scripts/package.mjs, scripts/sea-main.cjs), and
//                                   beside it its assets: cli.cjs, the CLI (one CommonJS file, nothing
//                                   external), client-node.cjs (the cluster client) and lsp.cjs
//   node scripts/build.mjs --entry [FILE]  lib/kubectl-crdx.cjs (committed; npm run build:entry): the
//                                   CLI bundle with the spinner inside, which bin/kubectl-crdx runs
//                                   when dist/ was not built: what an install from git (the
//                                   pre-commit hook) or a tarball packed without a build runs. The
//                                   same sources and lockfile give the same bytes on any machine;
//                                   test/unit/committed-entry.test.ts fails when it is stale
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSite } from './build-site.mjs';
import { re2jsPatch } from './re2js-patch.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sea = process.argv.includes('--sea');
const entry = process.argv.includes('--entry');

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

/**
 * js-yaml's readFlowCollection (tried for every node it composes) makes a dictionary object for the
 * keys a merge may override before it looks whether the node opens a flow collection at all; the
 * bundle makes it only for a `[` or `{` (most nodes are neither). On the bench's large lint this was
 * the largest allocation of all (95 MB of 775).
 */
const jsYamlFlowKeysLazy = {
  name: 'js-yaml-flow-keys-lazy',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]js-yaml[\\/]dist[\\/]js-yaml\.mjs$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const at = text.indexOf('function readFlowCollection(');
      const old = 'const overridableKeys = /* @__PURE__ */ Object.create(null);';
      const i = at < 0 ? -1 : text.indexOf(old, at);
      const next = at < 0 ? -1 : text.indexOf('function ', at + 1);
      if (i < 0 || i > next) return { contents: text, loader: 'js', warnings: [{ text: 'js-yaml readFlowCollection: overridableKeys not found, left as is' }] };
      const lazy = 'const overridableKeys = state.input.charCodeAt(state.position) === 91 || state.input.charCodeAt(state.position) === 123 ? Object.create(null) : null;';
      return { contents: text.slice(0, i) + lazy + text.slice(i + old.length), loader: 'js' };
    });
  },
};

/**
 * esbuild writes ASCII but leaves a regular expression literal as it is, and cel-js's duration
 * pattern holds a µ: one non-ASCII character, and bin/kubectl-crdx could not read the bundle as
 * Latin-1 (a one-byte string, read faster than UTF-8) but decodes UTF-8 into a two-byte string.
 * The bundle writes it as \\u00b5, the same pattern; stampBundle warns when a bundle is not ASCII.
 */
const celJsAsciiDurationPattern = {
  name: 'cel-js-ascii-duration-pattern',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]@marcbachmann[\\/]cel-js[\\/]lib[\\/]functions\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const patched = text.replace('/(\\d*\\.?\\d*)(ns|us|\u00b5s|ms|s|m|h)/', '/(\\d*\\.?\\d*)(ns|us|\\u00b5s|ms|s|m|h)/');
      const warnings = patched === text ? [{ text: 'cel-js functions: duration pattern not found, left as is' }] : [];
      return { contents: patched, loader: 'js', warnings };
    });
  },
};

const common = {
  plugins: [yamlNoTokenLog, yamlFoldLinesFastPath, jsYamlFlowKeysLazy, re2jsPatch, celJsAsciiDurationPattern],
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
/** The language server (`lsp`) is an asset too: a lint does not parse it either. */
const SEA_LSP_ASSET = 'lsp.cjs';
/** The CLI itself: the main script (scripts/sea-main.cjs) compiles it with V8's code cache (bin/load-bundle.cjs). */
const SEA_CLI_ASSET = 'cli.cjs';
const assetModule = (name) => `const { getAsset } = require('node:sea');
const Module = require('node:module');
const m = new Module(${JSON.stringify(name)});
m.filename = ${JSON.stringify(name)};
m._compile(getAsset(${JSON.stringify(name)}, 'utf8'), ${JSON.stringify(name)});
module.exports = m.exports;`;
const seaClientFromAsset = {
  name: 'sea-client-from-asset',
  setup(b) {
    b.onResolve({ filter: /^@kubernetes\/client-node$/ }, () => ({ path: SEA_CLIENT_ASSET, namespace: 'sea-asset' }));
    // src/cli/lazy-lsp.ts's import() of the language server's entry
    b.onResolve({ filter: /[\\/]lsp-entry\.js$/ }, (args) => (args.kind === 'dynamic-import' ? { path: SEA_LSP_ASSET, namespace: 'sea-asset' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'sea-asset' }, (args) => ({ loader: 'js', contents: assetModule(args.path) }));
  },
};

/** The CLI bundle bin/kubectl-crdx runs. */
const CLI_BUNDLE = 'dist/cli/kubectl-crdx.cjs';

/**
 * In the CLI bundle, src/io/lazy-deps.ts and src/cli/lazy-lsp.ts ask bin/kubectl-crdx to import the
 * cluster client, the spinner and the language server (`__crdxImport`, a parameter of the function
 * the bundle is wrapped in): code compiled through node:vm cannot call import() (Node 20 wants
 * --experimental-vm-modules for that).
 */
const hostImports = ({ spinnerInside = false } = {}) => ({
  name: 'host-imports',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]io[\\/]lazy-deps\.ts$/ }, (args) => ({
      loader: 'js',
      resolveDir: dirname(args.path),
      // spinnerInside: ora is bundled (esbuild turns this import() into a call, not an import())
      contents: `export const importClientNode = () => __crdxImport('@kubernetes/client-node');
export const importOra = () => ${spinnerInside ? "import('ora')" : "__crdxImport('./spinner.mjs')"};`,
    }));
    b.onLoad({ filter: /[\\/]src[\\/]cli[\\/]lazy-lsp\.ts$/ }, (args) => ({
      loader: 'js',
      resolveDir: dirname(args.path),
      contents: `export const importLspEntry = () => ${
        // the committed entry (lib/, for the pre-commit hook) leaves the language server out: it stays small
        spinnerInside ? "Promise.reject(new Error('kubectl crdx lsp needs the built package (npm run build:dist), the npm package or the VS Code extension'))" : "__crdxImport('./lsp.mjs')"
      };`,
    }));
  },
});

/** A lazy import() of a Node built-in becomes a require() when first used (code compiled through node:vm cannot call import()). */
const builtinRequire = {
  name: 'builtin-require',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'builtin-require' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'builtin-require' }, (args) => ({ loader: 'js', contents: `module.exports = require(${JSON.stringify(args.path)});` }));
  },
};

/**
 * Node built-ins the CLI bundle loads when first used rather than at start: node:crypto
 * (X509Certificate for the conversion rule's caBundle, sha256 for SARIF fingerprints) and
 * node:child_process (commander's executable subcommands, `--git`), about 2.5 ms each of a cold
 * start that uses neither, and node:tty (it loads node:net and the streams; asked only when an
 * output is a character device, src/cli/process.ts). Each becomes a module whose exports are
 * getters that require it.
 */
const LAZY_BUILTINS = ['node:crypto', 'node:child_process', 'node:tty'];
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const filter = new RegExp(`^(?:${LAZY_BUILTINS.join('|')})$`);
    b.onResolve({ filter }, (args) => (args.kind === 'dynamic-import' ? undefined : { path: args.path, namespace: 'lazy-builtin' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => {
      const names = Object.keys(createRequire(import.meta.url)(args.path)).filter((k) => k !== 'default');
      const bare = JSON.stringify(args.path.slice('node:'.length));
      return {
        loader: 'js',
        contents: `let m;const g=()=>m??=require(${bare});${names.map((k) => `Object.defineProperty(exports,${JSON.stringify(k)},{enumerable:true,get:()=>g()[${JSON.stringify(k)}]});`).join('')}`,
      };
    });
  },
};

/**
 * In the CLI bundle, src/schema/cel-module-sync.ts gives the CEL module through a require() that
 * esbuild resolves inside the bundle: cel-js initialises when a rule first needs it, not at every
 * lint of a file with rules (src/schema/cel-syntax.ts `loadCel`).
 */
const celModuleOnUse = {
  name: 'cel-module-on-use',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]schema[\\/]cel-module-sync\.ts$/ }, (args) => ({
      loader: 'js',
      resolveDir: dirname(args.path),
      contents: "export const celModuleSync = () => require('@marcbachmann/cel-js');",
    }));
  },
};

/** The committed entry (--entry): lib/kubectl-crdx.cjs. */
const ENTRY_BUNDLE = 'lib/kubectl-crdx.cjs';

/** The options of a CLI bundle (dist/cli/kubectl-crdx.cjs, or the committed entry with the spinner inside). */
const cliBundle = (outfile, { spinnerInside = false } = {}) => ({
  ...common,
  format: 'cjs',
  splitting: false,
  plugins: [...common.plugins, hostImports({ spinnerInside }), builtinRequire, lazyBuiltins, celModuleOnUse],
  entryPoints: ['src/cli/process.ts'],
  outfile,
  metafile: true,
  // the worker's script is found from the bundle's own place (src/cli/lint-threads.ts); beside the
  // committed entry there is none, and a lint runs on one thread
  define: { 'import.meta.url': '__crdxMetaUrl' },
  banner: { js: 'var __crdxMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
});

/**
 * Writes the bundle's id (a hash of its text) as its first line: V8 accepts a code cache for any
 * source of the same length, so bin/kubectl-crdx names each cache after the bundle it was made from.
 */
function stampBundle(file) {
  const text = readFileSync(file, 'utf8');
  // (comment lines aside: a build without minifyWhitespace keeps JSDoc types such as import('x').T)
  if (text.split('\n').some((l) => /\bimport\(/.test(l) && !/^\s*(?:\*|\/\/)/.test(l))) throw new Error(`${file}: has an import() call, which cannot run from the code cache`);
  const nonAscii = /[^\x00-\x7f]/.exec(text);
  if (nonAscii) console.warn(`build: ${file} is not ASCII (${JSON.stringify(text.slice(Math.max(0, nonAscii.index - 40), nonAscii.index + 10))}): bin/kubectl-crdx reads it as UTF-8, slower`);
  writeFileSync(file, `//crdx-bundle ${createHash('sha256').update(text).digest('hex').slice(0, 16)}\n${text}`);
}

/**
 * The code cache shipped beside the bundle (dist/cli/<id>-<node version>-<arch>.v8cache): made by
 * linting the fixture CRDs (with a CEL rule) and a custom resource with rules once, so it holds what
 * a lint compiles. Used when the running Node is the one that built it; other Nodes make their own
 * in the user's cache directory.
 */
function shipCodeCache() {
  // the fixture CRDs, and a custom resource whose rules are evaluated (the CEL module is only initialised by a rule that needs it)
  const inputs = [join(root, 'fixtures', 'crds'), join(root, 'fixtures', 'rules', 'cel-not-evaluated', 'valid', 'evaluated.yaml')];
  const r = spawnSync(process.execPath, [join(root, 'bin', 'kubectl-crdx'), 'lint', ...inputs], {
    cwd: root,
    stdio: 'ignore',
    env: { ...process.env, CRDX_CACHE_DIR: join(root, 'dist', 'cli'), CRDX_COMPILE_CACHE: '1', NO_COLOR: '1' },
  });
  // exit 1: the fixtures have findings
  if (r.status !== 1) console.warn(`build: making the code cache: lint exited ${r.status ?? r.signal}`);
}

if (entry) {
  const outfile = resolve(root, process.argv[process.argv.indexOf('--entry') + 1] ?? ENTRY_BUNDLE);
  await build(cliBundle(outfile, { spinnerInside: true }));
  stampBundle(outfile);
} else if (sea) {
  const outfile = process.argv[process.argv.indexOf('--sea') + 1] ?? '.build/sea/kubectl-crdx.cjs';
  const cjs = { ...common, format: 'cjs', splitting: false, minifyIdentifiers: true };
  await build({
    ...cjs,
    stdin: { contents: "module.exports = require('@kubernetes/client-node');", resolveDir: root, sourcefile: 'client-node-asset.cjs', loader: 'js' },
    outfile: join(dirname(outfile), SEA_CLIENT_ASSET),
  });
  await build({ ...cjs, entryPoints: ['src/cli/lsp-entry.ts'], outfile: join(dirname(outfile), SEA_LSP_ASSET) });
  // the CLI: one file, dynamic imports inlined (but for the assets above); identifiers are minified
  // too (a smaller script compiles faster where there is no code cache yet, on a first run)
  const cli = join(dirname(outfile), SEA_CLI_ASSET);
  await build({ ...cjs, plugins: [...common.plugins, seaClientFromAsset, builtinRequire, lazyBuiltins, celModuleOnUse], entryPoints: ['src/cli/process.ts'], outfile: cli });
  stampBundle(cli);
  // the main script, which runs it with the code cache
  await build({ ...cjs, entryPoints: ['scripts/sea-main.cjs'], outfile });
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
  // The CLI (what bin/kubectl-crdx runs): one CommonJS file, compiled from V8's code cache at start
  // (see bin/kubectl-crdx), plus the spinner as an ES module of its own, imported only in cluster mode
  const cli = await build(cliBundle(CLI_BUNDLE));
  stampBundle(join(root, CLI_BUNDLE));
  // the language server (kubectl crdx lsp) as an ES module of its own, with the engine it checks with
  const lsp = await build({ ...common, format: 'esm', entryPoints: ['src/cli/lsp-entry.ts'], outfile: 'dist/cli/lsp.mjs', metafile: true, external: EXTERNAL, banner: esm.banner });
  const spinner = await build({ ...common, format: 'esm', stdin: { contents: "export { default } from 'ora';", resolveDir: root, sourcefile: 'spinner.mjs', loader: 'js' }, outfile: 'dist/cli/spinner.mjs', metafile: true, banner: esm.banner });
  // dist/engine/lint-worker.js: the worker thread of a parallel lint (src/engine/lint-parallel.ts),
  // split ESM like the internal bundles below
  const product = await build({ ...esm, entryPoints: ['src/engine/lint-worker.ts'], chunkNames: 'chunks/[name]-[hash]' });
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
      'src/schema/cel-syntax.ts',
    ],
    chunkNames: 'internal/[name]-[hash]',
  });
  // files of earlier builds are removed (dist/ is not wiped first: a concurrent run of the built
  // CLI keeps working while this build writes)
  const written = new Set([cli, lsp, spinner, product, internal].flatMap((b) => Object.keys(b.metafile.outputs)).map((f) => join(root, f)));
  for (const f of readdirSync(join(root, 'dist'), { recursive: true, withFileTypes: true }))
    if (f.isFile() && !written.has(join(f.parentPath ?? f.path, f.name))) rmSync(join(f.parentPath ?? f.path, f.name));
  shipCodeCache();
  // the playground (dist/site/): the engine again, bundled for the browser (scripts/build-site.mjs)
  await buildSite();
}
