/**
 * Black-box tests of `kubectl crdx default` and of lint's custom-resource checks through the
 * built CLI (`node bin/kubectl-crdx …` from the repo root; needs `npm run build:dist`).
 */
import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

async function crdx(args: readonly string[], input?: string) {
  const r = await execa('node', ['bin/kubectl-crdx', ...args], {
    cwd: ROOT,
    reject: false,
    env: { NO_COLOR: '1' },
    ...(input !== undefined ? { input } : { stdin: 'ignore' as const }),
  });
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

const CASE = 'fixtures/simulate/basic-defaults';
const CRD = `${CASE}/crd.yaml`;

describe('kubectl crdx default', () => {
  it('prints the stored object on stdout and the server warnings on stderr', async () => {
    const r = await crdx(['default', '-f', `${CASE}/input.yaml`, '--crd', CRD]);
    expect(r).toEqual({
      exitCode: 0,
      stdout: `apiVersion: example.com/v1
kind: Widget
metadata:
  name: my-widget
  namespace: demo
spec:
  image: nginx:1.27
  replicas: 1
  strategy:
    maxSurge: 25%
    type: RollingUpdate`,
      stderr: 'Warning: unknown field "spec.replica"',
    });
  });

  it('explains each change with its input position (--explain)', async () => {
    const r = await crdx(['default', '-f', `${CASE}/input.yaml`, '--crd', CRD, '--explain', '-o', 'json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ spec: { replicas: 1, image: 'nginx:1.27' } });
    expect(r.stdout).toMatch(/^\{\n {4}"apiVersion"/);
    expect(r.stderr).toContain('  8:3   - spec.replica (unknown field, pruned)');
    expect(r.stderr).toContain('  9:3   - spec.paused (null without default, dropped)');
    expect(r.stderr).toContain('  7:1   + spec.replicas: 1 (default)');
  });

  it('takes CRDs from the inputs and reads stdin', async () => {
    const input = `${await import('node:fs').then((fs) => fs.readFileSync(`${ROOT}/${CRD}`, 'utf8'))}---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: a}\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: b}\nspec: {replicas: 3}\n`;
    const r = await crdx(['default', '-f', '-'], input);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^apiVersion: v1\nitems:\n- apiVersion: example.com\/v1\n/);
    expect(r.stdout).toContain('kind: List');
    expect(r.stderr).toBe('');
  });

  it('exits 1 and prints the errors as lint does when the server rejects an object', async () => {
    const r = await crdx(['default', '-f', 'fixtures/simulate/reject-invalid/input.yaml', '--crd', 'fixtures/simulate/reject-invalid/crd.yaml']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('8:13   error   .spec.replicas: Invalid value: -1: should be a non-negative integer  custom-resource (Cache/Hot_Cache)');
    expect(r.stderr).toContain('✖ 7 problems (7 errors, 0 warnings)');
  });

  it('exits 2 when no CRD serves an object', async () => {
    const r = await crdx(['default', '-f', `${CASE}/input.yaml`]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: ${CASE}/input.yaml:2:13: Widget example.com/v1: no CustomResourceDefinition for Widget in group "example.com" among the inputs (give it with --crd)`,
    );
  });

  it('exits 2 for a version the CRD does not serve', async () => {
    const r = await crdx(['default', '-f', '-', '--crd', CRD], 'apiVersion: example.com/v2\nkind: Widget\nmetadata: {name: a}\n');
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('widgets.example.com does not serve version "v2" (no such version; served: v1)');
  });

  it('exits 2 without input', async () => {
    const r = await crdx(['default', '--crd', CRD]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('no input');
  });
});

describe('kubectl crdx lint: custom resources', () => {
  it('validates custom resources against --crd: errors with the server cause, unknown fields as warnings', async () => {
    const r = await crdx(['lint', 'fixtures/simulate/reject-invalid/input.yaml', 'fixtures/simulate/basic-defaults/input.yaml', '--crd', 'fixtures/simulate/reject-invalid/crd.yaml', '--crd', CRD, '-o', 'json']);
    expect(r.exitCode).toBe(1);
    const out = JSON.parse(r.stdout) as { findings: { ruleId: string; severity: string; message: string; server?: { field: string; reason: string } }[] };
    expect(out.findings.filter((f) => f.ruleId === 'custom-resource').map((f) => f.server)).toContainEqual(
      expect.objectContaining({ field: 'spec.eviction', reason: 'FieldValueNotSupported' }),
    );
    expect(out.findings.filter((f) => f.ruleId === 'custom-resource-warnings').map((f) => `${f.severity} ${f.message}`)).toEqual(['warning unknown field "spec.replica"']);
  });
});
