/**
 * cel-go's strings extension (ext/strings.go, version 2 as Kubernetes uses it): charAt, indexOf,
 * lastIndexOf, lowerAscii, upperAscii, replace, split, substring, trim, join. Indices count code
 * points (Go runes), not UTF-16 units as cel-js's own versions do, so the rewritten rule calls these
 * (`__crdx_s_<name>(receiver, args…)`); a receiver that is not a string goes to the list versions.
 */
import { wellFormed } from '../../../go/strings.js';
import { CelGoError, CelUnsupported } from './ops.js';
import type { LibEnv } from './types.js';

export const STRING_FUNCTIONS: ReadonlySet<string> = new Set(['charAt', 'indexOf', 'lastIndexOf', 'lowerAscii', 'upperAscii', 'replace', 'split', 'substring', 'trim', 'join', 'format']);

const runes = (s: string): string[] => [...s];
const utf8Len = (s: string): number => Buffer.byteLength(s, 'utf8');
/** Go's int(n) for a count (negative: all). */
const count64 = (n: bigint): number => (n < 0n ? -1 : n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n));
const outOfRange = (i: bigint | number): CelGoError => new CelGoError(`index out of range: ${i}`);

/** unicode.IsSpace */
const isSpace = (c: string): boolean => /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/.test(c);

function indexOfOffset(str: string, sub: string, offset: bigint): bigint {
  if (sub === '') return offset;
  if (offset < 0n) throw outOfRange(offset);
  const r = runes(str);
  const s = runes(sub);
  const off = Number(offset);
  if (off >= r.length) return -1n;
  for (let i = off; i < r.length - (s.length - 1); i++) if (s.every((c, j) => r[i + j] === c)) return BigInt(i);
  return -1n;
}

function lastIndexOfOffset(str: string, sub: string, offset: bigint): bigint {
  if (sub === '') return offset;
  if (offset < 0n) throw outOfRange(offset);
  const r = runes(str);
  const s = runes(sub);
  let off = Number(offset);
  if (off >= r.length) return -1n;
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

function joinList(l: unknown, sep: string): string {
  if (!Array.isArray(l)) throw new CelUnsupported('join() on a value that is not a list');
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
  const isUint = typeof x === 'object' && x !== null && x.constructor?.name === 'UnsignedInt';
  if (typeof x === 'bigint' || isUint) return String(isUint ? (x as { valueOf(): bigint }).valueOf() : x);
  if (verb !== 's') return undefined;
  if (typeof x === 'string') return x;
  if (typeof x === 'boolean') return String(x);
  if (x === null) return 'null';
  return undefined;
}

/**
 * `<string>.format(<list>)` (ext/formatting.go) for `%%`, and `%s` and `%d` of strings, ints, uints,
 * bools and null; every other clause, argument type and error case is reported as not evaluated.
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
    const verb = f[i + 1];
    if ((verb !== 's' && verb !== 'd') || n >= args.length) throw new CelUnsupported(`format() with a clause or an argument count crdx does not format as cel-go yet (at ${JSON.stringify(f.slice(i, i + 2))})`);
    const v = clause(verb, args[n]);
    if (v === undefined) throw new CelUnsupported(`format() of a value of this type with %${verb}, which crdx does not format as cel-go yet`);
    out += v;
    n++;
    i++;
  }
  return out;
}

type ListFallback = (l: unknown[], ...args: unknown[]) => unknown;

export function registerStrings(env: LibEnv, listIndexOf: ListFallback, listLastIndexOf: ListFallback): void {
  const str = (x: unknown, name: string): string => {
    if (typeof x !== 'string') throw new CelUnsupported(`${name}() on a value that is not a string`);
    return x;
  };
  const f = (sig: string, h: (...a: never[]) => unknown) => env.registerFunction(sig, h);
  f('__crdx_s_charAt(dyn, int): string', (s: unknown, i: bigint) => {
    const r = runes(str(s, 'charAt'));
    if (i < 0n || i > BigInt(r.length)) throw outOfRange(i);
    return i === BigInt(r.length) ? '' : r[Number(i)]!;
  });
  f('__crdx_s_indexOf(dyn, dyn): int', (s: unknown, x: unknown) => (Array.isArray(s) ? listIndexOf(s, x) : indexOfOffset(str(s, 'indexOf'), str(x, 'indexOf'), 0n)));
  f('__crdx_s_indexOf(dyn, string, int): int', (s: unknown, x: string, o: bigint) => indexOfOffset(str(s, 'indexOf'), x, o));
  f('__crdx_s_lastIndexOf(dyn, dyn): int', (s: unknown, x: unknown) => {
    if (Array.isArray(s)) return listLastIndexOf(s, x);
    const a = str(s, 'lastIndexOf');
    const b = str(x, 'lastIndexOf');
    if (b === '') return BigInt(runes(a).length);
    // cel-go compares byte lengths here
    if (utf8Len(a) < utf8Len(b)) return -1n;
    return lastIndexOfOffset(a, b, BigInt(runes(a).length - 1));
  });
  f('__crdx_s_lastIndexOf(dyn, string, int): int', (s: unknown, x: string, o: bigint) => lastIndexOfOffset(str(s, 'lastIndexOf'), x, o));
  f('__crdx_s_lowerAscii(dyn): string', (s: unknown) => asciiCase(str(s, 'lowerAscii'), false));
  f('__crdx_s_upperAscii(dyn): string', (s: unknown) => asciiCase(str(s, 'upperAscii'), true));
  f('__crdx_s_replace(dyn, string, string): string', (s: unknown, a: string, b: string) => replace(str(s, 'replace'), a, b, -1));
  f('__crdx_s_replace(dyn, string, string, int): string', (s: unknown, a: string, b: string, n: bigint) => replace(str(s, 'replace'), a, b, count64(n)));
  f('__crdx_s_split(dyn, string): list<string>', (s: unknown, sep: string) => splitN(str(s, 'split'), sep, -1));
  f('__crdx_s_split(dyn, string, int): list<string>', (s: unknown, sep: string, n: bigint) => splitN(str(s, 'split'), sep, count64(n)));
  f('__crdx_s_substring(dyn, int): string', (s: unknown, start: bigint) => {
    const r = runes(str(s, 'substring'));
    if (start < 0n || start > BigInt(r.length)) throw outOfRange(start);
    return r.slice(Number(start)).join('');
  });
  f('__crdx_s_substring(dyn, int, int): string', (s: unknown, start: bigint, end: bigint) => {
    const r = runes(str(s, 'substring'));
    if (start > end) throw new CelGoError(`invalid substring range. start: ${start}, end: ${end}`);
    if (start < 0n || start > BigInt(r.length)) throw outOfRange(start);
    if (end < 0n || end > BigInt(r.length)) throw outOfRange(end);
    return r.slice(Number(start), Number(end)).join('');
  });
  f('__crdx_s_trim(dyn): string', (s: unknown) => {
    const r = runes(str(s, 'trim'));
    let i = 0;
    let j = r.length;
    while (i < j && isSpace(r[i]!)) i++;
    while (j > i && isSpace(r[j - 1]!)) j--;
    return r.slice(i, j).join('');
  });
  f('__crdx_s_format(dyn, list<dyn>): string', (s: unknown, l: unknown[]) => format(str(s, 'format'), l));
  f('__crdx_strings_quote(string): string', celQuote);
  f('__crdx_s_join(dyn): string', (l: unknown) => joinList(l, ''));
  f('__crdx_s_join(dyn, string): string', (l: unknown, sep: string) => joinList(l, sep));
}
