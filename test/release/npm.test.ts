/**
 * npm: the packed tarball (`npm pack` runs no script: test:release builds dist/ first, as
 * prepublishOnly does for a publish), installed
 *   - globally (`npm install -g`, into a temporary prefix): no install script, no dependency, at most
 *     25 MB on disk; `kubectl-crdx lint` gives the development build's findings; --cluster says in
 *     one line how to install the cluster client (exit 2), and with the client installed beside it
 *     (`npm install -g @kubernetes/client-node`) reaches the cluster as the development build does;
 *   - into a project (`npm install`), run with npx.
 */
import { execa } from 'execa';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_MISSING } from '../../src/io/cluster.js';
import { expectFixtureLint, ROOT } from './helpers.js';

/** The budget of a global install without the cluster client (issue 22: was 75 MB, 54 MB of it the client). */
const MAX_INSTALLED_BYTES = 25_000_000;

/** npm's warnings about the npm configuration of this machine are not the tool's output. */
const withoutNpmWarnings = (s: string): string =>
  s
    .split('\n')
    .filter((l) => !/^npm warn /.test(l))
    .join('\n');

/** Bytes on disk under a folder (du: what the user's disk loses). */
async function diskBytes(dir: string): Promise<number> {
  return Number(String((await execa('du', ['-sk', dir])).stdout).split('\t')[0]) * 1024;
}

let dir: string;
let tarball: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crdx-npm-'));
  const pack = await execa('npm', ['pack', '--pack-destination', dir, '--json'], { cwd: ROOT });
  const [info] = JSON.parse(String(pack.stdout)) as [{ filename: string }];
  tarball = join(dir, info.filename);
  cpSync(join(ROOT, 'fixtures', 'crds'), join(dir, 'fixtures', 'crds'), { recursive: true });
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('npm install -g', () => {
  let prefix: string;
  let install: string;
  const kubeconfig = (): string => join(dir, 'kubeconfig');
  const clusterArgs = (): string[] => ['lint', '--cluster', '--kubeconfig', kubeconfig(), '--request-timeout', '5s', 'fixtures/crds/01-widgets.yaml'];
  const bin = (): string => join(prefix, 'bin', 'kubectl-crdx');

  beforeAll(async () => {
    prefix = join(dir, 'global');
    const r = await execa('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: dir, all: true });
    install = String(r.all);
    writeFileSync(
      kubeconfig(),
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: x, context: {cluster: c, user: u}}]\ncurrent-context: x\n',
    );
  });

  it('runs no install script and installs no dependency', () => {
    expect(install).not.toMatch(/install-scripts|allowScripts|prepare/);
    expect(install).toMatch(/added 1 package\b/);
    expect(readdirSync(join(prefix, 'lib', 'node_modules'))).toEqual(['kubectl-crdx']);
  });

  it(`takes at most ${MAX_INSTALLED_BYTES / 1e6} MB`, async () => {
    const bytes = await diskBytes(prefix);
    console.info(`npm install -g kubectl-crdx: ${(bytes / 1e6).toFixed(1)} MB on disk`);
    expect(bytes).toBeLessThanOrEqual(MAX_INSTALLED_BYTES);
  });

  it('kubectl-crdx lint fixtures/crds: the same findings as the development build', async () => {
    const r = await execa(bin(), ['lint', '-o', 'json', 'fixtures/crds'], { cwd: dir, reject: false, env: { NO_COLOR: '1' } });
    await expectFixtureLint({ exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) });
  });

  it('--cluster without the cluster client: one line saying how to install it, exit 2', async () => {
    const r = await execa(bin(), clusterArgs(), { cwd: dir, reject: false, env: { NO_COLOR: '1' } });
    expect({ exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) }).toEqual({ exitCode: 2, stdout: '', stderr: `error: ${CLIENT_MISSING}` });
  });

  it('--cluster with the client installed beside it (npm install -g): reaches the cluster as the development build does', async () => {
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    const version = lock.packages['node_modules/@kubernetes/client-node']!.version;
    await execa('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', `@kubernetes/client-node@${version}`], { cwd: dir });
    const r = await execa(bin(), clusterArgs(), { cwd: dir, reject: false, env: { NO_COLOR: '1' } });
    const dev = await execa('node', [join(ROOT, 'bin', 'kubectl-crdx'), ...clusterArgs()], { cwd: dir, reject: false, env: { NO_COLOR: '1' } });
    expect(dev.exitCode).toBe(2);
    expect(String(dev.stderr)).toContain('127.0.0.1:1');
    expect({ exitCode: r.exitCode, stderr: String(r.stderr) }).toEqual({ exitCode: dev.exitCode, stderr: String(dev.stderr) });
  });
});

describe('npm install in a project', () => {
  let app: string;

  beforeAll(async () => {
    app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'crdx-install-test', version: '1.0.0', private: true }));
    await execa('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: app });
    cpSync(join(ROOT, 'fixtures', 'crds'), join(app, 'fixtures', 'crds'), { recursive: true });
  });

  it('installs the command into node_modules/.bin', () => {
    expect(readdirSync(join(app, 'node_modules', '.bin'))).toContain('kubectl-crdx');
  });

  it('npx kubectl-crdx lint fixtures/crds: the same findings as the development build', async () => {
    const r = await execa('npx', ['--no-install', 'kubectl-crdx', 'lint', '-o', 'json', 'fixtures/crds'], { cwd: app, reject: false, env: { NO_COLOR: '1' } });
    await expectFixtureLint({ exitCode: r.exitCode, stdout: String(r.stdout), stderr: withoutNpmWarnings(String(r.stderr)) });
  });

  it('npx kubectl-crdx lint of a valid CRD exits 0', async () => {
    const r = await execa('npx', ['--no-install', 'kubectl-crdx', 'lint', 'fixtures/crds/01-widgets.yaml'], { cwd: app, reject: false, env: { NO_COLOR: '1' } });
    expect(r.exitCode).toBe(0);
    expect(String(r.stdout)).toContain('no problems');
  });
});
