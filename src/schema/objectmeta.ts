/**
 * Embedded ObjectMeta/TypeMeta handling of custom resources, as the API server does it
 * (apiextensions-apiserver `pkg/apiserver/schema/objectmeta`):
 *
 *  - `coerceObjectMeta` is `CoerceWithOptions`: at every embedded resource (`x-kubernetes-embedded-resource`,
 *    and the root when `isResourceRoot`) `apiVersion`/`kind` must be strings and `metadata` is decoded into a
 *    `metav1.ObjectMeta` (Go `encoding/json` rules, case-sensitive) and re-encoded: unknown metadata fields are
 *    dropped (and reported as `<path>.metadata.<field>` when asked), a zero `creationTimestamp` disappears,
 *    timestamps are normalised to UTC RFC 3339 without fractions, empty strings/maps/lists are omitted.
 *    With `dropInvalidFields`, malformed fields are dropped instead of failing.
 *  - `validateObjectMeta` is `Validate`: `apiVersion`/`kind` Required/Invalid (group-version parsing, DNS-1035
 *    kind check) and `metav1.ObjectMeta` validation (`ValidateObjectMeta` with path-segment names).
 *
 * Upstream quirks kept on purpose:
 *  - JSON decoding errors are Go's texts (`json: cannot unmarshal number into Go struct field ObjectMeta.name of
 *    type string`); the metadata is decoded in sorted key order, the first type error wins, except that a
 *    timestamp error aborts decoding at once and wins over an earlier type error;
 *  - timestamps are parsed with Go's `time.Parse(time.RFC3339, …)`, which is lenient (one-digit hours, `,` as
 *    fraction separator, fractions of any length) and reports Go's parse error texts;
 *  - `metadata.name` is never Required (the server substitutes a fake name); a namespace is validated only when set;
 *  - owner reference and finalizer errors carry no index (`metadata.ownerReferences.uid`, `metadata.finalizers`),
 *    label and annotation errors no key (`metadata.labels`);
 *  - `Coerce` stops at the first error; Go iterates maps in random order, so which error wins between sibling
 *    fields is not deterministic on the server. Here keys are visited in sorted (code point) order.
 *
 * Manifest positions: every error's `at` points at the offending value (a JSON decoding error at the value that
 * failed inside `metadata`), missing fields at their would-be key with `atKey`.
 */
import { dns1035LabelErrors, dns1123LabelErrors } from '../crd/dns.js';
import { goCompare, goSortedKeys } from '../core/go.js';
import type { FieldError } from '../core/field-error.js';
import { OMIT } from '../core/field-error.js';
import { Loc } from '../core/path.js';
import type { JsonPath, ServerErrorType } from '../core/types.js';
import { isRecord } from '../core/types.js';

type Raw = Record<string, unknown>;

export interface CoerceObjectMetaOptions {
  /** Drop malformed apiVersion/kind and metadata fields instead of failing (the server's unknown-field pruning path). */
  readonly dropInvalidFields: boolean;
  /** Collect the unknown metadata fields (`<path>.metadata.<field>`), as reported in `unknown field` warnings. */
  readonly returnUnknownFieldPaths: boolean;
}

export interface CoerceObjectMetaResult {
  /** The coerced copy of the value (the input is never modified). Meaningless when `error` is set. */
  readonly value: unknown;
  /** The first error, like Go's single `*field.Error`. */
  readonly error?: FieldError;
  /** Unknown metadata field paths, sorted like Go's sort.Strings. */
  readonly unknownFieldPaths: string[];
}

// ---------------------------------------------------------------------------------------------------------------
// Small Go helpers

