/** Small Go helpers of the ObjectMeta decoder and checks. */
import { goSortedKeys } from '../../core/go.js';
import { isRecord } from '../../core/types.js';

type Raw = Record<string, unknown>;

export function utf8Len(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Go's string comparison: UTF-8 byte order, i.e. code point order. */
export const sortedKeys = (o: Raw): string[] => goSortedKeys(o);

/** strings.ToLower: unicode.ToLower rune by rune. */
export function goToLower(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s.toLowerCase();
  let out = '';
  for (const ch of s) {
    if (ch === '\u0130') {
      out += 'i';
      continue;
    }
    const l = ch.toLowerCase();
    out += [...l].length === 1 ? l : ch;
  }
  return out;
}

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export function goIsPrint(ch: string): boolean {
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

export function deepClone(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(deepClone);
  if (isRecord(v)) {
    const out: Raw = {};
    for (const [k, x] of Object.entries(v)) out[k] = deepClone(x);
    return out;
  }
  return v;
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/**
 * The JSON text Go re-encodes a decoded number with (an int64 when the literal was an integer in range,
 * a float64 otherwise; the JS number stands for either). Go's float formatting switches to exponents at the
 * same thresholds as JS.
 */
export function goNumberText(n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  if (Number.isInteger(n) && n >= -(2 ** 63) && n < 2 ** 63) return BigInt(n).toString();
  return String(n);
}

/** A Go int64 as a JS value: a number when exact, a bigint otherwise. */
export function int64Value(n: bigint): number | bigint {
  const x = Number(n);
  return Number.isSafeInteger(x) ? x : n;
}
