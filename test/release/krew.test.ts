/**
 * krew: `npm run package` builds the linux-amd64 archive (a Node single executable in a reproducible
 * tar.gz) and renders the manifest (crdx.yaml) from it. Built twice into temp dirs: the archives are
 * byte-identical. The manifest is checked with krew itself (v0.4.3, built from its Go module by
 * scripts/check-krew.mjs): validate-krew-manifest, then `krew install --manifest --archive` per
 * platform, which compares the archive's sha256 with the manifest's. The release workflow renders
 * the manifest of six platforms with `--manifest-only`; here the five platforms this machine cannot
 * build are stand-in archives of the same layout, to check what is rendered for them (windows: a
 * .exe). A manifest whose sha256 is not its archive's is rejected by krew; a krew manifest committed
 * to the repository fails the test unless each archive it claims is built here with that sha256
 * (none is committed: the manifest exists only per release). kubectl then runs the plugin krew
 * installed, which compiles its CLI with a code cache of the user's cache directory.
 */
import { execa } from 'execa';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
// @ts-expect-error: a script of the repository, plain JavaScript
import { checkKrew, krewTools } from '../../scripts/check-krew.mjs';
// @ts-expect-error: a script of the repository, plain JavaScript
import { archiveFiles, archiveName, tarGz } from '../../scripts/package.mjs';
import { expectFixtureLint, ROOT } from './helpers.js';

const KUBECTL = '/usr/bin/kubectl';
const supported = process.platform === 'linux' && process.arch === 'x64';
const ARCHIVE = 'kubectl-crdx_linux_amd64.tar.gz';
const PLATFORMS = ['linux/amd64', 'linux/arm64', 'darwin/amd64', 'darwin/arm64', 'windows/amd64', 'windows/arm64'];
const check = checkKrew as (dir: string, archives?: { os: string; arch: string; file: string }[]) => string[];
let dirs: string[] = [];

const tempDir = (prefix: string): string => {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
};

async function packageInto(...args: string[]): Promise<string> {
  const out = tempDir('crdx-package-');
  const r = await execa('node', ['scripts/package.mjs', '--out', out, ...args], { cwd: ROOT, reject: false });
  expect(r.stderr, 'npm run package failed').not.toMatch(/^Error/m);
  expect(r.exitCode).toBe(0);
  return out;
}

const sha256 = (f: string): string => createHash('sha256').update(readFileSync(f)).digest('hex');

interface KrewPlatform {
  selector: { matchLabels: { os: string; arch: string } };
  uri: string;
  sha256: string;
  bin: string;
}
interface KrewPlugin {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec: { version: string; homepage: string; shortDescription: string; description: string; platforms: KrewPlatform[] };
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; repository: { url: string } };
const REPO = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

/** What this project's manifest must say beyond krew's rules: name, version, where each archive is. */
function expectOurManifest(m: KrewPlugin): void {
  expect(m.metadata.name).toBe('crdx');
  expect(m.spec.version).toBe(`v${pkg.version}`);
  expect(m.spec.homepage).toBe(REPO);
  for (const p of m.spec.platforms) {
    const { os, arch } = p.selector.matchLabels;
    expect(p.uri).toBe(`${REPO}/releases/download/v${pkg.version}/kubectl-crdx_${os}_${arch}.tar.gz`);
    expect(p.bin).toBe(os === 'windows' ? 'kubectl-crdx.exe' : 'kubectl-crdx');
  }
}

/**
 * The krew manifests committed to the repository (any tracked YAML of kind Plugin): each archive one
 * claims must be one built here from this tree, with that sha256. The problems found.
 */
async function committedManifestProblems(built: Map<string, string>): Promise<string[]> {
  const files = String((await execa('git', ['ls-files', '-z', '*.yaml', '*.yml'], { cwd: ROOT })).stdout)
    .split('\0')
    .filter((f) => f !== '' && existsSync(join(ROOT, f)));
  const problems: string[] = [];
  for (const f of files) {
    const text = readFileSync(join(ROOT, f), 'utf8');
    if (!/^kind:\s*Plugin\s*$/m.test(text) || !text.includes('krew.googlecontainertools.github.com')) continue;
    const m = parse(text) as KrewPlugin;
    for (const p of m.spec?.platforms ?? []) {
      const key = `${p.selector.matchLabels.os}/${p.selector.matchLabels.arch}`;
      const sha = built.get(key);
      if (sha === undefined) problems.push(`${f}: claims the ${key} archive, which is not built here: its sha256 cannot be checked`);
      else if (p.sha256 !== sha) problems.push(`${f}: ${key} sha256 ${p.sha256} is stale: the archive built from this tree is ${sha}`);
    }
  }
  return problems;
}

