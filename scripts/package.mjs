#!/usr/bin/env node
// npm run package: the krew release of this machine's platform.
//   1. one CommonJS bundle of the CLI (node scripts/build.mjs --sea): a single executable cannot load chunks
//   2. a Node single executable application: a copy of this node binary with the bundle injected
//      (sea-config.json -> node --experimental-sea-config -> postject, sentinel fuse NODE_SEA_FUSE_…)
//   3. a reproducible archive .build/release/kubectl-crdx_<os>_<arch>.tar.gz (sorted entries, mtime 0,
//      uid/gid 0, no names, gzip without timestamp) holding kubectl-crdx and LICENSE
//   4. krew-manifest.yaml regenerated with that archive's sha256; platforms whose archives were not
//      built here keep their last recorded entry only if their archive exists in .build/release
// Other platforms: run `npm run package` on that platform (macOS also needs `codesign --sign -` after
// injection, Windows a signtool step and a .exe name), then copy the archives into .build/release and
// run `node scripts/package.mjs --manifest-only` to list every archive present.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Kept in step with scripts/build.mjs (which is not imported here: importing it would run a build). */
const SEA_CLIENT_ASSET = 'client-node.cjs';
const SEA_LSP_ASSET = 'lsp.cjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// --out DIR: build into DIR (DIR/sea, DIR/release, DIR/krew-manifest.yaml) instead of .build/ and
// the committed krew-manifest.yaml (the release test does this)
const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? process.argv[outArg + 1] : undefined;
const seaDir = join(out ?? join(root, '.build'), 'sea');
const releaseDir = join(out ?? join(root, '.build'), 'release');
const manifestPath = out ? join(out, 'krew-manifest.yaml') : join(root, 'krew-manifest.yaml');
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/** Where the archives are published: the release of spec.version on the project's home. */
const HOMEPAGE = process.env.CRDX_HOMEPAGE ?? pkg.homepage ?? 'https://github.com/kubectl-crdx/kubectl-crdx';
const OS = { linux: 'linux', darwin: 'darwin', win32: 'windows' };
const ARCH = { x64: 'amd64', arm64: 'arm64' };
const log = (s) => process.stderr.write(`${s}\n`);

export const archiveName = (os, arch) => `kubectl-crdx_${os}_${arch}.tar.gz`;

// ---- a deterministic tar (ustar) writer: same input bytes, same archive ----------------------------

function tarHeader(name, size, mode) {
  const h = Buffer.alloc(512, 0);
  const put = (s, off, len) => h.write(s, off, len, 'ascii');
  const oct = (n, len) => n.toString(8).padStart(len - 1, '0') + '\0';
  put(name, 0, 100);
  put(oct(mode, 8), 100, 8);
  put(oct(0, 8), 108, 8); // uid
  put(oct(0, 8), 116, 8); // gid
  put(oct(size, 12), 124, 12);
  put(oct(0, 12), 136, 12); // mtime: the epoch
  put('        ', 148, 8); // checksum placeholder: spaces
  put('0', 156, 1); // regular file
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const b of h) sum += b;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return h;
}

/** files: [{ name, data, mode }]; written sorted by name. */
export function tarGz(files) {
  const parts = [];
  for (const f of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    parts.push(tarHeader(f.name, f.data.length, f.mode), f.data, Buffer.alloc((512 - (f.data.length % 512)) % 512, 0));
  }
  parts.push(Buffer.alloc(1024, 0));
  // zlib's gzip header has no name and mtime 0; level fixed
  return gzipSync(Buffer.concat(parts), { level: 9 });
}

const sha256 = (b) => createHash('sha256').update(b).digest('hex');

// ---- the single executable ---------------------------------------------------------------------------

