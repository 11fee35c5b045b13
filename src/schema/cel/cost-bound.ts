/**
 * An upper bound of a rule's runtime cost on a value, for the server's runtime limits (apiserver
 * pkg/apis/cel/config.go: 1,000,000 per expression call, 10,000,000 per object). crdx does not
 * count cel-go's runtime cost exactly; a rule whose bound stays under the limits cannot exceed them,
 * and one whose bound does not is reported as not evaluated (never run: it also keeps evaluation
 * from running away). The bound: every AST node evaluated once per iteration of each enclosing
 * comprehension, each iteration ranging over at most every element of the value, each node costing
 * at most a string traversal of the value's longest string (cel-go: 0.1 per byte) plus one.
 */

export const PER_CALL_LIMIT = 1_000_000;
export const PER_OBJECT_BUDGET = 10_000_000;

const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'existsOne', 'map', 'filter', 'sortBy', 'transformList', 'transformMap', 'transformMapEntry']);

export interface Shape {
  /** AST nodes. */
  readonly nodes: number;
  /** Deepest nesting of comprehensions. */
  readonly depth: number;
}

/** The shape of a cel-js AST. */
export function shapeOf(ast: unknown): Shape {
  let nodes = 0;
  const walk = (n: unknown): number => {
    if (Array.isArray(n)) return Math.max(0, ...n.map(walk));
    if (typeof n !== 'object' || n === null || !('op' in n)) return 0;
    nodes++;
    const { op, args } = n as { op: string; args: unknown };
    const inner = walk(args);
    const isComp = op === 'rcall' && Array.isArray(args) && typeof args[0] === 'string' && COMPREHENSIONS.has(args[0]);
    return inner + (isComp ? 1 : 0);
  };
  const depth = walk(ast);
  return { nodes, depth };
}

/** Elements (list items and map entries) and the longest string of a decoded JSON value. */
export function sizeOf(v: unknown): { elements: number; longest: number } {
  let elements = 0;
  let longest = 0;
  const walk = (x: unknown): void => {
    if (typeof x === 'string') longest = Math.max(longest, x.length);
    else if (Array.isArray(x)) {
      elements += x.length;
      for (const e of x) walk(e);
    } else if (typeof x === 'object' && x !== null) {
      for (const [k, e] of Object.entries(x)) {
        elements++;
        longest = Math.max(longest, k.length);
        walk(e);
      }
    }
  };
  walk(v);
  return { elements, longest };
}

export function costBound(shape: Shape, size: { elements: number; longest: number }): number {
  // literal lists in the rule are iterated too: count its nodes as elements
  return (size.elements + shape.nodes + 1) ** shape.depth * shape.nodes * (1 + Math.ceil(size.longest / 10));
}
