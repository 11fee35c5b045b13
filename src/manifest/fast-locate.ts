import { FAILSAFE_SCHEMA, load, type LoadOptions, type State } from 'js-yaml';
import type { JsonPath, Position } from '../core/types.js';
import { isBlank } from './fast.js';

/**
 * Positions in a document the fast path read (fast.ts), without the yaml package. js-yaml reads the
 * document again with a listener that records where every node opens and closes; from those offsets
 * come the same ranges the yaml package gives its nodes (parse.ts, locateIn): the start of a node, and
 * the end of its value. Where the yaml package's end depends on how it attributes trailing comments
 * and blank lines, or the node is something this module does not model (an empty node not right
 * before a line break, a block scalar keeping its trailing lines), it answers undefined and the caller
 * asks the yaml package. The fast-path comparisons (test/helpers/compare-parse.ts) check every key and
 * value position of the fixtures, the corpus and the fuzz cases against the yaml package's.
 */

interface Node {
  /** Offset of the node's first character. */
  readonly start: number;
  /** Offset where js-yaml's reading of the node stopped. */
  readonly close: number;
  readonly kind: 'mapping' | 'sequence' | 'scalar' | 'empty';
  /** For mappings: keys and values alternate; for sequences: the items. */
  readonly children: Node[];
  /** A scalar key's text (mappings' key nodes). */
  readonly text: string | undefined;
}

/** What a position is wanted for: a path and whether its key or its value. */
export type FastLocator = (path: JsonPath, at: 'key' | 'value') => Position | undefined;


/**
 * A locator over one document's text (a `---` chunk the fast path read), lines counted from
 * `lineOffset`; a position it does not model is undefined (the caller asks the yaml package).
 *
 * js-yaml's reading is as long as the document: the first position asked for is found by a reading
 * that stops once the document's entry holding it is read (metadata, where most findings of a large
 * CRD point, comes before its spec), and any other by a reading of the whole document, kept.
 */
export function fastLocator(text: string, lineOffset: number, maxDepth: number): FastLocator {
  let whole: Node | undefined | null = null;
  let first = true;
  let starts: number[] | undefined;
  const pos = (offset: number): { line: number; col: number } => {
    starts ??= lineStarts(text);
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (offset < starts[mid]!) hi = mid;
      else lo = mid + 1;
    }
    return { line: lo + lineOffset, col: offset - starts[lo - 1]! + 1 };
  };
  const position = (n: Node, key: boolean): Position | undefined => {
    const end = valueEnd(text, n, key);
    if (end === undefined) return undefined;
    const s = pos(n.start);
    const e = pos(end);
    return { line: s.line, column: s.col, endLine: e.line, endColumn: e.col };
  };
  /** As parse.ts's locateIn with `closest`: the deepest node of the path that exists, below `node`. */
  const below = (node: Node, best: Position, path: JsonPath, at: 'key' | 'value'): Position | undefined => {
    for (const seg of path) {
      let next: Node | undefined;
      let nextKey: Node | undefined;
      if (node.kind === 'mapping') {
        const want = String(seg);
        for (let i = 0; i + 1 < node.children.length; i += 2) {
          if (node.children[i]!.text === want) {
            nextKey = node.children[i];
            next = node.children[i + 1];
            break;
          }
        }
      } else if (node.kind === 'sequence' && typeof seg === 'number') {
        next = node.children[seg];
      }
      if (next === undefined) return best;
      node = next;
      const here = at === 'key' && nextKey ? position(nextKey, true) : position(node, false);
      if (here === undefined) return undefined;
      best = here;
    }
    return best;
  };
  return (path, at) => {
    if (first && whole === null && path.length > 0) {
      first = false;
      const entry = tree(text, maxDepth, String(path[0]));
      if (entry === undefined) return undefined;
      if ('key' in entry) {
        const here = at === 'key' ? position(entry.key, true) : position(entry.value, false);
        return here === undefined ? undefined : below(entry.value, here, path.slice(1), at);
      }
      // the document holds no such entry: read whole
      whole = entry.root;
    }
    if (whole === null) {
      const t = tree(text, maxDepth);
      whole = t !== undefined && 'root' in t ? t.root : undefined;
    }
    if (whole === undefined) return undefined;
    const best = position(whole, false);
    return best === undefined ? undefined : below(whole, best, path, at);
  };
}

