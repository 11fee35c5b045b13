/**
 * Go's `%v` and `%T` for the values of a decoded unstructured object (map[string]interface{},
 * []interface{}, string, int64, float64, bool, nil), as the accessor errors of
 * apimachinery `unstructured.Nested*` print them.
 *
 * Numbers follow the server's JSON decoding: an integer in the int64 range is an int64, any other
 * number a float64 (kubectl re-encodes `3.0` as `3`, so a JS integer stands for an int64).
 */
import { goCompare } from '../core/go.js';
import { isRecord } from '../core/types.js';

const TWO63 = 9223372036854775808;

export function isInt64(v: unknown): v is number | bigint {
  if (typeof v === 'bigint') return v >= -(2n ** 63n) && v < 2n ** 63n;
  return typeof v === 'number' && Number.isInteger(v) && v >= -TWO63 && v < TWO63;
}

/** `%T` */
export function goTypeOf(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number' || typeof v === 'bigint') return isInt64(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

/** fmt's %v of a float64 (strconv 'g', shortest): exponent form when the decimal exponent is < -4 or >= 6. */
export function goFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, e] = f.toExponential().split('e') as [string, string];
  const exp = Number(e);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    const abs = String(Math.abs(exp)).padStart(2, '0');
    return `${mant}e${sign}${abs}`;
  }
  // plain decimal with the shortest digits (JS prints these without an exponent)
  return String(f);
}

/** `%v` */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return isInt64(v) ? BigInt(v).toString() : goFloat(v);
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (isRecord(v)) {
    const keys = Object.keys(v).sort(goCompare);
    return `map[${keys.map((k) => `${k}:${goValue(v[k])}`).join(' ')}]`;
  }
  return String(v);
}
