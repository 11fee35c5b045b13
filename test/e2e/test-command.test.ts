/**
 * `kubectl crdx test` through the built bin (`npm run build:dist` first): exit codes 0/1/2, the text
 * output and its summary line, the machine formats, --filter, and files that cannot be read.
 */
import { execa } from 'execa';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function crdx(args: readonly string[], cwd = ROOT) {
  const r = await execa('node', [join(ROOT, 'bin/kubectl-crdx'), ...args], { cwd, reject: false, env: { NO_COLOR: '1' }, stdin: 'ignore', stripFinalNewline: false });
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

const dir = mkdtempSync(join(tmpdir(), 'crdx-test-e2e-'));
cpSync(join(ROOT, 'fixtures', 'crds', '01-widgets.yaml'), join(dir, 'widgets.yaml'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OK_CASE = `  - name: defaults
    object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: a}, spec: {}}
    allowed: true
    result: {spec: {replicas: 1}}
`;
const BAD_CASE = `  - name: wrong message
    object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: b}, spec: {replicas: 1, minReplicas: 2}}
    denied:
      - field: spec
        message: replicas too low
`;

describe('kubectl crdx test', { timeout: 60_000 }, () => {
  it('the fixtures pass: one line per case, the summary, exit 0', async () => {
    const r = await crdx(['test', 'fixtures/tests']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^(\d+) passed, 0 failed$/);
    const n = Number(/^(\d+)/.exec(lines.at(-1)!)![1]);
    expect(lines.filter((l) => l.startsWith('PASS ')).length).toBe(n);
    expect(lines).toContain('fixtures/tests/widgets.crdx-test.yaml');
  });

  it('a failing case: expected and actual with positions, exit 1', async () => {
    writeFileSync(join(dir, 'mixed.crdx-test.yaml'), `crds: [widgets.yaml]\ncases:\n${OK_CASE}${BAD_CASE}`);
    const r = await crdx(['test', 'mixed.crdx-test.yaml'], dir);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      [
        'mixed.crdx-test.yaml',
        'PASS defaults',
        'FAIL wrong message (mixed.crdx-test.yaml:7:5, create)',
        '    cause 1 (line 10:9)',
        '      expected: field spec, message "replicas too low"',
        '      actual:   spec: Invalid value: replicas must be at least minReplicas (FieldValueInvalid)',
        '1 passed, 1 failed',
        '',
      ].join('\n'),
    );
  });

  it('a malformed file is an error with its position, the others still run, exit 2', async () => {
    const sub = join(dir, 'suite');
    rmSync(sub, { recursive: true, force: true });
    cpSync(join(dir, 'widgets.yaml'), join(sub, 'widgets.yaml'), { recursive: true });
    writeFileSync(join(sub, 'a-broken.crdx-test.yaml'), `crds: [widgets.yaml]\ncases:\n  - name: x\n    object: {apiVersion: example.com/v1, kind: Widget}\n    alowed: true\n`);
    writeFileSync(join(sub, 'b-good.crdx-test.yaml'), `crds: [widgets.yaml]\ncases:\n${OK_CASE}`);
    writeFileSync(join(sub, 'not-a-test.yaml'), 'this: is ignored\n');
    const r = await crdx(['test', 'suite'], dir);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('error: suite/a-broken.crdx-test.yaml:5:5: unknown key "alowed" in a case (allowed: name, object, oldObject, operation, replicas, kubeVersion, fieldValidation, allowed, denied, warnings, result)\n');
    expect(r.stdout).toBe('suite/b-good.crdx-test.yaml\nPASS defaults\n1 passed, 0 failed\n');
  });

  it('no test file: exit 2', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'crdx-test-empty-'));
    const r = await crdx(['test'], empty);
    rmSync(empty, { recursive: true });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('error: no *.crdx-test.yaml files under .\n');
  });

  it('--filter, -o json, -o junit, -o tap', async () => {
    writeFileSync(join(dir, 'mixed.crdx-test.yaml'), `crds: [widgets.yaml]\ncases:\n${OK_CASE}${BAD_CASE}`);
    const f = await crdx(['test', 'mixed.crdx-test.yaml', '--filter', 'defaults'], dir);
    expect([f.exitCode, f.stdout]).toEqual([0, 'mixed.crdx-test.yaml\nPASS defaults\n1 passed, 0 failed\n']);
    const j = await crdx(['test', 'mixed.crdx-test.yaml', '-o', 'json'], dir);
    expect(j.exitCode).toBe(1);
    const json = JSON.parse(j.stdout);
    expect(json.summary).toEqual({ passed: 1, failed: 1, errors: 0 });
    expect(json.files[0].cases[1].outcome.causes).toEqual([{ field: 'spec', reason: 'FieldValueInvalid', message: 'Invalid value: replicas must be at least minReplicas' }]);
    const x = await crdx(['test', 'mixed.crdx-test.yaml', '-o', 'junit'], dir);
    expect(x.exitCode).toBe(1);
    expect(x.stdout).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="kubectl crdx test" tests="2" failures="1" errors="0">/);
    const t = await crdx(['test', 'mixed.crdx-test.yaml', '-o', 'tap'], dir);
    expect(t.exitCode).toBe(1);
    expect(t.stdout.split('\n').slice(0, 4)).toEqual(['TAP version 13', '1..2', 'ok 1 - mixed.crdx-test.yaml: defaults', 'not ok 2 - mixed.crdx-test.yaml: wrong message']);
  });

  it('--update rewrites the failing case in place and runs it again: exit 0; once more changes nothing', async () => {
    const f = join(dir, 'upd.crdx-test.yaml');
    writeFileSync(f, `# keep me\ncrds: [widgets.yaml]\ncases:\n${OK_CASE}${BAD_CASE}`);
    const r = await crdx(['test', '--update', 'upd.crdx-test.yaml'], dir);
    expect(r.stderr).toBe('updated 1 case in upd.crdx-test.yaml: wrong message\n');
    expect(r.stdout).toBe('upd.crdx-test.yaml\nPASS defaults\nPASS wrong message\n2 passed, 0 failed\n');
    expect(r.exitCode).toBe(0);
    const text = readFileSync(f, 'utf8');
    expect(text.startsWith('# keep me\ncrds: [widgets.yaml]\n')).toBe(true);
    expect(text).toContain('        message: "Invalid value: replicas must be at least minReplicas"\n');
    const again = await crdx(['test', '--update', 'upd.crdx-test.yaml'], dir);
    expect([again.exitCode, again.stderr]).toEqual([0, '']);
    expect(readFileSync(f, 'utf8')).toBe(text);
  });

  it('--coverage: a section per CRD before the summary line (text), a coverage key (json)', async () => {
    const r = await crdx(['test', 'fixtures/tests/widgets.crdx-test.yaml', '--coverage']);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('10 passed, 0 failed');
    expect(lines).toContain('coverage of widgets.example.com (fixtures/crds/01-widgets.yaml): 2/12 constraints exercised both ways');
    expect(lines.find((l) => l.includes('cel spec: self.minReplicas <= self.replicas'))).toMatch(/^ {2}41:25 +cel spec: self\.minReplicas <= self\.replicas +held \d+, refused 1 +both$/);
    const j = JSON.parse((await crdx(['test', 'fixtures/tests/widgets.crdx-test.yaml', '--coverage', '-o', 'json'])).stdout);
    expect(j.coverage[0].constraints.find((k: { kind: string }) => k.kind === 'cel')).toMatchObject({ node: 'spec', line: 41, column: 25, violated: 1 });
  });

  it('--init writes a starter file beside the CRD, which runs; never over an existing file', async () => {
    const d = mkdtempSync(join(tmpdir(), 'crdx-test-init-'));
    cpSync(join(ROOT, 'fixtures', 'crds', '01-widgets.yaml'), join(d, 'widgets.yaml'));
    const r = await crdx(['test', '--init', 'widgets.yaml'], d);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, '', 'wrote widgets.crdx-test.yaml: 2 cases\n']);
    const t = await crdx(['test'], d);
    expect(t.exitCode).toBe(1);
    expect(t.stdout).toContain('PASS a minimal Widget v1 is accepted\nFAIL Widget spec: replicas must be at least minReplicas');
    const again = await crdx(['test', '--init', 'widgets.yaml'], d);
    expect([again.exitCode, again.stderr]).toEqual([2, 'error: widgets.crdx-test.yaml exists: not overwritten\n']);
    rmSync(d, { recursive: true });
  });
});

