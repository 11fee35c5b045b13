/**
 * krew: `npm run package` builds the linux-amd64 archive (a Node single executable in a
 * reproducible tar.gz) and krew-manifest.yaml. Built twice into temp dirs: the archives are
 * byte-identical and the manifest of the build holds their sha256. The sha256 in the committed
 * krew-manifest.yaml is only equal where the node binary is the same one (it is embedded), so the
 * committed manifest is compared without it. kubectl then finds the unpacked plugin on PATH.
 */
import { execa } from 'execa';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { expectFixtureLint, ROOT } from './helpers.js';

const KUBECTL = '/usr/bin/kubectl';
const supported = process.platform === 'linux' && process.arch === 'x64';
const ARCHIVE = 'kubectl-crdx_linux_amd64.tar.gz';
let dirs: string[] = [];

async function packageInto(): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'crdx-package-'));
  dirs.push(out);
  const r = await execa('node', ['scripts/package.mjs', '--out', out], { cwd: ROOT, reject: false });
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

/** The fields krew's manifest validation requires (krew.sigs.k8s.io/docs/developer-guide/plugin-manifest). */
function expectValidManifest(m: KrewPlugin): void {
  expect(m.apiVersion).toBe('krew.googlecontainertools.github.com/v1alpha2');
  expect(m.kind).toBe('Plugin');
  expect(m.metadata.name).toBe('crdx');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  expect(m.spec.version).toBe(`v${pkg.version}`);
  expect(m.spec.homepage).toMatch(/^https:\/\//);
  expect(m.spec.shortDescription.length).toBeGreaterThan(0);
  expect(m.spec.shortDescription.length).toBeLessThanOrEqual(80);
  expect(m.spec.description.length).toBeGreaterThan(m.spec.shortDescription.length);
  expect(m.spec.platforms.length).toBeGreaterThan(0);
  for (const p of m.spec.platforms) {
    expect(Object.keys(p.selector.matchLabels).sort()).toEqual(['arch', 'os']);
    expect(p.uri).toMatch(new RegExp(`^https://.+/${m.spec.version}/kubectl-crdx_${p.selector.matchLabels.os}_${p.selector.matchLabels.arch}\\.tar\\.gz$`));
    expect(p.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(p.bin).toBe('kubectl-crdx');
  }
}

describe.skipIf(!supported)('krew (linux-amd64)', () => {
  let first: string;
  let second: string;
  let plugins: string;

  beforeAll(async () => {
    first = await packageInto();
    second = await packageInto();
    plugins = mkdtempSync(join(tmpdir(), 'crdx-krew-path-'));
    dirs.push(plugins);
    await execa('tar', ['-xzf', join(first, 'release', ARCHIVE), '-C', plugins]);
  });
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    dirs = [];
  });

  it('builds the same archive twice (reproducible)', () => {
    expect(sha256(join(first, 'release', ARCHIVE))).toBe(sha256(join(second, 'release', ARCHIVE)));
  });

  it('writes a valid manifest holding the sha256 of the archive it built', () => {
    const m = parse(readFileSync(join(first, 'krew-manifest.yaml'), 'utf8')) as KrewPlugin;
    expectValidManifest(m);
    const linux = m.spec.platforms.filter((p) => p.selector.matchLabels.os === 'linux' && p.selector.matchLabels.arch === 'amd64');
    expect(linux).toHaveLength(1);
    expect(linux[0]!.sha256).toBe(sha256(join(first, 'release', ARCHIVE)));
  });

  it('the committed krew-manifest.yaml is valid and equal to the generated one but for sha256', () => {
    const committed = parse(readFileSync(join(ROOT, 'krew-manifest.yaml'), 'utf8')) as KrewPlugin;
    expectValidManifest(committed);
    const built = parse(readFileSync(join(first, 'krew-manifest.yaml'), 'utf8')) as KrewPlugin;
    const noSha = (m: KrewPlugin): unknown => ({ ...m, spec: { ...m.spec, platforms: m.spec.platforms.map((p) => ({ ...p, sha256: '' })) } });
    expect(noSha(committed)).toEqual(noSha(built));
  });

  it('the archive holds the executable and the licence only', async () => {
    const r = await execa('tar', ['-tvzf', join(first, 'release', ARCHIVE)]);
    const entries = String(r.stdout).split('\n').map((l) => l.split(/\s+/));
    expect(entries.map((e) => e[e.length - 1]).sort()).toEqual(['LICENSE', 'kubectl-crdx']);
    for (const e of entries) expect(e[1]).toBe('0/0');
    expect(entries.find((e) => e[e.length - 1] === 'kubectl-crdx')![0]).toBe('-rwxr-xr-x');
  });

  it.skipIf(!existsSync(KUBECTL))('kubectl finds the plugin on PATH: kubectl crdx --help', async () => {
    const env = { PATH: `${plugins}:/usr/bin:/bin`, NO_COLOR: '1', HOME: plugins };
    const list = await execa(KUBECTL, ['plugin', 'list', '--name-only'], { env, reject: false, extendEnv: false });
    expect(String(list.stdout)).toContain('kubectl-crdx');
    const r = await execa(KUBECTL, ['crdx', '--help'], { env, reject: false, extendEnv: false });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toMatch(/^Usage: kubectl crdx/m);
    expect(String(r.stdout)).toMatch(/^\s+lint\b/m);
    expect(String(r.stderr)).toBe('');
  });

  it.skipIf(!existsSync(KUBECTL))('kubectl crdx lint fixtures/crds: the same findings as the development build', async () => {
    const env = { PATH: `${plugins}:/usr/bin:/bin`, NO_COLOR: '1', HOME: plugins };
    const r = await execa(KUBECTL, ['crdx', 'lint', '-o', 'json', 'fixtures/crds'], { cwd: ROOT, env, reject: false, extendEnv: false });
    await expectFixtureLint({ exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) });
  });

  it.skipIf(!existsSync(KUBECTL))('--cluster loads the cluster client (an asset of the executable): the same error as the development build', async () => {
    const kubeconfig = join(plugins, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
    );
    const args = ['lint', '--cluster', '--kubeconfig', kubeconfig, '--request-timeout', '5s', 'fixtures/crds/01-widgets.yaml'];
    const env = { PATH: `${plugins}:/usr/bin:/bin`, NO_COLOR: '1', HOME: plugins };
    const r = await execa(KUBECTL, ['crdx', ...args], { cwd: ROOT, env, reject: false, extendEnv: false });
    const ref = await execa('node', ['bin/kubectl-crdx', ...args], { cwd: ROOT, env: { NO_COLOR: '1' }, reject: false });
    expect(ref.exitCode).toBe(2);
    expect(String(ref.stderr)).toContain('127.0.0.1:1');
    expect({ exitCode: r.exitCode, stderr: String(r.stderr) }).toEqual({ exitCode: ref.exitCode, stderr: String(ref.stderr) });
  });
});
