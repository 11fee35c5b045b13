/**
 * pre-commit: the crdx-lint hook of .pre-commit-hooks.yaml in a real `pre-commit run`, on a
 * temporary git repository with fixtures/crds' valid and broken CRDs, with two pre-commit releases:
 * the newest one PyPI serves (asked at every run, never a pin) and the oldest one the README claims
 * (OLDEST). Each is installed by this test with pip into its own venv, .cache/pre-commit-<version>.
 *
 * The hook repository is a commit of this working tree (tracked and untracked files, .gitignore
 * applied, so no dist/), used the way users pin a tag: `repo:` + `rev:`. pre-commit installs it
 * with npm its own way (language: node): from 4.6.2 on `npm install --install-links -g git+file://…`,
 * before that `npm install` in the clone, `npm pack` and `npm install -g` of the tarball. Neither
 * may need a build step or devDependencies: the package has no install, prepare or build-time
 * script npm would run, and the installed hook runs the committed lib/kubectl-crdx.cjs with no
 * dependency at all.
 */
import { execa } from 'execa';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './helpers.js';

/** The oldest pre-commit the README claims; keep the README's Install section in step. */
export const OLDEST = '3.0.0';

const GIT_ENV = { GIT_AUTHOR_NAME: 'crdx test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'crdx test', GIT_COMMITTER_EMAIL: 'test@example.com' };

async function git(cwd: string, ...args: string[]): Promise<string> {
  return String((await execa('git', args, { cwd, env: GIT_ENV })).stdout);
}

/** The newest pre-commit on PyPI, asked of the index now (pip's own client). */
async function newestOnPyPI(): Promise<string> {
  const r = await execa('python3', ['-m', 'pip', 'index', 'versions', 'pre-commit', '--disable-pip-version-check'], { reject: false });
  const m = /^pre-commit \(([^)]+)\)/m.exec(String(r.stdout));
  if (!m) throw new Error(`pip index versions pre-commit: no answer (exit ${r.exitCode}): ${String(r.stderr)}`);
  return m[1]!;
}

/** pre-commit==version in its own venv (.cache/pre-commit-<version>), made once; its executable. */
async function preCommit(version: string): Promise<string> {
  const venv = join(ROOT, '.cache', `pre-commit-${version}`);
  const exe = join(venv, 'bin', 'pre-commit');
  if (!existsSync(exe)) {
    rmSync(venv, { recursive: true, force: true });
    await execa('python3', ['-m', 'venv', venv]);
    await execa(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `pre-commit==${version}`]);
  }
  expect(String((await execa(exe, ['--version'])).stdout)).toBe(`pre-commit ${version}`);
  return exe;
}

/** Whether this pre-commit installs a node hook with `npm install -g git+file://…` (4.6.2 and later). */
function gitInstall(version: string): boolean {
  const [a = 0, b = 0, c = 0] = version.split('.').map(Number);
  return a * 1e6 + b * 1e3 + c >= 4_006_002;
}

