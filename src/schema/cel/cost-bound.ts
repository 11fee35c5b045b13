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
  /** The longest list or map literal. */
  readonly literal: number;
  /** It splits strings (a list as long as a string). */
  readonly splits: boolean;
}

/** The shape of a cel-js AST. */
export function shapeOf(ast: unknown): Shape {
  let nodes = 0;
  let literal = 0;
  let splits = false;
  const walk = (n: unknown): number => {
    if (Array.isArray(n)) return Math.max(0, ...n.map(walk));
    if (typeof n !== 'object' || n === null || !('op' in n)) return 0;
    nodes++;
    const { op, args } = n as { op: string; args: unknown };
    if ((op === 'list' || op === 'map') && Array.isArray(args)) literal = Math.max(literal, args.length);
    if ((op === 'rcall' || op === 'call') && Array.isArray(args) && args[0] === 'split') splits = true;
    const inner = walk(args);
    const isComp = op === 'rcall' && Array.isArray(args) && typeof args[0] === 'string' && COMPREHENSIONS.has(args[0]);
    return inner + (isComp ? 1 : 0);
  };
  const depth = walk(ast);
  return { nodes, depth, literal, splits };
}

/** The largest list or map (items, entries) and the longest string of a decoded JSON value. */
export function sizeOf(v: unknown): { largest: number; longest: number } {
  let largest = 0;
  let longest = 0;
  const walk = (x: unknown): void => {
    if (typeof x === 'string') longest = Math.max(longest, x.length);
    else if (Array.isArray(x)) {
      largest = Math.max(largest, x.length);
      for (const e of x) walk(e);
    } else if (typeof x === 'object' && x !== null) {
      const es = Object.entries(x);
      largest = Math.max(largest, es.length);
      for (const [k, e] of es) {
        longest = Math.max(longest, k.length);
        walk(e);
      }
    }
  };
  walk(v);
  return { largest, longest };
}

/**
 * A comprehension iterates over a list or map of the value, a literal of the rule, or a list made
 * from them (a concatenation of two, a map() or filter() result, a split string): at most twice the
 * largest of these. Each iteration evaluates at most every node, each costing at most one plus a
 * traversal of the longest string.
 */
export function costBound(shape: Shape, size: { largest: number; longest: number }): number {
  const iterations = 2 * Math.max(size.largest, shape.literal, shape.splits ? size.longest : 0);
  return Math.max(1, iterations) ** shape.depth * shape.nodes * (1 + Math.ceil(size.longest / 10));
}
