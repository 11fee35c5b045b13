import type { Chunk } from './split.js';

/**
 * The first reader of the fast path: one pass over the lines of plain block YAML, the shape nearly every
 * manifest has (generated CRDs, Helm output, kubectl's own YAML). It takes a strict subset and gives up on
 * anything outside it, in which case fast.ts's js-yaml reader (and after it the full path) reads the text:
 *
 * - block mappings whose keys are plain words (no spaces, quotes or flow characters, not a word YAML 1.1
 *   could read as something other than a string, not `__proto__`, each once), block sequences (also at
 *   their key's indentation, and compact: `- - a`, `- name: x`), comment and blank lines anywhere;
 * - values on one line: plain scalars (resolved like fast.ts's: the canonical null/bool/int forms here,
 *   any other word YAML 1.1 may read as a non-string by the full path's own code), quoted scalars that
 *   close on their line with the common escapes only, the empty flow collections `[]` and `{}`;
 * - literal and folded block scalars with clip or strip chomping and no indentation indicator, without
 *   more-indented lines when folded, and ending with a line break.
 *
 * It gives up on everything else: a carriage return, a tab before the first character of a line (or in a
 * plain scalar or key), control characters, surrogates, byte order marks, YAML 1.1 line breaks, anchors,
 * aliases, tags, directives, document end markers, text after `---`, multi-line plain or quoted scalars,
 * non-empty flow collections, keep chomping, explicit keys, empty sequence entries, a block scalar as a
 * sequence entry, nesting deeper than 100, a root that is not a mapping, a chunk without a document, and
 * any indentation that is not the plain block layout. What it takes, it reads exactly as the full path
 * does: test/unit/block-reader.test.ts compares it with js-yaml's reader and with the full path on the
 * fixtures, the corpus and edge snippets, and the fuzz harness compares every fast read with the full path.
 */

/** Reads a value the way the full path reads a plain scalar in value position; undefined: give up. */
export type PlainResolver = (text: string) => { value: unknown } | undefined;

/**
 * Plain scalars that YAML 1.1 (and go-yaml) may read as something other than a string: null and bool
 * words, numbers, timestamps, `.inf`/`.nan`, `<<`, `=`. Anything else is a string in every schema.
 * After a leading `.` only digits, `_`, an exponent or the end make a float: `.spec.replicas` (a
 * printer column's or a subresource's path) is a string.
 */
export const MAYBE_NOT_STRING =
  /^(?:[-+0-9]|\.(?:[0-9_eE]|$|inf$|Inf$|INF$|nan$|NaN$|NAN$)|(?:~|[Nn]ull|NULL|[Yy]|[Yy]es|YES|[Nn]|[Nn]o|NO|[Tt]rue|TRUE|[Ff]alse|FALSE|[Oo]n|ON|[Oo]ff|OFF|<<|=)?$)/;
/** Decimal integers the fast path takes as numbers itself (within 2^53, no leading zero, no `+`). */
export const SAFE_INT = /^(?:0|-?[1-9][0-9]{0,14})$/;

/** Characters the reader never takes: CR, controls (not tab or LF), DEL and C1, surrogates, BOM, U+2028/9, U+FFFE/F. */
const REFUSED_CHARS = /[\x00-\x08\x0B-\x1F\x7F-\x9F\uD800-\uDFFF\uFEFF\u2028\u2029\uFFFE\uFFFF]/;

/** How deep the reader nests before it leaves a document to the other readers. */
const MAX_NESTING = 100;

/** The longest key taken (the yaml package bounds implicit keys at 1024 characters). */
const MAX_KEY = 1000;

/** Thrown inside the reader to give up; never escapes this module. */
const GIVE_UP = Symbol('give up');

/** The document of each chunk, or undefined where the reader leaves the chunk to the other readers. */
export function readBlockChunks(chunks: readonly Chunk[], resolve: PlainResolver, maxDepth: number): (Record<string, unknown> | undefined)[] {
  const depth = Math.min(maxDepth, MAX_NESTING);
  return chunks.map((chunk) => {
    if (REFUSED_CHARS.test(chunk.text)) return undefined;
    try {
      return new BlockReader(chunk.text, resolve, depth).document();
    } catch (e) {
      if (e === GIVE_UP) return undefined;
      throw e;
    }
  });
}

