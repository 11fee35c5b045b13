import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'kubectl-crdx');
const schema = JSON.parse(readFileSync(join(ROOT, 'docs', 'lint-output.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

describe('lint -o json follows docs/lint-output.schema.json', () => {
  for (const input of ['fixtures/crds', 'fixtures/rules', 'fixtures/rules/crd-decode/invalid/types-hide-unknown-fields.yaml', 'fixtures/rules/crd-decode/invalid/unknown-fields.yaml', 'fixtures/suppress']) {
    it(input, async () => {
      const r = await execa('node', [BIN, 'lint', '-o', 'json', input], { cwd: ROOT, reject: false, env: { NO_COLOR: '1' } });
      expect(r.exitCode).toBe(1);
      const out = JSON.parse(r.stdout);
      const ok = validate(out);
      expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
      expect(ok).toBe(true);
      expect(out.summary.errors).toBe(out.findings.filter((f: { severity: string }) => f.severity === 'error').length);
      // a finding carries a server cause exactly for 422 verdicts, and its message is the server's text
      for (const f of out.findings) if (f.server) expect(f.message).toBe(`${f.server.field}: ${f.server.message}`);
    });
  }

  it('suppressed findings: listed apart with their suppressions, counted in summary.suppressed only', async () => {
    const r = await execa('node', [BIN, 'lint', '-o', 'json', 'fixtures/suppress'], { cwd: ROOT, reject: false });
    const out = JSON.parse(r.stdout);
    expect(validate(out), JSON.stringify(validate.errors)).toBe(true);
    expect(out.suppressed.length).toBe(out.summary.suppressed);
    expect(out.summary.suppressed).toBeGreaterThan(0);
    // the schema tells the two lists apart: suppressions only on suppressed findings
    const moved = { ...out, findings: [...out.findings, out.suppressed[0]] };
    expect(validate(moved)).toBe(false);
    const bare = { ...out, suppressed: [{ ...out.suppressed[0], suppressions: undefined }].map(({ suppressions: _, ...f }) => f) };
    expect(validate(bare)).toBe(false);
  });

  it('--baseline: summary.baseline, with the message when entries no longer occur', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crdx-contract-'));
    try {
      const file = join(dir, 'baseline.json');
      const entry = { ruleId: 'scope', file: 'gone.yaml', path: 'spec.scope', message: 'gone' };
      writeFileSync(file, JSON.stringify({ version: 1, findings: [entry] }));
      const r = await execa('node', [BIN, 'lint', '-o', 'json', '--baseline', file, 'fixtures/crds'], { cwd: ROOT, reject: false });
      const out = JSON.parse(r.stdout);
      expect(validate(out), JSON.stringify(validate.errors)).toBe(true);
      expect(out.summary.baseline).toEqual({ file, matched: 0, fixed: 1, message: `1 finding of the baseline ${file} no longer occurs: run with --update-baseline to remove it` });
      expect(r.exitCode).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an input error is a finding with a position, and exit 2 when nothing could be checked', async () => {
    const r = await execa('node', [BIN, 'lint', '-o', 'json', 'no/such/file.yaml'], { cwd: ROOT, reject: false });
    expect(r.exitCode).toBe(2);
    const out = JSON.parse(r.stdout);
    expect(validate(out)).toBe(true);
    expect(out.findings[0]).toMatchObject({ ruleId: 'parse', fatal: true, line: 1, column: 1 });
  });
});
