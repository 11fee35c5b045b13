import { FAILSAFE_SCHEMA, loadAll, Type, type LoadOptions, type State } from 'js-yaml';
import { isRecord, type JsonPath } from '../core/types.js';
import { MAYBE_NOT_STRING, readBlockChunks, SAFE_INT, type PlainResolver } from './block-reader.js';
import { countLines, splitDocuments, type Chunk } from './split.js';

export { MAYBE_NOT_STRING, type PlainResolver } from './block-reader.js';

/**
 * The fast reading path. Most manifests are plain block YAML: for them a one-pass reader of that subset
 * (block-reader.ts) gives the values of each `---` chunk it takes, js-yaml (several times faster than the
 * yaml package's document model) the values of the chunks it leaves, and the yaml package reads a
 * document only when a position in it is asked for (a finding, a rendered change).
 *
 * The values must be exactly what the full path (parse.ts: the yaml package, YAML 1.1, go-yaml's quirks)
 * gives, so this path gives up, and the full path reads the text, wherever the two could differ or the
 * full path reports a problem: directives, `...`, anchors (and so aliases), explicit tags, merge
 * keys, duplicate keys, keys that are not plain strings (collections, null, numbers other than canonical
 * integers, booleans other than true/false), documents that are not mappings, list items that are not
 * mappings, nesting beyond the depth limit, any error. Plain scalars that YAML 1.1 could read as something
 * other than a string are taken only when canonical (`true`, `false`, `null`, `~`, decimal integers within
 * 2^53); the others (`yes`, `0x1f`, `1e3`, `2024-01-01`, ...) are resolved by the full path's own scalar
 * reading, one scalar at a time. test/unit/fast-parse.test.ts and the fuzz harness compare the two paths
 * on the fixtures, the corpus and mutated manifests, positions included.
 */

/** A document read by the fast path. */
interface FastDocument {
  /** undefined for an empty document (a lone `---`). */
  readonly value: Record<string, unknown> | undefined;
  /** The `---`-separated part of the text the document is. */
  readonly chunk: Chunk;
}

/**
 * Text the fast path does not take at all, where js-yaml reads what go-yaml and the yaml package refuse
 * or read otherwise: a carriage return alone (a line break to js-yaml only), a byte order mark after the
 * start (the yaml package drops one), the line and paragraph separators and NEL (line breaks in YAML 1.1),
 * a tab in the indentation of a line (even a blank one), directives, document end markers, `---`
 * glued to what follows (js-yaml starts a document there), a sequence entry empty on its line (after
 * one, js-yaml goes on with the sequence at any lesser indentation); and anchors (aliases need one; the
 * full path counts and bounds them; `&& ` is CEL's operator in a rule, not an anchor). The offset of the
 * first, or -1. (test/unit/fast-parse.test.ts holds the same as one regular expression, and compares.)
 */
export function unsupportedAt(text: string): number {
  const n = text.length;
  for (let i = text.indexOf('\r'); i >= 0; i = text.indexOf('\r', i + 1)) if (text.charCodeAt(i + 1) !== 10) return i;
  const odd = /[\uFEFF\u2028\u2029\u0085]/.exec(text);
  if (odd !== null) return odd.index;
  // an anchor: `&` after a space, a line start or a flow or block indicator, followed by its name
  for (let i = text.indexOf('&'); i >= 0; i = text.indexOf('&', i + 1)) {
    const before = i === 0 ? 10 : text.charCodeAt(i - 1);
    if (!(isBlank(before) || before === 91 || before === 123 || before === 44 || before === 63 || before === 58 || before === 45)) continue;
    const next = text.charCodeAt(i + 1);
    if (i + 1 >= n || isBlank(next) || next === 44 || next === 91 || next === 93 || next === 123 || next === 125) continue;
    if (next === 38 && i + 2 < n && isBlank(text.charCodeAt(i + 2))) continue; // `&& `
    return i;
  }
  for (let s = 0; s < n; ) {
    let e = text.indexOf('\n', s);
    if (e < 0) e = n;
    if (text.charCodeAt(s) === 37 /* % */) return s;
    if (text.startsWith('...', s) && (s + 3 >= n || isBlank(text.charCodeAt(s + 3)))) return s;
    if (text.startsWith('---', s) && s + 3 < n && !isBlank(text.charCodeAt(s + 3))) return s;
    // a sequence entry empty on its line: `-`, `- -`, `- # c` ...
    let p = s;
    while (p < e && text.charCodeAt(p) === 32) p++;
    if (text.charCodeAt(p) === 9) return s; // a tab in the indentation, even of a blank line
    while (text.charCodeAt(p) === 45) {
      let q = p + 1;
      if (q >= e || text.charCodeAt(q) === 13 || text.charCodeAt(q) === 35) return s;
      if (text.charCodeAt(q) !== 32 && text.charCodeAt(q) !== 9) break;
      while (q < e && (text.charCodeAt(q) === 32 || text.charCodeAt(q) === 9)) q++;
      if (q >= e || text.charCodeAt(q) === 13 || text.charCodeAt(q) === 35) return s;
      p = q;
    }
    s = e + 1;
  }
  return -1;
}

