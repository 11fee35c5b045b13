import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'kubectl-crdx');
const schema = JSON.parse(readFileSync(join(ROOT, 'docs', 'lint-output.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: true }).compile(schema);

describe('lint -o json follows docs/lint-output.schema.json', () => {
  for (const input of ['fixtures/crds', 'fixtures/rules', 'fixtures/rules/crd-decode/invalid/types-hide-unknown-fields.yaml', 'fixtures/rules/crd-decode/invalid/unknown-fields.yaml']) {
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

  it('an input error is a finding with a position, and exit 2 when nothing could be checked', async () => {
    const r = await execa('node', [BIN, 'lint', '-o', 'json', 'no/such/file.yaml'], { cwd: ROOT, reject: false });
    expect(r.exitCode).toBe(2);
    const out = JSON.parse(r.stdout);
    expect(validate(out)).toBe(true);
    expect(out.findings[0]).toMatchObject({ ruleId: 'parse', fatal: true, line: 1, column: 1 });
  });
});
