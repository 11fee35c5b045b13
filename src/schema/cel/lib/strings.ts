/**
 * cel-go's strings extension (ext/strings.go, version 2 as Kubernetes uses it): charAt, indexOf,
 * lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim, join. Indices count code
 * points (Go runes), not UTF-16 units as cel-js's own versions do, so the rewritten rule calls these
 * (`__crdx_s_<name>(receiver, args…)`); a receiver that is not a string goes to the list versions.
 */
import { expParts, fixedParts, formatFloat } from '../../../go/float.js';
import { utf8Text, wellFormed } from '../../../go/strings.js';
import { quote } from '../../../go/quote.js';
import { formatRFC3339 } from '../../../go/time.js';
import { msOf, timestampMeta } from './time.js';
import { CelGoError, CelUnsupported, noOverload } from './ops.js';
import { positional } from '../values.js';
import { runtime } from './runtime.js';
import type { LibEnv } from './types.js';
import { goTypeName, isDuration, isLibraryValue, isPlainObject, isTypeValue, isUint } from './classes.js';

export const STRING_FUNCTIONS: ReadonlySet<string> = new Set(['charAt', 'indexOf', 'lastIndexOf', 'lowerAscii', 'upperAscii', 'replace', 'split', 'substring', 'trim', 'join', 'format']);

const runes = (s: string): string[] => [...s];
const utf8Len = (s: string): number => Buffer.byteLength(s, 'utf8');
/** Go's int(n) for a count (negative: all). */
const count64 = (n: bigint): number => (n < 0n ? -1 : n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n));
const outOfRange = (i: bigint | number): CelGoError => new CelGoError(`index out of range: ${i}`);

/** unicode.IsSpace */
const isSpace = (c: string): boolean => /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/.test(c);

function indexOfOffset(str: string, sub: string, offset: bigint): bigint {
  // cel-go 0.29 (1.37): a negative offset is an error and the empty string's offset is clamped to the end
  if (runtime.v137) {
    if (offset < 0n) throw outOfRange(offset);
    if (sub === '') return offset > BigInt(runes(str).length) ? BigInt(runes(str).length) : offset;
  }
  if (sub === '') return offset;
  if (offset < 0n) throw outOfRange(offset);
  const r = runes(str);
  const s = runes(sub);
  const off = Number(offset);
  if (off >= r.length) {
    if (runtime.indexPastEndFails) throw outOfRange(offset);
    return -1n;
  }
  for (let i = off; i < r.length - (s.length - 1); i++) if (s.every((c, j) => r[i + j] === c)) return BigInt(i);
  return -1n;
}

function lastIndexOfOffset(str: string, sub: string, offset: bigint): bigint {
  if (runtime.v137) {
    if (offset < 0n) throw outOfRange(offset);
    if (sub === '') return offset > BigInt(runes(str).length) ? BigInt(runes(str).length) : offset;
  }
  if (sub === '') return offset;
  if (offset < 0n) throw outOfRange(offset);
  const r = runes(str);
  const s = runes(sub);
  let off = Number(offset);
  if (off >= r.length) {
    if (runtime.indexPastEndFails) throw outOfRange(offset);
    return -1n;
  }
  if (off > r.length - s.length) off = r.length - s.length;
  for (let i = off; i >= 0; i--) if (s.every((c, j) => r[i + j] === c)) return BigInt(i);
  return -1n;
}

/** strings.Count */
function count(s: string, sep: string): number {
  if (sep === '') return runes(s).length + 1;
  return s.split(sep).length - 1;
}

/** strings.Replace */
function replace(s: string, old: string, nu: string, n: number): string {
  if (old === nu || n === 0) return s;
  const m = count(s, old);
  if (m === 0) return s;
  if (n < 0 || m < n) n = m;
  let out = '';
  let rest = s;
  for (let i = 0; i < n; i++) {
    if (old === '') {
      if (i === 0) out += nu;
      else {
        const [first] = runes(rest);
        out += first! + nu;
        rest = rest.slice(first!.length);
      }
      continue;
    }
    const j = rest.indexOf(old);
    out += rest.slice(0, j) + nu;
    rest = rest.slice(j + old.length);
  }
  return out + rest;
}