function giveUp(): never {
  throw GIVE_UP;
}

const SPACE = 32;
const TAB = 9;
const LF = 10;
const HASH = 35;
const COLON = 58;
const DASH = 45;
const DQUOTE = 34;
const SQUOTE = 39;
const BACKSLASH = 92;

/**
 * First characters a plain scalar (or key) may not start with here: the YAML indicators
 * `- ? : , [ ] { } # & * ! | > ' " % @ \``, and space.
 */
function indicator(c: number): boolean {
  switch (c) {
    case DASH:
    case 63: // ?
    case COLON:
    case 44: // ,
    case 91: // [
    case 93: // ]
    case 123: // {
    case 125: // }
    case HASH:
    case 38: // &
    case 42: // *
    case 33: // !
    case 124: // |
    case 62: // >
    case SQUOTE:
    case DQUOTE:
    case 37: // %
    case 64: // @
    case 96: // `
    case SPACE:
    case TAB:
      return true;
  }
  return false;
}

class BlockReader {
  private readonly n: number;
  /** The current line: its start, its end (the offset of its line break or the end of the text), its indentation and where its content starts. */
  private ls = 0;
  private le = 0;
  private ind = 0;
  private cs = 0;
  /** The current line is past the end of the text. */
  private eof = false;

  constructor(
    private readonly s: string,
    private readonly resolve: PlainResolver,
    private readonly maxDepth: number,
  ) {
    this.n = s.length;
  }

  document(): Record<string, unknown> {
    const s = this.s;
    // the chunk's `---` line, after the comments and blank lines the stream may open with: nothing after
    // the marker but spaces and a comment
    let start = 0;
    for (let ls = 0; ls < this.n; ) {
      let e = s.indexOf('\n', ls);
      if (e < 0) e = this.n;
      let p = ls;
      while (p < e && s.charCodeAt(p) === SPACE) p++;
      if (p === e || s.charCodeAt(p) === HASH) {
        ls = e + 1;
        continue;
      }
      if (p === ls && s.startsWith('---', p)) {
        p += 3;
        const at = p;
        while (p < e && s.charCodeAt(p) === SPACE) p++;
        if (p < e && !(p > at && s.charCodeAt(p) === HASH)) giveUp();
        start = e + 1;
      }
      break;
    }
    this.seek(start);
    if (this.eof || this.ind !== 0) giveUp();
    const root = this.mapping(0, 0);
    if (!this.eof) giveUp();
    return root;
  }

  /** Makes the first line at or after `from` that holds content (not blank, not a comment) the current line. */
  private seek(from: number): void {
    const s = this.s;
    const n = this.n;
    let ls = from;
    while (ls < n) {
      let le = s.indexOf('\n', ls);
      if (le < 0) le = n;
      let p = ls;
      while (p < le && s.charCodeAt(p) === SPACE) p++;
      if (p < le) {
        const c = s.charCodeAt(p);
        if (c === TAB) giveUp();
        if (c !== HASH) {
          // directives and document markers (a `---` line never falls inside a chunk but its first)
          if (p === ls && (c === 37 || ((c === 46 || c === DASH) && (s.startsWith('...', p) || s.startsWith('---', p))))) giveUp();
          this.ls = ls;
          this.le = le;
          this.ind = p - ls;
          this.cs = p;
          return;
        }
      }
      ls = le + 1;
    }
    this.eof = true;
    this.ind = -1;
  }

  /** Moves to the next line with content. */
  private next(): void {
    this.seek(this.le + 1);
  }

  /** The offset of the `:` ending a key that starts at p on the current line, or -1 when the line holds no `key:` there. */
  private keyColon(p: number): number {
    const s = this.s;
    const le = this.le;
    for (let i = p; i < le; i++) {
      const c = s.charCodeAt(i);
      if (c === COLON) {
        if (i + 1 === le || s.charCodeAt(i + 1) === SPACE) return i;
      } else if (c === HASH && s.charCodeAt(i - 1) === SPACE) return -1;
    }
    return -1;
  }