function buildExecutable() {
  rmSync(seaDir, { recursive: true, force: true });
  mkdirSync(seaDir, { recursive: true });
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--sea', join(seaDir, 'kubectl-crdx.cjs')], { cwd: root, stdio: 'inherit' });
  // relative paths, resolved from seaDir: the blob records the main script's path, and an absolute
  // one would make the executable depend on where it was built
  const config = {
    main: 'kubectl-crdx.cjs',
    output: 'sea-prep.blob',
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    // not deterministic (the archive's sha256 would change from build to build)
    useCodeCache: false,
    assets: { [SEA_CLIENT_ASSET]: SEA_CLIENT_ASSET, [SEA_LSP_ASSET]: SEA_LSP_ASSET },
  };
  writeFileSync(join(seaDir, 'sea-config.json'), JSON.stringify(config, null, 2));
  execFileSync(process.execPath, ['--experimental-sea-config', 'sea-config.json'], { cwd: seaDir, stdio: ['ignore', 'ignore', 'inherit'] });
  const exe = join(seaDir, 'kubectl-crdx');
  copyFileSync(process.execPath, exe);
  chmodSync(exe, 0o755);
  const postject = join(root, 'node_modules', 'postject', 'dist', 'cli.js');
  const args = [postject, exe, 'NODE_SEA_BLOB', join(seaDir, config.output), '--sentinel-fuse', FUSE];
  if (process.platform === 'darwin') args.push('--macho-segment-name', 'NODE_SEA');
  execFileSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', exe]);
  return exe;
}

// ---- krew-manifest.yaml -------------------------------------------------------------------------------

export function krewManifest(version, platforms) {
  const lines = [
    'apiVersion: krew.googlecontainertools.github.com/v1alpha2',
    'kind: Plugin',
    'metadata:',
    '  name: crdx',
    'spec:',
    `  version: v${version}`,
    `  homepage: ${HOMEPAGE}`,
    '  shortDescription: Lint CRDs offline exactly as the kube-apiserver validates them',
    '  description: |',
    '    kubectl crdx tells, before anything reaches a cluster, what the real kube-apiserver',
    '    (apiextensions-apiserver) will do with your CustomResourceDefinitions and custom',
    '    resources: every rule the server enforces when it creates a CRD, with the server\'s own',
    '    error type, field path and message, at the line and column of your YAML; legal but',
    '    dangerous patterns as warnings; and `default` shows a custom resource as the server',
    '    would store it (pruned, defaulted, validated).',
    '  # generated by `npm run package` (scripts/package.mjs): one entry per archive built',
    '  platforms:',
  ];
  for (const p of platforms)
    lines.push(
      '  - selector:',
      '      matchLabels:',
      `        os: ${p.os}`,
      `        arch: ${p.arch}`,
      `    uri: ${HOMEPAGE}/releases/download/v${version}/${archiveName(p.os, p.arch)}`,
      `    sha256: ${p.sha256}`,
      `    bin: ${p.os === 'windows' ? 'kubectl-crdx.exe' : 'kubectl-crdx'}`,
    );
  return `${lines.join('\n')}\n`;
}

function writeManifest() {
  const platforms = [];
  for (const f of existsSync(releaseDir) ? readdirSync(releaseDir).sort() : []) {
    const m = /^kubectl-crdx_([a-z]+)_([a-z0-9]+)\.tar\.gz$/.exec(f);
    if (m) platforms.push({ os: m[1], arch: m[2], sha256: sha256(readFileSync(join(releaseDir, f))) });
  }
  if (platforms.length === 0) throw new Error(`no archive in ${releaseDir}`);
  writeFileSync(manifestPath, krewManifest(pkg.version, platforms));
  for (const p of platforms) log(`${manifestPath}: ${p.os}/${p.arch} ${p.sha256}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--manifest-only')) {
    const os = OS[process.platform];
    const arch = ARCH[process.arch];
    if (!os || !arch) throw new Error(`no krew platform for ${process.platform}/${process.arch}`);
    if (os === 'windows') throw new Error('Windows: the single executable needs a .exe name and signtool; not scripted yet');
    const exe = buildExecutable();
    mkdirSync(releaseDir, { recursive: true });
    const archive = join(releaseDir, archiveName(os, arch));
    writeFileSync(
      archive,
      tarGz([
        { name: 'kubectl-crdx', data: readFileSync(exe), mode: 0o755 },
        { name: 'LICENSE', data: readFileSync(join(root, 'LICENSE')), mode: 0o644 },
      ]),
    );
    log(`${archive}: ${(readFileSync(archive).length / 1e6).toFixed(1)} MB`);
  }
  writeManifest();
}
