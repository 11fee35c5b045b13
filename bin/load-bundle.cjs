// Runs a CLI bundle compiled with V8's code cache: bin/kubectl-crdx (the npm package) and the single
// executable of the krew archive (scripts/sea-main.cjs, built into its main script) both start here.
// Node 20 has no compile cache of its own, and compiling the bundle from source is about a third of
// a cold start (a lint of one small CRD: ~25 ms of ~90).
// A cache is only used for the bundle (its first line names it) and the Node it was made by: first
// the one in the user's cache directory, made by an earlier run, else one shipped beside the bundle
// (`shippedDir`: the npm build ships one; the single executable ships none, its archive must be
// reproducible). When neither is accepted, the bundle is compiled from source and the cache of this
// run is written to the user's cache directory as the process exits (again by the next run when it
// holds little, see `thin`); caches of other bundles or
// Node versions of the same kind (`kind`: '' for the npm bin, 'sea-' for the single executable, so
// that both installed on one machine do not remove each other's) are removed then.
// CRDX_COMPILE_CACHE=0: no cache read or written; CRDX_CACHE_DIR: the cache directory to use.
// Named <kind><bundle id>-<node version>-<arch>[-<hash of the Node options>].v8cache.
// (This file is CommonJS: bin/package.json.)
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');

/** The bundle's text: the build writes it in ASCII (scripts/build.mjs warns otherwise), which reads faster as Latin-1 (a one-byte string) than as UTF-8 (~1 ms). */
function bundleText(buf) {
  return require('node:buffer').isAscii(buf) ? buf.toString('latin1') : buf.toString('utf8');
}

function userCacheDir(env) {
  if (env.CRDX_CACHE_DIR) return path.resolve(env.CRDX_CACHE_DIR);
  if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) return path.join(env.XDG_CACHE_HOME, 'kubectl-crdx');
  const home = require('node:os').homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'kubectl-crdx');
  if (process.platform === 'win32') return path.join(env.LOCALAPPDATA || path.join(home, 'AppData', 'Local'), 'kubectl-crdx', 'Cache');
  return path.join(home, '.cache', 'kubectl-crdx');
}

// mkdir -p that always ends (src/io/make-dirs.ts: Node 20's recursive mkdirSync never returns under /proc)
function makeDirs(dir) {
  const missing = [];
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      fs.mkdirSync(d, { mode: 0o700 });
      break;
    } catch (e) {
      if (e.code === 'EEXIST') break;
      if (e.code !== 'ENOENT' || path.dirname(d) === d) throw e;
      missing.push(d);
    }
  }
  for (const d of missing.reverse()) fs.mkdirSync(d, { mode: 0o700 });
}

/**
 * Compiles and runs `source` (a bundle that exports runProcess), then runs the CLI.
 * o: { source, filename, dirname, kind, shippedDir?, require, hostImport? }
 */
function runBundle(o) {
  const env = process.env;
  const useCache = env.CRDX_COMPILE_CACHE !== '0';
  const id = /^\/\/crdx-bundle ([0-9a-f]+)\n/.exec(o.source)?.[1];
  // V8 refuses a cache made under other flags: a run with Node options (NODE_OPTIONS, or flags before
  // the script) keeps its own cache, named after them, so that runs with and without them do not
  // replace each other's cache at every start
  const flags = [...process.execArgv, ...(env.NODE_OPTIONS ? [env.NODE_OPTIONS] : [])].join('\0');
  let fnv = 0x811c9dc5;
  for (let i = 0; i < flags.length; i++) fnv = Math.imul(fnv ^ flags.charCodeAt(i), 0x01000193) >>> 0;
  const base = `${o.kind}${id}-${process.version}-${process.arch}`;
  const name = flags === '' ? `${base}.v8cache` : `${base}-${fnv.toString(16).padStart(8, '0')}.v8cache`;
  // caches of this kind: the bin's names start with the bundle id, the executable's with its kind
  const ofKind = o.kind === '' ? (f) => /^[0-9a-f]+-v/.test(f) : (f) => f.startsWith(o.kind);

  let cacheDir;
  let cachedData;
  if (useCache && id !== undefined) {
    try {
      cacheDir = userCacheDir(env);
      // a build ships the cache of a run without flags (some flags leave V8's hash as it is)
      for (const [dir, file] of [[cacheDir, name], ...(o.shippedDir !== undefined ? [[o.shippedDir, `${base}.v8cache`]] : [])]) {
        try {
          cachedData = fs.readFileSync(path.join(dir, file));
          break;
        } catch {}
      }
    } catch {}
  }

  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, __crdxImport) {${o.source}\n})`, { filename: o.filename, cachedData });

  // a cache made by a run that compiled little (`--version`, `--help`: under a third of what a lint
  // compiles) is made again by the next run, until one holds about what a lint needs
  const thin = cachedData !== undefined && cachedData.length < o.source.length / 2;
  if (useCache && cacheDir !== undefined && (cachedData === undefined || script.cachedDataRejected === true || thin)) {
    // at exit, the cache holds the functions this run compiled, not only the bundle's top level
    process.once('exit', () => {
      try {
        const data = script.createCachedData();
        makeDirs(cacheDir);
        const file = path.join(cacheDir, name);
        const tmp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, data, { mode: 0o600 });
        fs.renameSync(tmp, file);
        // caches of other bundles or Node versions are never used again (those of other flags may be)
        for (const f of fs.readdirSync(cacheDir))
          if (f.endsWith('.v8cache') && ofKind(f) && !f.startsWith(`${base}.`) && !f.startsWith(`${base}-`)) fs.rmSync(path.join(cacheDir, f), { force: true });
      } catch {}
    });
  }

  const mod = { exports: {} };
  script.runInThisContext()(mod.exports, o.require, mod, o.filename, o.dirname, o.hostImport);
  // --crd verdicts are kept in the same cache directory, for this bundle only (src/cli/verdict-cache.ts)
  void mod.exports.runProcess(undefined, id !== undefined ? { id, dir: () => cacheDir ?? userCacheDir(env) } : undefined);
}

module.exports = { bundleText, runBundle };
