/** strconv.FormatFloat for the verbs the server's messages use. */

/** Shortest round-trip digits and decimal exponent of a finite non-zero |x|: x = 0.d1d2… × 10^dp. */
function shortestDigits(x: number): { digits: string; dp: number } {
  const [mant = '0', exp = '0'] = Math.abs(x).toExponential().split('e');
  const digits = mant.replace('.', '');
  return { digits, dp: Number(exp) + 1 };
}

/** strconv.FormatFloat(x, 'f', -1, 64). */
function formatFloatF(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : x > 0 ? '+Inf' : '-Inf';
  const { digits, dp } = shortestDigits(x);
  let s: string;
  if (dp <= 0) s = `0.${'0'.repeat(-dp)}${digits}`;
  else if (dp >= digits.length) s = digits + '0'.repeat(dp - digits.length);
  else s = `${digits.slice(0, dp)}.${digits.slice(dp)}`;
  return x < 0 ? `-${s}` : s;
}

/** fmt's %v for a float64: strconv 'g' with the shortest digits, in exponent form when exp < -4 || exp >= 6 (1e+06, 1e-05). */
export function formatFloatV(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : x > 0 ? '+Inf' : '-Inf';
  const { digits, dp } = shortestDigits(x);
  const exp = dp - 1;
  if (exp < -4 || exp >= 6) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${x < 0 ? '-' : ''}${m}e${exp < 0 ? '-' : '+'}${e}`;
  }
  return formatFloatF(x);
}
