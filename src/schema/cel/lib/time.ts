/**
 * The timestamp accessors with a time zone (`ts.getHours('+05:30')`, `ts.getDayOfWeek('Europe/Paris')`)
 * as cel-go evaluates them (common/types/timestamp.go timeZone): a string with a colon is a numeric
 * offset, `(+|-)HH:MM`, its two parts read with strconv.Atoi (the sign of the hours applies to the
 * minutes only through the leading '-'); any other string is a zone name for time.LoadLocation
 * (here the IANA names JavaScript's Intl knows; "" and "UTC" are UTC). Minutes outside 0–59 are
 * added as they are, in 1.37 too: cel-go 0.29's check (types/timestamp.go timeZone) is not on the
 * path the server's programs take (common/stdlib/standard.go inTimeZone has none; checked on the
 * real 1.37 server, cel-runtime-cost.conformance). The rewritten rule calls
 * `__crdx_tsget_<accessor>(ts, tz)` (rewrite.ts).
 */
import { quote } from '../../../go/quote.js';
import { CelGoError, CelUnsupported } from './ops.js';
import type { LibEnv } from './types.js';

export const TZ_ACCESSORS: ReadonlySet<string> = new Set(['getFullYear', 'getMonth', 'getDayOfMonth', 'getDate', 'getDayOfWeek', 'getDayOfYear', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds']);

/** strconv.Atoi for the short strings of an offset. */
function atoi(s: string): number {
  if (!/^[+-]?[0-9]+$/.test(s)) throw new CelGoError(`strconv.Atoi: parsing ${quote(s)}: invalid syntax`);
  if (s.replace(/^[+-]/, '').length > 15) throw new CelUnsupported('a time zone offset with this many digits');
  return Number(s);
}

interface Wall {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly ms: number;
}

function wallUTC(d: Date): Wall {
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), ms: d.getUTCMilliseconds() };
}

const formats = new Map<string, Intl.DateTimeFormat>();

function wallIn(t: Date, tz: string): Wall {
  const i = tz.indexOf(':');
  if (i >= 0) {
    const hr = atoi(tz.slice(0, i));
    const min = atoi(tz.slice(i + 1));
    const offset = tz[0] === '-' ? hr * 60 - min : hr * 60 + min;
    return wallUTC(new Date(msOf(t) + offset * 60_000));
  }
  if (tz === '' || tz === 'UTC') return wallUTC(t);
  if (tz === 'Local') throw new CelUnsupported('the time zone "Local" (the server\'s own)');
  let f = formats.get(tz);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', era: 'short' });
    } catch {
      throw new CelGoError(`unknown time zone ${tz}`);
    }
    formats.set(tz, f);
  }
  const parts = Object.fromEntries(f.formatToParts(msOf(t)).map((p) => [p.type, p.value]));
  let year = Number(parts['year']);
  if (parts['era'] === 'BC' || parts['era'] === 'B') year = 1 - year;
  return { year, month: Number(parts['month']), day: Number(parts['day']), hour: Number(parts['hour']), minute: Number(parts['minute']), second: Number(parts['second']), ms: t.getUTCMilliseconds() };
}

/** Midnight UTC of a wall date (any year, including 1–99). */
function utcDay(y: number, m: number, d: number): number {
  const x = new Date(0);
  x.setUTCFullYear(y, m - 1, d);
  return x.getTime();
}

function accessor(name: string, w: Wall): bigint {
  switch (name) {
    case 'getFullYear':
      return BigInt(w.year);
    case 'getMonth':
      return BigInt(w.month - 1);
    case 'getDate':
      return BigInt(w.day);
    case 'getDayOfMonth':
      return BigInt(w.day - 1);
    case 'getDayOfWeek':
      return BigInt(new Date(utcDay(w.year, w.month, w.day)).getUTCDay());
    case 'getDayOfYear':
      return BigInt(Math.round((utcDay(w.year, w.month, w.day) - utcDay(w.year, 1, 1)) / 86_400_000));
    case 'getHours':
      return BigInt(w.hour);
    case 'getMinutes':
      return BigInt(w.minute);
    case 'getSeconds':
      return BigInt(w.second);
    default:
      return BigInt(w.ms);
  }
}