let dir: string;
let hooks: string;
let rev: string;
const newest = await newestOnPyPI();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crdx-pre-commit-'));
  // the hook repository: this working tree as one commit
  hooks = join(dir, 'hook-repo');
  mkdirSync(hooks);
  const files = (await git(ROOT, 'ls-files', '--cached', '--others', '--exclude-standard', '-z')).split('\0').filter((f) => f && existsSync(join(ROOT, f)));
  for (const f of files) {
    mkdirSync(dirname(join(hooks, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(hooks, f));
  }
  await git(hooks, 'init', '-q');
  await git(hooks, 'add', '-A');
  await git(hooks, 'commit', '-q', '-m', 'snapshot');
  rev = (await git(hooks, 'rev-parse', 'HEAD')).trim();
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it(`the README and the hook claim pre-commit ${OLDEST} or later, the oldest tested here`, () => {
  expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`**pre-commit** (${OLDEST} or later;`);
  const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as { id: string; minimum_pre_commit_version?: string }[];
  expect(hooks.map((h) => [h.id, h.minimum_pre_commit_version])).toEqual([['crdx-lint', OLDEST]]);
});

describe.each([
  { label: 'newest on PyPI', version: newest },
  { label: 'oldest supported', version: OLDEST },
])('pre-commit $version ($label): hook crdx-lint', ({ version }) => {
  let exe: string;
  let work: string;
  let env: Record<string, string>;
  let install: { exitCode: number | undefined; out: string };

  beforeAll(async () => {
    exe = await preCommit(version);
    // the user's repository
    work = join(dir, `work-${version}`);
    mkdirSync(join(work, 'crds'), { recursive: true });
    await git(work, 'init', '-q');
    writeFileSync(join(work, '.pre-commit-config.yaml'), `repos:\n- repo: ${hooks}\n  rev: ${rev}\n  hooks:\n  - id: crdx-lint\n`);
    copyFileSync(join(ROOT, 'fixtures', 'crds', '01-widgets.yaml'), join(work, 'crds', '01-widgets.yaml'));
    // a YAML file that is not a CRD, and a JSON one: checked and skipped
    writeFileSync(join(work, 'crds', 'config.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: b}\n');
    writeFileSync(join(work, 'package.json'), '{"name": "app", "private": true}\n');
    await git(work, 'add', '-A');
    env = { PRE_COMMIT_HOME: join(dir, `cache-${version}`), NO_COLOR: '1', ...GIT_ENV };
    // installs the hook's environment (npm, pre-commit's own install path) once for the runs below
    // from 4.6.2 on, with npm offline (no registry, an empty cache): nothing may be fetched, neither
    // dependencies nor devDependencies for a build. Before, pre-commit runs `npm install --dev
    // --prod` in its clone, which reads package metadata from the registry (and installs nothing:
    // checked below)
    const offline = gitInstall(version) ? { npm_config_offline: 'true', npm_config_cache: join(dir, `npm-cache-${version}`) } : {};
    const r = await execa(exe, ['install-hooks'], { cwd: work, env: { ...env, ...offline }, reject: false, all: true });
    install = { exitCode: r.exitCode, out: String(r.all) };
  });

  it(`installs the hook${gitInstall(version) ? ' with npm offline and an empty npm cache' : ''}`, () => {
    expect(install.exitCode, install.out).toBe(0);
  });

  it('the installed hook is the committed entry with no dependency (nothing built, no devDependencies)', () => {
    // PRE_COMMIT_HOME/repo<id>/node_env-<version>/lib/node_modules/kubectl-crdx
    const home = env['PRE_COMMIT_HOME']!;
    const installed = readdirSync(home)
      .filter((d) => d.startsWith('repo'))
      .flatMap((d) => readdirSync(join(home, d)).filter((e) => e.startsWith('node_env')).map((e) => join(home, d, e, 'lib', 'node_modules', 'kubectl-crdx')))
      .filter((p) => existsSync(p));
    expect(installed).toHaveLength(1);
    // pre-commit's clone of the hook repository: nothing installed into it either
    expect(existsSync(join(installed[0]!, '..', '..', '..', '..', 'node_modules'))).toBe(false);
    expect(existsSync(join(installed[0]!, '..', '..', '..', '..', 'package.json'))).toBe(true);
    const pkg = installed[0]!;
    expect(existsSync(join(pkg, 'lib', 'kubectl-crdx.cjs'))).toBe(true);
    expect(existsSync(join(pkg, 'dist'))).toBe(false);
    expect(existsSync(join(pkg, 'node_modules'))).toBe(false);
  });

  it('passes with the valid CRD', async () => {
    const r = await execa(exe, ['run', '--all-files', '--color', 'never'], { cwd: work, env, reject: false });
    expect(r.exitCode, String(r.stdout)).toBe(0);
    expect(String(r.stdout)).toMatch(/kubectl crdx lint\.+Passed/);
  });

  it('fails on the broken CRD and prints the server errors at their positions', async () => {
    copyFileSync(join(ROOT, 'fixtures', 'crds', '02-gadgets-broken.yaml'), join(work, 'crds', '02-gadgets-broken.yaml'));
    await git(work, 'add', '-A');
    const r = await execa(exe, ['run', '--all-files', '--color', 'never'], { cwd: work, env, reject: false });
    const out = String(r.stdout);
    expect(r.exitCode, out).toBe(1);
    expect(out).toMatch(/kubectl crdx lint\.+Failed/);
    expect(out).toContain('- exit code: 1');
    expect(out).toContain('crds/02-gadgets-broken.yaml');
    expect(out).toMatch(/9:10\s+error\s+spec\.scope: Unsupported value: "namespaced"/);
    expect(out).toMatch(/21:9\s+error\s+spec\.subresources\.scale\.statusReplicasPath: Required value/);
    expect(out).not.toContain('01-widgets.yaml');
  });
});