/** Thrown by the listener to end js-yaml's reading at the entry asked for. */
const READ_ENOUGH = new Error('read enough');

/**
 * The document's nodes from js-yaml's open and close events; undefined when not one plain document.
 * With `entry`: the reading ends when the document's entry of that key is read, and gives its key and
 * value nodes (the document itself when it has no such entry).
 */
function tree(text: string, maxDepth: number, entry?: string): { root: Node } | { key: Node; value: Node } | undefined {
  type Frame = { open: number; children: Node[] };
  const stack: Frame[] = [];
  const roots: Node[] = [];
  let bad = false;
  let found: { key: Node; value: Node } | undefined;
  const listener = (event: string, state: State): void => {
    if (event === 'open') {
      stack.push({ open: state.position, children: [] });
      return;
    }
    const f = stack.pop()!;
    const kind = state.kind as string | null;
    let node: Node;
    if (kind === 'mapping' || kind === 'sequence') {
      // a key js-yaml failed to read ends a block mapping: not a key
      if (kind === 'mapping' && f.children.length % 2 !== 0 && f.children[f.children.length - 1]!.kind === 'empty') f.children.pop();
      if (kind === 'mapping' && f.children.length % 2 !== 0) bad = true;
      // js-yaml reads an empty sequence entry without a node
      if (kind === 'sequence' && (state.result as unknown[]).length !== f.children.length) bad = true;
      node = { start: skipSpace(text, f.open), close: state.position, kind, children: f.children, text: undefined };
    } else if (f.children.some((c) => c.kind !== 'empty')) {
      // js-yaml tried the scalar as the first key of a block mapping: the inner node is the scalar
      const inner = f.children.filter((c) => c.kind !== 'empty');
      if (inner.length !== 1) {
        bad = true;
        return;
      }
      node = inner[0]!;
    } else if (kind === null) {
      node = { start: f.open, close: f.open, kind: 'empty', children: [], text: undefined };
    } else {
      const r = state.result as unknown;
      node = { start: skipSpace(text, f.open), close: state.position, kind: 'scalar', children: [], text: typeof r === 'string' ? r : undefined };
    }
    const siblings = stack.length > 0 ? stack[stack.length - 1]!.children : roots;
    siblings.push(node);
    // the value of the document's entry asked for (the document is a mapping: the fast path reads no other)
    if (entry !== undefined && stack.length === 1 && siblings.length % 2 === 0 && siblings[siblings.length - 2]!.text === entry) {
      found = { key: siblings[siblings.length - 2]!, value: node };
      throw READ_ENOUGH;
    }
  };
  try {
    load(text, { schema: FAILSAFE_SCHEMA, listener, maxDepth: maxDepth + 10 } as LoadOptions);
  } catch (e) {
    if (e !== READ_ENOUGH) return undefined;
  }
  if (bad) return undefined;
  if (found !== undefined) return found;
  if (roots.length !== 1 || roots[0]!.kind !== 'mapping') return undefined;
  return { root: roots[0]! };
}

/** Past spaces, tabs, line breaks and comments. */
function skipSpace(text: string, i: number): number {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) i++;
    else if (c === 35 /* # */) {
      while (i < n && text.charCodeAt(i) !== 10) i++;
    } else break;
  }
  return i;
}