describe.skipIf(!supported)('krew (linux-amd64 built here)', () => {
  let first: string;
  let second: string;
  let krewRoot: string;

  beforeAll(async () => {
    first = await packageInto();
    second = await packageInto();
  });
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    dirs = [];
  });

  it('builds the same archive twice (reproducible)', () => {
    expect(sha256(join(first, 'release', ARCHIVE))).toBe(sha256(join(second, 'release', ARCHIVE)));
  });

  it('renders crdx.yaml with the sha256 of the archive it built, and SHA256SUMS', () => {
    const m = parse(readFileSync(join(first, 'crdx.yaml'), 'utf8')) as KrewPlugin;
    expectOurManifest(m);
    expect(m.spec.platforms.map((p) => `${p.selector.matchLabels.os}/${p.selector.matchLabels.arch}`)).toEqual(['linux/amd64']);
    expect(m.spec.platforms[0]!.sha256).toBe(sha256(join(first, 'release', ARCHIVE)));
    expect(readFileSync(join(first, 'SHA256SUMS'), 'utf8')).toBe(`${sha256(join(first, 'release', ARCHIVE))}  ${ARCHIVE}\n`);
  });

  it('krew validates the manifest and installs the archive', () => {
    expect(check(first)).toEqual([]);
  });

  it('six platforms (--manifest-only, as the release workflow runs it): krew validates and installs each', async () => {
    const six = tempDir('crdx-krew-six-');
    mkdirSync(join(six, 'release'));
    copyFileSync(join(first, 'release', ARCHIVE), join(six, 'release', ARCHIVE));
    const license = readFileSync(join(ROOT, 'LICENSE'));
    for (const p of PLATFORMS.slice(1)) {
      const [os, arch] = p.split('/') as [string, string];
      writeFileSync(join(six, 'release', archiveName(os, arch)), tarGz(archiveFiles(os, Buffer.from(`stand-in for the ${p} executable\n`), license)));
    }
    const r = await execa('node', ['scripts/package.mjs', '--manifest-only', '--out', six], { cwd: ROOT, reject: false });
    expect(r.exitCode, String(r.stderr)).toBe(0);
    const m = parse(readFileSync(join(six, 'crdx.yaml'), 'utf8')) as KrewPlugin;
    expectOurManifest(m);
    expect(m.spec.platforms.map((p) => `${p.selector.matchLabels.os}/${p.selector.matchLabels.arch}`).sort()).toEqual([...PLATFORMS].sort());
    for (const p of m.spec.platforms) expect(p.sha256).toBe(sha256(join(six, 'release', archiveName(p.selector.matchLabels.os, p.selector.matchLabels.arch))));
    expect(check(six)).toEqual([]);
  });

  it('a stale sha256 (the manifest of another archive) is rejected by krew: checksum does not match', () => {
    const stale = tempDir('crdx-krew-stale-');
    const other = join(stale, ARCHIVE);
    writeFileSync(other, tarGz(archiveFiles('linux', Buffer.from('an executable built from another tree\n'), readFileSync(join(ROOT, 'LICENSE')))));
    const problems = check(first, [{ os: 'linux', arch: 'amd64', file: other }]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^krew install linux\/amd64: .*checksum does not match, want: [0-9a-f]{64}, got [0-9a-f]{64}/s);
  });

  it('a krew manifest committed to the repository claims only archives built here, with their sha256', async () => {
    const built = new Map([['linux/amd64', sha256(join(first, 'release', ARCHIVE))]]);
    expect(await committedManifestProblems(built)).toEqual([]);
  });

  it('the archive holds the executable, the licence and the rule pages only', async () => {
    const r = await execa('tar', ['-tvzf', join(first, 'release', ARCHIVE)]);
    const entries = String(r.stdout).split('\n').map((l) => l.split(/\s+/));
    const pages = readdirSync(join(ROOT, 'docs', 'rules')).map((f) => `docs/rules/${f}`);
    expect(entries.map((e) => e[e.length - 1]).sort()).toEqual(['LICENSE', ...pages, 'kubectl-crdx'].sort());
    for (const e of entries) expect(e[1]).toBe('0/0');
    expect(entries.find((e) => e[e.length - 1] === 'kubectl-crdx')![0]).toBe('-rwxr-xr-x');
  });

  describe.skipIf(!existsSync(KUBECTL))('kubectl runs the plugin krew installed', () => {
    beforeAll(async () => {
      krewRoot = tempDir('crdx-krew-root-');
      const r = await execa((krewTools as () => { krew: string })().krew, ['install', '--manifest', join(first, 'crdx.yaml'), '--archive', join(first, 'release', ARCHIVE)], {
        env: { KREW_ROOT: krewRoot },
        reject: false,
        all: true,
      });
      expect(r.exitCode, String(r.all)).toBe(0);
    });
    const env = (): Record<string, string> => ({ PATH: `${join(krewRoot, 'bin')}:/usr/bin:/bin`, NO_COLOR: '1', HOME: krewRoot });

    it('kubectl crdx --help', async () => {
      const list = await execa(KUBECTL, ['plugin', 'list', '--name-only'], { env: env(), reject: false, extendEnv: false });
      expect(String(list.stdout)).toContain('kubectl-crdx');
      const r = await execa(KUBECTL, ['crdx', '--help'], { env: env(), reject: false, extendEnv: false });
      expect(r.exitCode).toBe(0);
      expect(String(r.stdout)).toMatch(/^Usage: kubectl crdx/m);
      expect(String(r.stdout)).toMatch(/^\s+lint\b/m);
      expect(String(r.stderr)).toBe('');
    });

    it('kubectl crdx rules ID prints the page shipped in the archive', async () => {
      const r = await execa(KUBECTL, ['crdx', 'rules', 'crd-decode'], { cwd: ROOT, env: env(), reject: false, extendEnv: false });
      expect(r.exitCode).toBe(0);
      expect(String(r.stdout)).toBe(readFileSync(join(ROOT, 'docs', 'rules', 'crd-decode.md'), 'utf8').trimEnd());
    });

    it('kubectl crdx lint fixtures/crds: the same findings as the development build', async () => {
      const r = await execa(KUBECTL, ['crdx', 'lint', '-o', 'json', 'fixtures/crds'], { cwd: ROOT, env: env(), reject: false, extendEnv: false });
      await expectFixtureLint({ exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) });
    });

    it('the executable compiles its CLI (an asset) with a code cache it writes in the user\'s cache directory once, then uses', async () => {
      const cacheDir = tempDir('crdx-krew-cache-');
      const args = ['crdx', 'lint', '-o', 'json', 'fixtures/crds'];
      const lint = async (extra: Record<string, string> = {}) => {
        const r = await execa(KUBECTL, args, { cwd: ROOT, env: { ...env(), CRDX_CACHE_DIR: cacheDir, ...extra }, reject: false, extendEnv: false });
        return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
      };
      const plain = await lint({ CRDX_COMPILE_CACHE: '0' });
      expect(readdirSync(cacheDir)).toEqual([]);
      // the npm bin's cache (another kind) stays; a cache of an earlier executable goes
      const binCache = `0123456789abcdef-${process.version}-${process.arch}.v8cache`;
      writeFileSync(join(cacheDir, binCache), 'the npm bin\'s');
      writeFileSync(join(cacheDir, `sea-0123456789abcdef-v18.0.0-${process.arch}.v8cache`), 'an earlier executable\'s');
      expect(await lint()).toEqual(plain);
      const names = readdirSync(cacheDir).sort();
      expect(names).toHaveLength(2);
      expect(names[0]).toBe(binCache);
      const own = names[1]!;
      expect(own).toMatch(new RegExp(`^sea-[0-9a-f]{16}-${process.version.replace(/\./g, '\\.')}-${process.arch}\\.v8cache$`));
      const made = statSync(join(cacheDir, own));
      expect(made.size).toBeGreaterThan(100_000);
      expect(made.mode & 0o777).toBe(0o600);
      // accepted: not written again
      expect(await lint()).toEqual(plain);
      expect(statSync(join(cacheDir, own)).ino).toBe(made.ino);
    });

    it('--cluster loads the cluster client (an asset of the executable): the same error as the development build', async () => {
      const kubeconfig = join(krewRoot, 'kubeconfig');
      writeFileSync(
        kubeconfig,
        'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
      );
      const args = ['lint', '--cluster', '--kubeconfig', kubeconfig, '--request-timeout', '5s', 'fixtures/crds/01-widgets.yaml'];
      const r = await execa(KUBECTL, ['crdx', ...args], { cwd: ROOT, env: env(), reject: false, extendEnv: false });
      const ref = await execa('node', ['bin/kubectl-crdx', ...args], { cwd: ROOT, env: { NO_COLOR: '1' }, reject: false });
      expect(ref.exitCode).toBe(2);
      expect(String(ref.stderr)).toContain('127.0.0.1:1');
      expect({ exitCode: r.exitCode, stderr: String(r.stderr) }).toEqual({ exitCode: ref.exitCode, stderr: String(ref.stderr) });
    });
  });
});
