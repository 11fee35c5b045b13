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
  it('prints the stored object on stdout and the server warnings on stderr (--validate=warn)', async () => {
    const r = await crdx(['default', '-f', `${CASE}/input.yaml`, '--crd', CRD, '--validate=warn']);
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
    const r = await crdx(['default', '-f', `${CASE}/input.yaml`, '--crd', CRD, '--explain', '-o', 'json', '--validate=warn']);
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

  it("under kubectl's default strict field validation: still shows the object, with the server's 400 as an error, exit 1", async () => {
    const r = await crdx(['default', '-f', `${CASE}/input.yaml`, '--crd', CRD]);
    const warn = await crdx(['default', '-f', `${CASE}/input.yaml`, '--crd', CRD, '--validate=warn']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe(warn.stdout);
    expect(r.stderr).toContain('8:3  error   unknown field "spec.replica" (fieldValidation=Strict: the server answers 400 BadRequest)  custom-resource (Widget/my-widget)');
    expect(r.stderr).not.toContain('Warning:');
    // --validate=ignore (or false): pruned silently
    for (const v of ['--validate=ignore', '--validate=false']) expect(await crdx(['default', '-f', `${CASE}/input.yaml`, '--crd', CRD, v])).toEqual({ ...warn, stderr: '' });
    // a bare --validate is strict and does not take the next argument as its value (kubectl's flag)
    expect(await crdx(['default', '--validate', '-f', `${CASE}/input.yaml`, '--crd', CRD])).toEqual(r);
    expect(await crdx(['default', '--validate=strict', '-f', `${CASE}/input.yaml`, '--crd', CRD])).toEqual(r);
    expect(await crdx(['default', '--validate=true', '-f', `${CASE}/input.yaml`, '--crd', CRD])).toEqual(r);
  });

  it('refuses a --validate value kubectl refuses (exit 2)', async () => {
    const r = await crdx(['default', '-f', `${CASE}/input.yaml`, '--crd', CRD, '--validate=lenient']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('invalid - validate option "lenient"; must be one of: strict (or true), warn, ignore (or false)');
  });

  it('exits 2 without input', async () => {
    const r = await crdx(['default', '--crd', CRD]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('no input');
  });
});

describe('kubectl crdx lint: custom resources', () => {
  it('validates custom resources against --crd: errors with the server cause, unknown fields as warnings (--validate=warn)', async () => {
    const r = await crdx(['lint', 'fixtures/simulate/reject-invalid/input.yaml', 'fixtures/simulate/basic-defaults/input.yaml', '--crd', 'fixtures/simulate/reject-invalid/crd.yaml', '--crd', CRD, '-o', 'json', '--validate=warn']);
    expect(r.exitCode).toBe(1);
    const out = JSON.parse(r.stdout) as { findings: { ruleId: string; severity: string; message: string; server?: { field: string; reason: string } }[] };
    expect(out.findings.filter((f) => f.ruleId === 'custom-resource').map((f) => f.server)).toContainEqual(
      expect.objectContaining({ field: 'spec.eviction', reason: 'FieldValueNotSupported' }),
    );
    expect(out.findings.filter((f) => f.ruleId === 'custom-resource-warnings').map((f) => `${f.severity} ${f.message}`)).toEqual(['warning unknown field "spec.replica"']);
  });
});

describe('kubectl crdx lint --validate (kubectl field validation)', () => {
  const FILE = 'fixtures/simulate/reject-strict-unknown-fields';
  const args = ['lint', `${FILE}/input.yaml`, '--crd', `${FILE}/crd.yaml`, '-o', 'json'];
  type Out = { findings: { ruleId: string; severity: string; message: string; line: number; column: number; path: string; response?: { code: number; reason: string; message: string } }[] };

  it("strict by default, as kubectl: every unknown field at its key, the server's one 400 in `response`", async () => {
    const r = await crdx(args);
    expect(r.exitCode).toBe(1);
    const out = JSON.parse(r.stdout) as Out;
    expect(out.findings.map((f) => `${f.line}:${f.column} ${f.ruleId} ${f.path}`)).toEqual([
      '10:3 custom-resource metadata.labelz',
      '12:3 custom-resource spec.replica',
      '14:30 custom-resource spec.ports[0].protocol',
      '16:25 custom-resource spec.env.LOG.secret',
      '20:25 custom-resource spec.template.metadata.annotation',
      '23:1 custom-resource statuz',
    ]);
    const message =
      'App in version "v1" cannot be handled as a App: strict decoding error: unknown field "metadata.labelz", unknown field "spec.env.LOG.secret", unknown field "spec.ports[0].protocol", unknown field "spec.replica", unknown field "statuz", unknown field "spec.template.metadata.annotation"';
    for (const f of out.findings) expect(f.response).toEqual({ code: 400, reason: 'BadRequest', message });
    // the same through -o sarif and junit
    expect((await crdx([...args.slice(0, -1), 'sarif'])).stdout).toContain(JSON.stringify(message).slice(1, -1));
  });

  it('warn: warnings in the server order, then the schema is validated; ignore: nothing about the fields', async () => {
    const warn = JSON.parse((await crdx([...args, '--validate=warn'])).stdout) as Out;
    expect(warn.findings.map((f) => `${f.severity} ${f.message}`)).toEqual([
      'warning unknown field "metadata.labelz"',
      'warning unknown field "spec.replica"',
      'warning unknown field "spec.ports[0].protocol"',
      'warning unknown field "spec.env.LOG.secret"',
      'warning unknown field "spec.template.metadata.annotation"',
      'warning unknown field "statuz"',
    ]);
    const ignore = await crdx([...args, '--validate=ignore']);
    expect(ignore.exitCode).toBe(0);
    expect((JSON.parse(ignore.stdout) as Out).findings).toEqual([]);
  });

  it('CRDs alike: strict is the 400 with every unknown field, warn the warnings, ignore nothing', async () => {
    const crd = ['lint', 'fixtures/rules/crd-warnings/invalid/unknown-fields.yaml', '-o', 'json'];
    const strict = JSON.parse((await crdx(crd)).stdout) as Out;
    expect(strict.findings.map((f) => f.ruleId)).toEqual(['crd-decode', 'crd-decode', 'crd-decode', 'crd-decode']);
    expect(strict.findings[0]!.response!.message).toBe(
      // kubectl sends the keys sorted: the server meets them in that order
      'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec.names.shortname", unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.mode.examples", unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.replicas.readOnly", unknown field "spec.versions[0].storge"',
    );
    const warn = await crdx([...crd, '--validate=warn']);
    expect(warn.exitCode).toBe(0);
    expect((JSON.parse(warn.stdout) as Out).findings.map((f) => `${f.ruleId} ${f.severity} ${f.message}`)).toEqual([
      'crd-warnings warning unknown field "spec.names.shortname"',
      'crd-warnings warning unknown field "spec.versions[0].storge"',
      'crd-warnings warning unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.replicas.readOnly"',
      'crd-warnings warning unknown field "spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.mode.examples"',
    ]);
    const ignore = await crdx([...crd, '--validate=false']);
    expect(ignore.exitCode).toBe(0);
    expect((JSON.parse(ignore.stdout) as Out).findings).toEqual([]);
  });

  it('scale accepts --validate and answers the same in every mode (its Scale body has no unknown fields)', async () => {
    const base = ['scale', '-f', 'fixtures/scale/update/input.yaml', '--crd', 'fixtures/scale/update/crd.yaml', '--replicas', '3'];
    const strict = await crdx(base);
    expect(strict.exitCode).toBe(0);
    for (const v of ['--validate=warn', '--validate=ignore', '--validate=strict']) expect(await crdx([...base, v])).toEqual(strict);
  });

  it('status: an update with an unknown field is the 400 under strict, goes through under warn', async () => {
    const dir = 'fixtures/status/reject-strict-unknown-field';
    const base = ['status', '-f', `${dir}/new.yaml`, '--old', `${dir}/old.yaml`, '--crd', `${dir}/crd.yaml`, '--no-explain'];
    const strict = await crdx(base);
    expect(strict.exitCode).toBe(1);
    expect(strict.stdout).toBe('');
    expect(strict.stderr).toContain('unknown field "status.observedGeneration" (fieldValidation=Strict: the server answers 400 BadRequest)');
    const warn = await crdx([...base, '--validate=warn']);
    expect(warn.exitCode).toBe(0);
    expect(warn.stderr).toContain('Warning: unknown field "status.observedGeneration"');
  });
});
