/**
 * `lint --old` through the built CLI: files, git:REV on a scratch repository made here, the verdict
 * line of every format, and the JSON contract (docs/lint-output.schema.json).
 */
import { Ajv } from 'ajv';
import { execa } from 'execa';
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'kubectl-crdx');
const FIXTURES = join(ROOT, 'fixtures', 'update');

async function crdx(args: readonly string[], cwd = ROOT): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }> {
  const r = await execa('node', [BIN, ...args], { cwd, reject: false, stdin: 'ignore', env: { NO_COLOR: '1' } });
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

const git = (cwd: string, ...args: string[]) =>
  execa('git', args, { cwd, env: { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });

describe('lint --old', () => {
  let repo: string;
  beforeAll(async () => {
    // a scratch repository: HEAD~1 holds the installed CRD, the work tree a revision that drops its stored version
    repo = await mkdtemp(join(tmpdir(), 'crdx-old-'));
    await git(repo, 'init', '-q');
    await mkdir(join(repo, 'crds'));
    await copyFile(join(FIXTURES, 'stored-version-removed', 'old.yaml'), join(repo, 'crds', 'widgets.yaml'));
    await git(repo, 'add', '.');
    await git(repo, 'commit', '-q', '-m', 'v1');
    await copyFile(join(FIXTURES, 'stored-version-removed', 'new.yaml'), join(repo, 'crds', 'widgets.yaml'));
    await git(repo, 'commit', '-q', '-am', 'v2 only');
    await copyFile(join(FIXTURES, 'stored-version-kept', 'new.yaml'), join(repo, 'crds', 'widgets.yaml'));
  });
  afterAll(async () => {
    await rm(repo, { recursive: true, force: true });
  });

  it('files: the rejected update, its cause and the verdict line', async () => {
    const dir = join(FIXTURES, 'stored-version-removed');
    const r = await crdx(['lint', '--old', join(dir, 'old.yaml'), join(dir, 'new.yaml')]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('status.storedVersions[0]: Invalid value: "v1": missing from spec.versions');
    expect(r.stdout).toContain('\u2716 CustomResourceDefinition widgets.example.com: update rejected by the server; 2 findings (1 breaking change)\n');
  });

  it('git:REV reads the input paths at that revision, without a checkout', async () => {
    // the work tree keeps v1: against HEAD~1 (v1 stored) it is accepted
    // (the storage version switches from v1 to v2 without a Webhook conversion: upgrade-safety advice)
    const ok = await crdx(['lint', '--old', 'git:HEAD~1', 'crds'], repo);
    expect(ok.stdout).toContain('\u2714 CustomResourceDefinition widgets.example.com: update accepted by the server; 1 finding (1 breaking change)');
    expect(ok.exitCode).toBe(0);
    // HEAD has only v2 stored... as a manifest without status, HEAD's storage version v2 is taken as stored
    const json = await crdx(['lint', '--old', 'git:HEAD', '-o', 'json', 'crds/widgets.yaml'], repo);
    const out = JSON.parse(json.stdout);
    expect(out.summary.updates).toEqual([
      {
        name: 'widgets.example.com',
        file: 'crds/widgets.yaml',
        line: 1,
        column: 1,
        accepted: true,
        findings: 0,
        breaking: 0,
        message: 'CustomResourceDefinition widgets.example.com: update accepted by the server; 0 findings',
      },
    ]);
    const bad = await crdx(['lint', '--old', 'git:nope', 'crds'], repo);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('git:nope');
  });

  it('JSON output follows the schema, with old positions', async () => {
    const dir = join(FIXTURES, 'names-and-stored-changed');
    const r = await crdx(['lint', '-o', 'json', '--old', join(dir, 'old.yaml'), join(dir, 'new.yaml')]);
    const out = JSON.parse(r.stdout);
    const schema = JSON.parse(await readFile(join(ROOT, 'docs', 'lint-output.schema.json'), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
    expect(validate(out), JSON.stringify(validate.errors)).toBe(true);
    expect(out.findings.filter((f: { old?: unknown }) => f.old).length).toBe(4);
    expect(out.summary.updates[0].accepted).toBe(false);
  });

  it('--rule ID/CHECK sets one check of upgrade-safety; an unknown check is a usage error', async () => {
    const dir = join(ROOT, 'fixtures', 'rules', 'upgrade-safety');
    const run = (...rules: string[]) =>
      crdx(['lint', '-o', 'json', ...rules.flatMap((r) => ['--rule', r]), '--old', join(dir, 'old', 'widgets.yaml'), join(dir, 'invalid', 'schema-changes.yaml')]);
    // JSON findings carry the check as messageId
    const ids = async (...rules: string[]) => {
      const out = JSON.parse((await run(...rules)).stdout) as { findings: { ruleId: string; messageId: string; message: string; severity: string }[] };
      return out.findings.filter((f) => f.ruleId === 'upgrade-safety').map((f) => `${f.severity} ${f.message}${f.messageId === 'boundTightened' ? ' [boundTightened]' : ''}`);
    };
    const all = (await ids()).map((x) => x.replace(/ \[boundTightened\]$/, ''));
    const bounds = (await ids()).filter((x) => x.endsWith(' [boundTightened]')).map((x) => x.replace(/ \[boundTightened\]$/, ''));
    expect(bounds.length).toBe(3);
    expect(all.every((x) => x.startsWith('warning '))).toBe(true);
    expect(bounds.every((x) => x.includes(' tightened ('))).toBe(true);
    expect(await ids('upgrade-safety/boundTightened=off')).toEqual(all.filter((x) => !bounds.includes(x)));
    expect(await ids('upgrade-safety=off', 'upgrade-safety/fieldRemoved=error')).toEqual([
      'error version v1: field spec.legacy is removed: stored values are pruned on the next write',
    ]);
    const bad = await run('upgrade-safety/nope=off');
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('rule upgrade-safety has no check "nope"');
  });

  it('every format says the verdict', async () => {
    const dir = join(FIXTURES, 'scope-changed');
    for (const [format, text] of [
      ['github', '::error file='],
      ['junit', 'name="update widgets.example.com"'],
      ['sarif', 'update rejected by the server'],
    ] as const) {
      const r = await crdx(['lint', '-o', format, '--old', join(dir, 'old.yaml'), join(dir, 'new.yaml')]);
      expect(r.stdout, format).toContain(text);
      expect(r.stdout, format).toContain('widgets.example.com');
    }
  });
});
