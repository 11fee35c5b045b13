/**
 * The string formats the server checks (kube-openapi pkg/validation/strfmt `Default`, gated by the
 * server's version as apiextensions-apiserver pkg/apiserver/validation/formats.go does).
 */
import { DEFAULT_KUBE_VERSION } from '../../core/kube-version.js';
import { since } from '../../core/version-gates.js';
import { parseDuration } from '../../go/duration.js';
import { compileRegex, reMatch } from '../../go/regexp.js';
import { INT64_MAX } from '../../go/value.js';
import { isEmail } from './mail.js';
import { isCIDRSloppy, isMAC, parseIPSloppy, parseIPStd } from './net.js';
import { isRequestURI } from './url.js';
import { toLower, utf8Len, wellFormed } from '../../go/strings.js';

const BASE_FORMATS = [
  'bsonobjectid',
  'uri',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'cidr',
  'mac',
  'uuid',
  'uuid3',
  'uuid4',
  'uuid5',
  'isbn',
  'isbn10',
  'isbn13',
  'creditcard',
  'ssn',
  'hexcolor',
  'rgbcolor',
  'byte',
  'password',
  'date',
  'duration',
  'datetime',
];
/** Added to the supported list in 1.34 (validated from compatibility version 1.34, i.e. a 1.35 server). */
const K8S_FORMATS = ['k8sshortname', 'k8slongname'];
const BASE_SET: ReadonlySet<string> = new Set(BASE_FORMATS);
const ALL_SET: ReadonlySet<string> = new Set([...BASE_FORMATS, ...K8S_FORMATS]);

/** The normalized names of the formats registered (and kept by the post-processor) at a 1.<minor> version. */
export function formatsAt(minor: number): ReadonlySet<string> {
  return minor >= since('formats.k8s-names') ? ALL_SET : BASE_SET;
}

/** strfmt.DefaultNameNormalizer. */
export function normalizeFormat(f: string): string {
  return f.replaceAll('-', '');
}

const HOSTNAME_PATTERN =
  '^([a-zA-Z0-9\\p{S}\\p{L}]((-?[a-zA-Z0-9\\p{S}\\p{L}]{0,62})?)|([a-zA-Z0-9\\p{S}\\p{L}](([a-zA-Z0-9-\\p{S}\\p{L}]{0,61}[a-zA-Z0-9\\p{S}\\p{L}])?)(\\.)){1,}([a-zA-Z\\p{L}]){2,63})$';
const UUID_PATTERN = '(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$';
const UUID3_PATTERN = '(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$';
const UUID4_PATTERN = '(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$';
const UUID5_PATTERN = '(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$';
const CREDIT_CARD_PATTERN =
  '^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\\d{3})\\d{11})$';
const HEXCOLOR_PATTERN = '^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$';
const RGBCOLOR_PATTERN =
  '^rgb\\(\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*\\)$';
const SSN_PATTERN = '^\\d{3}[- ]?\\d{2}[- ]?\\d{4}$';
/**
 * strfmt's base64 and date-time (the time after the `t`) patterns as JavaScript regular expressions:
 * on these patterns (ASCII classes, anchors, `.` as `[^\n]` over code points, as RE2 reads it) both
 * engines match the same strings, and a JavaScript one costs nothing to build where re2js's first
 * compile costs milliseconds of a cold start (test/unit/formats-regex.test.ts compares them).
 */
export const BASE64_PATTERN = '^(?:[A-Za-z0-9+\\/]{4})*(?:[A-Za-z0-9+\\/]{2}==|[A-Za-z0-9+\\/]{3}=|[A-Za-z0-9+\\/]{4})$';
export const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/u;
export const DATETIME_PATTERN = '^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$';
export const DATETIME_RE = /^([0-9]{2}):([0-9]{2}):([0-9]{2})([^\n][0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/u;
const DURATION_PATTERN = '((\\d+)\\s*([A-Za-zµ]+))';
const SHORT_NAME_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';

export const FORMAT_CHECKS: Readonly<Record<string, (s: string) => boolean>> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: isRequestURI,
  email: isEmail,
  hostname: isHostname,
  ipv4: (s) => parseIPSloppy(s) !== undefined && s.includes('.'),
  ipv6: (s) => parseIPStd(s) && s.includes(':'),
  cidr: isCIDRSloppy,
  mac: isMAC,
  uuid: (s) => reMatch(UUID_PATTERN, s),
  uuid3: (s) => reMatch(UUID3_PATTERN, s),
  uuid4: (s) => reMatch(UUID4_PATTERN, s),
  uuid5: (s) => reMatch(UUID5_PATTERN, s),
  isbn: (s) => isISBN(s, 10) || isISBN(s, 13),
  isbn10: (s) => isISBN(s, 10),
  isbn13: (s) => isISBN(s, 13),
  creditcard: isCreditCard,
  ssn: (s) => s !== '' && utf8Len(s) === 11 && reMatch(SSN_PATTERN, s),
  hexcolor: (s) => reMatch(HEXCOLOR_PATTERN, s),
  rgbcolor: (s) => reMatch(RGBCOLOR_PATTERN, s),
  byte: (s) => BASE64_RE.test(s),
  password: () => true,
  date: isDate,
  datetime: isDateTime,
  duration: isDuration,
  k8sshortname: (s) => utf8Len(s) <= 63 && reMatch(`^${SHORT_NAME_FMT}$`, s),
  k8slongname: (s) => utf8Len(s) <= 253 && reMatch(`^${SHORT_NAME_FMT}(\\.${SHORT_NAME_FMT})*$`, s),
};

/** Whether a string passes a format as the server checks it (undefined when the format is not in its registry). */
export function checkFormat(format: string, s: string, kubeMinor = DEFAULT_KUBE_VERSION.minor): boolean | undefined {
  const name = normalizeFormat(format);
  if (!formatsAt(kubeMinor).has(name)) return undefined;
  return FORMAT_CHECKS[name]!(wellFormed(s));
}

function isHostname(s: string): boolean {
  if (!reMatch(HOSTNAME_PATTERN, s)) return false;
  if (utf8Len(s) > 255) return false;
  return s.split('.').every((p) => utf8Len(p) <= 63);
}

/** time.Parse("2006-01-02", s) succeeds. */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day >= 1 && day <= days;
}

