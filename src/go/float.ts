/**
 * strconv.FormatFloat with the shortest precision (-1), in the two formats used: 'f' (plain
 * decimal) and 'g' (exponent form when the decimal exponent is < -4 or >= 6, as `1e+06`,
 * `1.5e-07`; also what fmt's %v prints for a float), for a float64 or a float32. Infinities and NaN
 * are Go's `+Inf`, `-Inf` and `NaN`.
 */

/** The shortest digits that read back as a (finite, > 0; as a float32 when bits is 32) and its decimal point position: a = 0.d1d2… × 10^dp. */
function shortestDigits(a: number, bits: 32 | 64): { digits: string; dp: number } {
  let text: string;
  if (bits === 64) text = a.toExponential();
  else {
    // toPrecision is correctly rounded: the first length that reads back is the shortest, and the closest
    let p = 1;
    while (p < 9 && Math.fround(Number(a.toPrecision(p))) !== a) p++;
    text = a.toExponential(p - 1);
  }
  const [mant = '0', exp = '0'] = text.split('e');
  return { digits: mant.replace('.', ''), dp: Number(exp) + 1 };
}

/** strconv.FormatFloat(x, fmt, -1, bits); for 32 bits, x is first rounded to a float32. */
export function formatFloat(x: number, fmt: 'f' | 'g', bits: 32 | 64 = 64): string {
  const f = bits === 32 ? Math.fround(x) : x;
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const sign = f < 0 ? '-' : '';
  const { digits, dp } = shortestDigits(Math.abs(f), bits);
  const exp = dp - 1;
  if (fmt === 'g' && (exp < -4 || exp >= 6)) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  if (dp <= 0) return `${sign}0.${'0'.repeat(-dp)}${digits}`;
  if (dp >= digits.length) return sign + digits + '0'.repeat(dp - digits.length);
  return `${sign}${digits.slice(0, dp)}.${digits.slice(dp)}`;
}

/**
 * strconv.FormatFloat(x, 'f', prec, 64) (fmt's %.Nf) for a finite x below 1e21: the exact decimal
 * value of the float64 rounded to `prec` digits, an exact half to even (Go prints 6.25 as "6.2"
 * where JavaScript's toFixed gives "6.3").
 */
export function formatFloatFixed(x: number, prec: number): string {
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const exact = Math.abs(x).toFixed(100);
  const dot = exact.indexOf('.');
  const intPart = exact.slice(0, dot);
  const frac = exact.slice(dot + 1);
  const kept = intPart + frac.slice(0, prec);
  const rest = frac.slice(prec);
  const half = rest[0] === '5' && /^0*$/.test(rest.slice(1));
  const up = rest[0]! > '5' || (rest[0] === '5' && !half) || (half && Number(kept[kept.length - 1]) % 2 === 1);
  let digits = kept;
  if (up) digits = (BigInt(kept) + 1n).toString().padStart(kept.length, '0');
  const ip = digits.slice(0, digits.length - prec) || '0';
  return sign + (prec > 0 ? `${ip}.${digits.slice(digits.length - prec)}` : ip);
}

/** The exact decimal digits of a finite x ≠ 0 (|x|): x = 0.digits × 10^dp, no trailing zeros. */
function exactDigits(x: number): { digits: string; dp: number } {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, Math.abs(x));
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const bexp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (bexp === 0) e = -1074;
  else {
    mant |= 1n << 52n;
    e = bexp - 1075;
  }
  // x = mant × 2^e
  let digits: string;
  let dp: number;
  if (e >= 0) {
    digits = (mant << BigInt(e)).toString();
    dp = digits.length;
  } else {
    // mant × 5^-e / 10^-e
    digits = (mant * 5n ** BigInt(-e)).toString();
    dp = digits.length + e;
  }
  digits = digits.replace(/0+$/, '');
  return { digits, dp };
}

/** digits rounded to n digits (n ≥ 0), an exact half to even; the carry may lengthen it (dp + 1). */
function roundDigits(digits: string, dp: number, n: number): { digits: string; dp: number } {
  if (digits.length <= n) return { digits: digits.padEnd(n, '0'), dp };
  const kept = digits.slice(0, n);
  const rest = digits.slice(n);
  const half = rest[0] === '5' && /^0*$/.test(rest.slice(1));
  const up = rest[0]! > '5' || (rest[0] === '5' && !half) || (half && n > 0 && Number(kept[n - 1]) % 2 === 1);
  if (!up) return { digits: kept, dp };
  if (n === 0) return { digits: '1', dp: dp + 1 };
  const bumped = (BigInt(kept) + 1n).toString().padStart(n, '0');
  return bumped.length > n ? { digits: bumped.slice(0, n), dp: dp + 1 } : { digits: bumped, dp };
}

/**
 * fmt's %.Nf for any finite x (strconv.FormatFloat(x, 'f', prec, 64)): the exact decimal value
 * rounded to `prec` fraction digits, an exact half to even. Returns the sign apart.
 */
export function fixedParts(x: number, prec: number): { negative: boolean; int: string; frac: string } {
  if (x === 0) return { negative: Object.is(x, -0), int: '0', frac: '0'.repeat(prec) };
  const { digits, dp } = exactDigits(x);
  // keep dp + prec digits (the integer part and prec fraction digits)
  const n = dp + prec;
  let r: { digits: string; dp: number };
  if (n < 0) r = { digits: '', dp };
  else r = roundDigits(digits, dp, n);
  // all digits as a number with prec fraction digits
  const all = r.digits.length === 0 ? '0' : r.digits + '0'.repeat(Math.max(0, r.dp + prec - r.digits.length));
  const padded = all.padStart(prec + 1, '0');
  return { negative: x < 0, int: padded.slice(0, padded.length - prec).replace(/^0+(?=\d)/, ''), frac: padded.slice(padded.length - prec) };
}

/** fmt's %.Ne for a finite x: the mantissa's digits (1 + prec) and the decimal exponent, an exact half to even. */
export function expParts(x: number, prec: number): { negative: boolean; mantissa: string; exp: number } {
  if (x === 0) return { negative: Object.is(x, -0), mantissa: '0'.repeat(prec + 1), exp: 0 };
  const { digits, dp } = exactDigits(x);
  const r = roundDigits(digits, dp, prec + 1);
  return { negative: x < 0, mantissa: r.digits, exp: r.dp - 1 };
}