/** strings.SplitN (n < 0: all) */
function splitN(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  if (sep === '') {
    const r = runes(s);
    if (n < 0 || n > r.length) n = r.length;
    if (n === 0) return [];
    return [...r.slice(0, n - 1), r.slice(n - 1).join('')];
  }
  if (n < 0) n = count(s, sep) + 1;
  if (n > utf8Len(s) + 1) n = utf8Len(s) + 1;
  const out: string[] = [];
  let rest = s;
  while (out.length < n - 1) {
    const j = rest.indexOf(sep);
    if (j < 0) break;
    out.push(rest.slice(0, j));
    rest = rest.slice(j + sep.length);
  }
  out.push(rest);
  return out;
}

const asciiCase = (s: string, up: boolean): string => s.replace(up ? /[a-z]+/g : /[A-Z]+/g, (x) => (up ? x.toUpperCase() : x.toLowerCase()));

function joinList(l: unknown, sep: string, args: readonly unknown[]): string {
  if (!Array.isArray(l)) throw noOverload('join', ...args);
  positional(l, 'join()');
  for (const e of l) if (typeof e !== 'string') throw new CelUnsupported('join() of a list holding values that are not strings');
  return l.join(sep);
}

/** strings.quote: CEL's escapes, everything else as it is (Go: invalid UTF-8 becomes U+FFFD). */
export function celQuote(s: string): string {
  const esc: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\', '"': '\\"' };
  let out = '"';
  for (const ch of wellFormed(s)) out += esc[ch] ?? ch;
  return `${out}"`;
}

/** An argument of `%s` or `%d` crdx formats as cel-go's strings extension (version 2) does. */
function clause(verb: string, x: unknown): string | undefined {
  if (typeof x === 'bigint') return String(x);
  if (isUint(x)) return String(x.valueOf());
  if (verb !== 's') return undefined;
  return stringClause(x);
}

/** cel-go's string(duration): strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s", Seconds() computed as Go does. */
export function durationText(d: { seconds: bigint; nanos: number }): string {
  const total = d.seconds * 1_000_000_000n + BigInt(d.nanos);
  const sec = total / 1_000_000_000n;
  const nsec = total % 1_000_000_000n;
  return `${formatFloat(Number(sec) + Number(nsec) / 1e9, 'f')}s`;
}

/**
 * cel-go's string(timestamp): Time.Format(time.RFC3339Nano) in the timestamp's own zone (trailing
 * zeros of the fraction dropped; `Z` for UTC). `undefined` for a Date whose zone crdx does not know.
 */
export function timestampText(t: Date): string | undefined {
  const meta = timestampMeta(t);
  if (meta === undefined) return undefined;
  const ms = msOf(t) + meta.offset * 1000;
  const sec = Math.floor(ms / 1000);
  const nsec = (ms - sec * 1000) * 1_000_000 + meta.nanos;
  const base = formatRFC3339({ sec, nsec: 0 }).slice(0, -1);
  const frac = nsec === 0 ? '' : `.${String(nsec).padStart(9, '0').replace(/0+$/, '')}`;
  if (meta.offset === 0) return `${base}${frac}Z`;
  const a = Math.abs(meta.offset);
  const zone = `${meta.offset < 0 ? '-' : '+'}${String(Math.floor(a / 3600)).padStart(2, '0')}:${String(Math.floor((a % 3600) / 60)).padStart(2, '0')}`;
  return `${base}${frac}${zone}`;
}

/** A byte-wise comparison of two strings' UTF-8 encodings (Go's `<` on strings). */
const utf8Less = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

