/**
 * pre-commit: the crdx-lint hook of .pre-commit-hooks.yaml in a real `pre-commit run`, on a
 * temporary git repository with fixtures/crds' valid and broken CRDs. The hook repository is a
 * commit of this working tree (tracked and untracked files, .gitignore applied), used the way
 * users pin a tag: `repo:` + `rev:`; pre-commit installs it with npm (language: node).
 * pre-commit comes from .cache/pre-commit (.ci/run: python3 -m venv + pip install pre-commit==4.3.0);
 * the tests skip with a message when it is not installed.
 */
import { execa } from 'execa';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const PRE_COMMIT = join(ROOT, '.cache', 'pre-commit', 'bin', 'pre-commit');
const have = existsSync(PRE_COMMIT);
if (!have) console.warn(`pre-commit not found at ${PRE_COMMIT}: pre-commit tests skipped (python3 -m venv .cache/pre-commit && .cache/pre-commit/bin/pip install pre-commit==4.3.0)`);

const GIT_ENV = { GIT_AUTHOR_NAME: 'crdx test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'crdx test', GIT_COMMITTER_EMAIL: 'test@example.com' };

async function git(cwd: string, ...args: string[]): Promise<string> {
  return String((await execa('git', args, { cwd, env: GIT_ENV })).stdout);
}

describe.skipIf(!have)('pre-commit hook crdx-lint', () => {
  let dir: string;
  let work: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'crdx-pre-commit-'));
    // the hook repository: this working tree as one commit
    const hooks = join(dir, 'hook-repo');
    mkdirSync(hooks);
    const files = (await git(ROOT, 'ls-files', '--cached', '--others', '--exclude-standard', '-z')).split('\0').filter((f) => f && existsSync(join(ROOT, f)));
    for (const f of files) {
      mkdirSync(dirname(join(hooks, f)), { recursive: true });
      copyFileSync(join(ROOT, f), join(hooks, f));
    }
    await git(hooks, 'init', '-q');
    await git(hooks, 'add', '-A');
    await git(hooks, 'commit', '-q', '-m', 'snapshot');
    const rev = (await git(hooks, 'rev-parse', 'HEAD')).trim();

    // the user's repository
    work = join(dir, 'work');
    mkdirSync(join(work, 'crds'), { recursive: true });
    await git(work, 'init', '-q');
    writeFileSync(join(work, '.pre-commit-config.yaml'), `repos:\n- repo: ${hooks}\n  rev: ${rev}\n  hooks:\n  - id: crdx-lint\n`);
    copyFileSync(join(ROOT, 'fixtures', 'crds', '01-widgets.yaml'), join(work, 'crds', '01-widgets.yaml'));
    // a YAML file that is not a CRD, and a JSON one: checked and skipped
    writeFileSync(join(work, 'crds', 'config.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {a: b}\n');
    writeFileSync(join(work, 'package.json'), '{"name": "app", "private": true}\n');
    await git(work, 'add', '-A');
    env = { PRE_COMMIT_HOME: join(dir, 'cache'), NO_COLOR: '1', ...GIT_ENV };
    // installs the hook's environment (npm) once for both runs
    const install = await execa(PRE_COMMIT, ['install-hooks'], { cwd: work, env, reject: false });
    expect(install.exitCode, String(install.stdout) + String(install.stderr)).toBe(0);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('passes with the valid CRD', async () => {
    const r = await execa(PRE_COMMIT, ['run', '--all-files', '--color', 'never'], { cwd: work, env, reject: false });
    expect(r.exitCode, String(r.stdout)).toBe(0);
    expect(String(r.stdout)).toMatch(/kubectl crdx lint\.+Passed/);
  });

  it('fails on the broken CRD and prints the server errors at their positions', async () => {
    copyFileSync(join(ROOT, 'fixtures', 'crds', '02-gadgets-broken.yaml'), join(work, 'crds', '02-gadgets-broken.yaml'));
    await git(work, 'add', '-A');
    const r = await execa(PRE_COMMIT, ['run', '--all-files', '--color', 'never'], { cwd: work, env, reject: false });
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