export function registerTime(env: LibEnv): void {
  for (const name of TZ_ACCESSORS)
    env.registerFunction(`__crdx_tsget_${name}(google.protobuf.Timestamp, string): int`, (t: Date, tz: string) => {
      if (!(t instanceof Date)) throw new CelUnsupported('a timestamp accessor on a value crdx does not hold as a timestamp');
      return accessor(name, wallIn(t, tz));
    });
}

/**
 * What cel-js's Date does not hold of a timestamp crdx made (bound from a `format: date-time`
 * field, `timestamp()`, or timestamp ± duration): its zone offset (Go's time.Time keeps the
 * location it was parsed with) and its nanoseconds below the millisecond. A Date without an entry
 * was made by cel-js itself: its zone is not known.
 */
export interface TimestampMeta {
  /** Seconds east of UTC. */
  readonly offset: number;
  /** Nanoseconds below the millisecond (0 to 999,999). */
  readonly nanos: number;
}

const META = new WeakMap<Date, TimestampMeta>();

export function timestampMeta(d: Date): TimestampMeta | undefined {
  return META.get(d);
}

/** Date.prototype.getTime, for Dates whose own getTime refuses (see makeTimestamp). */
export const msOf = (d: Date): number => Date.prototype.getTime.call(d);

/** A timestamp's Unix time in nanoseconds. */
export const nanosOf = (d: Date): bigint => BigInt(msOf(d)) * 1_000_000n + BigInt(META.get(d)?.nanos ?? 0);

const MAX_NS = 8_640_000_000_000_000_000_000n;

/**
 * A timestamp at `ns` Unix nanoseconds in the zone `offset`. cel-js compares timestamps with JS's
 * `<` (ToPrimitive with the hint "number"): these Dates give their nanoseconds as a bigint there,
 * so comparisons are exact; `==` is celEqual's (values.ts), timestamp ± duration and
 * timestamp - timestamp are patched (patchTimestampArithmetic).
 */
export function makeTimestamp(ns: bigint, offset: number): Date {
  const ms = ns / 1_000_000n - (ns % 1_000_000n < 0n ? 1n : 0n);
  const nanos = Number(ns - ms * 1_000_000n);
  const d = new Date(Number(ms));
  META.set(d, { offset, nanos });
  Object.defineProperty(d, Symbol.toPrimitive, {
    value: (hint: string) => (hint === 'number' ? ns : Date.prototype.toString.call(d)),
  });
  // cel-js's timestamp - timestamp is Duration.fromMilliseconds(a.getTime() - b.getTime()): the
  // two Dates read are remembered for the patched fromMilliseconds (patchTimestampArithmetic)
  Object.defineProperty(d, 'getTime', {
    value: () => {
      read.push(d);
      if (read.length > 2) read.shift();
      return Number(ms);
    },
  });
  return d;
}

/** The timestamp of a date-time text Go parsed to `sec`/`nsec`, kept in the zone it was written with. */
export function timestampOfText(sec: number, nsec: number, text: string): Date {
  return makeTimestamp(BigInt(sec) * 1_000_000_000n + BigInt(nsec), zoneOffsetOf(text));
}

/** A Date cel-js made (timestamp(int)): UTC, milliseconds. */
export function adoptTimestamp(d: Date): Date {
  return META.has(d) ? d : makeTimestamp(BigInt(msOf(d)) * 1_000_000n, 0);
}

/** The zone offset (seconds east of UTC) an RFC 3339 text was written with: `Z`, or `±hh:mm` (0 is UTC, as Go's Local zone on the server). */
export function zoneOffsetOf(s: string): number {
  const m = /([+-])([0-9]{2}):([0-9]{2})$/.exec(s);
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60);
}

interface DurationLike {
  readonly seconds: bigint;
  readonly nanos: number;
  extendTimestamp(ts: Date): Date;
  subtractTimestamp(ts: Date): Date;
}

/**
 * Patch of cel-js's Duration (timestamp ± duration, which cel-js computes in milliseconds and in
 * UTC): the sum in nanoseconds, in the timestamp's zone (Go's Time.Add keeps the location), with
 * cel-go's range checks (years 1 to 9999; int64 nanoseconds for durations and for the difference of
 * two timestamps). Applied once per Duration class.
 */