/**
 * `%s` of a value (ext/formatting.go FormatString): lists and maps as CEL literals, their members
 * formatted by type (ints in decimal, doubles as `%.6f`, strings and bytes quoted, durations and
 * timestamps as `duration("…")` / `timestamp("…")`), map entries sorted by their printed key.
 * `undefined` for a value crdx does not format as cel-go does.
 */
function stringClause(x: unknown): string | undefined {
  if (typeof x === 'string') return x;
  // cel-go's string(double): strconv.FormatFloat(d, 'g', -1, 64)
  if (typeof x === 'number') return formatFloat(x, 'g');
  if (typeof x === 'boolean') return String(x);
  if (x === null) return 'null';
  if (typeof x === 'bigint' || isUintValue(x)) return String(typeof x === 'bigint' ? x : (x as { valueOf(): bigint }).valueOf());
  if (x instanceof Uint8Array) return utf8Text(x);
  if (x instanceof Date) return timestampText(x);
  if (isDuration(x)) return durationText(x);
  if (Array.isArray(x)) {
    positional(x, 'format()');
    const parts: string[] = [];
    for (const e of x) {
      const m = memberText(e);
      if (m === undefined) return undefined;
      parts.push(m);
    }
    return `[${parts.join(', ')}]`;
  }
  const entries = x instanceof Map ? [...x] : isPlainObject(x) ? Object.entries(x) : undefined;
  // cel-js holds a map literal as an object with string keys: a key that may have been an int or a bool is not known as one
  if (entries !== undefined && !(x instanceof Map) && entries.some(([k]) => /^(-?[0-9]+|true|false)$/.test(k))) return undefined;
  if (entries !== undefined) {
    const pairs: [string, string][] = [];
    for (const [k, v] of entries) {
      let key: string;
      if (typeof k === 'string') key = quote(k);
      else if (typeof k === 'boolean' || typeof k === 'bigint' || isUintValue(k)) key = String(typeof k === 'object' ? (k as { valueOf(): bigint }).valueOf() : k);
      else return undefined;
      const val = memberText(v);
      if (val === undefined) return undefined;
      pairs.push([key, val]);
    }
    pairs.sort((a, b) => utf8Less(a[0], b[0]));
    return `{${pairs.map(([k, v]) => `${k}:${v}`).join(', ')}}`;
  }
  // a type value prints its name (FormatString's TypeType case comes first)
  if (isTypeValue(x) && TYPE_NAMES.has(x.name)) return x.name;
  return undefined;
}

/** Type names cel-js and cel-go spell alike. */
const TYPE_NAMES: ReadonlySet<string> = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'null_type', 'list', 'map', 'type', 'google.protobuf.Timestamp', 'google.protobuf.Duration']);

/** A list member or map value inside `%s` (clauseForType, then quoteForCEL). */
function memberText(x: unknown): string | undefined {
  if (typeof x === 'number') {
    // fmt's %.6f (a period, no grouping); NaN and ±Inf quoted
    if (Number.isNaN(x)) return '"NaN"';
    if (!Number.isFinite(x)) return x > 0 ? '"+Inf"' : '"-Inf"';
    const p = fixedParts(x, 6);
    return `${p.negative ? '-' : ''}${p.int}.${p.frac}`;
  }
  if (typeof x === 'string') return quote(x);
  if (x instanceof Uint8Array) {
    const t = utf8Text(x);
    return t === undefined ? undefined : `b${quote(t)}`;
  }
  if (x instanceof Date) {
    const t = timestampText(x);
    return t === undefined ? undefined : `timestamp(${quote(t)})`;
  }
  if (isDuration(x)) return `duration(${quote(durationText(x))})`;
  return stringClause(x);
}

const isUintValue = isUint;
const intOf = (x: unknown): bigint | undefined => (typeof x === 'bigint' ? x : isUintValue(x) ? (x as { valueOf(): bigint }).valueOf() : undefined);