function utf8Len(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Go's string comparison: UTF-8 byte order, i.e. code point order. */
const sortedKeys = (o: Raw): string[] => goSortedKeys(o);

/** strings.ToLower: unicode.ToLower rune by rune. */
function goToLower(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s.toLowerCase();
  let out = '';
  for (const ch of s) {
    if (ch === '\u0130') {
      out += 'i';
      continue;
    }
    const l = ch.toLowerCase();
    out += [...l].length === 1 ? l : ch;
  }
  return out;
}

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function goIsPrint(ch: string): boolean {
  return ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

function deepClone(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(deepClone);
  if (isRecord(v)) {
    const out: Raw = {};
    for (const [k, x] of Object.entries(v)) out[k] = deepClone(x);
    return out;
  }
  return v;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The JSON text Go re-encodes a decoded number with (an int64 when the literal was an integer in range,
 * a float64 otherwise; the JS number stands for either). Go's float formatting switches to exponents at the
 * same thresholds as JS.
 */
function goNumberText(n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  if (Number.isInteger(n) && n >= -(2 ** 63) && n < 2 ** 63) return BigInt(n).toString();
  return String(n);
}

/** A Go int64 as a JS value: a number when exact, a bigint otherwise. */
function int64Value(n: bigint): number | bigint {
  const x = Number(n);
  return Number.isSafeInteger(x) ? x : n;
}

// ---------------------------------------------------------------------------------------------------------------
// schema.ParseGroupVersion and the name checks (k8s.io/apimachinery util/validation, api/validate/content)

/** schema.ParseGroupVersion; returns the error text or the group/version. */
export function parseGroupVersion(gv: string): { group: string; version: string } | { error: string } {
  if (gv.length === 0 || gv === '/') return { group: '', version: '' };
  const slashes = gv.split('/').length - 1;
  if (slashes === 0) return { group: '', version: gv };
  if (slashes === 1) {
    const i = gv.indexOf('/');
    return { group: gv.slice(0, i), version: gv.slice(i + 1) };
  }
  return { error: `unexpected GroupVersion string: ${gv}` };
}

function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let s = `${msg} (e.g. `;
  examples.forEach((ex, i) => {
    if (i > 0) s += ' or ';
    s += `'${ex}', `;
  });
  return `${s}regex used for validation is '${fmt}')`;
}

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);

const LABEL_KEY_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_KEY_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_RE = new RegExp(`^${LABEL_KEY_FMT}$`);
const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`;
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);

/** api/validate/content MaxLenError ("bytes"). */
const maxLenBytes = (n: number): string => `must be no more than ${n} bytes`;

/** content.IsDNS1123Subdomain (label key prefixes). */
function isDNS1123SubdomainContent(value: string): string[] {
  const errs: string[] = [];
  if (utf8Len(value) > 253) errs.push(maxLenBytes(253));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

/** content.IsLabelKey (validation.IsQualifiedName). */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...isDNS1123SubdomainContent(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a valid label key ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (utf8Len(name) > 63) errs.push(`name part ${maxLenBytes(63)}`);
  if (!LABEL_KEY_RE.test(name)) errs.push(`name part ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')}`);
  return errs;
}

/** content.IsLabelValue. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (utf8Len(value) > 63) errs.push(maxLenBytes(63));
  if (!LABEL_VALUE_RE.test(value)) errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** content.IsPathSegmentPrefix. */
function isPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  for (const c of ['/', '%']) if (name.includes(c)) errs.push(`may not contain '${c}'`);
  return errs;
}

/** content.IsPathSegmentName. */
function isPathSegmentName(name: string): string[] {
  for (const bad of ['.', '..']) if (name === bad) return [`may not be '${bad}'`];
  return isPathSegmentPrefix(name);
}

// ---------------------------------------------------------------------------------------------------------------
// time.Parse(time.RFC3339, s) and Time formatting

/** A metav1.Time: Unix seconds and nanoseconds. */
interface GoTime {
  readonly sec: number;
  readonly nsec: number;
}

const ZERO_TIME_SEC = -62135596800; // 0001-01-01T00:00:00Z
const ZERO_TIME: GoTime = { sec: ZERO_TIME_SEC, nsec: 0 };
const RFC3339 = '2006-01-02T15:04:05Z07:00';

