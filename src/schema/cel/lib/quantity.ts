/**
 * The Kubernetes quantity library (apiserver pkg/cel/library/quantity.go) over an exact decimal
 * reading of apimachinery's resource.ParseQuantity: quantity, isQuantity, sign, isGreaterThan,
 * isLessThan, compareTo, add, sub, asInteger, isInteger, asApproximateFloat, and equality.
 */
import { CelGoError, CelUnsupported } from './ops.js';
import type { LibEnv } from './types.js';

const FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const NUMERIC = 'unable to parse numeric part of quantity';
const SUFFIX = "unable to parse quantity's suffix";
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

const DECIMAL: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** A quantity's value: unscaled × 10^scale, exactly. */
export class Quantity {
  constructor(
    readonly unscaled: bigint,
    readonly scale: number,
  ) {}
  /** -1, 0 or 1 as this is less than, equal to or greater than o. */
  cmp(o: Quantity): number {
    const s = Math.min(this.scale, o.scale);
    const a = this.unscaled * 10n ** BigInt(this.scale - s);
    const b = o.unscaled * 10n ** BigInt(o.scale - s);
    return a < b ? -1 : a > b ? 1 : 0;
  }
  add(o: Quantity, sign: 1n | -1n): Quantity {
    const s = Math.min(this.scale, o.scale);
    return new Quantity(this.unscaled * 10n ** BigInt(this.scale - s) + sign * o.unscaled * 10n ** BigInt(o.scale - s), s);
  }
  /** Quantity.AsInt64: the integer value when it is one and fits. */
  asInt64(): bigint | undefined {
    let v: bigint;
    if (this.scale >= 0) v = this.unscaled * 10n ** BigInt(this.scale);
    else {
      const d = 10n ** BigInt(-this.scale);
      if (this.unscaled % d !== 0n) return undefined;
      v = this.unscaled / d;
    }
    return v < INT64_MIN || v > INT64_MAX ? undefined : v;
  }
  celEqual(o: unknown): boolean {
    return o instanceof Quantity && this.cmp(o) === 0;
  }
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** resource.ParseQuantity: the value, or the Go error text. */
export function parseQuantity(str: string): Quantity | string {
  if (str === '') return FORMAT_WRONG;
  if (str === '0') return new Quantity(0n, 0);
  // parseQuantityString
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (str[0] === '-') {
    positive = false;
    pos++;
  } else if (str[0] === '+') pos++;
  while (pos < end && str[pos] === '0') pos++;
  let num = '';
  let denom = '';
  let value: string;
  let suf = '';
  if (pos >= end) {
    num = '0';
    value = num;
  } else {
    let i = pos;
    while (i < end && isDigit(str[i])) i++;
    num = str.slice(pos, i);
    pos = i;
    if (num === '') num = '0';
    if (pos < end && str[pos] === '.') {
      pos++;
      let j = pos;
      while (j < end && isDigit(str[j])) j++;
      denom = str.slice(pos, j);
      pos = j;
    }
    value = str.slice(0, pos);
    if (pos < end) {
      const suffixStart = pos;
      let k = pos;
      while (k < end && 'eEinumkKMGTP'.includes(str[k]!)) k++;
      if (k < end && (str[k] === '-' || str[k] === '+')) k++;
      while (k < end && isDigit(str[k])) k++;
      if (k < end) return FORMAT_WRONG;
      suf = str.slice(suffixStart);
    }
  }
  // the suffix
  let base: 2 | 10;
  let exponent: number;
  if (Object.prototype.hasOwnProperty.call(DECIMAL, suf)) [base, exponent] = [10, DECIMAL[suf]!];
  else if (Object.prototype.hasOwnProperty.call(BINARY, suf)) [base, exponent] = [2, BINARY[suf]!];
  else if (suf.length > 1 && (suf[0] === 'e' || suf[0] === 'E') && /^[+-]?[0-9]+$/.test(suf.slice(1))) {
    base = 10;
    const e = BigInt(suf.slice(1));
    if (e > INT64_MAX || e < INT64_MIN) return SUFFIX;
    exponent = Number(BigInt.asIntN(32, e));
  } else return SUFFIX;
  if (Math.abs(exponent) > 400) throw new CelUnsupported(`the quantity ${JSON.stringify(str)} has an exponent crdx does not compute with`);
  const digits = num + denom;
  if (!/^[0-9]*$/.test(digits)) return NUMERIC;
  let u = BigInt(digits === '' ? '0' : digits);
  if (!positive) u = -u;
  // value (without the suffix) = u × 10^-len(denom)
  void value;
  let scale = -denom.length;
  if (base === 10) scale += exponent;
  else u *= 2n ** BigInt(exponent);
  let q = new Quantity(u, scale);
  // rounded up (away from zero) to nanos
  if (q.scale < -9) {
    const d = 10n ** BigInt(-9 - q.scale);
    const mag = u < 0n ? -u : u;
    let r = mag / d;
    if (mag % d !== 0n) r += 1n;
    q = new Quantity(u < 0n ? -r : r, -9);
  }
  if (base === 2 && q.cmp(new Quantity(INT64_MAX, 0)) > 0) q = new Quantity(INT64_MAX, 0);
  return q;
}

export function registerQuantity(env: LibEnv & { registerType(name: string, ctor: unknown): unknown }): void {
  env.registerType('k8s.Quantity', Quantity);
  const parse = (s: string): Quantity => {
    const q = parseQuantity(s);
    if (typeof q === 'string') throw new CelGoError(q);
    return q;
  };
  env.registerFunction('quantity(string): k8s.Quantity', parse);
  env.registerFunction('isQuantity(string): bool', (s: string) => typeof parseQuantity(s) !== 'string');
  env.registerFunction('sign(k8s.Quantity): int', (q: Quantity) => BigInt(q.cmp(new Quantity(0n, 0))));
  env.registerFunction('k8s.Quantity.isGreaterThan(k8s.Quantity): bool', (a: Quantity, b: Quantity) => a.cmp(b) === 1);
  env.registerFunction('k8s.Quantity.isLessThan(k8s.Quantity): bool', (a: Quantity, b: Quantity) => a.cmp(b) === -1);
  env.registerFunction('k8s.Quantity.compareTo(k8s.Quantity): int', (a: Quantity, b: Quantity) => BigInt(a.cmp(b)));
  env.registerFunction('k8s.Quantity.add(k8s.Quantity): k8s.Quantity', (a: Quantity, b: Quantity) => a.add(b, 1n));
  env.registerFunction('k8s.Quantity.add(int): k8s.Quantity', (a: Quantity, b: bigint) => a.add(new Quantity(b, 0), 1n));
  env.registerFunction('k8s.Quantity.sub(k8s.Quantity): k8s.Quantity', (a: Quantity, b: Quantity) => a.add(b, -1n));
  env.registerFunction('k8s.Quantity.sub(int): k8s.Quantity', (a: Quantity, b: bigint) => a.add(new Quantity(b, 0), -1n));
  env.registerFunction('k8s.Quantity.isInteger(): bool', (q: Quantity) => q.asInt64() !== undefined);
  env.registerFunction('k8s.Quantity.asInteger(): int', (q: Quantity) => {
    const v = q.asInt64();
    if (v === undefined) throw new CelGoError('cannot convert value to integer');
    return v;
  });
  // AsApproximateFloat64: the unscaled value as a float times a power of ten
  env.registerFunction('k8s.Quantity.asApproximateFloat(): double', (q: Quantity) => Number(q.unscaled) * 10 ** q.scale);
}