const SUPERSCRIPT = '⁰¹²³⁴⁵⁶⁷⁸⁹';

/** Digits grouped by three with commas (golang.org/x/text's English number format). */
const group = (int: string): string => int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** The double a `%f` / `%e` clause takes: a double, or the strings "NaN", "Infinity", "-Infinity". */
function doubleArg(x: unknown, what: string): number {
  if (typeof x === 'number') return x;
  if (x === 'NaN') return NaN;
  if (x === 'Infinity') return Infinity;
  if (x === '-Infinity') return -Infinity;
  const t = goTypeName(x);
  if (t === undefined) throw new CelUnsupported(`format() of a value of this type with ${what}`);
  throw new CelGoError(`error during formatting: ${what === '%f' ? 'fixed-point' : 'scientific'} clause can only be used on doubles, was given ${t}`);
}

/** `%.Nf` as golang.org/x/text's message printer prints it (English: grouped thousands, ∞, NaN). */
function fixedClause(x: number, prec: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '-∞';
  const p = fixedParts(x, prec);
  return `${p.negative && x !== 0 ? '-' : ''}${group(p.int)}${prec > 0 ? `.${p.frac}` : ''}`;
}

/** `%Ne` (cel-go passes the precision as the width): 6 mantissa digits, `×10` and a superscript exponent, padded to the width. */
function scientificClause(x: number, width: number): string {
  let out: string;
  if (Number.isNaN(x)) out = 'NaN';
  else if (!Number.isFinite(x)) out = x > 0 ? '∞' : '-∞';
  else {
    const p = expParts(x, 6);
    const e = String(Math.abs(p.exp)).padStart(2, '0');
    // golang.org/x/text before 0.23 (Kubernetes before 1.33) spaces × with U+202F
    const times = runtime.sciSpaces ? '\u202f×\u202f' : '×';
    out = `${p.negative && x !== 0 ? '-' : ''}${p.mantissa[0]}.${p.mantissa.slice(1)}${times}10${p.exp < 0 ? '⁻' : ''}${[...e].map((d) => SUPERSCRIPT[Number(d)]).join('')}`;
  }
  const n = [...out].length;
  return n < width ? ' '.repeat(width - n) + out : out;
}

/** Go's %b / %o / %x / %X of an int64 or uint64 (a sign, then the digits). */
const radix = (n: bigint, base: number, upper = false): string => {
  const t = (n < 0n ? `-${(-n).toString(base)}` : n.toString(base));
  return upper ? t.toUpperCase() : t;
};

const hexOfBytes = (b: Uint8Array, upper: boolean): string => {
  const t = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return upper ? t.toUpperCase() : t;
};

/** One clause (verb and precision) of cel-go's legacy formatter (ext/formatting.go, strings version < 4). */
function formatClause(verb: string, precision: number | undefined, x: unknown): string {
  const wrong = (msg: string): never => {
    const t = goTypeName(x);
    if (t === undefined) throw new CelUnsupported(`format() of a value of this type with %${verb}`);
    throw new CelGoError(`error during formatting: ${msg}, was given ${t}`);
  };
  switch (verb) {
    case 's':
    case 'd': {
      if (verb === 'd' && (typeof x === 'number' || typeof x === 'string' || typeof x === 'boolean' || x === null || x instanceof Uint8Array || Array.isArray(x) || x instanceof Map)) wrong('decimal clause can only be used on integers');
      // a Kubernetes library value or an optional is none of the kinds either clause takes
      if (isLibraryValue(x) || goTypeName(x) === 'optional_type') wrong(verb === 'd' ? 'decimal clause can only be used on integers' : 'string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps');
      const v = clause(verb, x);
      if (v === undefined) throw new CelUnsupported(`format() of a value of this type with %${verb}, which crdx does not format as cel-go yet`);
      return v;
    }
    case 'f':
      return fixedClause(doubleArg(x, '%f'), precision ?? 6);
    case 'e':
      return scientificClause(doubleArg(x, '%e'), precision ?? 6);
    case 'b': {
      if (typeof x === 'boolean') return x ? '1' : '0';
      const n = intOf(x);
      return n === undefined ? wrong('only integers and bools can be formatted as binary') : radix(n, 2);
    }
    case 'o': {
      const n = intOf(x);
      return n === undefined ? wrong('octal clause can only be used on integers') : radix(n, 8);
    }
    case 'x':
    case 'X': {
      const upper = verb === 'X';
      if (typeof x === 'string') return hexOfBytes(new TextEncoder().encode(x), upper);
      if (x instanceof Uint8Array) return hexOfBytes(x, upper);
      const n = intOf(x);
      return n === undefined ? wrong('only integers, byte buffers, and strings can be formatted as hex') : radix(n, 16, upper);
    }
  }
  throw new CelGoError(`could not parse formatting clause: unrecognized formatting clause ${JSON.stringify(verb)}`);
}