  /** The offset of the `:` after a plain or quoted key starting at p on the current line, or -1. */
  private keyEnd(p: number): number {
    const s = this.s;
    const c = s.charCodeAt(p);
    if (c !== DQUOTE && c !== SQUOTE) return this.keyColon(p);
    const close = c === DQUOTE ? doubleClose(s, p + 1, this.le) : singleClose(s, p + 1, this.le);
    if (close < 0 || s.charCodeAt(close + 1) !== COLON) return -1;
    return close + 2 === this.le || s.charCodeAt(close + 2) === SPACE ? close + 1 : -1;
  }

  /** A block mapping at indentation `indent` whose first key is the current line's content. */
  private mapping(indent: number, depth: number): Record<string, unknown> {
    if (depth >= this.maxDepth) giveUp();
    const s = this.s;
    const obj: Record<string, unknown> = {};
    for (;;) {
      const p = this.cs;
      const colon = this.keyEnd(p);
      if (colon < 0) giveUp();
      const q0 = s.charCodeAt(p);
      let key: string;
      if (q0 === DQUOTE || q0 === SQUOTE) {
        // a quoted key (annotations): always a string
        key = q0 === DQUOTE ? doubleValue(s, p + 1, colon - 1) : s.slice(p + 1, colon - 1).replaceAll("''", "'");
        if (key === '__proto__' || key.length > MAX_KEY) giveUp();
      } else {
        key = s.slice(p, colon);
        if (!plainKey(key)) giveUp();
      }
      if (obj[key] !== undefined && Object.hasOwn(obj, key)) giveUp();
      let q = colon + 1;
      while (q < this.le && s.charCodeAt(q) === SPACE) q++;
      if (q === this.le || s.charCodeAt(q) === HASH) {
        // the value is on the next lines (or empty)
        this.next();
        obj[key] = this.nested(indent, depth);
      } else obj[key] = this.inline(q, indent, depth, false);
      if (this.eof || this.ind < indent) return obj;
      if (this.ind > indent) giveUp();
      const c = s.charCodeAt(this.cs);
      if (c === DASH && (this.cs + 1 === this.le || s.charCodeAt(this.cs + 1) === SPACE)) giveUp();
    }
  }

  /** The value of a key whose line ends after its `:`; the current line is the next one with content. */
  private nested(indent: number, depth: number): unknown {
    if (this.eof) return null;
    if (this.ind > indent) return this.block(depth + 1);
    if (this.ind === indent && this.isEntry()) return this.sequence(indent, depth + 1);
    return null;
  }

  /** The current line starts a sequence entry. */
  private isEntry(): boolean {
    const c = this.s.charCodeAt(this.cs);
    return c === DASH && (this.cs + 1 === this.le || this.s.charCodeAt(this.cs + 1) === SPACE);
  }

  /** A block collection starting at the current line's content, at the current indentation. */
  private block(depth: number): unknown {
    if (this.isEntry()) return this.sequence(this.ind, depth);
    if (this.keyEnd(this.cs) < 0) giveUp(); // a scalar on its own line, or something else
    return this.mapping(this.ind, depth);
  }

  /** A block sequence at indentation `indent` whose first entry is the current line's content. */
  private sequence(indent: number, depth: number): unknown[] {
    if (depth >= this.maxDepth) giveUp();
    const s = this.s;
    const arr: unknown[] = [];
    for (;;) {
      // the current line's content is `- ` (isEntry)
      let p = this.cs + 1;
      while (p < this.le && s.charCodeAt(p) === SPACE) p++;
      if (p === this.le || s.charCodeAt(p) === HASH) giveUp(); // an empty entry
      const c = s.charCodeAt(p);
      const compact = (c === DASH && (p + 1 === this.le || s.charCodeAt(p + 1) === SPACE)) || (c !== 91 && c !== 123 && this.keyEnd(p) >= 0);
      if (compact) {
        // `- - x` or `- key: value`: a collection at the column of its content
        this.ind = p - this.ls;
        this.cs = p;
        arr.push(this.block(depth + 1));
      } else arr.push(this.inline(p, indent, depth, true));
      if (this.eof || this.ind < indent) return arr;
      if (this.ind > indent) giveUp();
      if (!this.isEntry()) return arr;
    }
  }

