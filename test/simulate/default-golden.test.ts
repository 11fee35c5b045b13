/**
 * Golden cases of `kubectl crdx default` (fixtures/simulate/<case>/): crd.yaml and input.yaml in,
 * expected.yaml (stdout) and expected-explain.txt (stderr with --explain) out; an optional `args`
 * file adds flags (`--validate=warn` for the cases that show pruning with the server's warnings,
 * as a client that sends no fieldValidation sees it; without it, kubectl's strict). Cases named
 * reject-* are rejected by the server (exit 1). The same cases are replayed against a real
 * apiextensions-apiserver by test/conformance/default.conformance.test.ts.
 * Regenerate with `npx vitest run --project unit test/simulate/default-golden.test.ts -u`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DIR = join(ROOT, 'fixtures', 'simulate');

export async function runCli(argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    readStdin: async () => '',
    cwd: ROOT,
    env: { NO_COLOR: '1' },
  };
  const code = await main(argv, io);
  return { code, stdout, stderr };
}

describe('default golden cases', () => {
  for (const name of readdirSync(DIR).sort()) {
    it(name, async () => {
      const rel = `fixtures/simulate/${name}`;
      const extra = existsSync(join(DIR, name, 'args')) ? readFileSync(join(DIR, name, 'args'), 'utf8').trim().split(/\s+/).filter(Boolean) : [];
      const r = await runCli(['default', '-f', `${rel}/input.yaml`, '--crd', `${rel}/crd.yaml`, '--explain', ...extra]);
      expect(r.code).toBe(name.startsWith('reject-') ? 1 : 0);
      await expect(r.stdout).toMatchFileSnapshot(join(DIR, name, 'expected.yaml'));
      await expect(r.stderr).toMatchFileSnapshot(join(DIR, name, 'expected-explain.txt'));
    });
  }
});
