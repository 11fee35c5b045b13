/**
 * The version table cannot drift from the code: every version switch in src/ goes through
 * src/core/version-gates.ts (no literal minor compared with a version), every entry there is used,
 * and the README table is generated from the entries (checked by npm run docs:check, test/rules/docs.test.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION, MIN_KUBE_VERSION } from '../../src/core/kube-version.js';
import { GATES, gated, since, type GateId } from '../../src/core/version-gates.js';
import { versionTable, withVersionTable } from '../../src/docs.js';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const OWN = new Set(['core/version-gates.ts', 'core/kube-version.ts']);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}
const sources = files(SRC)
  .map((p) => ({ path: relative(SRC, p), text: readFileSync(p, 'utf8') }))
  .filter((f) => !OWN.has(f.path));

/** A version compared with a literal minor: atLeast(v, 30), minor >= 34, compat < 29, kube.minor <= 34, 34 > minor. */
const LITERAL = [
  /\batLeast\([^)]*,\s*\d+\s*\)/,
  /\b(?:\w*[mM]inor|compat)\s*(?:>=|<=|>|<|===|!==|==|!=)\s*\d{2}\b/,
  /\b\d{2}\s*(?:>=|<=|>|<|===|!==)\s*(?:[\w.]*[mM]inor|compat)\b/,
];

describe('version gates', () => {
  it('no code compares a version with a literal minor (use gated/since of src/core/version-gates.ts)', () => {
    const hits: string[] = [];
    for (const f of sources)
      f.text.split('\n').forEach((line, i) => {
        if (/^\s*(\*|\/\/)/.test(line)) return;
        if (LITERAL.some((r) => r.test(line))) hits.push(`src/${f.path}:${i + 1}: ${line.trim()}`);
      });
    expect(hits).toEqual([]);
  });

  it('the scan sees what it must refuse', () => {
    for (const bad of ['if (atLeast(crd.kube, 34)) x();', 'if (kubeMinor >= 37) x();', 'const m = env.compat < 29;', 'kube.minor <= 34', 'if (34 > kubeMinor) x();'])
      expect(LITERAL.some((r) => r.test(bad)), bad).toBe(true);
    expect(LITERAL.some((r) => r.test("if (gated(crd.kube, 'crd.list-set-warning')) x();"))).toBe(false);
  });

  it('every entry is asked by the code', () => {
    const all = sources.map((f) => f.text).join('\n');
    const unused = (Object.keys(GATES) as GateId[]).filter((id) => !all.includes(`'${id}'`));
    expect(unused).toEqual([]);
  });

  it('entries lie in the simulated range (compat switches: their new-rule minor)', () => {
    for (const [id, g] of Object.entries(GATES)) {
      const at = 'basis' in g ? g.minor + 1 : g.minor;
      expect(at, id).toBeGreaterThanOrEqual(MIN_KUBE_VERSION.minor + 1);
      expect(at, id).toBeLessThanOrEqual(DEFAULT_KUBE_VERSION.minor);
    }
    expect(gated({ major: 1, minor: 36 }, 'crd.list-set-warning')).toBe(false);
    expect(gated({ major: 1, minor: 37 }, 'crd.list-set-warning')).toBe(true);
    expect(since('cel.ip-cidr')).toBe(30);
  });

  it('the table has a row per minor from 1.16 to the default, each switch at its minor', () => {
    const rows = versionTable().split('\n').slice(2);
    expect(rows).toHaveLength(DEFAULT_KUBE_VERSION.minor - MIN_KUBE_VERSION.minor + 1);
    expect(rows[0]).toMatch(/^\| 1\.16 \| the oldest simulated/);
    const row = (m: number) => rows.find((r) => r.startsWith(`| 1.${m} `))!;
    expect(row(37)).toContain('x-kubernetes-list-type: set');
    expect(row(37)).toContain('(the default)');
    expect(row(31)).toContain('the IP and CIDR libraries in new rules (in rules already stored from 1.30)');
    expect(row(30)).not.toContain('IP and CIDR');
    expect(row(17)).toContain('nothing crdx simulates differs');
  });

  it('the README carries the generated table', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    expect(readme).toContain(versionTable());
    expect(withVersionTable(readme)).toBe(readme);
  });
});