  /**
   * A value that starts at p on the current line (after `key: ` or `- `) of a node at indentation `indent`;
   * leaves the next line with content current.
   */
  private inline(p: number, indent: number, depth: number, entry: boolean): unknown {
    const s = this.s;
    const le = this.le;
    const c = s.charCodeAt(p);
    let value: unknown;
    if (c === DQUOTE || c === SQUOTE) {
      const close = c === DQUOTE ? doubleClose(s, p + 1, le) : singleClose(s, p + 1, le);
      if (close < 0) value = this.quotedLines(p, indent);
      else {
        this.lineEnd(close + 1);
        value = c === DQUOTE ? doubleValue(s, p + 1, close) : s.slice(p + 1, close).replaceAll("''", "'");
      }
    } else if (c === 124 || c === 62) {
      if (entry) giveUp();
      return this.blockScalar(p, indent);
    } else if (c === 91 || c === 123) {
      this.fp = p;
      value = this.flow(depth + 1);
      this.lineEnd(this.fp);
    } else {
      // `-` and `?` start a plain scalar when no space follows them (`--flag`, `-1`, `?*`)
      if (indicator(c) && !((c === DASH || c === 63) && p + 1 < le && s.charCodeAt(p + 1) !== SPACE)) giveUp();
      // a plain scalar: to a comment or the end of the line, without `: `, a trailing `:` or a tab
      let e = p;
      let commented = false;
      for (let i = p; i < le; i++) {
        const d = s.charCodeAt(i);
        if (d === SPACE) {
          if (s.charCodeAt(i + 1) === HASH) {
            commented = true;
            break;
          }
          continue;
        }
        if (d === TAB) giveUp();
        if (d === COLON && (i + 1 === le || s.charCodeAt(i + 1) === SPACE)) giveUp();
        e = i + 1;
      }
      const first = s.slice(p, e);
      if (commented) {
        value = this.plain(first);
        this.next();
      } else {
        const text = this.plainLines(first, indent);
        // a multi-line plain scalar is a string unless its folded text could be read otherwise
        value = text === first ? this.plain(first) : MAYBE_NOT_STRING.test(text) ? giveUp() : text;
      }
      if (!this.eof && this.ind > indent) giveUp();
      return value;
    }
    this.next();
    // a deeper line after a one-line value: a continuation or an error, for the other readers
    if (!this.eof && this.ind > indent) giveUp();
    return value;
  }

  /**
   * The text of a plain scalar whose first line is `first`, with the lines that continue it (indented
   * deeper than `indent`) folded in: a line break between two lines is a space, k empty lines between
   * them are k line breaks. Leaves the next line with content current.
   */
  private plainLines(first: string, indent: number): string {
    const s = this.s;
    const n = this.n;
    let text = first;
    let empty = 0;
    let ls = this.le + 1;
    while (ls < n) {
      let le = s.indexOf('\n', ls);
      if (le < 0) le = n;
      let sp = ls;
      while (sp < le && s.charCodeAt(sp) === SPACE) sp++;
      if (sp === le) {
        empty++;
        ls = le + 1;
        continue;
      }
      const c = s.charCodeAt(sp);
      if (c === TAB) giveUp();
      // a line no deeper than the node, or a comment, ends the scalar
      if (sp - ls <= indent || c === HASH) break;
      // any character but `#` goes on a plain scalar: `- x`, `&&`, `*`, `!`, `? x` are text there (the
      // full path and js-yaml agree); `: ` would make a key
      if (c === COLON && (sp + 1 === le || s.charCodeAt(sp + 1) === SPACE)) giveUp();
      let e = sp;
      for (let i = sp; i < le; i++) {
        const d = s.charCodeAt(i);
        if (d === SPACE) {
          if (s.charCodeAt(i + 1) === HASH) giveUp(); // a comment, then more of the scalar or an error
          continue;
        }
        if (d === TAB) giveUp();
        if (d === COLON && (i + 1 === le || s.charCodeAt(i + 1) === SPACE)) giveUp();
        e = i + 1;
      }
      text += (empty === 0 ? ' ' : '\n'.repeat(empty)) + s.slice(sp, e);
      empty = 0;
      ls = le + 1;
    }
    this.seek(ls);
    return text;
  }