/**
 * `<string>.format(<list>)` as cel-go's strings extension version 2 formats it (ext/formatting.go):
 * `%%`, `%s`, `%d`, `%f` and `%e` with an optional precision, `%b`, `%o`, `%x`, `%X`, with cel-go's
 * error texts for a clause it cannot parse or an argument of the wrong type; `%s` of lists,
 * maps, bytes, durations and timestamps as cel-go prints them (stringClause).
 */
function format(f: string, args: unknown[]): string {
  let out = '';
  let n = 0;
  for (let i = 0; i < f.length; i++) {
    if (f[i] !== '%') {
      out += f[i];
      continue;
    }
    if (f[i + 1] === '%') {
      out += '%';
      i++;
      continue;
    }
    if (n >= args.length) throw new CelGoError(`index ${n} out of range`);
    if (i + 1 >= f.length) throw new CelGoError('unexpected end of string');
    let j = i + 1;
    let precision: number | undefined;
    if (f[j] === '.') {
      j++;
      let digits = '';
      for (;;) {
        if (j >= f.length) throw new CelGoError('could not parse formatting clause: error while parsing precision: could not find end of precision specifier');
        if (!/[0-9]/.test(f[j]!)) break;
        digits += f[j];
        j++;
      }
      if (digits === '') throw new CelGoError('could not parse formatting clause: error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax');
      if (digits.length > 4) throw new CelUnsupported('format() with a precision this large');
      precision = Number(digits);
    }
    const verb = f[j]!;
    if (verb.charCodeAt(0) > 0x7f) throw new CelUnsupported('format() with a clause that is not ASCII');
    if (!'sdfebxXo'.includes(verb)) throw new CelGoError(`could not parse formatting clause: unrecognized formatting clause "${verb}"`);
    out += formatClause(verb, precision, args[n]);
    n++;
    i = j;
  }
  return out;
}

type ListFallback = (l: unknown[], ...args: unknown[]) => unknown;

