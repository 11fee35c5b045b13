/** Every environment variable the shipped code reads is documented in the README (its "Environment variables" table). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const sources = (dir: string): string[] =>
  readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
// what runs when the package is used: the sources, the bin and its loader (also the single
// executable's, with its main script), the GitHub Action's script
const SHIPPED = [...sources('src'), join(ROOT, 'bin', 'kubectl-crdx'), join(ROOT, 'bin', 'load-bundle.cjs'), join(ROOT, 'scripts', 'sea-main.cjs'), join(ROOT, 'scripts', 'action.mjs')];

/** Names read as env['NAME'], env.NAME or process.env.NAME (an `env` object is the process's environment). */
function variablesRead(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/\benv(?:\[['"]([A-Z][A-Z0-9_]*)['"]\]|\.([A-Z][A-Z0-9_]*)\b)/g)) out.add((m[1] ?? m[2])!);
  return [...out];
}

describe('environment variables', () => {
  const read = new Map<string, string>();
  for (const f of SHIPPED) for (const v of variablesRead(readFileSync(f, 'utf8'))) read.set(v, f.slice(ROOT.length + 1));
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('### Environment variables'), readme.indexOf('\n## ', readme.indexOf('### Environment variables')));

  it('finds the variables the code reads', () => {
    expect(variablesRead(`io.env['NO_COLOR'] ?? env.HOME; process.env.X_Y; env[key]`)).toEqual(['NO_COLOR', 'HOME', 'X_Y']);
    expect(read.get('CRDX_DEBUG')).toBe('src/cli/main.ts');
    expect(read.has('CRDX_COMPILE_CACHE')).toBe(true);
  });

  it('documents each of them in the README', () => {
    expect(table.length).toBeGreaterThan(0);
    const missing = [...read].filter(([v]) => !table.includes(`\`${v}`) && !table.includes(`, ${v}`)).map(([v, f]) => `${v} (${f})`);
    expect(missing, 'read by the code, not in the README table').toEqual([]);
  });
});
