/**
 * The layers of `kubectl crdx test` (load → parse → model → simulations → results → formatter →
 * exit code) point one way: src/crdtest never imports the CLI or src/io (it is pure), the
 * formatter only the result types, and no import of these modules leads back to itself.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

/** Relative imports of a module (static, dynamic and type-only), as paths below src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(SRC, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)) out.push(relative(SRC, resolve(dirname(join(SRC, file)), m[1]!)).replace(/\.js$/, '.ts'));
  return out;
}

const CRDTEST = ['crdtest/types.ts', 'crdtest/parse.ts', 'crdtest/expect.ts', 'crdtest/run.ts', 'crdtest/update.ts', 'crdtest/coverage.ts', 'crdtest/scaffold.ts'];

describe('kubectl crdx test: layers', () => {
  it('src/crdtest imports neither the CLI nor src/io, and touches no process, console or file system', () => {
    for (const f of CRDTEST) {
      for (const i of importsOf(f)) expect(i, `${f} imports ${i}`).not.toMatch(/^(cli|io)\//);
      const text = readFileSync(join(SRC, f), 'utf8');
      expect(text, f).not.toMatch(/\bprocess\.|\bconsole\.|from 'node:fs/);
    }
  });

  it('the formatter reads only the result types of src/crdtest', () => {
    const deps = importsOf('formatters/crdtest.ts').filter((i) => i.startsWith('crdtest/'));
    expect(deps).toEqual(['crdtest/types.ts']);
    expect(readFileSync(join(SRC, 'formatters/crdtest.ts'), 'utf8')).toMatch(/import type \{[^}]+\} from '\.\.\/crdtest\/types\.js'/);
  });

  it('the types are leaves: core (and the Manifest type) only', () => {
    for (const i of importsOf('crdtest/types.ts')) expect(i).toMatch(/^(core\/|manifest\/parse\.ts$)/);
  });

  it('no cycle from the test command down', () => {
    const seen = new Map<string, 'open' | 'done'>();
    const cycle: string[] = [];
    const visit = (f: string, stack: string[]): void => {
      if (seen.get(f) === 'done') return;
      if (seen.get(f) === 'open') {
        if (f.startsWith('crdtest/')) cycle.push([...stack, f].join(' -> '));
        return;
      }
      seen.set(f, 'open');
      for (const i of importsOf(f)) visit(i, [...stack, f]);
      seen.set(f, 'done');
    };
    visit('cli/test-command.ts', []);
    expect(cycle).toEqual([]);
  });
});
