/** The checker behind imports.test.ts, on small graphs made up here: it must find what it is for. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findCycles, findLayerViolations, formatCycle, formatViolation, layerOf, readImportGraph, withoutEdges } from '../helpers/import-graph.js';

const LAYERS = [['src/core'], ['src/a', 'src/b'], ['src/top.ts']];

describe('findCycles', () => {
  it('finds a circle of three and reports it as a closed path', () => {
    const g = new Map([
      ['x', ['y']],
      ['y', ['z']],
      ['z', ['x']],
      ['w', ['x']],
    ]);
    const c = findCycles(g);
    expect(c.map(formatCycle)).toEqual(['x → y → z → x']);
  });

  it('finds a module importing itself, and two separate circles', () => {
    const g = new Map([
      ['a', ['a']],
      ['b', ['c']],
      ['c', ['b', 'd']],
      ['d', []],
    ]);
    expect(findCycles(g).map((c) => c.path)).toEqual([['a', 'a'], ['b', 'c', 'b']]);
  });

  it('names every member of a component with more modules than the path shown', () => {
    const g = new Map([
      ['m', ['p', 'q']],
      ['p', ['m']],
      ['q', ['m']],
    ]);
    const [c] = findCycles(g);
    expect(c?.members).toEqual(['m', 'p', 'q']);
    expect(formatCycle(c!)).toBe('m → p → m (one of the circles among m, p, q)');
  });

  it('finds nothing in a graph without circle', () => {
    expect(findCycles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toEqual([]);
  });
});

describe('findLayerViolations', () => {
  it('reports an import to a higher layer, and allows the same and lower layers', () => {
    const g = new Map([
      ['src/core/x.ts', ['src/a/y.ts', 'src/core/z.ts']],
      ['src/a/y.ts', ['src/b/w.ts', 'src/core/x.ts']],
      ['src/top.ts', ['src/a/y.ts']],
    ]);
    expect(findLayerViolations(g, LAYERS).map(formatViolation)).toEqual(['src/core/x.ts (src/core) → src/a/y.ts (src/a|src/b)']);
  });

  it('reports a module outside every layer', () => {
    expect(findLayerViolations(new Map([['src/stray.ts', ['src/core/x.ts']]]), LAYERS).map(formatViolation)).toEqual(['src/stray.ts (?) → src/core/x.ts (src/core)']);
  });

  it('matches directories by whole segments', () => {
    expect(layerOf('src/core/x.ts', LAYERS)).toBe(0);
    expect(layerOf('src/corel/x.ts', LAYERS)).toBe(-1);
    expect(layerOf('src/top.ts', LAYERS)).toBe(2);
  });
});

describe('withoutEdges', () => {
  it('removes listed edges and refuses one the graph does not have', () => {
    const g = new Map([['a', ['b', 'c']]]);
    expect(withoutEdges(g, ['a → b']).get('a')).toEqual(['c']);
    expect(g.get('a')).toEqual(['b', 'c']);
    expect(() => withoutEdges(g, ['a → d'])).toThrow('no import a → d in the graph');
  });
});

describe('readImportGraph', () => {
  const root = mkdtempSync(join(tmpdir(), 'crdx-imports-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (p: string, text: string): void => {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  };

  it('reads static, type-only, re-export and dynamic imports, resolving .js to .ts and ignoring packages', () => {
    write('src/core/a.ts', "import { b } from './b.js';\nimport type { C } from '../x/c.js';\nexport { d } from './d.js';\nimport 'node:fs';\nimport chalk from 'chalk';\n");
    write('src/core/b.ts', "export const b = async () => (await import('../x/c.js')).c;\n");
    write('src/x/c.ts', "import { a } from '../core/a.js';\nexport type C = 1; export const c = a;\n");
    write('src/core/d.ts', 'export const d = 1;\n');
    const g = readImportGraph(root, 'src');
    expect(Object.fromEntries(g)).toEqual({
      'src/core/a.ts': ['src/core/b.ts', 'src/core/d.ts', 'src/x/c.ts'],
      'src/core/b.ts': ['src/x/c.ts'],
      'src/core/d.ts': [],
      'src/x/c.ts': ['src/core/a.ts'],
    });
    expect(findCycles(g).map((c) => c.members)).toEqual([['src/core/a.ts', 'src/core/b.ts', 'src/x/c.ts']]);
    expect(findLayerViolations(g, [['src/core'], ['src/x']]).map(formatViolation)).toEqual([
      'src/core/a.ts (src/core) → src/x/c.ts (src/x)',
      'src/core/b.ts (src/core) → src/x/c.ts (src/x)',
    ]);
  });

  it('fails on a relative import it cannot resolve', () => {
    write('src/core/e.ts', "import { z } from './nowhere.js';\n");
    expect(() => readImportGraph(root, 'src')).toThrow("src/core/e.ts: cannot resolve import './nowhere.js'");
  });
});
