#!/usr/bin/env node
// npm run package: the krew release of this machine's platform.
//   1. one CommonJS bundle of the CLI (node scripts/build.mjs --sea): a single executable cannot load chunks
//   2. a Node single executable application: a copy of this node binary with the bundle injected
//      (sea-config.json -> node --experimental-sea-config -> postject, sentinel fuse NODE_SEA_FUSE_…;
//      on macOS in the NODE_SEA segment and signed ad hoc, on Windows named kubectl-crdx.exe)
//   3. a reproducible archive <out>/release/kubectl-crdx_<os>_<arch>.tar.gz (sorted entries, mtime 0,
//      uid/gid 0, no names, gzip without timestamp) holding the executable and LICENSE
//   4. <out>/crdx.yaml, the krew manifest of every archive in <out>/release (krew-index wants the
//      file named after the plugin), with their sha256 and their URLs on the release of the version
// <out> is .build unless --out DIR. The manifest is only ever rendered from archives: it is not kept
// in the repository (an archive embeds the node binary of the machine that built it, so its sha256
// is known only once the release's archives are built). The release workflow
// (.github/workflows/release.yml) builds each platform on its own runner, then runs
// `node scripts/package.mjs --manifest-only --out DIR` over all the archives.
// --expect OS/ARCH: fail unless this machine builds that krew platform (the workflow's matrix).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Kept in step with scripts/build.mjs (which is not imported here: importing it would run a build). */
const SEA_CLIENT_ASSET = 'client-node.cjs';
const SEA_LSP_ASSET = 'lsp.cjs';
const SEA_CLI_ASSET = 'cli.cjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
// --out DIR: build into DIR (DIR/sea, DIR/release, DIR/crdx.yaml) instead of .build/
const out = resolve(arg('--out') ?? join(root, '.build'));
const seaDir = join(out, 'sea');
const releaseDir = join(out, 'release');
export const MANIFEST_FILE = 'crdx.yaml';
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/**
 * The repository's web address, from package.json `repository` (git+https://github.com/o/r.git):
 * the manifest's homepage, and the archives are assets of its release v<version>.
 * CRDX_REPO_URL overrides it (the workflow passes its own repository's address).
 */
export function repoUrl(repository) {
  const url = typeof repository === 'string' ? repository : repository?.url;
  if (typeof url !== 'string') throw new Error('package.json has no repository url');
  return url.replace(/^git\+/, '').replace(/\.git$/, '');
}
const REPO = process.env.CRDX_REPO_URL || repoUrl(pkg.repository);
const OS = { linux: 'linux', darwin: 'darwin', win32: 'windows' };
const ARCH = { x64: 'amd64', arm64: 'arm64' };
const log = (s) => process.stderr.write(`${s}\n`);

export const archiveName = (os, arch) => `kubectl-crdx_${os}_${arch}.tar.gz`;
/** The executable's name in the archive of an OS (krew's `bin`). */
export const binName = (os) => (os === 'windows' ? 'kubectl-crdx.exe' : 'kubectl-crdx');
/** What the archive of an OS holds: the executable and the licence (krew-index wants one). */
export const archiveFiles = (os, executable, license, pages = []) => [
  { name: binName(os), data: executable, mode: 0o755 },
  { name: 'LICENSE', data: license, mode: 0o644 },
  // the rule pages beside the executable: `kubectl crdx rules ID` reads docs/rules/ID.md there
  ...pages.map((p) => ({ name: `docs/rules/${p.name}`, data: p.data, mode: 0o644 })),
];

/** docs/rules/*.md of the repository, sorted. */
export function rulePages() {
  const dir = join(root, 'docs', 'rules');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((name) => ({ name, data: readFileSync(join(dir, name)) }));
}

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