function isZeroTime(t: GoTime): boolean {
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
function formatRFC3339(t: GoTime): string {
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

// ---------------------------------------------------------------------------------------------------------------
// metav1.ObjectMeta and its JSON decoding (sigs.k8s.io/json, case-sensitive, like utiljson.Unmarshal)

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
  /** Manifest position of the entry. */
  readonly at: JsonPath;
}

export interface ManagedFieldsEntry {
  manager: string;
  operation: string;
  apiVersion: string;
  time?: GoTime;
  fieldsType: string;
  /** The raw fieldsV1 value (any JSON; undefined = nil). */
  fieldsV1?: unknown;
  subresource: string;
}

/** A decoded metav1.ObjectMeta. Maps keep the decoding (sorted) order; undefined stands for Go's nil. */
export interface ObjectMeta {
  name: string;
  generateName: string;
  namespace: string;
  selfLink: string;
  uid: string;
  resourceVersion: string;
  generation: bigint;
  creationTimestamp: GoTime;
  deletionTimestamp?: GoTime;
  deletionGracePeriodSeconds?: bigint;
  labels?: Map<string, string>;
  annotations?: Map<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

function emptyMeta(): ObjectMeta {
  return {
    name: '',
    generateName: '',
    namespace: '',
    selfLink: '',
    uid: '',
    resourceVersion: '',
    generation: 0n,
    creationTimestamp: ZERO_TIME,
  };
}

/** A decoding error: Go's text and where the offending value sits in the manifest. */
interface DecodeError {
  readonly msg: string;
  readonly at: JsonPath;
}

/** An error returned by an Unmarshaler (metav1.Time): aborts decoding. */
class HardError {
  constructor(readonly err: DecodeError) {}
}

/** Go's decodeState: first saved type error, strict (unknown field) errors. */
interface Dec {
  readonly strict: boolean;
  saved?: DecodeError;
  readonly unknown: string[];
  readonly seen: Set<string>;
}

/** Go's errorContext: innermost struct type name and the JSON field stack. */
interface ECtx {
  readonly struct: string;
  readonly stack: readonly string[];
}

const NO_CTX: ECtx = { struct: '', stack: [] };

function kindOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number' || typeof v === 'bigint') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

function typeErrorText(valueKind: string, goType: string, ectx: ECtx): string {
  if (ectx.struct !== '' || ectx.stack.length > 0) {
    return `json: cannot unmarshal ${valueKind} into Go struct field ${ectx.struct}.${ectx.stack.join('.')} of type ${goType}`;
  }
  return `json: cannot unmarshal ${valueKind} into Go value of type ${goType}`;
}

function saveTypeError(dec: Dec, valueKind: string, goType: string, ectx: ECtx, at: JsonPath): void {
  if (dec.saved === undefined) dec.saved = { msg: typeErrorText(valueKind, goType, ectx), at };
}

function unknownField(dec: Dec, sp: string, key: string): void {
  if (!dec.strict || dec.unknown.length >= 100) return;
  const p = sp === '' ? key : `${sp}.${key}`;
  if (dec.seen.has(p)) return;
  dec.seen.add(p);
  dec.unknown.push(p);
}

/** A string (or string-kinded) target; undefined = leave as is (null or error). */
function decString(dec: Dec, v: unknown, ectx: ECtx, at: JsonPath, goType = 'string'): string | undefined {
  if (typeof v === 'string') return v;
  if (v !== null && v !== undefined) saveTypeError(dec, kindOf(v), goType, ectx, at);
  return undefined;
}

function decInt64(dec: Dec, v: unknown, ectx: ECtx, at: JsonPath): bigint | undefined {
  if (typeof v === 'number' || typeof v === 'bigint') {
    const text = goNumberText(v);
    if (/^[+-]?\d+$/.test(text)) {
      const n = BigInt(text);
      if (n >= INT64_MIN && n <= INT64_MAX) return n;
    }
    saveTypeError(dec, `number ${text}`, 'int64', ectx, at);
    return undefined;
  }
  if (v !== null && v !== undefined) saveTypeError(dec, kindOf(v), 'int64', ectx, at);
  return undefined;
}

function decBool(dec: Dec, v: unknown, ectx: ECtx, at: JsonPath): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v !== null && v !== undefined) saveTypeError(dec, kindOf(v), 'bool', ectx, at);
  return undefined;
}

/** metav1.Time.UnmarshalJSON (a non-null value). */
function decTime(v: unknown, ectx: ECtx, at: JsonPath): GoTime {
  if (typeof v !== 'string') throw new HardError({ msg: typeErrorText(kindOf(v), 'string', ectx), at });
  const t = parseTimeRFC3339(v);
  if ('error' in t) throw new HardError({ msg: t.error, at });
  return t;
}

function decStringMap(dec: Dec, v: unknown, ectx: ECtx, at: JsonPath): Map<string, string> | null | undefined {
  if (v === null || v === undefined) return null;
  if (!isRecord(v)) {
    saveTypeError(dec, kindOf(v), 'map[string]string', ectx, at);
    return undefined;
  }
  const m = new Map<string, string>();
  for (const k of sortedKeys(v)) m.set(k, decString(dec, v[k], ectx, [...at, k]) ?? '');
  return m;
}

function decStringSlice(dec: Dec, v: unknown, ectx: ECtx, at: JsonPath): string[] | null | undefined {
  if (v === null || v === undefined) return null;
  if (!Array.isArray(v)) {
    saveTypeError(dec, kindOf(v), '[]string', ectx, at);
    return undefined;
  }
  return v.map((x, i) => decString(dec, x, ectx, [...at, i]) ?? '');
}

function fieldCtx(ectx: ECtx, struct: string, name: string): ECtx {
  return { struct, stack: [...ectx.stack, name] };
}

function decSlice<T>(
  dec: Dec,
  v: unknown,
  ectx: ECtx,
  sp: string,
  at: JsonPath,
  goType: string,
  elem: (x: unknown, sp: string, at: JsonPath) => T,
): T[] | null | undefined {
  if (v === null || v === undefined) return null;
  if (!Array.isArray(v)) {
    saveTypeError(dec, kindOf(v), goType, ectx, at);
    return undefined;
  }
  return v.map((x, i) => elem(x, `${sp}[${i}]`, [...at, i]));
}

function decOwnerReference(dec: Dec, v: unknown, ectx: ECtx, sp: string, at: JsonPath): OwnerReference {
  const ref: OwnerReference = { apiVersion: '', kind: '', name: '', uid: '', at };
  if (v === null || v === undefined) return ref;
  if (!isRecord(v)) {
    saveTypeError(dec, kindOf(v), 'v1.OwnerReference', ectx, at);
    return ref;
  }
  for (const k of sortedKeys(v)) {
    const x = v[k];
    const c = fieldCtx(ectx, 'OwnerReference', k);
    const a = [...at, k];
    switch (k) {
      case 'apiVersion':
      case 'kind':
      case 'name':
        ref[k] = decString(dec, x, c, a) ?? ref[k];
        break;
      case 'uid':
        ref.uid = decString(dec, x, c, a, 'types.UID') ?? ref.uid;
        break;
      case 'controller':
      case 'blockOwnerDeletion': {
        if (x === null || x === undefined) delete ref[k];
        else ref[k] = decBool(dec, x, c, a) ?? false;
        break;
      }
      default:
        unknownField(dec, sp, k);
    }
  }
  return ref;
}

