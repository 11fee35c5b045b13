import { execa } from 'execa';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface JsonFinding {
  ruleId: string;
  severity: string;
  file: string;
  line: number;
  column: number;
  message: string;
}

/** `lint -o json` of fixtures/crds by the development build (bin/ over dist/): what a packaged build must print too. */
export async function referenceLint(): Promise<{ exitCode: number | undefined; stdout: string }> {
  const r = await execa('node', ['bin/kubectl-crdx', 'lint', '-o', 'json', 'fixtures/crds'], { cwd: ROOT, reject: false, env: { NO_COLOR: '1' } });
  return { exitCode: r.exitCode, stdout: String(r.stdout) };
}

/**
 * A packaged kubectl-crdx linted fixtures/crds (cwd: the repository root, -o json): exit 1, the broken
 * CRD's server errors, nothing for the valid one, and exactly the development build's findings.
 */
export async function expectFixtureLint(r: { exitCode: number | undefined; stdout: string; stderr: string }): Promise<void> {
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(1);
  const out = JSON.parse(r.stdout) as { findings: JsonFinding[]; summary: { files: number; errors: number } };
  expect(out.summary.files).toBe(2);
  expect(out.findings.filter((f) => f.file.endsWith('01-widgets.yaml'))).toEqual([]);
  const broken = out.findings.filter((f) => f.file.endsWith('02-gadgets-broken.yaml') && f.severity === 'error').map((f) => f.ruleId);
  expect(broken).toEqual(expect.arrayContaining(['scope', 'scale-subresource', 'structural-schema', 'schema-pattern']));
  const ref = await referenceLint();
  expect(ref.exitCode).toBe(1);
  expect(out).toEqual(JSON.parse(ref.stdout));
}
