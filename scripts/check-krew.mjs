#!/usr/bin/env node
// node scripts/check-krew.mjs DIR: checks DIR/crdx.yaml (rendered by scripts/package.mjs from the
// archives in DIR/release) with krew itself, as krew-index's CI and a user's krew would:
//   1. validate-krew-manifest -skip-install: krew's manifest rules (the name is the file's, version,
//      descriptions, platforms: selectors, uri, sha256, bin), every platform entry matches a
//      platform krew knows, no platform is matched twice
//   2. for each archive of DIR/release: `krew install --manifest DIR/crdx.yaml --archive ARCHIVE` for
//      that archive's platform (KREW_OS, KREW_ARCH), in a KREW_ROOT of its own: krew checks the
//      archive's sha256 against the manifest's, unpacks it and links the entry's bin; then the
//      installed bin and a licence file must be there
// krew and validate-krew-manifest are built from their Go module (sigs.k8s.io/krew, KREW_VERSION)
// with `go install` into .cache/krew-<version>/ once. Exit 0 when all passes; 1 with krew's message.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const KREW_VERSION = 'v0.4.3';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The directory holding krew and validate-krew-manifest of KREW_VERSION, built once. */
export function krewTools() {
  const bin = join(root, '.cache', `krew-${KREW_VERSION}`);
  const exe = (n) => join(bin, process.platform === 'win32' ? `${n}.exe` : n);
  if (!existsSync(exe('krew')) || !existsSync(exe('validate-krew-manifest'))) {
    execFileSync('go', ['install', `sigs.k8s.io/krew/cmd/krew@${KREW_VERSION}`, `sigs.k8s.io/krew/cmd/validate-krew-manifest@${KREW_VERSION}`], {
      env: { ...process.env, GOBIN: bin, GOFLAGS: '-mod=mod' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  }
  return { krew: exe('krew'), validate: exe('validate-krew-manifest') };
}

const run = (cmd, args, env = {}) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}`.trim() };
};

/**
 * Checks DIR/crdx.yaml against the archives of DIR/release, or against `archives` ([{ os, arch,
 * file }]) when given. Returns the problems found (empty: krew accepts all).
 */
export function checkKrew(dir, archives) {
  const tools = krewTools();
  const manifest = join(dir, 'crdx.yaml');
  const problems = [];
  const v = run(tools.validate, ['-manifest', manifest, '-skip-install']);
  if (!v.ok) problems.push(`validate-krew-manifest: ${v.out}`);
  const list =
    archives ??
    readdirSync(join(dir, 'release'))
      .map((f) => /^kubectl-crdx_([a-z]+)_([a-z0-9]+)\.tar\.gz$/.exec(f))
      .filter(Boolean)
      .map((m) => ({ os: m[1], arch: m[2], file: join(dir, 'release', m[0]) }));
  if (list.length === 0) problems.push(`no archive in ${join(dir, 'release')}`);
  for (const a of list) {
    const krewRoot = mkdtempSync(join(tmpdir(), 'crdx-krew-root-'));
    try {
      const r = run(tools.krew, ['install', '--manifest', manifest, '--archive', a.file], { KREW_ROOT: krewRoot, KREW_OS: a.os, KREW_ARCH: a.arch });
      if (!r.ok) {
        problems.push(`krew install ${a.os}/${a.arch}: ${r.out}`);
        continue;
      }
      const bin = a.os === 'windows' ? 'kubectl-crdx.exe' : 'kubectl-crdx';
      if (!existsSync(join(krewRoot, 'bin', bin))) problems.push(`krew install ${a.os}/${a.arch}: no ${bin} in KREW_ROOT/bin`);
      const store = join(krewRoot, 'store', 'crdx');
      const files = existsSync(store) ? readdirSync(store, { recursive: true }).map(String) : [];
      if (!files.some((f) => /(^|[\\/])LICENSE$/.test(f))) problems.push(`krew install ${a.os}/${a.arch}: no LICENSE installed`);
    } finally {
      rmSync(krewRoot, { recursive: true, force: true });
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] ?? join(root, '.build'));
  const problems = checkKrew(dir);
  for (const p of problems) process.stderr.write(`${p}\n`);
  if (problems.length > 0) process.exitCode = 1;
  else process.stderr.write(`${join(dir, 'crdx.yaml')}: krew ${KREW_VERSION} validates it and installs every archive of ${join(dir, 'release')}\n`);
}