describe('kubectl crdx test --validate and per-case fieldValidation', () => {
  const file = 'fixtures/tests/widgets.crdx-test.yaml';
  const strictCase = 'an unknown field fails kubectl apply (fieldValidation Strict)';
  it("cases without fieldValidation are sent as kubectl sends them: strict by default, --validate's mode otherwise", async () => {
    const strict = await crdx(['test', file, '--filter', strictCase]);
    expect(strict.exitCode).toBe(0);
    expect(strict.stdout).toContain('1 passed, 0 failed');
    // the same case sent with Warn is allowed with a warning: its expectation (a 400) fails
    const warn = await crdx(['test', file, '--filter', strictCase, '--validate=warn']);
    expect(warn.exitCode).toBe(1);
    expect(warn.stdout).toContain('0 passed, 1 failed');
    // a case's own fieldValidation wins over --validate
    const own = await crdx(['test', file, '--filter', '(fieldValidation Warn)', '--validate=strict']);
    expect(own.exitCode).toBe(0);
  });

  it('a fieldValidation other than Strict, Warn or Ignore is an error with its position', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crdx-fv-'));
    const f = join(dir, 'bad.crdx-test.yaml');
    writeFileSync(f, `crds: [${join(ROOT, 'fixtures/crds/01-widgets.yaml')}]\ncases:\n  - name: x\n    fieldValidation: Lenient\n    object: {apiVersion: example.com/v1, kind: Widget, metadata: {name: a}}\n    allowed: true\n`);
    const r = await crdx(['test', f]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('bad.crdx-test.yaml:4:22');
    expect(r.stderr).toContain('fieldValidation must be Strict, Warn or Ignore');
  });
});