  /**
   * A quoted scalar that starts at p and does not close on its line: its lines folded (a line break
   * between two lines is a space, k empty lines k line breaks; the spaces around the breaks dropped).
   * Continuation lines must be indented deeper than `indent` (go-yaml takes less; the yaml package
   * refuses it and the full path relaxes it). Leaves the line that closes it current.
   */
  private quotedLines(p: number, indent: number): string {
    const s = this.s;
    const n = this.n;
    const quote = s.charCodeAt(p);
    const decode = (from: number, to: number): string => {
      if (from === to || s.slice(from, to).includes('\t')) giveUp();
      return quote === DQUOTE ? doubleValue(s, from, to) : s.slice(from, to).replaceAll("''", "'");
    };
    // a line's text without the spaces before its break; an escape at its end (an escaped break or space) gives up
    const trimmed = (from: number, to: number): number => {
      let e = to;
      while (e > from && s.charCodeAt(e - 1) === SPACE) e--;
      if (quote === DQUOTE && s.charCodeAt(e - 1) === BACKSLASH) giveUp();
      return e;
    };
    let text = decode(p + 1, trimmed(p + 1, this.le));
    let empty = 0;
    for (let ls = this.le + 1; ; ) {
      if (ls >= n) giveUp();
      let le = s.indexOf('\n', ls);
      if (le < 0) le = n;
      let sp = ls;
      while (sp < le && s.charCodeAt(sp) === SPACE) sp++;
      if (sp === le) {
        empty++;
        ls = le + 1;
        continue;
      }
      if (sp - ls <= indent) giveUp();
      const close = quote === DQUOTE ? doubleClose(s, sp, le) : singleClose(s, sp, le);
      text += empty === 0 ? ' ' : '\n'.repeat(empty);
      empty = 0;
      if (close >= 0) {
        text += decode(sp, close);
        this.ls = ls;
        this.le = le;
        this.lineEnd(close + 1);
        return text;
      }
      text += decode(sp, trimmed(sp, le));
      ls = le + 1;
    }
  }

  /** Where flow() is on the current line. */
  private fp = 0;

  /** A flow collection that opens at fp and closes on the same line (depth: its own). */
  private flow(depth: number): unknown {
    if (depth >= this.maxDepth) giveUp();
    const s = this.s;
    const seq = s.charCodeAt(this.fp) === 91;
    const closer = seq ? 93 : 125;
    this.fp++;
    this.flowSpaces();
    if (s.charCodeAt(this.fp) === closer) {
      this.fp++;
      return seq ? [] : {};
    }
    const arr: unknown[] = [];
    const obj: Record<string, unknown> = {};
    for (;;) {
      if (seq) arr.push(this.flowItem(depth));
      else {
        const key = this.flowKey();
        if (Object.hasOwn(obj, key)) giveUp();
        obj[key] = this.flowItem(depth);
      }
      this.flowSpaces();
      const c = s.charCodeAt(this.fp);
      if (c === closer) {
        this.fp++;
        return seq ? arr : obj;
      }
      if (c !== 44) giveUp(); // `,`
      this.fp++;
      this.flowSpaces();
      if (s.charCodeAt(this.fp) === closer) giveUp(); // a trailing comma
    }
  }

  private flowSpaces(): void {
    while (this.fp < this.le && this.s.charCodeAt(this.fp) === SPACE) this.fp++;
  }