/** Where the yaml package ends the node's value (its range[1]); undefined when not modelled. */
function valueEnd(text: string, n: Node, key: boolean): number | undefined {
  switch (n.kind) {
    case 'empty': {
      // the yaml package puts an empty value where the separator ended; modelled only right before a line break
      const c = text.charCodeAt(n.start);
      return c === 10 || c === 13 ? n.start : undefined;
    }
    case 'scalar': {
      if (!key && isBlockScalar(text, n)) return blockScalarEnd(text, n);
      // js-yaml may stop after spaces that follow a plain scalar
      let e = n.close;
      while (e > n.start && isBlank(text.charCodeAt(e - 1))) e--;
      return e;
    }
    default: {
      if (isFlow(text, n)) return n.close;
      const last = n.children[n.children.length - 1];
      if (last === undefined) return undefined;
      return nodeEnd(text, last);
    }
  }
}

/**
 * Where the yaml package ends a node in block context with what follows it on its line (range[2]):
 * after trailing spaces, a comment and the line break. undefined when blank or comment lines follow
 * (which node the yaml package gives them to is not modelled) or the node is not modelled.
 */
function nodeEnd(text: string, n: Node): number | undefined {
  if (n.kind === 'empty') return undefined;
  const end = valueEnd(text, n, false);
  if (end === undefined) return undefined;
  let i = end;
  if (n.kind === 'scalar' ? !isBlockScalar(text, n) : isFlow(text, n)) {
    // a scalar or flow collection: the rest of its line
    while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
    if (text.charCodeAt(i) === 35) while (i < text.length && text.charCodeAt(i) !== 10) i++;
    if (text.charCodeAt(i) === 13 && text.charCodeAt(i + 1) === 10) i += 2;
    else if (text.charCodeAt(i) === 10) i++;
    // the end of the text after spaces or a comment: not modelled
    else if (i < text.length || i > end) return undefined;
  }
  return followedByContent(text, i) ? i : undefined;
}

/** A scalar written as a block scalar (`|`, `>`). */
function isBlockScalar(text: string, n: Node): boolean {
  const c = text.charCodeAt(n.start);
  return n.kind === 'scalar' && (c === 124 || c === 62);
}

/** A collection written in flow style (`[`, `{`). */
function isFlow(text: string, n: Node): boolean {
  const c = text.charCodeAt(n.start);
  return (n.kind === 'mapping' || n.kind === 'sequence') && (c === 91 || c === 123);
}

/** Whether a line with content (not blank, not only a comment) or the end of the text comes at `i`. */
function followedByContent(text: string, i: number): boolean {
  if (i >= text.length) return true;
  if (i > 0 && text.charCodeAt(i - 1) !== 10) return false;
  let j = i;
  while (j < text.length && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
  if (j >= text.length) return false;
  const c = text.charCodeAt(j);
  return c !== 10 && c !== 13 && c !== 35;
}

/**
 * The end of a block scalar's value for the yaml package: after its last line with content, line
 * break included. undefined for keep chomping (`+`: trailing blank lines belong to it) and when lines
 * of only spaces follow its content.
 */
function blockScalarEnd(text: string, n: Node): number | undefined {
  let h = n.start + 1;
  while (h < text.length && text.charCodeAt(h) !== 10) {
    const c = text.charCodeAt(h);
    if (c === 43 /* + */) return undefined;
    if (c === 32 || c === 35) break;
    h++;
  }
  // back from where js-yaml stopped over blank lines, to the line break of the last line with content
  // js-yaml stops after the indentation of the line that ends the scalar
  let i = Math.min(n.close, text.length);
  if (i < text.length && text.charCodeAt(i - 1) !== 10) {
    const lineStart = text.lastIndexOf('\n', i - 1) + 1;
    if (text.slice(lineStart, i).trim() !== '') return undefined;
    i = lineStart;
  } else if (i === text.length && text.charCodeAt(i - 1) !== 10 && text.slice(text.lastIndexOf('\n', i - 1) + 1).trim() === '') {
    return undefined; // a last line of only spaces
  }
  while (i > n.start && text.charCodeAt(i - 1) === 10) {
    const prev = text.lastIndexOf('\n', i - 2);
    const line = text.slice(prev + 1, i - 1);
    if (line.trim() !== '') break;
    if (line.length > 0 && line !== '\r') return undefined;
    i = prev + 1;
  }
  return i;
}

function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) out.push(i + 1);
  return out;
}
