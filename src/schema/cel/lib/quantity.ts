/**
 * The Kubernetes quantity library (apiserver pkg/cel/library/quantity.go) over an exact decimal
 * reading of apimachinery's resource.ParseQuantity: quantity, isQuantity, sign, isGreaterThan,
 * isLessThan, compareTo, add, sub, asInteger, isInteger, asApproximateFloat, and equality.
 */
import { GO_TYPE, type GoTypeNames } from './classes.js';
import { CelGoError, CelUnsupported } from './ops.js';
import type { LibEnv } from './types.js';

const FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const NUMERIC = 'unable to parse numeric part of quantity';
const SUFFIX = "unable to parse quantity's suffix";
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

const DECIMAL: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/**
 * A quantity's value: unscaled × 10^scale, exactly, in the form apimachinery holds it: an
 * int64Amount (`dec` false: unscaled is its int64 value, scale its Scale, which may be negative) or
 * an inf.Dec (`dec` true). The form decides isInteger/asInteger (Quantity.AsInt64: false for an
 * inf.Dec and for an int64Amount of negative scale, even `1000m` or `1.0`) and asApproximateFloat.
 */
export class Quantity {
  get [GO_TYPE](): GoTypeNames {
    return { name: 'kubernetes.Quantity', go: 'cel.Quantity' };
  }

  constructor(
    readonly unscaled: bigint,
    readonly scale: number,
    readonly dec = false,
  ) {}
  /** -1, 0 or 1 as this is less than, equal to or greater than o. */
  cmp(o: Quantity): number {
    const s = Math.min(this.scale, o.scale);
    const a = this.unscaled * 10n ** BigInt(this.scale - s);
    const b = o.unscaled * 10n ** BigInt(o.scale - s);
    return a < b ? -1 : a > b ? 1 : 0;
  }
  /** Quantity.Add (sign 1) and Sub (-1): int64Amount.Add while it does not overflow, else inf.Dec. */
  add(o: Quantity, sign: 1n | -1n): Quantity {
    if (!this.dec && !o.dec) {
      // int64Amount.Sub adds {-value, scale} (Go's negation wraps at the minimum)
      const b = sign === 1n ? o.unscaled : BigInt.asIntN(64, -o.unscaled);
      const r = int64AmountAdd(this.unscaled, this.scale, b, o.scale);
      if (r !== undefined) return new Quantity(r.value, r.scale);
    }
    const s = Math.min(this.scale, o.scale);
    return new Quantity(this.unscaled * 10n ** BigInt(this.scale - s) + sign * o.unscaled * 10n ** BigInt(o.scale - s), s, true);
  }
  /** Quantity.AsInt64: the int64Amount's value at scale 0 or above, when it fits. */
  asInt64(): bigint | undefined {
    if (this.dec || this.scale < 0) return undefined;
    return positiveScaleInt64(this.unscaled, this.scale);
  }
  /** AsApproximateFloat64: the unscaled value as a float64 times math.Pow10(scale). */
  approximateFloat(): number {
    const base = Number(this.unscaled);
    return this.scale === 0 ? base : base * pow10(this.scale);
  }
  celEqual(o: unknown): boolean {
    return o instanceof Quantity && this.cmp(o) === 0;
  }
}

const fitsInt64 = (v: bigint): boolean => v >= INT64_MIN && v <= INT64_MAX;

/** math.Pow10: 10^n correctly rounded (0 below 1e-323, +Inf above 1e308). */
const pow10 = (n: number): number => (n < -323 ? 0 : n > 308 ? Infinity : Number(`1e${n}`));

/** positiveScaleInt64: base × 10^scale, or undefined on overflow. */
function positiveScaleInt64(base: bigint, scale: number): bigint | undefined {
  const v = base * 10n ** BigInt(scale);
  return fitsInt64(v) ? v : undefined;
}

/** int64Amount.Add: the sum in the smaller scale, or undefined when it would overflow. */
function int64AmountAdd(av: bigint, as: number, bv: bigint, bs: number): { value: bigint; scale: number } | undefined {
  if (bv === 0n) return { value: av, scale: as };
  if (av === 0n) return { value: bv, scale: bs };
  let a = av;
  let b = bv;
  let scale = as;
  if (as > bs) {
    const c = positiveScaleInt64(av, as - bs);
    if (c === undefined) return undefined;
    a = c;
    scale = bs;
  } else if (bs > as) {
    const c = positiveScaleInt64(bv, bs - as);
    if (c === undefined) return undefined;
    b = c;
  }
  const sum = a + b;
  return fitsInt64(sum) ? { value: sum, scale } : undefined;
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
  void value;
  // the int64Amount fast path of ParseQuantity: enough precision left (so the digits fit an int64),
  // a scale of nanos or more, and no overflow of the value times the binary suffix
  const precision =
    base === 10 ? 18 - (num.length + denom.length) : denom.length === 0 ? 15 - num.length - Math.trunc((exponent * 3) / 10) - 1 : -1;
  const fastScale = (base === 10 ? exponent : 0) - denom.length;
  if (precision >= 0 && fastScale >= -9) {
    const v = base === 10 ? u : u * 2n ** BigInt(exponent);
    if (fitsInt64(v)) return new Quantity(v, fastScale);
  }
  // otherwise an inf.Dec: value (without the suffix) = u × 10^-len(denom)
  let scale = -denom.length;
  if (base === 10) scale += exponent;
  else u *= 2n ** BigInt(exponent);
  let q = new Quantity(u, scale, true);
  // rounded up (away from zero) to nanos: inf.Dec.Round(amount, 9, RoundUp) sets the scale to nanos
  if (u !== 0n) {
    if (q.scale < -9) {
      const d = 10n ** BigInt(-9 - q.scale);
      const mag = u < 0n ? -u : u;
      let r = mag / d;
      if (mag % d !== 0n) r += 1n;
      q = new Quantity(u < 0n ? -r : r, -9, true);
    } else q = new Quantity(u * 10n ** BigInt(q.scale + 9), -9, true);
  }
  if (base === 2 && q.cmp(new Quantity(INT64_MAX, 0)) > 0) q = new Quantity(INT64_MAX * 10n ** 9n, -9, true);
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
  // NewQuantity(int64, DecimalExponent): an int64Amount of scale 0
  env.registerFunction('k8s.Quantity.add(int): k8s.Quantity', (a: Quantity, b: bigint) => a.add(new Quantity(b, 0), 1n));
  env.registerFunction('k8s.Quantity.sub(k8s.Quantity): k8s.Quantity', (a: Quantity, b: Quantity) => a.add(b, -1n));
  env.registerFunction('k8s.Quantity.sub(int): k8s.Quantity', (a: Quantity, b: bigint) => a.add(new Quantity(b, 0), -1n));
  env.registerFunction('k8s.Quantity.isInteger(): bool', (q: Quantity) => q.asInt64() !== undefined);
  env.registerFunction('k8s.Quantity.asInteger(): int', (q: Quantity) => {
    const v = q.asInt64();
    if (v === undefined) throw new CelGoError('cannot convert value to integer');
    return v;
  });
  env.registerFunction('k8s.Quantity.asApproximateFloat(): double', (q: Quantity) => q.approximateFloat());
}