function decManagedFieldsEntry(dec: Dec, v: unknown, ectx: ECtx, sp: string, at: JsonPath): ManagedFieldsEntry {
  const e: ManagedFieldsEntry = { manager: '', operation: '', apiVersion: '', fieldsType: '', subresource: '' };
  if (v === null || v === undefined) return e;
  if (!isRecord(v)) {
    saveTypeError(dec, kindOf(v), 'v1.ManagedFieldsEntry', ectx, at);
    return e;
  }
  for (const k of sortedKeys(v)) {
    const x = v[k];
    const c = fieldCtx(ectx, 'ManagedFieldsEntry', k);
    const a = [...at, k];
    switch (k) {
      case 'manager':
      case 'apiVersion':
      case 'fieldsType':
      case 'subresource':
        e[k] = decString(dec, x, c, a) ?? e[k];
        break;
      case 'operation':
        e.operation = decString(dec, x, c, a, 'v1.ManagedFieldsOperationType') ?? e.operation;
        break;
      case 'time':
        if (x === null || x === undefined) delete e.time;
        else e.time = decTime(x, c, a);
        break;
      case 'fieldsV1':
        if (x === null || x === undefined) delete e.fieldsV1;
        else e.fieldsV1 = deepClone(x);
        break;
      default:
        unknownField(dec, sp, k);
    }
  }
  return e;
}

/** Decodes (the fields of) `v` into `meta`, like json.Unmarshal into a *metav1.ObjectMeta. May throw HardError. */
function decObjectMetaInto(dec: Dec, v: unknown, at: JsonPath, meta: ObjectMeta): void {
  if (v === null || v === undefined) return;
  if (!isRecord(v)) {
    saveTypeError(dec, kindOf(v), 'v1.ObjectMeta', NO_CTX, at);
    return;
  }
  for (const k of sortedKeys(v)) {
    const x = v[k];
    const c = fieldCtx(NO_CTX, 'ObjectMeta', k);
    const a = [...at, k];
    switch (k) {
      case 'name':
      case 'generateName':
      case 'namespace':
      case 'selfLink':
      case 'resourceVersion':
        meta[k] = decString(dec, x, c, a) ?? meta[k];
        break;
      case 'uid':
        meta.uid = decString(dec, x, c, a, 'types.UID') ?? meta.uid;
        break;
      case 'generation':
        meta.generation = decInt64(dec, x, c, a) ?? meta.generation;
        break;
      case 'creationTimestamp':
        meta.creationTimestamp = x === null || x === undefined ? ZERO_TIME : decTime(x, c, a);
        break;
      case 'deletionTimestamp':
        if (x === null || x === undefined) delete meta.deletionTimestamp;
        else meta.deletionTimestamp = decTime(x, c, a);
        break;
      case 'deletionGracePeriodSeconds':
        if (x === null || x === undefined) delete meta.deletionGracePeriodSeconds;
        else meta.deletionGracePeriodSeconds = decInt64(dec, x, c, a) ?? 0n;
        break;
      case 'labels':
      case 'annotations': {
        const m = decStringMap(dec, x, c, a);
        if (m === null) delete meta[k];
        else if (m !== undefined) meta[k] = m;
        break;
      }
      case 'finalizers': {
        const l = decStringSlice(dec, x, c, a);
        if (l === null) delete meta.finalizers;
        else if (l !== undefined) meta.finalizers = l;
        break;
      }
      case 'ownerReferences': {
        const l = decSlice(dec, x, c, k, a, '[]v1.OwnerReference', (e, sp, ea) =>
          decOwnerReference(dec, e, c, sp, ea),
        );
        if (l === null) delete meta.ownerReferences;
        else if (l !== undefined) meta.ownerReferences = l;
        break;
      }
      case 'managedFields': {
        const l = decSlice(dec, x, c, k, a, '[]v1.ManagedFieldsEntry', (e, sp, ea) =>
          decManagedFieldsEntry(dec, e, c, sp, ea),
        );
        if (l === null) delete meta.managedFields;
        else if (l !== undefined) meta.managedFields = l;
        break;
      }
      default:
        unknownField(dec, '', k);
    }
  }
}

/** One json.Unmarshal / kjson.UnmarshalStrict of `v` into `meta`. */
function unmarshalMeta(
  v: unknown,
  at: JsonPath,
  meta: ObjectMeta,
  strict: boolean,
): { error?: DecodeError; unknown: string[] } {
  const dec: Dec = { strict, unknown: [], seen: new Set() };
  try {
    decObjectMetaInto(dec, v, at, meta);
  } catch (e) {
    if (e instanceof HardError) return { error: e.err, unknown: [] };
    throw e;
  }
  if (dec.saved !== undefined) return { error: dec.saved, unknown: [] };
  return { unknown: dec.unknown };
}

