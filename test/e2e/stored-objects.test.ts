/**
 * `lint --old --objects` through the built CLI: the findings of stored-objects at the objects'
 * positions, the summary line of the update in every format, the exit code, stdin, and usage errors.
 */
import { Ajv } from 'ajv';
import { execa } from 'execa';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'kubectl-crdx');
const DIR = join(ROOT, 'fixtures', 'rules', 'stored-objects');
const OLD = join(DIR, 'old', 'gadgets.yaml');
const OBJECTS = join(DIR, 'objects', 'gadgets.yaml');

async function crdx(args: readonly string[], input?: string): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }> {
  const r = await execa('node', [BIN, ...args], { cwd: ROOT, reject: false, ...(input !== undefined ? { input } : { stdin: 'ignore' as const }), env: { NO_COLOR: '1' } });
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

describe('lint --old --objects', () => {
  it('reports the objects a tightened CRD breaks, at their positions, and counts them', async () => {
    const r = await crdx(['lint', '-o', 'json', '--old', OLD, '--objects', OBJECTS, join(DIR, 'invalid', 'tightened.yaml')]);
    expect(r.exitCode).toBe(1);
    const out = JSON.parse(r.stdout);
    const schema = JSON.parse(await readFile(join(ROOT, 'docs', 'lint-output.schema.json'), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);
    expect(validate(out), JSON.stringify(validate.errors)).toBe(true);
    const size = out.findings.find((f: { messageId: string; path: string }) => f.messageId === 'create' && f.path === 'spec.size');
    expect(size).toMatchObject({
      ruleId: 'stored-objects',
      severity: 'error',
      file: OBJECTS,
      line: 7,
      column: 9,
      object: { name: 'big', namespace: 'default', kind: 'Gadget' },
      server: { reason: 'FieldValueInvalid', field: 'spec.size', message: 'Invalid value: 50: spec.size in body should be less than or equal to 10' },
    });
    const u = out.summary.updates[0];
    expect(u).toMatchObject({ name: 'gadgets.example.com', accepted: true, objects: 3, affected: 2 });
    expect(u.message).toMatch(/^CustomResourceDefinition gadgets\.example\.com: update accepted by the server; \d+ findings \(\d+ breaking changes\); 2 of 3 stored objects affected$/);
  });

  it('every format carries the objects line; stdin works; an unserved version is a 404', async () => {
    const text = await readFile(OBJECTS, 'utf8');
    const stylish = await crdx(['lint', '--old', OLD, '--objects', '-', join(DIR, 'invalid', 'unserved.yaml')], text);
    expect(stylish.exitCode).toBe(1);
    expect(stylish.stdout).toContain('1:13   error   gadgets.example.com does not serve version "v1alpha1"');
    expect(stylish.stdout).toContain('every request for this object at its apiVersion is a 404 NotFound');
    expect(stylish.stdout).toContain('3 of 3 stored objects affected');
    for (const [format, want] of [
      ['sarif', '3 of 3 stored objects affected'],
      ['github', '3 of 3 stored objects affected'],
      ['junit', 'stored-objects'],
    ] as const) {
      const r = await crdx(['lint', '-o', format, '--old', OLD, '--objects', OBJECTS, join(DIR, 'invalid', 'unserved.yaml')]);
      expect(r.stdout, format).toContain(want);
    }
  });

  it('a compatible revision affects nothing and exits 0', async () => {
    const r = await crdx(['lint', '--old', OLD, '--objects', OBJECTS, join(DIR, 'valid', 'compatible.yaml')]);
    expect(r.stdout).toContain('0 of 3 stored objects affected');
    expect(r.exitCode).toBe(0);
  });

  it('--objects without --old is a usage error', async () => {
    const r = await crdx(['lint', '--objects', OBJECTS, join(DIR, 'valid', 'compatible.yaml')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--objects needs --old');
  });
});