export function registerStrings(env: LibEnv, listIndexOf: ListFallback, listLastIndexOf: ListFallback): void {
  // a receiver (or dyn argument) that is not a string: cel-go's guarded overloads answer
  // `no such overload: name(types)` of every argument (decls.MaybeNoSuchOverload)
  const str = (x: unknown, name: string, args: readonly unknown[]): string => {
    if (typeof x !== 'string') throw noOverload(name, ...args);
    return x;
  };
  const f = (sig: string, h: (...a: never[]) => unknown) => env.registerFunction(sig, h);
  f('__crdx_s_charAt(dyn, int): string', (s: unknown, i: bigint) => {
    const r = runes(str(s, 'charAt', [s, i]));
    if (i < 0n || i > BigInt(r.length)) throw outOfRange(i);
    return i === BigInt(r.length) ? '' : r[Number(i)]!;
  });
  f('__crdx_s_indexOf(dyn, dyn): int', (s: unknown, x: unknown) => (Array.isArray(s) ? listIndexOf(s, x) : indexOfOffset(str(s, 'indexOf', [s, x]), str(x, 'indexOf', [s, x]), 0n)));
  f('__crdx_s_indexOf(dyn, string, int): int', (s: unknown, x: string, o: bigint) => indexOfOffset(str(s, 'indexOf', [s, x, o]), x, o));
  f('__crdx_s_lastIndexOf(dyn, dyn): int', (s: unknown, x: unknown) => {
    if (Array.isArray(s)) return listLastIndexOf(s, x);
    const a = str(s, 'lastIndexOf', [s, x]);
    const b = str(x, 'lastIndexOf', [s, x]);
    if (b === '') return BigInt(runes(a).length);
    // cel-go 0.26 compares byte lengths here; before, an empty receiver reached the offset -1
    if (utf8Len(a) < utf8Len(b) && !(runtime.emptyLastIndexOfFails && a === '')) return -1n;
    return lastIndexOfOffset(a, b, BigInt(runes(a).length - 1));
  });
  f('__crdx_s_lastIndexOf(dyn, string, int): int', (s: unknown, x: string, o: bigint) => lastIndexOfOffset(str(s, 'lastIndexOf', [s, x, o]), x, o));
  f('__crdx_s_lowerAscii(dyn): string', (s: unknown) => asciiCase(str(s, 'lowerAscii', [s]), false));
  f('__crdx_s_upperAscii(dyn): string', (s: unknown) => asciiCase(str(s, 'upperAscii', [s]), true));
  f('__crdx_s_replace(dyn, string, string): string', (s: unknown, a: string, b: string) => replace(str(s, 'replace', [s, a, b]), a, b, -1));
  f('__crdx_s_replace(dyn, string, string, int): string', (s: unknown, a: string, b: string, n: bigint) => replace(str(s, 'replace', [s, a, b, n]), a, b, count64(n)));
  f('__crdx_s_split(dyn, string): list<string>', (s: unknown, sep: string) => splitN(str(s, 'split', [s, sep]), sep, -1));
  f('__crdx_s_split(dyn, string, int): list<string>', (s: unknown, sep: string, n: bigint) => splitN(str(s, 'split', [s, sep, n]), sep, count64(n)));
  f('__crdx_s_substring(dyn, int): string', (s: unknown, start: bigint) => {
    const r = runes(str(s, 'substring', [s, start]));
    if (start < 0n || start > BigInt(r.length)) throw outOfRange(start);
    return r.slice(Number(start)).join('');
  });
  f('__crdx_s_substring(dyn, int, int): string', (s: unknown, start: bigint, end: bigint) => {
    const r = runes(str(s, 'substring', [s, start, end]));
    if (start > end) throw new CelGoError(`invalid substring range. start: ${start}, end: ${end}`);
    if (start < 0n || start > BigInt(r.length)) throw outOfRange(start);
    if (end < 0n || end > BigInt(r.length)) throw outOfRange(end);
    return r.slice(Number(start), Number(end)).join('');
  });
  f('__crdx_s_trim(dyn): string', (s: unknown) => {
    const r = runes(str(s, 'trim', [s]));
    let i = 0;
    let j = r.length;
    while (i < j && isSpace(r[i]!)) i++;
    while (j > i && isSpace(r[j - 1]!)) j--;
    return r.slice(i, j).join('');
  });
  f('__crdx_s_format(dyn, list<dyn>): string', (s: unknown, l: unknown[]) => format(str(s, 'format', [s, l]), l));
  f('__crdx_strings_quote(string): string', celQuote);
  f('__crdx_s_join(dyn): string', (l: unknown) => joinList(l, '', [l]));
  f('__crdx_s_join(dyn, string): string', (l: unknown, sep: string) => joinList(l, sep, [l, sep]));
}