/** A space, a tab or a line break (or the end of the text: NaN). */
export function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || Number.isNaN(c);
}

/** Marks in keys: a key holding one was not a plain string (js-yaml turns keys into strings). */
const MARK = '\u0000crdx';

/** A plain scalar the full path must resolve; as a key, its text carries MARK. */
class Plain {
  constructor(readonly text: string) {}
  toString(): string {
    return MARK;
  }
  get [Symbol.toStringTag](): string {
    return 'CrdxPlain';
  }
}

/** Appended to every sequence when it is read (so that a sequence used as a key carries MARK); removed after. */
const SEQ_END = new Plain('');

const PLAIN_TAG = 'tag:crdx.invalid,2026:plain';
const plainType = new Type(PLAIN_TAG, {
  kind: 'scalar',
  resolve: (s: string) => MAYBE_NOT_STRING.test(s),
  construct: (s: string): unknown => {
    switch (s) {
      case '':
      case '~':
      case 'null':
        return null;
      case 'true':
        return true;
      case 'false':
        return false;
    }
    return SAFE_INT.test(s) && s !== '-0' ? Number(s) : new Plain(s);
  },
});
const SCHEMA = FAILSAFE_SCHEMA.extend({ implicit: [plainType] });

/** Thrown inside the reader to give up; never escapes this module. */
const GIVE_UP = Symbol('give up');

/**
 * Reads every document of a text, or returns undefined when the full path must read it.
 * Each document is one `---`-separated chunk of the text (the split kubectl makes); a chunk holding more
 * or fewer than one YAML document gives up.
 */
export function fastDocuments(text: string, resolve: PlainResolver, maxDepth: number): FastDocument[] | undefined {
  const chunks = splitDocuments(text);
  // plain block YAML in one pass (block-reader.ts); js-yaml for the chunks it leaves
  const values = oneReader ? readBlockChunks(chunks, resolve, maxDepth) : undefined;
  const out: FastDocument[] = [];
  let tagged = false;
  const listener = (event: string, state: State): void => {
    if (event !== 'close') return;
    const tag = (state as unknown as { tag: string | null }).tag;
    if (tag !== null && tag !== '?' && tag !== PLAIN_TAG) tagged = true;
    if (state.kind === 'sequence' && Array.isArray(state.result)) (state.result as unknown[]).push(SEQ_END);
  };
  try {
    for (const [i, chunk] of chunks.entries()) {
      const value = values?.[i];
      if (value !== undefined) {
        blockReads++;
        out.push({ value, chunk });
        continue;
      }
      const unsupported = unsupportedAt(chunk.text);
      if (unsupported >= 0) return giveUp(`unsupported text at ${chunk.start + unsupported}`);
      if (spansLines(chunk.text)) return giveUp(`a quoted scalar or flow collection may span lines (line ${chunk.lineOffset + countLines(chunk.text.slice(0, spanAt)) + 1})`);
      const docs = loadAll(chunk.text, undefined, { schema: SCHEMA, listener, maxDepth: maxDepth + 10 } as LoadOptions);
      if (tagged || docs.length !== 1) return giveUp(tagged ? 'an explicit tag' : `${docs.length} documents in a chunk at ${chunk.start}`);
      // a stream of nothing but comments and blank lines holds no document at all
      if (docs[0] === null && !chunk.text.startsWith('---')) return chunks.length === 1 && isEmpty(chunk.text) ? [] : undefined;
      out.push({ value: finish(docs[0], resolve, maxDepth, isEmpty(chunk.text)), chunk });
    }
  } catch (e) {
    // YAMLException, RangeError (stack)
    if (e === GIVE_UP || e instanceof Error) return giveUp(e === GIVE_UP ? reason : `js-yaml: ${(e as Error).message.split('\n')[0]}`);
    throw e;
  }
  return out;
}