function buildExecutable(os) {
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
    // not deterministic (the archive's sha256 would change from build to build); the main script
    // compiles the CLI asset with a code cache of the user's cache directory instead
    useCodeCache: false,
    assets: { [SEA_CLI_ASSET]: SEA_CLI_ASSET, [SEA_CLIENT_ASSET]: SEA_CLIENT_ASSET, [SEA_LSP_ASSET]: SEA_LSP_ASSET },
  };
  writeFileSync(join(seaDir, 'sea-config.json'), JSON.stringify(config, null, 2));
  execFileSync(process.execPath, ['--experimental-sea-config', 'sea-config.json'], { cwd: seaDir, stdio: ['ignore', 'ignore', 'inherit'] });
  const exe = join(seaDir, binName(os));
  copyFileSync(process.execPath, exe);
  chmodSync(exe, 0o755);
  // node of macOS is signed: the signature goes before the injection, a new ad hoc one after it
  if (process.platform === 'darwin') execFileSync('codesign', ['--remove-signature', exe]);
  const postject = join(root, 'node_modules', 'postject', 'dist', 'cli.js');
  const args = [postject, exe, 'NODE_SEA_BLOB', join(seaDir, config.output), '--sentinel-fuse', FUSE];
  if (process.platform === 'darwin') args.push('--macho-segment-name', 'NODE_SEA');
  execFileSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (process.platform === 'darwin') execFileSync('codesign', ['--sign', '-', exe]);
  return exe;
}

// ---- the krew manifest (crdx.yaml) ------------------------------------------------------------------

/** platforms: [{ os, arch, sha256 }]. */
export function krewManifest(version, platforms, repo = REPO) {
  const lines = [
    'apiVersion: krew.googlecontainertools.github.com/v1alpha2',
    'kind: Plugin',
    'metadata:',
    '  name: crdx',
    'spec:',
    `  version: v${version}`,
    `  homepage: ${repo}`,
    '  shortDescription: Lint CRDs offline exactly as the kube-apiserver validates them',
    '  description: |',
    '    kubectl crdx tells, before anything reaches a cluster, what the real kube-apiserver',
    '    (apiextensions-apiserver) will do with your CustomResourceDefinitions and custom',
    '    resources: every rule the server enforces when it creates a CRD, with the server\'s own',
    '    error type, field path and message, at the line and column of your YAML; legal but',
    '    dangerous patterns as warnings; and `default` shows a custom resource as the server',
    '    would store it (pruned, defaulted, validated).',
    '  # rendered by scripts/package.mjs from the release archives: one entry per archive',
    '  platforms:',
  ];
  for (const p of platforms)
    lines.push(
      '  - selector:',
      '      matchLabels:',
      `        os: ${p.os}`,
      `        arch: ${p.arch}`,
      `    uri: ${repo}/releases/download/v${version}/${archiveName(p.os, p.arch)}`,
      `    sha256: ${p.sha256}`,
      `    bin: ${binName(p.os)}`,
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
  const manifestPath = join(out, MANIFEST_FILE);
  writeFileSync(manifestPath, krewManifest(pkg.version, platforms));
  // sha256sum's format, for the release page
  writeFileSync(join(out, 'SHA256SUMS'), platforms.map((p) => `${p.sha256}  ${archiveName(p.os, p.arch)}\n`).join(''));
  for (const p of platforms) log(`${manifestPath}: ${p.os}/${p.arch} ${p.sha256}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--manifest-only')) {
    const os = OS[process.platform];
    const arch = ARCH[process.arch];
    if (!os || !arch) throw new Error(`no krew platform for ${process.platform}/${process.arch}`);
    const expect = arg('--expect');
    if (expect !== undefined && expect !== `${os}/${arch}`) throw new Error(`--expect ${expect}: this machine builds ${os}/${arch}`);
    const exe = buildExecutable(os);
    mkdirSync(releaseDir, { recursive: true });
    const archive = join(releaseDir, archiveName(os, arch));
    writeFileSync(archive, tarGz(archiveFiles(os, readFileSync(exe), readFileSync(join(root, 'LICENSE')), rulePages())));
    log(`${archive}: ${(readFileSync(archive).length / 1e6).toFixed(1)} MB`);
  }
  writeManifest();
}
