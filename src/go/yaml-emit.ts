/**
 * YAML text as kubectl -o yaml prints a decoded object: sigs.k8s.io/yaml turns the object's JSON
 * into YAML with go-yaml v2, whose emitter (a port of libyaml) decides every detail here: keys in
 * go-yaml's natural order, block sequences not indented under their key, `{}` and `[]` for empty
 * collections, each string in the first style its content allows (plain, then single-quoted, then
 * double-quoted; literal `|` for text with line breaks; quoted when plain text would read back as
 * another type), long plain and quoted strings folded at spaces past column 80, floats in Go's %g
 * form (`1.2345675e+06`), characters outside the printable set escaped.
 *
 * Written from the behaviour of go.yaml.in/yaml/v2 (encode.go, emitterc.go, resolve.go); checked
 * against the text of the real kubectl in test/conformance/bad-input.conformance.test.ts.
 */
import { isRecord, setOwn } from '../core/types.js';
import { formatFloat } from './float.js';
import { INT64_MAX, INT64_MIN } from './value.js';

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

/** go-yaml v2's keyList.Less for two string keys (go.yaml.in/yaml/v2 sorter.go). */
function goYamlKeyLess(a: string, b: string): boolean {
  const ar = Array.from(a);
  const br = Array.from(b);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = LETTER.test(ar[i]!);
    const bl = LETTER.test(br[i]!);
    if (al && bl) return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
    if (al || bl) return bl;
    let an = 0n;
    let bn = 0n;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && DIGIT.test(ar[j]!); j--) {
        if (ar[j] !== '0') {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && DIGIT.test(ar[ai]!); ai++) an = BigInt.asIntN(64, an * 10n + BigInt(ar[ai]!.codePointAt(0)! - 48));
    let bi = i;
    for (; bi < br.length && DIGIT.test(br[bi]!); bi++) bn = BigInt.asIntN(64, bn * 10n + BigInt(br[bi]!.codePointAt(0)! - 48));
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
  }
  return ar.length < br.length;
}

/** go-yaml v2's order of two string keys as a comparator. */
export function goYamlKeyCompare(a: string, b: string): number {
  return goYamlKeyLess(a, b) ? -1 : goYamlKeyLess(b, a) ? 1 : 0;
}

const BEST_INDENT = 2;
const BEST_WIDTH = 80;

type Style = 'plain' | 'single' | 'double' | 'literal';

interface Analysis {
  multiline: boolean;
  blockPlain: boolean;
  single: boolean;
  block: boolean;
}

const isBreak = (c: number): boolean => c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
const isBlank = (c: number | undefined): boolean => c === 0x20 || c === 0x09;
const isPrintable = (c: number): boolean =>
  c === 0x0a || (c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff);

/** What the emitter's scalar analysis allows for a text (yaml_emitter_analyze_scalar, block context). */
function analyze(cps: readonly number[]): Analysis {
  if (cps.length === 0) return { multiline: false, blockPlain: true, single: true, block: false };
  let blockIndicators = false;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  let precededByWhitespace = true;
  const ch = String.fromCodePoint;
  if (cps.length >= 3 && ((cps[0] === 0x2d && cps[1] === 0x2d && cps[2] === 0x2d) || (cps[0] === 0x2e && cps[1] === 0x2e && cps[2] === 0x2e))) blockIndicators = true;
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i]!;
    const followedByWhitespace = i + 1 >= cps.length || isBlank(cps[i + 1]);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch(c))) blockIndicators = true;
      else if ((c === 0x3f || c === 0x3a) && followedByWhitespace) blockIndicators = true; // ? :
      else if (c === 0x2d && followedByWhitespace) blockIndicators = true; // -
    } else if (c === 0x3a && followedByWhitespace) blockIndicators = true;
    else if (c === 0x23 && precededByWhitespace) blockIndicators = true; // #
    if (!isPrintable(c)) special = true;
    if (c === 0x20) {
      if (i === 0) leadingSpace = true;
      if (i === cps.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === cps.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlank(c) || isBreak(c) || c === 0;
  }
  let blockPlain = true;
  let single = true;
  let block = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlain = false;
  if (trailingSpace) block = false;
  if (breakSpace) blockPlain = single = false;
  if (spaceBreak || special) blockPlain = single = block = false;
  if (lineBreaks) blockPlain = false;
  if (blockIndicators) blockPlain = false;
  return { multiline: lineBreaks, blockPlain, single, block };
}

