/**
 * The import graph of src/: no circle, and no import running back up the layers. LAYERS is the one
 * place the architecture is written down: bottom to top, each entry a level of directories (or
 * files) under src/; a module may import modules of its own level and of the levels before it.
 * Moving a directory means editing this list, nothing else.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCycles, findLayerViolations, formatCycle, formatViolation, readImportGraph, withoutEdges } from '../helpers/import-graph.js';

const ROOT = join(import.meta.dirname, '..', '..');

const LAYERS: readonly (readonly string[])[] = [
  // the leaf types and JSON text (they import nothing), then Go's behaviours, then the rest of
  // core (field errors, durations, key order, JSON values call src/go); a file entry takes its
  // module out of the directory's level (the first level that names it wins)
  ['src/core/types.ts', 'src/core/json-text.ts'],
  ['src/go'],
  ['src/core'],
  ['src/manifest'],
  // reading files and the cluster: text in, sources out; nothing above it (no rendering, no engine)
  ['src/io'],
  ['src/crd'],
  ['src/schema'],
  ['src/simulate'],
  ['src/cr'],
  ['src/rules'],
  ['src/docs.ts'],
  ['src/engine'],
  ['src/crdtest'],
  ['src/formatters'],
  ['src/lsp'],
  ['src/cli'],
];

/**
 * Imports known to break the rules, each to be removed by the change that fixes it. They are taken
 * out of the graph before checking; one that no longer exists fails the test, so the list cannot
 * go stale.
 */
const KNOWN: readonly string[] = [];

describe('import graph of src/', () => {
  const full = readImportGraph(ROOT, 'src');
  const graph = withoutEdges(full, KNOWN);

  it('reads every module and its imports, static, type-only and dynamic', () => {
    expect(full.size).toBeGreaterThan(100);
    expect(full.get('src/cli/process.ts')).toContain('src/cli/main.ts');
    expect(full.get('src/cli/main.ts')).toContain('src/cli/lint-command.ts'); // import('./lint-command.js')
  });

  it('has no circle', () => {
    const cycles = findCycles(graph).map(formatCycle);
    expect(cycles, `circles:\n${cycles.join('\n')}`).toEqual([]);
  });

  it('has no import running back up the layers (nor a module outside them)', () => {
    const bad = findLayerViolations(graph, LAYERS).map(formatViolation);
    expect(bad, `imports against the layers (${LAYERS.map((l) => l.join('|')).join(' < ')}):\n${bad.join('\n')}`).toEqual([]);
  });
});
