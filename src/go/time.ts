/** Go's time.Parse(time.RFC3339, s) and RFC 3339 formatting of a metav1.Time. */

/** A metav1.Time: Unix seconds and nanoseconds. */
export interface GoTime {
  readonly sec: number;
  readonly nsec: number;
}

const ZERO_TIME_SEC = -62135596800; // 0001-01-01T00:00:00Z
export const ZERO_TIME: GoTime = { sec: ZERO_TIME_SEC, nsec: 0 };
const RFC3339 = '2006-01-02T15:04:05Z07:00';

export function isZeroTime(t: GoTime): boolean {
  return t.sec === ZERO_TIME_SEC && t.nsec === 0;
}

function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

/** Days since 1970-01-01 of a proleptic Gregorian date. */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = floorDiv(y, 400);
  const yoe = y - era * 400;
  const doy = floorDiv(153 * (m + (m > 2 ? -3 : 9)) + 2, 5) + d - 1;
  const doe = yoe * 365 + floorDiv(yoe, 4) - floorDiv(yoe, 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z: number): [number, number, number] {
  z += 719468;
  const era = floorDiv(z, 146097);
  const doe = z - era * 146097;
  const yoe = floorDiv(doe - floorDiv(doe, 1460) + floorDiv(doe, 36524) - floorDiv(doe, 146096), 365);
  const doy = doe - (365 * yoe + floorDiv(yoe, 4) - floorDiv(yoe, 100));
  const mp = floorDiv(5 * doy + 2, 153);
  const d = doy - floorDiv(153 * mp + 2, 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}

function daysIn(month: number, year: number): number {
  if (month === 2) return (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 29 : 28;
  return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${s}` : s;
}

/** Time.UTC().Format(time.RFC3339). */
export function formatRFC3339(t: GoTime): string {
  const days = floorDiv(t.sec, 86400);
  const rem = t.sec - days * 86400;
  const [y, m, d] = civilFromDays(days);
  const hh = floorDiv(rem, 3600);
  const mm = floorDiv(rem % 3600, 60);
  const ss = rem % 60;
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}T${pad(hh, 2)}:${pad(mm, 2)}:${pad(ss, 2)}Z`;
}

/** Decodes one UTF-8 sequence like utf8.DecodeRune: [rune, size]; invalid bytes give [0xfffd, 1]. */
function decodeRune(b: Uint8Array, i: number): [number, number] {
  const c = b[i]!;
  if (c < 0x80) return [c, 1];
  const need = c >= 0xf0 && c < 0xf8 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
  if (need === 0 || i + need > b.length) return [0xfffd, 1];
  let r = c & (need === 2 ? 0x1f : need === 3 ? 0x0f : 0x07);
  for (let j = 1; j < need; j++) {
    const x = b[i + j]!;
    if ((x & 0xc0) !== 0x80) return [0xfffd, 1];
    r = (r << 6) | (x & 0x3f);
  }
  if ((need === 3 && (r < 0x800 || (r >= 0xd800 && r <= 0xdfff))) || (need === 4 && (r < 0x10000 || r > 0x10ffff))) {
    return [0xfffd, 1];
  }
  return [r, need];
}

/** The time package's own quote(): non-ASCII and control bytes as \xNN. */
function timeQuote(b: Uint8Array): string {
  let out = '"';
  let i = 0;
  while (i < b.length) {
    const [r, size] = decodeRune(b, i);
    if (r >= 0x80 || r < 0x20) {
      let width = size;
      if (r === 0xfffd) {
        width = 1;
        if (i + 2 < b.length && b[i] === 0xef && b[i + 1] === 0xbf && b[i + 2] === 0xbd) width = 3;
      }
      for (let j = 0; j < width; j++) out += `\\x${b[i + j]!.toString(16).padStart(2, '0')}`;
      i += width;
    } else {
      if (r === 0x22 || r === 0x5c) out += '\\';
      out += String.fromCharCode(r);
      i += 1;
    }
  }
  return `${out}"`;
}

class TimeParseError {
  constructor(
    readonly value: Uint8Array,
    readonly layoutElem: string,
    readonly valueElem: Uint8Array,
    readonly message: string,
  ) {}
  text(): string {
    if (this.message === '') {
      return `parsing time ${timeQuote(this.value)} as "${RFC3339}": cannot parse ${timeQuote(this.valueElem)} as "${this.layoutElem}"`;
    }
    return `parsing time ${timeQuote(this.value)}${this.message}`;
  }
}

const isDigitAt = (b: Uint8Array, i: number): boolean => i < b.length && b[i]! >= 0x30 && b[i]! <= 0x39;

/** time.getnum */
function getnum(b: Uint8Array, fixed: boolean): [number, Uint8Array, boolean] {
  if (!isDigitAt(b, 0)) return [0, b, false];
  if (!isDigitAt(b, 1)) {
    if (fixed) return [0, b, false];
    return [b[0]! - 0x30, b.subarray(1), true];
  }
  return [(b[0]! - 0x30) * 10 + (b[1]! - 0x30), b.subarray(2), true];
}

/**
 * time.Parse(time.RFC3339, s): the general layout parser (the RFC 3339 fast path accepts a subset of it),
 * with the layout's chunks unrolled. Returns the instant or Go's error text.
 */
export function parseTimeRFC3339(s: string): GoTime | { error: string } {
  const avalue: Uint8Array = new Uint8Array(Buffer.from(s, 'utf8'));
  let value: Uint8Array = avalue;
  const fail = (layoutElem: string, valueElem: Uint8Array, message = ''): { error: string } => ({
    error: new TimeParseError(avalue, layoutElem, valueElem, message).text(),
  });
  const skip = (prefix: string): boolean => {
    for (const ch of prefix) {
      if (value.length === 0 || value[0] !== ch.charCodeAt(0)) return false;
      value = value.subarray(1);
    }
    return true;
  };
  const range = (what: string): { error: string } => fail('', value, `: ${what} out of range`);

  // 2006
  let hold = value;
  if (value.length < 4 || !isDigitAt(value, 0)) return fail('2006', hold);
  for (let i = 0; i < 4; i++) if (!isDigitAt(value, i)) return fail('2006', hold);
  const year = Number(Buffer.from(value.subarray(0, 4)).toString('latin1'));
  value = value.subarray(4);

  const twoDigits = (layoutElem: string, prefix: string, fixed: boolean): number | { error: string } => {
    if (!skip(prefix)) return fail(prefix, value);
    hold = value;
    const [n, rest, ok] = getnum(value, fixed);
    value = rest;
    if (!ok) {
      return fail(layoutElem, hold);
    }
    return n;
  };

  const month = twoDigits('01', '-', true);
  if (typeof month !== 'number') return month;
  if (month <= 0 || month > 12) return range('month');
  const day = twoDigits('02', '-', true);
  if (typeof day !== 'number') return day;
  const hour = twoDigits('15', 'T', false);
  if (typeof hour !== 'number') return hour;
  if (hour >= 24) return range('hour');
  const min = twoDigits('04', ':', true);
  if (typeof min !== 'number') return min;
  if (min >= 60) return range('minute');
  const sec = twoDigits('05', ':', true);
  if (typeof sec !== 'number') return sec;
  if (sec >= 60) return range('second');
  let nsec = 0;
  if (value.length >= 2 && (value[0] === 0x2e || value[0] === 0x2c) && isDigitAt(value, 1)) {
    let n = 2;
    while (n < value.length && isDigitAt(value, n)) n++;
    const nbytes = Math.min(n, 10);
    nsec = Number(Buffer.from(value.subarray(1, nbytes)).toString('latin1')) * 10 ** (10 - nbytes);
    value = value.subarray(n);
  }

  // Z07:00
  hold = value;
  let zoneOffset = 0;
  if (value.length >= 1 && value[0] === 0x5a) {
    value = value.subarray(1);
  } else {
    if (value.length < 6 || value[3] !== 0x3a) return fail('Z07:00', hold);
    const sign = value[0];
    const [hr, , okH] = getnum(value.subarray(1, 3), true);
    let mm = 0;
    let ok = okH;
    if (okH) {
      const r = getnum(value.subarray(4, 6), true);
      mm = r[0];
      ok = r[2];
    }
    value = value.subarray(6);
    let rangeErr = '';
    if (hr > 24) rangeErr = 'time zone offset hour';
    if (mm > 60) rangeErr = 'time zone offset minute';
    if (rangeErr !== '') return range(rangeErr);
    if (!ok || (sign !== 0x2b && sign !== 0x2d)) return fail('Z07:00', hold);
    zoneOffset = (hr * 60 + mm) * 60 * (sign === 0x2d ? -1 : 1);
  }
  if (value.length !== 0) return fail('', value, `: extra text: ${timeQuote(value)}`);
  if (day < 1 || day > daysIn(month, year)) return range('day');
  return { sec: daysFromCivil(year, month, day) * 86400 + hour * 3600 + min * 60 + sec - zoneOffset, nsec };
}