/** Whether block-reader.ts reads first (tests turn it off to compare it with js-yaml's reading). */
let oneReader = true;
/** How many documents block-reader.ts read (tests). */
export let blockReads = 0;

/** Turns the one-pass block reader on or off (tests); returns the previous setting. */
export function useBlockReader(on: boolean): boolean {
  const was = oneReader;
  oneReader = on;
  return was;
}

/** Why the last text went the full path (for tests and diagnostics). */
export let lastGiveUp = '';
let reason = '';
let spanAt = 0;

function giveUp(why: string): undefined {
  lastGiveUp = why;
  return undefined;
}

function fail(why: string): never {
  reason = why;
  throw GIVE_UP;
}

/**
 * Whether the text has line structure where js-yaml and the full path may part ways: js-yaml takes the
 * continuation lines of a quoted scalar at any indentation, where the yaml package rejects those not
 * indented past the scalar's key (and the full path then re-reads them relaxed, as go-yaml does), and
 * it is laxer with flow collections spread over lines. A line-by-line over-approximation that skips
 * block scalar content: true when a multi-line quoted scalar has a continuation line indented no deeper
 * than its key (or than its `- ` entry, or than itself when it starts a line), when a flow collection or
 * a quoted scalar inside one continues on the next line, or when a line starts by closing a bracket.
 */
function spansLines(text: string): boolean {
  const n = text.length;
  let quote = 0; // the quote character of a scalar continuing on the next line, or 0
  let quoteBase = 0;
  let blockIndent = -1; // the indentation of a block scalar's header line while in its content
  let nextSpecial = -1; // where the next character spansLines looks at is
  for (let s = 0; s < n; ) {
    let e = text.indexOf('\n', s);
    if (e < 0) e = n;
    let p = s;
    while (p < e && text.charCodeAt(p) === 32) p++;
    const indent = p - s;
    const blank = p === e || (p === e - 1 && text.charCodeAt(p) === 13);
    if (blank) {
      s = e + 1;
      continue;
    }
    if (quote !== 0) {
      if (indent <= quoteBase) return (spanAt = p), true;
      const close = closing(text, p, e, quote);
      if (close < 0) {
        s = e + 1;
        continue;
      }
      quote = 0;
      p = close;
    } else if (blockIndent >= 0) {
      if (indent > blockIndent) {
        s = e + 1;
        continue;
      }
      blockIndent = -1;
    }
    // the rest of the line, from p: nothing to follow on a line without quotes, brackets or block indicators
    if (nextSpecial < p) {
      SPECIAL.lastIndex = p;
      nextSpecial = SPECIAL.exec(text)?.index ?? n;
    }
    if (nextSpecial >= e) {
      s = e + 1;
      continue;
    }
    let depth = 0;
    let tokenStart = true;
    let keyCol = -1; // column of the key whose value comes next on this line
    let entryCol = -1; // column of the last `- ` entry
    const first = p;
    if (p === s + indent) {
      while (text.charCodeAt(p) === 45 /* - */ && (text.charCodeAt(p + 1) === 32 || p + 1 === e)) {
        entryCol = p - s;
        p++;
        while (p < e && text.charCodeAt(p) === 32) p++;
      }
    }
    const contentCol = p - s;
    for (; p < e; p++) {
      const c = text.charCodeAt(p);
      if (c === 32 || c === 13) continue;
      if (c === 35 /* # */ && (p === first || text.charCodeAt(p - 1) === 32)) break;
      if (p === first && (c === 93 || c === 125)) return (spanAt = p), true;
      if (tokenStart && (c === 34 || c === 39)) {
        const close = closing(text, p + 1, e, c);
        if (close >= 0) {
          p = close - 1;
          tokenStart = false;
          continue;
        }
        if (depth > 0) return (spanAt = p), true;
        quote = c;
        quoteBase = keyCol >= 0 ? keyCol : p - s === contentCol && entryCol >= 0 ? entryCol : p - s;
        break;
      }
      if (tokenStart && depth === 0 && (c === 124 || c === 62) /* | > */) {
        blockIndent = indent;
        break;
      }
      if (c === 91 || c === 123) {
        if (tokenStart || depth > 0) {
          depth++;
          tokenStart = true;
          continue;
        }
      } else if ((c === 93 || c === 125) && depth > 0) {
        depth--;
        tokenStart = false;
        continue;
      } else if (c === 44 && depth > 0) {
        tokenStart = true;
        continue;
      } else if (c === 58 /* : */ || c === 63 /* ? */ || c === 45 /* - */) {
        const next = p + 1 < e ? text.charCodeAt(p + 1) : 10;
        if (next === 32 || next === 10 || next === 13 || (depth > 0 && c === 58)) {
          if (c === 58 && depth === 0) keyCol = contentCol;
          tokenStart = true;
          continue;
        }
      }
      tokenStart = false;
    }
    if (depth > 0) return (spanAt = p), true;
    s = e + 1;
  }
  return quote !== 0 ? ((spanAt = n), true) : false;
}

