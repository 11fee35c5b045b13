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