const BOOL_NULL_ETC = new Set([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'],
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'],
  ...['', '~', 'null', 'Null', 'NULL', '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF'],
]);
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const UINT64_MAX = 2n ** 64n - 1n;

/** strconv.ParseInt(s, 0, 64) / ParseUint(s, 0, 64) succeed (base prefixes, a leading 0 for octal). */
function goParsesAsInt(s: string): boolean {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (m === null) return false;
  const digits = m[2]!;
  const body = /^0[oO]/.test(digits) ? `0o${digits.slice(2)}` : /^0[0-7]+$/.test(digits) ? `0o${digits.slice(1)}` : digits;
  const v = m[1] === '-' ? -BigInt(body) : BigInt(body);
  return (v >= INT64_MIN && v <= INT64_MAX) || (m[1] === '' && v >= 0n && v <= UINT64_MAX);
}

/** A float to go-yaml: the form of yamlStyleFloat, and strconv.ParseFloat(s, 64) without a range error. */
function readsAsFloat(s: string): boolean {
  return YAML_STYLE_FLOAT.test(s) && Number.isFinite(Number(s));
}

/** go-yaml v2's parseTimestamp: 2006-1-2, with a time after T/t or a space. */
function isTimestamp(s: string): boolean {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:([Tt])|( ))(\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(s);
  if (m === null) return false;
  const [, y, mo, d, t, sp, h, mi, se, , zone] = m;
  if (h !== undefined && ((t !== undefined && zone === undefined) || (sp !== undefined && zone !== undefined))) return false;
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const year = Number(y);
  const days = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  if (day > days) return false;
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(se) > 59)) return false;
  if (zone !== undefined && zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4)) > 59)) return false;
  return true;
}

/** Whether go-yaml would read the text back as a string if written plain (resolve() and isBase60Float). */
export function plainReadsAsString(s: string): boolean {
  if (BOOL_NULL_ETC.has(s)) return false;
  const c = s[0]!;
  if (c === '.') return !readsAsFloat(s);
  if (c === '+' || c === '-' || (c >= '0' && c <= '9')) {
    if (isTimestamp(s)) return false;
    const plain = s.replace(/_/g, '');
    if (goParsesAsInt(plain)) return false;
    if (readsAsFloat(plain)) return false;
    if (BASE60_FLOAT.test(s)) return false;
  }
  return true;
}

/** go-yaml v2's float (encoder.floatv): strconv.FormatFloat(x, 'g', -1, bits), infinities and NaN as `.inf`, `-.inf`, `.nan`. */
export function goYamlFloat(x: number, bits: 32 | 64): string {
  const s = formatFloat(x, 'g', bits);
  return s === '+Inf' ? '.inf' : s === '-Inf' ? '-.inf' : s === 'NaN' ? '.nan' : s;
}

/** go-yaml v2's float64. */
export function goFloatG(x: number): string {
  return goYamlFloat(x, 64);
}

/**
 * A JSON number as go-yaml prints it after reading the server's JSON text: an integer the JSON
 * wrote as digits is an int (int64 or uint64) printed as digits; anything else is a float64.
 */
function numberText(n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  if (Number.isInteger(n) && Math.abs(n) < 1e21) {
    // the JSON text of a float64 below 1e21 is its shortest digits padded with zeros (as String(n))
    const digits = String(Object.is(n, -0) ? 0 : n);
    const b = BigInt(digits);
    if (b >= INT64_MIN && b <= UINT64_MAX) return digits;
  }
  return goFloatG(n);
}

/** The code points of a text. */
function codePoints(s: string): number[] {
  const out: number[] = new Array<number>(s.length);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.codePointAt(i)!;
    out[n++] = c;
    if (c > 0xffff) i++;
  }
  out.length = n;
  return out;
}

class Emitter {
  private out = '';
  private column = 0;
  private indent = -1;
  private whitespace = true;
  private indention = true;
  private openEnded = false;

  text(): string {
    // document end: an implicit end writes a line break when the line is not empty
    this.writeIndent(0);
    if (this.openEnded) {
      this.indicator('...', true, false, false);
      this.writeIndent(0);
    }
    return this.out;
  }

  private put(s: string): void {
    this.out += s;
    this.column++;
  }

  private putBreak(): void {
    this.out += '\n';
    this.column = 0;
  }

  private writeIndent(indent = this.indent): void {
    const want = Math.max(indent, 0);
    if (!this.indention || this.column > want || (this.column === want && !this.whitespace)) this.putBreak();
    if (this.column < want) {
      this.out += ' '.repeat(want - this.column);
      this.column = want;
    }
    this.whitespace = true;
    this.indention = true;
  }

