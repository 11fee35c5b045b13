/**
 * The import graph of src/ and the two checks the architecture test makes over it: no circle, and
 * no import running back up the layers. A module's layer is the first entry of the ordered layer
 * list whose directory holds it; a module may import its own layer and the layers listed before it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/** module (path relative to the root, with '/') → the modules it imports, sorted */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Every relative `import`, `export … from`, `import type` and `import('…')` of each .ts file under `dir`. */
export function readImportGraph(root: string, dir: string): Map<string, string[]> {
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) files.push(relative(root, p).split(sep).join('/'));
    }
  };
  walk(join(root, dir));
  files.sort();
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const out = new Set<string>();
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveSpecifier(file, fileName, known);
      if (target === undefined) throw new Error(`${file}: cannot resolve import '${fileName}'`);
      out.add(target);
    }
    graph.set(file, [...out].sort());
  }
  return graph;
}

function resolveSpecifier(from: string, spec: string, known: ReadonlySet<string>): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(from), spec));
  const candidates = [base.replace(/\.(m?)js$/, '.$1ts'), base, `${base}.ts`, `${base}/index.ts`];
  return candidates.find((c) => known.has(c));
}

export interface Cycle {
  /** One closed path through the component: a → … → a. */
  readonly path: readonly string[];
  /** Every module of the strongly connected component. */
  readonly members: readonly string[];
}

/** The circles of the graph: one per strongly connected component of more than one module (or a module importing itself). */
export function findCycles(graph: ImportGraph): Cycle[] {
  // Tarjan's strongly connected components (recursive; the graph is a few hundred modules), in sorted order.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const strong = (v: string): void => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, idx.get(w)!));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) components.push(comp.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) strong(v);
  // Report one concrete circle through each component: the shortest path back to its first module.
  return components.map((members) => ({ path: shortestCycle(graph, members[0]!, new Set(members)), members }));
}

function shortestCycle(graph: ImportGraph, start: string, within: ReadonlySet<string>): string[] {
  const prev = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const v = queue[i]!;
    for (const w of graph.get(v) ?? []) {
      if (!within.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let u: string | undefined = v; u !== start && u !== undefined; u = prev.get(u)) path.splice(1, 0, u);
        path.push(start);
        return path;
      }
      if (!prev.has(w)) {
        prev.set(w, v);
        queue.push(w);
      }
    }
  }
  throw new Error(`no circle through ${start}`);
}

/**
 * The layer of a module: the index of the first layer whose directory (or file) holds it, or -1.
 * Layers are listed bottom to top; one entry may name several directories that share a level.
 */
export function layerOf(file: string, layers: readonly (readonly string[])[]): number {
  return layers.findIndex((level) => level.some((d) => file === d || file.startsWith(`${d}/`)));
}

export interface LayerViolation {
  from: string;
  to: string;
  fromLayer: string;
  toLayer: string;
}

/** Every import from a module to a module of a higher layer; a module in no layer is reported too (as layer '?'). */
export function findLayerViolations(graph: ImportGraph, layers: readonly (readonly string[])[]): LayerViolation[] {
  const name = (i: number): string => (i < 0 ? '?' : layers[i]!.join('|'));
  const out: LayerViolation[] = [];
  for (const [from, tos] of graph) {
    const lf = layerOf(from, layers);
    for (const to of tos) {
      const lt = layerOf(to, layers);
      if (lf < 0 || lt < 0 || lt > lf) out.push({ from, to, fromLayer: name(lf), toLayer: name(lt) });
    }
  }
  return out;
}

export const formatCycle = (c: Cycle): string =>
  `${c.path.join(' → ')}${c.members.length > c.path.length - 1 ? ` (one of the circles among ${c.members.join(', ')})` : ''}`;

/** The graph without some edges ('from → to'); throws when one of them is not in the graph. */
export function withoutEdges(graph: ImportGraph, edges: readonly string[]): Map<string, string[]> {
  const out = new Map([...graph].map(([k, v]) => [k, [...v]]));
  for (const e of edges) {
    const [from, to] = e.split(' → ');
    const tos = out.get(from ?? '');
    const i = tos?.indexOf(to ?? '') ?? -1;
    if (!tos || i < 0) throw new Error(`no import ${e} in the graph`);
    tos.splice(i, 1);
  }
  return out;
}
export const formatViolation = (v: LayerViolation): string => `${v.from} (${v.fromLayer}) → ${v.to} (${v.toLayer})`;