/** Go's %T of a decoded JSON value. */
function goTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'bigint') return 'int64';
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 2 ** 63 ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  return 'map[string]interface {}';
}

interface GetObjectMetaResult {
  readonly meta?: ObjectMeta;
  readonly found: boolean;
  readonly unknown: string[];
  readonly error?: DecodeError;
}

/**
 * objectmeta.GetObjectMetaWithOptions: decodes obj.metadata; with `drop`, field by field, dropping the fields
 * that fail. `parent` is the embedded resource's location (unknown paths are `<parent>.metadata.<field>`).
 */
export function getObjectMeta(
  obj: Raw,
  parent: Loc,
  opts: { readonly drop: boolean; readonly unknown: boolean },
): GetObjectMetaResult {
  if (!Object.prototype.hasOwnProperty.call(obj, 'metadata')) return { found: false, unknown: [] };
  const metadata = obj['metadata'];
  const metaLoc = parent.child('metadata');
  const prefix = metaLoc.field;
  const full = emptyMeta();
  const r = unmarshalMeta(metadata, metaLoc.at, full, opts.unknown);
  if (r.error === undefined) {
    return { meta: full, found: true, unknown: r.unknown.map((p) => `${prefix}.${p}`) };
  }
  if (!opts.drop) return { found: true, unknown: [], error: r.error };
  if (!isRecord(metadata)) {
    return {
      found: false,
      unknown: [],
      error: { msg: `invalid metadata: expected object, got ${goTypeName(metadata)}`, at: metaLoc.at },
    };
  }
  const acc = emptyMeta();
  const unknown: string[] = [];
  for (const k of sortedKeys(metadata)) {
    const single = { [k]: metadata[k] };
    if (unmarshalMeta(single, metaLoc.at, emptyMeta(), false).error !== undefined) continue;
    const u = unmarshalMeta(single, metaLoc.at, acc, opts.unknown);
    unknown.push(...u.unknown.map((p) => `${prefix}.${p}`));
  }
  return { meta: acc, found: true, unknown };
}

function ownerRefJSON(r: OwnerReference): Raw {
  const o: Raw = { apiVersion: r.apiVersion, kind: r.kind, name: r.name, uid: r.uid };
  if (r.controller !== undefined) o['controller'] = r.controller;
  if (r.blockOwnerDeletion !== undefined) o['blockOwnerDeletion'] = r.blockOwnerDeletion;
  return o;
}

const timeValue = (t: GoTime): string | null => (isZeroTime(t) ? null : formatRFC3339(t));

/** runtime.DefaultUnstructuredConverter.ToUnstructured(objectMeta) (omitempty/omitzero honoured). */
export function objectMetaToUnstructured(m: ObjectMeta): Raw {
  const o: Raw = {};
  for (const k of ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion'] as const) {
    if (m[k] !== '') o[k] = m[k];
  }
  if (m.generation !== 0n) o['generation'] = int64Value(m.generation);
  if (!isZeroTime(m.creationTimestamp)) o['creationTimestamp'] = formatRFC3339(m.creationTimestamp);
  if (m.deletionTimestamp !== undefined) o['deletionTimestamp'] = timeValue(m.deletionTimestamp);
  if (m.deletionGracePeriodSeconds !== undefined) o['deletionGracePeriodSeconds'] = int64Value(m.deletionGracePeriodSeconds);
  for (const k of ['labels', 'annotations'] as const) {
    const mm = m[k];
    if (mm !== undefined && mm.size > 0) o[k] = Object.fromEntries(mm);
  }
  if (m.ownerReferences !== undefined && m.ownerReferences.length > 0) o['ownerReferences'] = m.ownerReferences.map(ownerRefJSON);
  if (m.finalizers !== undefined && m.finalizers.length > 0) o['finalizers'] = [...m.finalizers];
  if (m.managedFields !== undefined && m.managedFields.length > 0) {
    o['managedFields'] = m.managedFields.map((e) => {
      const x: Raw = {};
      if (e.manager !== '') x['manager'] = e.manager;
      if (e.operation !== '') x['operation'] = e.operation;
      if (e.apiVersion !== '') x['apiVersion'] = e.apiVersion;
      if (e.time !== undefined) x['time'] = timeValue(e.time);
      if (e.fieldsType !== '') x['fieldsType'] = e.fieldsType;
      if (e.fieldsV1 !== undefined) x['fieldsV1'] = deepClone(e.fieldsV1);
      if (e.subresource !== '') x['subresource'] = e.subresource;
      return x;
    });
  }
  return o;
}

// ---------------------------------------------------------------------------------------------------------------
// Structural schema walking

function embedded(s: Raw): boolean {
  return s['x-kubernetes-embedded-resource'] === true;
}