/** The characters that start or end what spansLines follows: quotes, brackets, block scalar indicators. */
const SPECIAL = /["'[\]{}|>]/g;

/** Index just after the quote closing a scalar whose text starts at `from`, or -1 when not on this line. */
function closing(text: string, from: number, end: number, quote: number): number {
  for (let j = from; j < end; j++) {
    const d = text.charCodeAt(j);
    if (quote === 34 && d === 92 /* backslash */) {
      j++;
      continue;
    }
    if (d === quote) {
      if (quote === 39 && text.charCodeAt(j + 1) === 39) {
        j++;
        continue;
      }
      return j + 1;
    }
  }
  return -1;
}

/** A chunk with nothing but its `---` line, comments and blank lines. */
function isEmpty(chunk: string): boolean {
  return /^(?:---)?[ \r]*(?:#[^\n]*)?(?:\n[ \r]*(?:#[^\n]*)?)*$/.test(chunk);
}

/**
 * Checks a loaded document and puts the full path's values in place of the Plain marks: gives up on a
 * marked key, a `null` or `[object Object]` key (an empty or collection key), `__proto__`, an object
 * reached twice (an alias), nesting beyond maxDepth, and a root that is not a mapping.
 */
function finish(root: unknown, resolve: PlainResolver, maxDepth: number, empty: boolean): Record<string, unknown> | undefined {
  if (root === null && empty) return undefined;
  if (!isRecord(root) || root instanceof Plain) fail('a document that is not a mapping');
  const seen = new Set<object>();
  const stack: [object, number][] = [[root, 0]];
  const value = (v: unknown, depth: number): unknown => {
    if (v instanceof Plain) {
      if (v === SEQ_END) fail('a sequence read twice');
      const r = resolve(v.text);
      if (r === undefined) fail(`the plain scalar ${JSON.stringify(v.text)}`);
      return r.value;
    }
    if (v !== null && typeof v === 'object') {
      if (seen.has(v)) fail('an alias');
      seen.add(v);
      stack.push([v, depth]);
    }
    return v;
  };
  seen.add(root);
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth >= maxDepth) fail('nesting too deep');
    if (Array.isArray(node)) {
      if (node.pop() !== SEQ_END) fail('a sequence without its end mark');
      for (let i = 0; i < node.length; i++) node[i] = value(node[i], depth + 1);
    } else {
      const obj = node as Record<string, unknown>;
      for (const k in obj) {
        if (k.includes(MARK) || k === 'null' || k === '[object Object]' || k === '__proto__') fail(`the key ${JSON.stringify(k)}`);
        obj[k] = value(obj[k], depth + 1);
      }
    }
  }
  return root;
}

/** Whether two object paths inside a document are the same. */
export function samePath(a: JsonPath, b: JsonPath): boolean {
  return a.length === b.length && a.every((s, i) => s === b[i]);
}
