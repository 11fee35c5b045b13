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
