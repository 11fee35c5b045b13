/** Go's time.ParseDuration. */

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

const DURATION_UNITS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1000n],
  ['µs', 1000n],
  ['μs', 1000n],
  ['ms', 1000000n],
  ['s', 1000000000n],
  ['m', 60000000000n],
  ['h', 3600000000000n],
]);

/** time.ParseDuration (Go 1.26): the duration in nanoseconds, or undefined where Go returns an error. */
export function parseDuration(orig: string): bigint | undefined {
  let s = orig;
  const LIMIT = 2n ** 63n;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  if (s === '0') return 0n;
  if (s === '') return undefined;
  let d = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) return undefined;
    // leadingInt
    let v = 0n;
    let i = 0;
    for (; i < s.length && isDigit(s[i]); i++) {
      if (v > LIMIT / 10n) return undefined;
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > LIMIT) return undefined;
    }
    const pre = i > 0;
    s = s.slice(i);
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s !== '' && s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; j < s.length && isDigit(s[j]); j++) {
        if (overflow) continue;
        if (f > (LIMIT - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
        if (y > LIMIT) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) return undefined;
    let k = 0;
    for (; k < s.length; k++) {
      if (s[k] === '.' || isDigit(s[k])) break;
    }
    if (k === 0) return undefined;
    const unit = DURATION_UNITS.get(s.slice(0, k));
    s = s.slice(k);
    if (unit === undefined) return undefined;
    if (v > LIMIT / unit) return undefined;
    v *= unit;
    if (f > 0n) {
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > LIMIT) return undefined;
    }
    d += v;
    if (d > LIMIT) return undefined;
  }
  if (orig[0] === '-') return -d;
  return d <= LIMIT - 1n ? d : undefined;
}