function propSchema(s: Raw, k: string): Raw | undefined {
  const p = s['properties'];
  if (!isRecord(p) || !Object.prototype.hasOwnProperty.call(p, k)) return undefined;
  const v = p[k];
  return isRecord(v) ? v : {};
}

/** The additionalProperties schema, null when additionalProperties is a bool (a nil Structural), undefined when absent. */
function addlSchema(s: Raw): Raw | null | undefined {
  const a = s['additionalProperties'];
  if (isRecord(a)) return a;
  if (typeof a === 'boolean') return null;
  return undefined;
}

function itemSchema(s: Raw): Raw | undefined {
  const i = s['items'];
  return isRecord(i) ? i : undefined;
}

function rootSchema(schema: Raw | undefined, isResourceRoot: boolean): Raw | undefined {
  if (!isResourceRoot) return schema;
  const s = schema ?? {};
  return embedded(s) ? s : { ...s, 'x-kubernetes-embedded-resource': true };
}

function fieldError(
  type: ServerErrorType,
  loc: Loc,
  value: unknown,
  detail: string,
  at: JsonPath = loc.at,
  atKey = false,
): FieldError {
  return atKey ? { type, field: loc.field, value, detail, at, atKey: true } : { type, field: loc.field, value, detail, at };
}

// ---------------------------------------------------------------------------------------------------------------
// Coerce

class Coercer {
  readonly unknown: string[] = [];
  constructor(readonly opts: CoerceObjectMetaOptions) {}

  /** Coerces `x` in place (x is a private copy); returns the first error. */
  coerce(loc: Loc, x: unknown, s: Raw | undefined): FieldError | undefined {
    if (s === undefined) return undefined;
    if (Array.isArray(x)) {
      const items = itemSchema(s);
      for (let i = 0; i < x.length; i++) {
        const err = this.coerce(loc.index(i), x[i], items);
        if (err !== undefined) return err;
      }
      return undefined;
    }
    if (!isRecord(x)) return undefined;
    for (const k of sortedKeys(x)) {
      const v = x[k];
      if (embedded(s)) {
        if (k === 'apiVersion' || k === 'kind') {
          if (typeof v !== 'string' && this.opts.dropInvalidFields) delete x[k];
          else if (typeof v !== 'string') return fieldError('Invalid', loc.child(k), v, 'must be a string');
        } else if (k === 'metadata') {
          const r = getObjectMeta(x, loc, { drop: this.opts.dropInvalidFields, unknown: this.opts.returnUnknownFieldPaths });
          this.unknown.push(...r.unknown);
          if (r.error !== undefined) {
            if (!this.opts.dropInvalidFields) {
              const ml = loc.child('metadata');
              return fieldError('Invalid', ml, v, r.error.msg, r.error.at);
            }
          } else if (r.found && r.meta !== undefined) {
            // SetObjectMeta; the zero creationTimestamp is already omitted (omitzero)
            x['metadata'] = objectMetaToUnstructured(r.meta);
          }
        }
      }
      const p = propSchema(s, k);
      if (p !== undefined) {
        const err = this.coerce(loc.child(k), v, p);
        if (err !== undefined) return err;
        continue;
      }
      const a = addlSchema(s);
      if (a !== undefined) {
        const err = this.coerce(loc.key(k), v, a ?? undefined);
        if (err !== undefined) return err;
      }
    }
    return undefined;
  }
}

/**
 * objectmeta.CoerceWithOptions on a copy of `value`: the coerced value, the first error and the sorted unknown
 * metadata field paths.
 */
export function coerceObjectMeta(
  loc: Loc,
  value: unknown,
  schema: Raw | undefined,
  isResourceRoot: boolean,
  opts: CoerceObjectMetaOptions,
): CoerceObjectMetaResult {
  const s = rootSchema(schema, isResourceRoot);
  const copy = deepClone(value);
  const c = new Coercer(opts);
  const error = c.coerce(loc, copy, s);
  const unknownFieldPaths = c.unknown.sort(goCompare);
  return error === undefined ? { value: copy, unknownFieldPaths } : { value: copy, error, unknownFieldPaths };
}

// ---------------------------------------------------------------------------------------------------------------
// Validate

const FIELD_MANAGER_MAX = 128;
const MAX_SUBRESOURCE = 256;
const TOTAL_ANNOTATION_SIZE = 256 * 1024;

function tooLongError(loc: Loc, max: number, at: JsonPath): FieldError {
  return fieldError('TooLong', loc, '<value omitted>', `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}`, at);
}

function validateFieldManager(manager: string, loc: Loc): FieldError[] {
  const errs: FieldError[] = [];
  if (utf8Len(manager) > FIELD_MANAGER_MAX) errs.push(tooLongError(loc, FIELD_MANAGER_MAX, loc.at));
  let pos = 0;
  for (const ch of manager) {
    if (!goIsPrint(ch)) {
      const cp = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      errs.push(fieldError('Invalid', loc, manager, `invalid character U+${cp} (at position ${pos})`));
    }
    pos += utf8Len(ch);
  }
  return errs;
}