  private indicator(s: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    for (const c of s) this.put(c);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
    this.openEnded = false;
  }

  private increaseIndent(flow: boolean, indentless: boolean): number {
    const saved = this.indent;
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
    return saved;
  }

  node(v: unknown, ctx: { sequence: boolean; mapping: boolean; simpleKey: boolean }): void {
    if (Array.isArray(v)) {
      if (v.length === 0) return this.emptyFlow('[', ']');
      const saved = this.increaseIndent(false, ctx.mapping && !this.indention);
      for (const item of v) {
        this.writeIndent();
        this.indicator('-', true, false, true);
        this.node(item, { sequence: true, mapping: false, simpleKey: false });
      }
      this.indent = saved;
      return;
    }
    if (isRecord(v)) {
      const keys = Object.keys(v)
        .filter((k) => v[k] !== undefined)
        .sort(goYamlKeyCompare);
      if (keys.length === 0) return this.emptyFlow('{', '}');
      const saved = this.increaseIndent(false, false);
      for (const k of keys) {
        this.writeIndent();
        const cps = codePoints(k);
        if (!analyze(cps).multiline && Buffer.byteLength(k, 'utf8') <= 128) {
          this.string(k, cps, true);
          this.indicator(':', false, false, false);
        } else {
          this.indicator('?', true, false, true);
          this.string(k, cps, false);
          this.writeIndent();
          this.indicator(':', true, false, true);
        }
        this.node(v[k], { sequence: false, mapping: true, simpleKey: false });
      }
      this.indent = saved;
      return;
    }
    if (typeof v === 'string') return this.string(v, codePoints(v), ctx.simpleKey);
    const text = v === null || v === undefined ? 'null' : typeof v === 'boolean' ? String(v) : typeof v === 'number' || typeof v === 'bigint' ? numberText(v) : String(v);
    this.scalar(text, codePoints(text), 'plain', ctx.simpleKey);
  }

  private emptyFlow(open: string, close: string): void {
    this.indicator(open, true, true, false);
    this.indicator(close, false, false, false);
  }

  private string(s: string, cps: readonly number[], simpleKey: boolean): void {
    const requested: Style = s.includes('\n') ? 'literal' : s !== '' && plainReadsAsString(s) ? 'plain' : 'double';
    this.scalar(s, cps, requested, simpleKey);
  }

  /** yaml_emitter_select_scalar_style, then the writer of that style, one indent level in. */
  private scalar(s: string, cps: readonly number[], requested: Style, simpleKey: boolean): void {
    const a = analyze(cps);
    let style = requested;
    if (simpleKey && a.multiline) style = 'double';
    if (style === 'plain' && (!a.blockPlain || (cps.length === 0 && simpleKey))) style = 'single';
    if (style === 'single' && !a.single) style = 'double';
    if (style === 'literal' && (!a.block || simpleKey)) style = 'double';
    const saved = this.increaseIndent(true, false);
    if (style === 'plain') this.plain(s, cps, !simpleKey);
    else if (style === 'single') this.singleQuoted(cps, !simpleKey);
    else if (style === 'double') this.doubleQuoted(cps, !simpleKey);
    else this.literal(s, cps);
    this.indent = saved;
  }

  private writeBreak(c: number): void {
    if (c === 0x0a) this.putBreak();
    else {
      this.out += String.fromCodePoint(c);
      this.column = 0;
    }
  }

  private plain(s: string, cps: readonly number[], allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ');
    // no line breaks in a plain scalar; a space folds only once the column is past the width
    if (!allowBreaks || this.column + cps.length - 1 <= BEST_WIDTH) {
      this.out += s;
      this.column += cps.length;
    } else this.foldable(cps, allowBreaks, false);
    this.whitespace = false;
    this.indention = false;
  }

  private singleQuoted(cps: readonly number[], allowBreaks: boolean): void {
    this.indicator("'", true, false, false);
    this.foldable(cps, allowBreaks, true);
    this.indicator("'", false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  /**
   * The text of a plain or single-quoted scalar: a single space past the width becomes a line
   * break, line breaks are written doubled, `'` doubled when quoted. (A plain scalar has neither
   * leading nor trailing spaces nor line breaks, so one loop serves both writers.)
   */
  private foldable(cps: readonly number[], allowBreaks: boolean, quoted: boolean): void {
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < cps.length; i++) {
      const c = cps[i]!;
      if (c === 0x20) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < cps.length - 1 && cps[i + 1] !== 0x20) this.writeIndent();
        else this.put(' ');
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === 0x0a) this.putBreak();
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (quoted && c === 0x27) this.put("'");
        this.put(String.fromCodePoint(c));
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
  }

