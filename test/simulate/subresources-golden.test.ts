/**
 * Golden cases of `kubectl crdx status` (fixtures/status/<case>/: crd.yaml, old.yaml when the case
 * is an update, new.yaml, args) and `kubectl crdx scale` (fixtures/scale/<case>/: crd.yaml,
 * input.yaml, args): expected.yaml is stdout, expected-stderr.txt is stderr (with --explain for
 * status). Cases named reject-* are refused by the server (exit 1). The operations are replayed
 * against a real apiextensions-apiserver in test/conformance/subresources.conformance.test.ts.
 * Regenerate with `npx vitest run --project unit test/simulate/subresources-golden.test.ts -u`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './default-golden.test.js';

const ROOT = join(import.meta.dirname, '..', '..');

function args(dir: string): string[] {
  return readFileSync(join(dir, 'args'), 'utf8').trim().split(/\s+/).filter(Boolean);
}

describe('status golden cases', () => {
  const DIR = join(ROOT, 'fixtures', 'status');
  for (const name of readdirSync(DIR).sort()) {
    it(name, async () => {
      const rel = `fixtures/status/${name}`;
      const old = existsSync(join(DIR, name, 'old.yaml')) ? ['--old', `${rel}/old.yaml`] : [];
      const r = await runCli(['status', '-f', `${rel}/new.yaml`, ...old, '--crd', `${rel}/crd.yaml`, '--explain', ...args(join(DIR, name))]);
      expect(r.code).toBe(name.startsWith('reject-') ? 1 : 0);
      await expect(r.stdout).toMatchFileSnapshot(join(DIR, name, 'expected.yaml'));
      await expect(r.stderr).toMatchFileSnapshot(join(DIR, name, 'expected-stderr.txt'));
    });
  }
});

describe('scale golden cases', () => {
  const DIR = join(ROOT, 'fixtures', 'scale');
  for (const name of readdirSync(DIR).sort()) {
    it(name, async () => {
      const rel = `fixtures/scale/${name}`;
      const r = await runCli(['scale', '-f', `${rel}/input.yaml`, '--crd', `${rel}/crd.yaml`, ...args(join(DIR, name))]);
      expect(r.code).toBe(name.startsWith('reject-') ? 1 : 0);
      await expect(r.stdout).toMatchFileSnapshot(join(DIR, name, 'expected.yaml'));
      await expect(r.stderr).toMatchFileSnapshot(join(DIR, name, 'expected-stderr.txt'));
    });
  }
});