  /** A key in a flow mapping, with its `: `: a plain word or a quoted scalar on this line. */
  private flowKey(): string {
    const s = this.s;
    const p = this.fp;
    const c = s.charCodeAt(p);
    let key: string;
    let after: number;
    if (c === DQUOTE || c === SQUOTE) {
      const close = c === DQUOTE ? doubleClose(s, p + 1, this.le) : singleClose(s, p + 1, this.le);
      if (close < 0) giveUp();
      key = c === DQUOTE ? doubleValue(s, p + 1, close) : s.slice(p + 1, close).replaceAll("''", "'");
      if (key === '__proto__') giveUp();
      after = close + 1;
    } else {
      const colon = s.indexOf(':', p);
      if (colon < 0 || colon >= this.le) giveUp();
      key = s.slice(p, colon);
      if (!plainKey(key)) giveUp();
      after = colon;
    }
    if (s.charCodeAt(after) !== COLON || s.charCodeAt(after + 1) !== SPACE) giveUp();
    this.fp = after + 2;
    this.flowSpaces();
    return key;
  }

  /** A value in a flow collection: a flow collection, a quoted scalar on this line or a plain scalar. */
  private flowItem(depth: number): unknown {
    const s = this.s;
    const p = this.fp;
    const c = s.charCodeAt(p);
    if (c === 91 || c === 123) return this.flow(depth + 1);
    if (c === DQUOTE || c === SQUOTE) {
      const close = c === DQUOTE ? doubleClose(s, p + 1, this.le) : singleClose(s, p + 1, this.le);
      if (close < 0) giveUp();
      this.fp = close + 1;
      return c === DQUOTE ? doubleValue(s, p + 1, close) : s.slice(p + 1, close).replaceAll("''", "'");
    }
    if (indicator(c) && !(c === DASH && isWordChar(s.charCodeAt(p + 1)))) giveUp();
    // a plain scalar, to the `,` or the bracket that ends it
    let e = p;
    let i = p;
    for (; i < this.le; i++) {
      const d = s.charCodeAt(i);
      if (d === 44 || d === 93 || d === 125) break;
      if (d === SPACE) continue;
      if (d === COLON || d === HASH || d === TAB || d === 91 || d === 123) giveUp();
      e = i + 1;
    }
    if (i === this.le) giveUp();
    this.fp = e;
    return this.plain(s.slice(p, e));
  }

  /** Checks that the rest of the line from p is blank or a comment. */
  private lineEnd(p: number): void {
    const s = this.s;
    let q = p;
    while (q < this.le && s.charCodeAt(q) === SPACE) q++;
    if (q < this.le && !(q > p && s.charCodeAt(q) === HASH)) giveUp();
  }

  private plain(text: string): unknown {
    if (!MAYBE_NOT_STRING.test(text)) return text;
    switch (text) {
      case '~':
      case 'null':
        return null;
      case 'true':
        return true;
      case 'false':
        return false;
    }
    if (SAFE_INT.test(text) && text !== '-0') return Number(text);
    const r = this.resolve(text);
    if (r === undefined) giveUp();
    return r.value;
  }

  /** A block scalar whose header starts at p; `indent` is its parent's indentation. */
  private blockScalar(p: number, indent: number): string {
    const s = this.s;
    const folded = s.charCodeAt(p) === 62;
    let q = p + 1;
    const strip = s.charCodeAt(q) === DASH;
    if (strip) q++;
    this.lineEnd(q);
    const n = this.n;
    const lines: string[] = [];
    let content = -1; // the content's indentation
    let ls = this.le + 1;
    let endedWithBreak = true;
    while (ls < n) {
      let le = s.indexOf('\n', ls);
      if (le < 0) le = n;
      let sp = ls;
      while (sp < le && s.charCodeAt(sp) === SPACE) sp++;
      const spaces = sp - ls;
      if (sp === le) {
        // a blank line: one with more spaces than the content's indentation holds spaces
        if (content >= 0 && spaces > content) giveUp();
        lines.push('');
        ls = le + 1;
        continue;
      }
      if (s.charCodeAt(sp) === TAB) giveUp();
      if (content < 0) {
        if (spaces <= indent) giveUp(); // an empty block scalar
        content = spaces;
        // leading blank lines with more spaces than the content's indentation are an error
        for (let b = this.le + 1; b < ls; ) {
          const e = s.indexOf('\n', b);
          if (e - b > content) giveUp();
          b = e + 1;
        }
      }
      if (spaces < content) break;
      if (spaces > content && folded) giveUp(); // a more-indented line: kept as is by folding
      lines.push(s.slice(ls + content, le));
      endedWithBreak = le < n;
      ls = le + 1;
    }
    if (content < 0 || !endedWithBreak) giveUp();
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    let value: string;
    if (!folded) value = lines.join('\n');
    else {
      // folding: a line break between two lines becomes a space; k empty lines between them, k breaks;
      // the empty lines before the first line are breaks
      value = '';
      let empty = 0;
      let first = true;
      for (const line of lines) {
        if (line === '') {
          empty++;
          continue;
        }
        value += first ? '\n'.repeat(empty) : empty === 0 ? ' ' : '\n'.repeat(empty);
        value += line;
        empty = 0;
        first = false;
      }
    }
    if (!strip) value += '\n';
    // the line that ended the scalar (or the end): the next line with content from there
    if (ls >= n) {
      this.eof = true;
      this.ind = -1;
    } else this.seek(ls);
    if (!this.eof && this.ind > indent) giveUp();
    return value;
  }
}

