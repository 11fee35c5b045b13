import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../../src/rules/index.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** Rule id = source file = test file = fixture folder; the index is sorted. */
describe('rule parity', () => {
  it('index is sorted by id and ids are unique', () => {
    const ids = rules.map((r) => r.id);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
  });
  for (const r of rules) {
    it(`${r.id}: test file, valid and invalid fixtures, docs`, () => {
      expect(existsSync(join(ROOT, 'test', 'rules', `${r.id}.test.ts`))).toBe(true);
      for (const k of ['valid', 'invalid']) {
        const dir = join(ROOT, 'fixtures', 'rules', r.id, k);
        expect(existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.yaml'))).toBe(true);
      }
      expect(r.meta.docs.description.length).toBeGreaterThan(10);
      expect(r.meta.docs.details.length).toBeGreaterThan(20);
      expect(r.meta.docs.reference.length).toBeGreaterThan(3);
      // advisory rules are never errors: an error means the server rejects or never serves the CRD
      if (!r.meta.serverFaithful) expect(r.meta.defaultSeverity).not.toBe('error');
    });
  }
  it('every rule module is in the index', () => {
    const files = readdirSync(join(ROOT, 'src', 'rules'))
      .filter((f) => f.endsWith('.ts') && !['index.ts', 'types.ts', 'helpers.ts'].includes(f))
      .map((f) => f.replace(/\.ts$/, ''));
    const ids = new Set(rules.map((r) => r.id));
    for (const f of files) expect(ids.has(f) || f === 'naming-conflicts').toBe(true);
  });
});