/** strfmt.IsDateTime. */
function isDateTime(str: string): boolean {
  if (utf8Len(str) < 4) return false;
  // strings.ToLower: rune by rune (U+0130 is one `i`, where JavaScript gives two code points)
  const s = toLower(str).split('t');
  if (s.length < 2 || !isDate(s[0]!)) return false;
  const m = DATETIME_RE.exec(s[1]!);
  if (m === null) return false;
  return m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

/** strfmt's duration units: the first of each is the unit, the last also matches as a prefix ("hours"). */
const DURATION_UNITS: readonly (readonly [bigint, readonly string[]])[] = [
  [1n, ['ns', 'nano']],
  [1_000n, ['us', 'µs', 'micro']],
  [1_000_000n, ['ms', 'milli']],
  [1_000_000_000n, ['s', 'sec']],
  [60_000_000_000n, ['m', 'min']],
  [3_600_000_000_000n, ['h', 'hr', 'hour']],
  [86_400_000_000_000n, ['d', 'day']],
  [604_800_000_000_000n, ['w', 'wk', 'week']],
];

/**
 * strfmt.ParseDuration (kube-openapi pkg/validation/strfmt), what the server validates `format:
 * duration` with and binds such a string to a CEL duration by: time.ParseDuration, else the sum of
 * every "<n> <unit>" the text holds ("2d", "1 week 3 days", "90 minutes"), in nanoseconds with
 * int64's wrapping arithmetic; undefined when neither reads it (no unit known, or an n beyond int64).
 */
export function parseStrfmtDuration(s: string): bigint | undefined {
  const d = parseDuration(s);
  if (d !== undefined) return d;
  const c = compileRegex(DURATION_PATTERN);
  if (!c.ok) return undefined;
  const m = c.re.matcher(s);
  let ok = false;
  let sum = 0n;
  while (m.find()) {
    const factor = BigInt(m.group(2) ?? '0');
    if (factor > INT64_MAX) return undefined; // strconv.Atoi out of range
    const unit = (m.group(3) ?? '').toLowerCase();
    for (const [ns, variants] of DURATION_UNITS) {
      const last = variants.length - 1;
      variants.forEach((variant, i) => {
        if ((last === i && unit.startsWith(variant)) || variant === unit) {
          ok = true;
          sum = BigInt.asIntN(64, sum + BigInt.asIntN(64, factor * ns));
        }
      });
    }
  }
  return ok ? sum : undefined;
}

function isDuration(s: string): boolean {
  return parseStrfmtDuration(s) !== undefined;
}

function isISBN(str: string, version: 10 | 13): boolean {
  const sanitized = str.replace(/[\t\n\f\r -]+/g, '');
  const d = (i: number): number => sanitized.charCodeAt(i) - 48;
  if (version === 10) {
    if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(sanitized)) return false;
    let checksum = 0;
    for (let i = 0; i < 9; i++) checksum += (i + 1) * d(i);
    checksum += sanitized[9] === 'X' ? 100 : 10 * d(9);
    return checksum % 11 === 0;
  }
  if (!/^(?:[0-9]{13})$/.test(sanitized)) return false;
  let checksum = 0;
  for (let i = 0; i < 12; i++) checksum += (i % 2 === 0 ? 1 : 3) * d(i);
  return d(12) - ((10 - (checksum % 10)) % 10) === 0;
}

function isCreditCard(str: string): boolean {
  const sanitized = str.replace(/[^0-9]+/g, '');
  if (!reMatch(CREDIT_CARD_PATTERN, sanitized)) return false;
  let sum = 0;
  let shouldDouble = false;
  for (let i = sanitized.length - 1; i >= 0; i--) {
    let n = sanitized.charCodeAt(i) - 48;
    if (shouldDouble) {
      n *= 2;
      sum += n >= 10 ? (n % 10) + 1 : n;
    } else {
      sum += n;
    }
    shouldDouble = !shouldDouble;
  }
  return sum % 10 === 0;
}