/** A letter, a digit, `.`, `_` or `-`. */
function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 46 || c === 95 || c === DASH;
}

/** A key taken here: a plain word that is a string in every YAML schema. */
function plainKey(key: string): boolean {
  const len = key.length;
  if (len === 0 || len > MAX_KEY || indicator(key.charCodeAt(0))) return false;
  for (let i = 1; i < len; i++) {
    switch (key.charCodeAt(i)) {
      case SPACE:
      case TAB:
      case HASH:
      case COLON:
      case DQUOTE:
      case SQUOTE:
      case 44: // ,
      case 91: // [
      case 93: // ]
      case 123: // {
      case 125: // }
        return false;
    }
  }
  return !MAYBE_NOT_STRING.test(key) && key !== '__proto__';
}

/** The offset of the quote closing a double-quoted scalar whose text starts at `from`, or -1 when not on this line. */
function doubleClose(s: string, from: number, end: number): number {
  for (let j = from; j < end; j++) {
    const d = s.charCodeAt(j);
    if (d === BACKSLASH) j++;
    else if (d === DQUOTE) return j;
  }
  return -1;
}

/** The offset of the quote closing a single-quoted scalar whose text starts at `from`, or -1 when not on this line. */
function singleClose(s: string, from: number, end: number): number {
  for (let j = from; j < end; j++) {
    if (s.charCodeAt(j) === SQUOTE) {
      if (s.charCodeAt(j + 1) === SQUOTE) j++;
      else return j;
    }
  }
  return -1;
}

/** The one-character escapes of double-quoted scalars (YAML 1.2, which the full path reads too). */
const ESCAPES: Record<string, string> = {
  '\\': '\\',
  '"': '"',
  '/': '/',
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
  ' ': ' ',
};
/** The hexadecimal escapes and their number of digits. */
const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };

/** The value of a double-quoted scalar (its text from..to); gives up on an invalid escape and on a surrogate. */
function doubleValue(s: string, from: number, to: number): string {
  let i = s.indexOf('\\', from);
  if (i < 0 || i >= to) return s.slice(from, to);
  let out = '';
  let last = from;
  for (; i >= 0 && i < to; i = s.indexOf('\\', i)) {
    out += s.slice(last, i);
    const e = s[i + 1]!;
    const one = ESCAPES[e];
    if (one !== undefined && Object.hasOwn(ESCAPES, e)) {
      out += one;
      i += 2;
    } else {
      const digits = Object.hasOwn(HEX_DIGITS, e) ? HEX_DIGITS[e]! : 0;
      const hex = s.slice(i + 2, i + 2 + digits);
      if (digits === 0 || i + 2 + digits > to || !/^[0-9A-Fa-f]+$/.test(hex)) giveUp();
      const code = parseInt(hex, 16);
      if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) giveUp();
      out += String.fromCodePoint(code);
      i += 2 + digits;
    }
    last = i;
  }
  return out + s.slice(last, to);
}