/** Whether the manifest object `o` has key `k` (errors about absent fields point at the would-be key). */
function has(o: unknown, k: string): boolean {
  return isRecord(o) && Object.prototype.hasOwnProperty.call(o, k);
}

/** metavalidation.ValidateObjectMeta(meta, len(namespace) > 0, path-segment names, loc) on a decoded ObjectMeta. */
export function validateDecodedObjectMeta(meta: ObjectMeta, loc: Loc, raw: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const sub = (k: string): Loc => loc.child(k);
  const rawField = (k: string): unknown => (isRecord(raw) ? raw[k] : undefined);

  if (meta.generateName !== '') {
    for (const m of isPathSegmentPrefix(meta.generateName)) errs.push(fieldError('Invalid', sub('generateName'), meta.generateName, m));
  }
  const name = meta.name === '' ? 'fakename' : meta.name;
  for (const m of isPathSegmentName(name)) errs.push(fieldError('Invalid', sub('name'), name, m));

  if (meta.namespace !== '') {
    for (const m of dns1123LabelErrors(meta.namespace)) errs.push(fieldError('Invalid', sub('namespace'), meta.namespace, m));
  }
  if (meta.generation < 0n) {
    errs.push(fieldError('Invalid', sub('generation'), int64Value(meta.generation), 'must be greater than or equal to 0'));
  }

  // labels
  if (meta.labels !== undefined) {
    const ll = sub('labels');
    for (const [k, v] of meta.labels) {
      const at = [...ll.at, k];
      for (const m of isQualifiedName(k)) errs.push(fieldError('Invalid', ll, k, m, at, true));
      for (const m of isValidLabelValue(v)) errs.push(fieldError('Invalid', ll, v, m, at));
    }
  }

  // annotations
  if (meta.annotations !== undefined) {
    const al = sub('annotations');
    let total = 0;
    for (const [k, v] of meta.annotations) {
      for (const m of isQualifiedName(goToLower(k))) errs.push(fieldError('Invalid', al, k, m, [...al.at, k], true));
      total += utf8Len(k) + utf8Len(v);
    }
    if (total > TOTAL_ANNOTATION_SIZE) errs.push(tooLongError(al, TOTAL_ANNOTATION_SIZE, al.at));
  }

  // ownerReferences: errors carry no index
  if (meta.ownerReferences !== undefined) {
    const ol = sub('ownerReferences');
    const rawRefs = rawField('ownerReferences');
    let firstController = '';
    meta.ownerReferences.forEach((ref, i) => {
      const rawRef = Array.isArray(rawRefs) ? rawRefs[i] : undefined;
      const at = (k: string): [JsonPath, boolean] => [[...ref.at, k], !has(rawRef, k)];
      const child = (k: string): Loc => new Loc(`${ol.field}.${k}`, [...ref.at, k]);
      const gv = parseGroupVersion(ref.apiVersion);
      const version = 'error' in gv ? '' : gv.version;
      const group = 'error' in gv ? '' : gv.group;
      if (version === '') errs.push(fieldError('Invalid', child('apiVersion'), ref.apiVersion, 'version must not be empty', ...at('apiVersion')));
      if (ref.kind === '') errs.push(fieldError('Invalid', child('kind'), ref.kind, 'must not be empty', ...at('kind')));
      if (ref.name === '') errs.push(fieldError('Invalid', child('name'), ref.name, 'must not be empty', ...at('name')));
      if (ref.uid === '') errs.push(fieldError('Invalid', child('uid'), ref.uid, 'must not be empty', ...at('uid')));
      if (group === '' && version === 'v1' && ref.kind === 'Event') {
        errs.push(fieldError('Invalid', ol, ownerRefJSON(ref), `/v1, Kind=Event is disallowed from being an owner`, ref.at));
      }
      if (ref.controller === true) {
        const cur = `${ref.kind}/${ref.name}`;
        if (firstController !== '') {
          errs.push(
            fieldError(
              'Invalid',
              ol,
              meta.ownerReferences!.map(ownerRefJSON),
              `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${cur}`,
              ref.at,
            ),
          );
        } else {
          firstController = cur;
        }
      }
    });
  }

  // finalizers: errors carry no index
  if (meta.finalizers !== undefined) {
    const fl = sub('finalizers');
    let orphan = false;
    let foreground = false;
    meta.finalizers.forEach((f, i) => {
      for (const m of isQualifiedName(f)) errs.push(fieldError('Invalid', fl, f, m, [...fl.at, i]));
      if (f === 'orphan') orphan = true;
      if (f === 'foregroundDeletion') foreground = true;
    });
    if (orphan && foreground) {
      errs.push(fieldError('Invalid', fl, [...meta.finalizers], 'finalizer orphan and foregroundDeletion cannot be both set'));
    }
  }

  // managedFields
  if (meta.managedFields !== undefined) {
    const rawMF = rawField('managedFields');
    meta.managedFields.forEach((e, i) => {
      const el = sub('managedFields').index(i);
      const rawE = Array.isArray(rawMF) ? rawMF[i] : undefined;
      if (e.operation !== 'Apply' && e.operation !== 'Update') {
        const l = el.child('operation');
        errs.push(fieldError('Invalid', l, e.operation, 'must be `Apply` or `Update`', l.at, !has(rawE, 'operation')));
      }
      if (e.fieldsType !== '' && e.fieldsType !== 'FieldsV1') {
        errs.push(fieldError('Invalid', el.child('fieldsType'), e.fieldsType, 'must be `FieldsV1`'));
      }
      errs.push(...validateFieldManager(e.manager, el.child('manager')));
      if (utf8Len(e.subresource) > MAX_SUBRESOURCE) {
        const l = el.child('subresource');
        errs.push(tooLongError(l, MAX_SUBRESOURCE, l.at));
      }
    });
  }
  return errs;
}

