/**
 * Go's view of a decoded JSON value (encoding/json into interface{}: map[string]interface{}, []interface{},
 * string, int64 when the literal fits, float64, bool, nil) and the conversions the server applies to it.
 */
import { goSortedKeys, wellFormed } from './strings.js';

/** The Go dynamic type of a decoded JSON value (map[string]interface{}, []interface{}, string, int64, float64, bool, nil). */
export type GoKind = 'null' | 'bool' | 'string' | 'int' | 'float' | 'slice' | 'map';

const TWO63 = 9223372036854775808; // 2^63 as a double
export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

export function kindOf(v: unknown): GoKind {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'number':
      // -2^63 as a double is written -9223372036854776000 by Go's JSON encoding: beyond int64, a float64
      return Number.isInteger(v) && v > -TWO63 && v < TWO63 ? 'int' : 'float';
    case 'bigint':
      return v >= INT64_MIN && v <= INT64_MAX ? 'int' : 'float';
    case 'object':
      return Array.isArray(v) ? 'slice' : 'map';
    default:
      return 'null';
  }
}

/** Whether a decoded number is an int64 to the server (an integer in range; see kindOf). */
export function isInt64(v: unknown): v is number | bigint {
  return (typeof v === 'number' || typeof v === 'bigint') && kindOf(v) === 'int';
}

/** A Go int64 as a JS value: a number when exact, a bigint otherwise. */
export function int64Value(n: bigint): number | bigint {
  const x = Number(n);
  return Number.isSafeInteger(x) ? x : n;
}

export function asBig(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  return 0n;
}

export function asFloat(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return 0;
}

/** Go's int64(f) on amd64: truncation, and 0x8000000000000000 for NaN and out-of-range values. */
export function goFloatToInt64(f: number): bigint {
  if (Number.isNaN(f) || f >= TWO63 || f < -TWO63) return INT64_MIN;
  return BigInt(Math.trunc(f));
}

/** Decoded JSON as Go sees it: strings well-formed, Dates as RFC 3339 strings, undefined object members dropped. */
export function normalizeValue(v: unknown): unknown {
  if (typeof v === 'string') return wellFormed(v);
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(normalizeValue);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[wellFormed(k)] = normalizeValue(x);
    return out;
  }
  return v;
}

/**
 * normalizeValue without copying what it would not change: the value itself when it is already as
 * Go sees it, else a copy (built as normalizeValue builds it) whose unchanged parts are shared with
 * the input. The validator only reads its data.
 */
export function normalizedView(v: unknown): unknown {
  if (typeof v === 'string') return wellFormed(v);
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      const c = normalizedView(x);
      if (c !== x) (out ??= v.slice())[i] = c;
    }
    return out ?? v;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  // the members' views, made once something changes (most objects have nothing to change)
  let vals: unknown[] | undefined;
  let changed = Object.getPrototypeOf(o) !== Object.prototype;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const x = o[k];
    if (x === undefined) {
      changed = true;
      continue;
    }
    const c = normalizedView(x);
    if (vals !== undefined) vals[i] = c;
    else if (c !== x) {
      vals = new Array(keys.length);
      for (let j = 0; j < i; j++) vals[j] = o[keys[j]!];
      vals[i] = c;
    }
    if (c !== x || k === '__proto__' || wellFormed(k) !== k) changed = true;
  }
  if (!changed) return o;
  if (vals === undefined) vals = keys.map((k) => o[k]);
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) if (o[keys[i]!] !== undefined) out[wellFormed(keys[i]!)] = vals[i];
  return out;
}

/**
 * A copy with object keys sorted (code point order), so that the JSON rendering of a field error value
 * matches Go's json.Marshal of a map. Scalars are returned as they are.
 */
export function sortedCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedCopy);
  if (isMap(v)) {
    const out: Record<string, unknown> = {};
    for (const k of goSortedKeys(v)) out[k] = sortedCopy(v[k]);
    return out;
  }
  return v;
}

export function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