export function patchTimestampArithmetic(Duration: { prototype: object }): void {
  const proto = Duration.prototype as DurationLike & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  const apply = (d: DurationLike, ts: Date, sign: bigint): Date => {
    const t = adoptTimestamp(ts);
    const ns = nanosOf(t) + sign * (d.seconds * 1_000_000_000n + BigInt(d.nanos));
    // cel-go's addTimeDurationChecked: the whole seconds must stay in years 1 to 9999
    const sec = floorDiv(ns, 1_000_000_000n);
    if (!inTimestampRange(sec)) throw new CelGoError('timestamp overflow');
    // (unreachable after the check above; a JS Date holds ±8.64e15 ms)
    if (ns > MAX_NS || ns < -MAX_NS) throw new CelUnsupported('a timestamp sum beyond the range of a JavaScript Date');
    return makeTimestamp(ns, META.get(t)!.offset);
  };
  proto.extendTimestamp = function (this: DurationLike, ts: Date): Date {
    return apply(this, ts, 1n);
  };
  proto.subtractTimestamp = function (this: DurationLike, ts: Date): Date {
    return apply(this, ts, -1n);
  };
  // timestamp - timestamp: the difference of the two Dates just read, in nanoseconds
  const D = Duration as unknown as { fromMilliseconds(ms: number): unknown; new (s: bigint, n: number): unknown };
  const fromMs = D.fromMilliseconds.bind(D);
  D.fromMilliseconds = (msDiff: number): unknown => {
    const [a, b] = read.splice(0, read.length);
    if (a !== undefined && b !== undefined && msOf(a) - msOf(b) === msDiff) {
      const ns = nanosOf(a) - nanosOf(b);
      // cel-go's subtractTimeChecked: whole seconds × 1e9, then the nanoseconds, in int64
      const secNs = (floorDiv(nanosOf(a), 1_000_000_000n) - floorDiv(nanosOf(b), 1_000_000_000n)) * 1_000_000_000n;
      if (!inInt64(secNs) || !inInt64(ns)) throw new CelGoError('integer overflow');
      return new D(ns / 1_000_000_000n, Number(ns % 1_000_000_000n));
    }
    if (a !== undefined && b !== undefined && (subMillisecondNanos(a) !== 0 || subMillisecondNanos(b) !== 0))
      throw new CelUnsupported('a difference of timestamps finer than a millisecond that crdx cannot pair');
    return fromMs(msDiff);
  };
  // duration ± duration: cel-go adds the int64 nanoseconds with an overflow check
  type Arith = (this: DurationLike, o: DurationLike) => DurationLike;
  const durations = proto as unknown as { addDuration: Arith; subtractDuration: Arith };
  // the sum in int64 nanoseconds, kept as crdx makes durations (seconds and nanoseconds of the same
  // sign, truncated): cel-js's addDuration carries a negative sum of nanoseconds twice
  // (-1.5s + 100ms gave -2.4s)
  const total = (d: DurationLike): bigint => d.seconds * 1_000_000_000n + BigInt(d.nanos);
  for (const [m, sign] of [['addDuration', 1n], ['subtractDuration', -1n]] as const) {
    durations[m] = function (this: DurationLike, o: DurationLike): DurationLike {
      const ns = total(this) + sign * total(o);
      if (!inInt64(ns)) throw new CelGoError('integer overflow');
      return new D(ns / 1_000_000_000n, Number(ns % 1_000_000_000n)) as DurationLike;
    };
  }
  proto[PATCHED] = true;
}

/** Unix seconds of years 1 and 9999 (cel-go's minUnixTime, maxUnixTime). */
const MIN_UNIX_SEC = -62135596800n;
const MAX_UNIX_SEC = 253402300799n;
/** Unix seconds cel-go accepts in a timestamp (years 1 to 9999; checkTimestampRange / validation). */
export const inTimestampRange = (sec: bigint): boolean => sec >= MIN_UNIX_SEC && sec <= MAX_UNIX_SEC;
const inInt64 = (n: bigint): boolean => n >= -(1n << 63n) && n < 1n << 63n;
const floorDiv = (a: bigint, b: bigint): bigint => (a % b !== 0n && a < 0n !== b < 0n ? a / b - 1n : a / b);

const PATCHED = Symbol('crdx.patched');

/** The last Dates whose getTime cel-js read (makeTimestamp). */
const read: Date[] = [];

export function subMillisecondNanos(d: Date): number {
  return META.get(d)?.nanos ?? 0;
}