function validateEmbeddedResource(loc: Loc, x: Raw): FieldError[] {
  const errs: FieldError[] = [];
  if (!has(x, 'apiVersion')) errs.push(fieldError('Required', loc.child('apiVersion'), OMIT, '', loc.child('apiVersion').at, true));
  if (!has(x, 'kind')) errs.push(fieldError('Required', loc.child('kind'), OMIT, '', loc.child('kind').at, true));
  for (const k of sortedKeys(x)) {
    const v = x[k];
    if (k === 'apiVersion') {
      const l = loc.child(k);
      if (typeof v !== 'string') errs.push(fieldError('Invalid', l, v ?? null, 'must be a string'));
      else if (v.length === 0) errs.push(fieldError('Invalid', l, v, 'must not be empty'));
      else {
        const gv = parseGroupVersion(v);
        if ('error' in gv) errs.push(fieldError('Invalid', l, v, gv.error));
      }
    } else if (k === 'kind') {
      const l = loc.child(k);
      if (typeof v !== 'string') errs.push(fieldError('Invalid', l, v ?? null, 'must be a string'));
      else if (v.length === 0) errs.push(fieldError('Invalid', l, v, 'must not be empty'));
      else {
        const e = dns1035LabelErrors(goToLower(v));
        if (e.length > 0) errs.push(fieldError('Invalid', l, v, `may have mixed case, but should otherwise match: ${e.join(',')}`));
      }
    } else if (k === 'metadata') {
      const r = getObjectMeta(x, loc, { drop: false, unknown: false });
      const ml = loc.child('metadata');
      if (r.error !== undefined) errs.push(fieldError('Invalid', ml, v ?? null, r.error.msg, r.error.at));
      else if (r.meta !== undefined) errs.push(...validateDecodedObjectMeta(r.meta, ml, v));
    }
  }
  return errs;
}

/**
 * Whether an embedded resource can sit at or below a schema node (through properties,
 * additionalProperties and items, as validateWalk goes): below a node where none can, the walk finds
 * nothing to check. Cached per schema object.
 */
const reachesEmbeddedCache = new WeakMap<Raw, boolean>();
function reachesEmbedded(s: Raw): boolean {
  let v = reachesEmbeddedCache.get(s);
  if (v !== undefined) return v;
  reachesEmbeddedCache.set(s, true); // conservative while in progress
  v = embedded(s);
  const p = s['properties'];
  if (!v && isRecord(p)) for (const k of Object.keys(p)) if (isRecord(p[k]) && reachesEmbedded(p[k])) v = true;
  const a = addlSchema(s);
  if (!v && a) v = reachesEmbedded(a);
  const i = itemSchema(s);
  if (!v && i) v = reachesEmbedded(i);
  reachesEmbeddedCache.set(s, v);
  return v;
}

function validateWalk(loc: Loc, x: unknown, s: Raw | undefined, out: FieldError[]): void {
  if (s === undefined || !reachesEmbedded(s)) return;
  if (Array.isArray(x)) {
    const items = itemSchema(s);
    x.forEach((v, i) => validateWalk(loc.index(i), v, items, out));
    return;
  }
  if (!isRecord(x)) return;
  if (embedded(s)) out.push(...validateEmbeddedResource(loc, x));
  for (const k of sortedKeys(x)) {
    const p = propSchema(s, k);
    if (p !== undefined) {
      validateWalk(loc.child(k), x[k], p, out);
      continue;
    }
    const a = addlSchema(s);
    if (a !== undefined) validateWalk(loc.key(k), x[k], a ?? undefined, out);
  }
}

/**
 * objectmeta.Validate: TypeMeta and ObjectMeta checks of every embedded resource reachable through the schema
 * (and of the root when `isResourceRoot`).
 */
export function validateObjectMeta(
  loc: Loc,
  value: unknown,
  schema: Raw | undefined,
  isResourceRoot: boolean,
): FieldError[] {
  const out: FieldError[] = [];
  validateWalk(loc, value, rootSchema(schema, isResourceRoot), out);
  return out;
}
