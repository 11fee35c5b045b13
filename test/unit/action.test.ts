/**
 * The GitHub Action's script (scripts/action.mjs) in a simulated runner environment: INPUT_*
 * variables, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files in a temporary directory, and the real
 * CLI (bin/kubectl-crdx, built by npm test) run on the fixtures.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { lintArgs, readInputs, runAction, summarizeSarif, type ExecResult } from '../../scripts/action.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'kubectl-crdx');

function crdx(args: readonly string[]): ExecResult {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('readInputs and lintArgs', () => {
  it('paths split on spaces and newlines; empty optional inputs are left out; validate defaults to strict', () => {
    const inputs = readInputs({ INPUT_PATHS: ' crds/\n  config/crd/bases  samples.yaml\n', 'INPUT_KUBE-VERSION': '', 'INPUT_MAX-WARNINGS': '', INPUT_BASELINE: '' });
    expect(inputs).toEqual({ paths: ['crds/', 'config/crd/bases', 'samples.yaml'], kubeVersion: undefined, maxWarnings: undefined, baseline: undefined, validate: 'strict', sarifFile: undefined });
    expect(lintArgs(inputs, 'github')).toEqual(['lint', '-o', 'github', '--validate=strict', '--', 'crds/', 'config/crd/bases', 'samples.yaml']);
  });

  it('every input reaches the command line', () => {
    const inputs = readInputs({
      INPUT_PATHS: '-odd-name.yaml',
      'INPUT_KUBE-VERSION': '1.30',
      'INPUT_MAX-WARNINGS': '0',
      INPUT_BASELINE: '.crdx-baseline.json',
      INPUT_VALIDATE: 'warn',
      'INPUT_SARIF-FILE': 'crdx.sarif',
    });
    expect(lintArgs(inputs, 'sarif')).toEqual(['lint', '-o', 'sarif', '--validate=warn', '--kube-version', '1.30', '--max-warnings', '0', '--baseline', '.crdx-baseline.json', '--', '-odd-name.yaml']);
  });

  it('no paths: the repository (.)', () => {
    expect(readInputs({}).paths).toEqual(['.']);
  });

  it.each([
    ['INPUT_KUBE-VERSION', 'v1.30', 'kube-version: expected MAJOR.MINOR such as 1.30, got "v1.30"'],
    ['INPUT_MAX-WARNINGS', '-1', 'max-warnings: expected a whole number >= 0, got "-1"'],
    ['INPUT_VALIDATE', 'loose', 'validate: expected strict, warn or ignore, got "loose"'],
  ])('refuses %s=%s', (name, value, message) => {
    expect(() => readInputs({ [name]: value })).toThrow(message);
  });
});

describe('summarizeSarif', () => {
  it('counts results by level, suppressed ones apart, and collects notifications', () => {
    const log = {
      runs: [
        {
          results: [{ level: 'error' }, { level: 'warning' }, { level: 'note' }, { level: 'error', suppressions: [{ kind: 'inSource' }] }],
          invocations: [{ toolExecutionNotifications: [{ message: { text: 'too many warnings (1, max 0)' } }] }],
        },
      ],
    };
    expect(summarizeSarif(JSON.stringify(log))).toEqual({ errors: 1, warnings: 1, notes: 1, suppressed: 1, notifications: ['too many warnings (1, max 0)'] });
    expect(summarizeSarif('not json')).toBeUndefined();
  });
});

describe('runAction in a simulated runner', () => {
  let dir: string;
  let env: Record<string, string>;
  let log: string;
  const write = (s: string): void => {
    log += s;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'crdx-action-'));
    env = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary.md') };
    log = '';
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const outputs = (): string => readFileSync(env['GITHUB_OUTPUT']!, 'utf8');

  it('findings: SARIF file, annotations, outputs, summary and exit 1', () => {
    const sarifFile = join(dir, 'reports', 'crdx.sarif');
    const code = runAction({ env: { ...env, INPUT_PATHS: 'fixtures/crds', 'INPUT_SARIF-FILE': sarifFile }, cwd: ROOT, exec: crdx, write });
    expect(code).toBe(1);
    const sarif = JSON.parse(readFileSync(sarifFile, 'utf8'));
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].results).toHaveLength(11);
    const annotations = log.trimEnd().split('\n');
    expect(annotations).toHaveLength(11);
    expect(annotations[0]).toMatch(/^::error file=fixtures\/crds\/02-gadgets-broken\.yaml,line=9,col=10,/);
    expect(outputs()).toBe(`exit-code=1\nsarif-file=${sarifFile}\nerrors=9\nwarnings=2\nsuppressed=0\n`);
    const summary = readFileSync(env['GITHUB_STEP_SUMMARY']!, 'utf8');
    expect(summary).toBe(
      [
        '### kubectl-crdx lint failed: findings',
        '',
        '`kubectl-crdx lint -o github --validate=strict -- fixtures/crds`',
        '',
        '| errors | warnings | notes | suppressed |',
        '|---|---|---|---|',
        '| 9 | 2 | 0 | 0 |',
        '',
        '',
      ].join('\n'),
    );
  });

  it('suppressions, --max-warnings and a baseline that no longer matches: counted and said in the summary', () => {
    const baseline = join(dir, 'baseline.json');
    // the baseline accepts the one error of the fixture, plus an entry that is gone
    const fixture = 'fixtures/suppress/gadgets.yaml';
    expect(crdx(['lint', '--baseline', baseline, '--update-baseline', fixture]).status).toBe(0);
    const b = JSON.parse(readFileSync(baseline, 'utf8'));
    b.findings.push({ ruleId: 'scope', file: 'gone.yaml', path: 'spec.scope', message: 'gone', count: 1 });
    writeFileSync(baseline, JSON.stringify(b));
    const code = runAction({ env: { ...env, INPUT_PATHS: fixture, 'INPUT_MAX-WARNINGS': '0', INPUT_BASELINE: baseline }, cwd: ROOT, exec: crdx, write });
    expect(code).toBe(0);
    expect(outputs()).toBe('exit-code=0\nsarif-file=\nerrors=0\nwarnings=0\nsuppressed=4\n');
    expect(log).toBe(`::notice title=crdx --baseline::1 finding of the baseline ${baseline} no longer occurs: run with --update-baseline to remove it\n`);
    const summary = readFileSync(env['GITHUB_STEP_SUMMARY']!, 'utf8');
    expect(summary).toContain('### kubectl-crdx lint passed\n');
    expect(summary).toContain('| 0 | 0 | 0 | 4 |\n');
    expect(summary).toContain(`- 1 finding of the baseline ${baseline} no longer occurs`);
  });

  it('a missing baseline: exit 2, the error in the log and the summary, no SARIF file', () => {
    const sarifFile = join(dir, 'crdx.sarif');
    const code = runAction({ env: { ...env, INPUT_PATHS: 'fixtures/crds', INPUT_BASELINE: join(dir, 'none.json'), 'INPUT_SARIF-FILE': sarifFile }, cwd: ROOT, exec: crdx, write });
    expect(code).toBe(2);
    expect(existsSync(sarifFile)).toBe(false);
    expect(log).toBe(`error: baseline ${join(dir, 'none.json')} does not exist (create it with --update-baseline)\n`);
    expect(outputs()).toContain('exit-code=2\n');
    expect(readFileSync(env['GITHUB_STEP_SUMMARY']!, 'utf8')).toContain('failed: nothing could be checked');
  });

  it('an invalid input is an ::error and exit 2 before anything runs', () => {
    let ran = 0;
    const code = runAction({ env: { ...env, 'INPUT_MAX-WARNINGS': 'some' }, cwd: ROOT, exec: () => (ran++, { status: 0, stdout: '', stderr: '' }), write });
    expect(code).toBe(2);
    expect(ran).toBe(0);
    expect(log).toBe('::error title=kubectl-crdx action::max-warnings: expected a whole number >= 0, got "some"\n');
    expect(outputs()).toBe('exit-code=2\n');
  });

  it('runs as the action runs it: node scripts/action.mjs with CRDX_BIN and INPUT_* variables', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'action.mjs')], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...env, CRDX_BIN: BIN, INPUT_PATHS: 'fixtures/crds/01-widgets.yaml', 'INPUT_SARIF-FILE': join(dir, 'crdx.sarif') },
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(outputs()).toBe(`exit-code=0\nsarif-file=${join(dir, 'crdx.sarif')}\nerrors=0\nwarnings=0\nsuppressed=0\n`);
  });
});

describe('action.yml and the workflow example', () => {
  const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>;
    outputs: Record<string, { value: string }>;
    runs: { using: string; steps: { id?: string; uses?: string; env?: Record<string, string>; run?: string }[] };
  };

  it('is a composite action that sets up Node and hands every lint input to the script as INPUT_<NAME>', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps[0]!.uses).toMatch(/^actions\/setup-node@v\d+$/);
    const lint = action.runs.steps.find((s) => s.id === 'lint')!;
    expect(lint.run).toBe('node "${{ github.action_path }}/scripts/action.mjs"');
    const handed = Object.keys(lint.env!).filter((k) => k.startsWith('INPUT_'));
    const inputs = Object.keys(action.inputs).filter((k) => k !== 'node-version' && k !== 'version');
    expect(handed).toEqual(inputs.map((k) => `INPUT_${k.toUpperCase()}`));
    for (const k of inputs) expect(lint.env![`INPUT_${k.toUpperCase()}`]).toBe(`\${{ inputs.${k} }}`);
    // the defaults are the script's
    const defaults = Object.fromEntries(inputs.map((k) => [`INPUT_${k.toUpperCase()}`, action.inputs[k]!.default ?? '']));
    expect(readInputs(defaults)).toEqual({ paths: ['.'], kubeVersion: undefined, maxWarnings: undefined, baseline: undefined, validate: 'strict', sarifFile: 'crdx.sarif' });
  });

  it('outputs are the ones the script writes', () => {
    for (const [k, o] of Object.entries(action.outputs)) expect(o.value).toBe(`\${{ steps.lint.outputs.${k} }}`);
    expect(Object.keys(action.outputs).sort()).toEqual(['errors', 'exit-code', 'sarif-file', 'suppressed', 'warnings']);
  });

  it('the workflow example uses only inputs the action has, and the README shows it as it is', () => {
    const text = readFileSync(join(ROOT, 'docs', 'examples', 'crdx-workflow.yml'), 'utf8');
    const wf = parse(text) as { jobs: { lint: { steps: { id?: string; uses?: string; with?: Record<string, string> }[] } } };
    const step = wf.jobs.lint.steps.find((s) => s.id === 'crdx')!;
    for (const k of Object.keys(step.with!)) expect(Object.keys(action.inputs)).toContain(k);
    const upload = wf.jobs.lint.steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'))!;
    expect(upload.with!['sarif_file']).toBe('${{ steps.crdx.outputs.sarif-file }}');
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain(`\`\`\`yaml\n${text}\`\`\``);
  });
});
