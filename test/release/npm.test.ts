/**
 * npm: the packed tarball, installed into an empty folder (its dependencies from the registry),
 * runs `npx kubectl-crdx lint` with the development build's findings.
 */
import { execa } from 'execa';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectFixtureLint, ROOT } from './helpers.js';

/** npx's own warnings about the npm configuration of this machine are not the tool's output. */
const withoutNpmWarnings = (s: string): string =>
  s
    .split('\n')
    .filter((l) => !/^npm warn /.test(l))
    .join('\n');

describe('npm package', () => {
  let dir: string;
  let app: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crdx-npm-'));
    // npm pack runs `prepare` (the build) first
    const pack = await execa('npm', ['pack', '--pack-destination', dir, '--json'], { cwd: ROOT });
    const [info] = JSON.parse(String(pack.stdout)) as [{ filename: string }];
    app = join(dir, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'crdx-install-test', version: '1.0.0', private: true }));
    await execa('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', join(dir, info.filename)], { cwd: app });
    cpSync(join(ROOT, 'fixtures', 'crds'), join(app, 'fixtures', 'crds'), { recursive: true });
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
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