  private doubleQuoted(cps: readonly number[], allowBreaks: boolean): void {
    this.indicator('"', true, false, false);
    let spaces = false;
    for (let i = 0; i < cps.length; i++) {
      const c = cps[i]!;
      if (!isPrintable(c) || c === 0xfeff || isBreak(c) || c === 0x22 || c === 0x5c) {
        this.put('\\');
        const named = NAMED_ESCAPES.get(c);
        if (named !== undefined) this.put(named);
        else {
          const [letter, width] = c <= 0xff ? ['x', 2] : c <= 0xffff ? ['u', 4] : ['U', 8];
          this.put(letter);
          for (const d of c.toString(16).toUpperCase().padStart(width, '0')) this.put(d);
        }
        spaces = false;
      } else if (c === 0x20) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < cps.length - 1) {
          this.writeIndent();
          if (cps[i + 1] === 0x20) this.put('\\');
        } else this.put(' ');
        spaces = true;
      } else {
        this.put(String.fromCodePoint(c));
        spaces = false;
      }
    }
    this.indicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private literal(s: string, cps: readonly number[]): void {
    this.indicator('|', true, false, false);
    const first = cps[0]!;
    if (first === 0x20 || isBreak(first)) this.indicator(String(BEST_INDENT), false, false, false);
    this.openEnded = false;
    const last = cps.length - 1;
    let chomp = '';
    if (!isBreak(cps[last]!)) chomp = '-';
    else if (last === 0 || isBreak(cps[last - 1]!)) chomp = '+';
    if (chomp !== '') this.indicator(chomp, false, false, false);
    if (chomp === '+') this.openEnded = true;
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    // line by line: the break characters are all in the BMP; only whether the column is past
    // the indentation matters after a line, so a line's UTF-16 length stands for its width
    for (let i = 0; i < s.length; ) {
      const c = s.charCodeAt(i);
      if (isBreak(c)) {
        this.writeBreak(c);
        this.indention = true;
        breaks = true;
        i++;
        continue;
      }
      let j = i + 1;
      while (j < s.length && !isBreak(s.charCodeAt(j))) j++;
      if (breaks) this.writeIndent();
      this.out += s.slice(i, j);
      this.column += j - i;
      this.indention = false;
      breaks = false;
      i = j;
    }
  }
}

const NAMED_ESCAPES = new Map<number, string>([
  [0x00, '0'],
  [0x07, 'a'],
  [0x08, 'b'],
  [0x09, 't'],
  [0x0a, 'n'],
  [0x0b, 'v'],
  [0x0c, 'f'],
  [0x0d, 'r'],
  [0x1b, 'e'],
  [0x22, '"'],
  [0x5c, '\\'],
  [0x85, 'N'],
  [0xa0, '_'],
  [0x2028, 'L'],
  [0x2029, 'P'],
]);

/**
 * sigs.k8s.io/yaml reads the JSON text back with go-yaml before it writes YAML; Go's JSON leaves
 * U+0085 (NEL) unescaped, and in a double-quoted YAML scalar NEL is a line break, folded: one
 * break (with the blanks around it) becomes a space, n breaks n-1 line feeds.
 */
function afterYamlReread(v: unknown): unknown {
  if (typeof v === 'string') return v.includes('\u0085') ? foldNel(v) : v;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    v.forEach((x, i) => {
      const y = afterYamlReread(x);
      if (y !== x) (out ??= [...v])[i] = y;
    });
    return out ?? v;
  }
  if (isRecord(v)) {
    const keys = Object.keys(v);
    const values = keys.map((k) => afterYamlReread(v[k]));
    if (keys.every((k, i) => values[i] === v[k] && !k.includes('\u0085'))) return v;
    const out: Record<string, unknown> = {};
    keys.forEach((k, i) => setOwn(out, k.includes('\u0085') ? foldNel(k) : k, values[i]));
    return out;
  }
  return v;
}

function foldNel(s: string): string {
  return s.replace(/[ \t]*(?:\u0085[ \t]*)+/g, (m) => {
    const n = m.split('\u0085').length - 1;
    return n === 1 ? ' ' : '\n'.repeat(n - 1);
  });
}

/** The YAML text kubectl -o yaml prints for a decoded JSON value (one document, no `---`). */
export function goYamlText(v: unknown): string {
  const e = new Emitter();
  e.node(afterYamlReread(v), { sequence: false, mapping: false, simpleKey: false });
  return e.text();
}
