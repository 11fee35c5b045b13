/**
 * Go's strconv parsers as cel-go's string conversions call them (common/types/string.go
 * ConvertToType: int(), uint(), double(), bool() of a string): ParseInt(s, 10, 64),
 * ParseUint(s, 10, 64), ParseFloat(s, 64) and ParseBool. Each gives undefined where Go returns an
 * error (a syntax error, or a value out of range: ParseFloat's ±Inf with ErrRange is an error too).
 * Tested against test/go/go-vectors.json `strconv`.
 */

const INT_MIN = -(1n << 63n);
const INT_MAX = (1n << 63n) - 1n;
const UINT_MAX = (1n << 64n) - 1n;

/** strconv.ParseInt(s, 10, 64): an optional sign and decimal digits, no underscores (base 10 is given). */
export function parseInt10(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n < INT_MIN || n > INT_MAX ? undefined : n;
}

/** strconv.ParseUint(s, 10, 64): decimal digits only (no sign). */
export function parseUint10(s: string): bigint | undefined {
  if (!/^[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n > UINT_MAX ? undefined : n;
}

/** strconv.ParseBool. */
export function parseBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

/**
 * strconv's underscoreOK: an underscore only between digits, or between a base prefix and a digit
 * (ParseFloat skips them, then checks them with this).
 */
function underscoreOK(text: string): boolean {
  let s = text;
  let saw = '^';
  let i = 0;
  if (s.length >= 1 && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  let hex = false;
  if (s.length >= 2 && s[0] === '0' && 'box'.includes(s[1]!.toLowerCase())) {
    i = 2;
    saw = '0';
    hex = s[1]!.toLowerCase() === 'x';
  }
  for (; i < s.length; i++) {
    const c = s[i]!;
    if ((c >= '0' && c <= '9') || (hex && /[a-fA-F]/.test(c))) {
      saw = '0';
      continue;
    }
    if (c === '_') {
      if (saw !== '0') return false;
      saw = '_';
      continue;
    }
    if (saw === '_') return false;
    saw = '!';
  }
  return saw !== '_';
}

/** ParseFloat's special values: [+-]inf, [+-]infinity (any case), nan (any case, no sign). */
function special(s: string): number | undefined {
  const l = s.toLowerCase();
  if (/^[+-]?(inf|infinity)$/.test(l)) return l.startsWith('-') ? -Infinity : Infinity;
  if (l === 'nan') return NaN;
  return undefined;
}

/** M × 2^e rounded to the nearest float64 (ties to even), as atofHex rounds; undefined past the range. */
function scaleBinary(m: bigint, e: number, negative: boolean): number | undefined {
  if (m === 0n) return negative ? -0 : 0;
  const bits = m.toString(2).length;
  // the weight of the most significant bit, and the precision there (53, fewer in the subnormal range)
  const msb = bits - 1 + e;
  const precision = Math.min(53, msb + 1074 + 1);
  let q: bigint;
  let k: number;
  if (precision <= 0) {
    // below half of the smallest subnormal: 0; above it: the smallest subnormal (exactly half: even, 0)
    const half = precision === 0 && m !== 1n << BigInt(bits - 1) ? 1n : 0n;
    q = half;
    k = -1074;
  } else {
    const shift = bits - precision;
    if (shift > 0) {
      const s = BigInt(shift);
      q = m >> s;
      const rest = m - (q << s);
      const halfway = 1n << (s - 1n);
      if (rest > halfway || (rest === halfway && (q & 1n) === 1n)) q += 1n;
      k = e + shift;
    } else {
      q = m;
      k = e;
    }
  }
  // q <= 2^53 and k >= -1074 (2^k is a float64): the product is exact unless it overflows
  const v = Number(q) * 2 ** k;
  if (!Number.isFinite(v)) return undefined;
  return negative ? -v : v;
}

/**
 * strconv.ParseFloat(s, 64): decimal (with an optional exponent) or hexadecimal (0x mantissa with
 * a required p exponent), underscores between digits, the special values; undefined on a syntax
 * error or beyond the float64 range (an underflow to zero is no error).
 */
export function parseFloat64(s: string): number | undefined {
  const sp = special(s);
  if (sp !== undefined) return sp;
  if (s.includes('_') && !underscoreOK(s)) return undefined;
  const t = s.replace(/_/g, '');
  const hex = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)$/.exec(t);
  if (hex) {
    const [, sign, int = '', frac = ''] = hex;
    if (int === '' && frac === '') return undefined;
    // Go caps the exponent's magnitude while reading it; beyond that the value is 0 or out of range anyway
    const exp = Math.max(-100000, Math.min(100000, Number(hex[4])));
    return scaleBinary(BigInt(`0x${int}${frac}`), exp - 4 * frac.length, sign === '-');
  }
  if (!/^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(t)) return undefined;
  // JavaScript's Number() of a decimal literal rounds correctly, as Go does
  const v = Number(t);
  return Number.isFinite(v) ? v : undefined;
}
