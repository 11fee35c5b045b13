/**
 * The Kubernetes semver library (apiserver pkg/cel/library/semverlib.go, version 1 as the 1.36
 * base environment has it) over blang/semver v4's Parse: semver, isSemver (both with the
 * `normalize` flag), major, minor, patch, isGreaterThan, isLessThan, compareTo, and equality
 * (Compare == 0: build metadata ignored). Parse errors carry blang/semver's and strconv's texts.
 */
import { quote } from '../../../go/quote.js';
import { GO_TYPE, type GoTypeNames } from './classes.js';
import { CelGoError } from './ops.js';
import type { LibEnv } from './types.js';

type Pre = { num: bigint } | { str: string };

export class SemverValue {
  get [GO_TYPE](): GoTypeNames {
    return { name: 'kubernetes.Semver', go: 'cel.Semver' };
  }

  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: readonly Pre[],
  ) {}
  celEqual(o: unknown): boolean {
    return o instanceof SemverValue && compare(this, o) === 0;
  }
}

const NUMBERS = /^[0-9]*$/;
const ALPHANUM = /^[0-9A-Za-z-]*$/;
const UINT64_MAX = 2n ** 64n - 1n;
const leadingZero = (s: string): boolean => s.length > 1 && s[0] === '0';

/** strconv.ParseUint(s, 10, 64) of a string of digits. */
function parseUint(s: string): bigint {
  if (s === '') throw new CelGoError(`strconv.ParseUint: parsing ${quote(s)}: invalid syntax`);
  const n = BigInt(s);
  if (n > UINT64_MAX) throw new CelGoError(`strconv.ParseUint: parsing ${quote(s)}: value out of range`);
  return n;
}

function number(s: string, what: string): bigint {
  if (!NUMBERS.test(s)) throw new CelGoError(`Invalid character(s) found in ${what} number ${quote(s)}`);
  if (leadingZero(s)) throw new CelGoError(`${what[0]!.toUpperCase()}${what.slice(1)} number must not contain leading zeroes ${quote(s)}`);
  return parseUint(s);
}

/** semver.Parse (throws CelGoError with its text). */
function parse(s: string): SemverValue {
  if (s.length === 0) throw new CelGoError('Version string empty');
  const parts = splitN(s, '.', 3);
  if (parts.length !== 3) throw new CelGoError('No Major.Minor.Patch elements found');
  const major = number(parts[0]!, 'major');
  const minor = number(parts[1]!, 'minor');
  let patchStr = parts[2]!;
  let build: string[] = [];
  let pre: string[] = [];
  const b = patchStr.indexOf('+');
  if (b !== -1) {
    build = patchStr.slice(b + 1).split('.');
    patchStr = patchStr.slice(0, b);
  }
  const p = patchStr.indexOf('-');
  if (p !== -1) {
    pre = patchStr.slice(p + 1).split('.');
    patchStr = patchStr.slice(0, p);
  }
  const patch = number(patchStr, 'patch');
  const prs: Pre[] = [];
  for (const x of pre) {
    if (x.length === 0) throw new CelGoError('Prerelease is empty');
    if (NUMBERS.test(x)) {
      if (leadingZero(x)) throw new CelGoError(`Numeric PreRelease version must not contain leading zeroes ${quote(x)}`);
      prs.push({ num: parseUint(x) });
    } else if (ALPHANUM.test(x)) prs.push({ str: x });
    else throw new CelGoError(`Invalid character(s) found in prerelease ${quote(x)}`);
  }
  for (const x of build) {
    if (x.length === 0) throw new CelGoError('Build meta data is empty');
    if (!ALPHANUM.test(x)) throw new CelGoError(`Invalid character(s) found in build meta data ${quote(x)}`);
  }
  return new SemverValue(major, minor, patch, prs);
}

/** strings.SplitN */
function splitN(s: string, sep: string, n: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (out.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + sep.length);
  }
  out.push(rest);
  return out;
}

/** normalizeAndParse: a leading v dropped, leading zeros trimmed, missing minor and patch filled. */
function normalizeAndParse(str: string): SemverValue {
  const s = str.startsWith('v') ? str.slice(1) : str;
  const parts = splitN(s, '.', 3).map((p) => {
    // len(p) > 1 in Go counts bytes: a single character of 2 to 4 UTF-8 bytes gets the 0 too
    if (Buffer.byteLength(p, 'utf8') <= 1) return p;
    const t = p.replace(/^0+/, '');
    return t.length === 0 || !/^[0-9]/.test(t) ? `0${t}` : t;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1]!)) throw new CelGoError('short version cannot contain PreRelease/Build meta data');
    while (parts.length < 3) parts.push('0');
  }
  return parse(parts.join('.'));
}

const sign = (a: bigint, b: bigint): number => (a > b ? 1 : a < b ? -1 : 0);

/** Version.Compare */
function compare(v: SemverValue, o: SemverValue): number {
  const c = sign(v.major, o.major) || sign(v.minor, o.minor) || sign(v.patch, o.patch);
  if (c !== 0) return c;
  if (v.pre.length === 0 || o.pre.length === 0) return v.pre.length === o.pre.length ? 0 : v.pre.length === 0 ? 1 : -1;
  for (let i = 0; i < v.pre.length && i < o.pre.length; i++) {
    const a = v.pre[i]!;
    const b = o.pre[i]!;
    let r: number;
    if ('num' in a) r = 'num' in b ? sign(a.num, b.num) : -1;
    else r = 'num' in b ? 1 : a.str === b.str ? 0 : a.str > b.str ? 1 : -1;
    if (r !== 0) return r;
  }
  return sign(BigInt(v.pre.length), BigInt(o.pre.length));
}

const ok = (f: () => unknown): boolean => {
  try {
    f();
    return true;
  } catch (e) {
    if (e instanceof CelGoError) return false;
    throw e;
  }
};

/** types.Int of a uint64 (wraps as Go's conversion does). */
const int = (n: bigint): bigint => BigInt.asIntN(64, n);

export function registerSemver(env: LibEnv & { registerType(name: string, ctor: unknown): unknown }): void {
  env.registerType('kubernetes.Semver', SemverValue);
  env.registerFunction('semver(string): kubernetes.Semver', (s: string) => parse(s));
  env.registerFunction('semver(string, bool): kubernetes.Semver', (s: string, n: boolean) => (n ? normalizeAndParse(s) : parse(s)));
  env.registerFunction('isSemver(string): bool', (s: string) => ok(() => parse(s)));
  env.registerFunction('isSemver(string, bool): bool', (s: string, n: boolean) => ok(() => (n ? normalizeAndParse(s) : parse(s))));
  env.registerFunction('kubernetes.Semver.major(): int', (v: SemverValue) => int(v.major));
  env.registerFunction('kubernetes.Semver.minor(): int', (v: SemverValue) => int(v.minor));
  env.registerFunction('kubernetes.Semver.patch(): int', (v: SemverValue) => int(v.patch));
  env.registerFunction('kubernetes.Semver.isGreaterThan(kubernetes.Semver): bool', (a: SemverValue, b: SemverValue) => compare(a, b) === 1);
  env.registerFunction('kubernetes.Semver.isLessThan(kubernetes.Semver): bool', (a: SemverValue, b: SemverValue) => compare(a, b) === -1);
  env.registerFunction('kubernetes.Semver.compareTo(kubernetes.Semver): int', (a: SemverValue, b: SemverValue) => BigInt(compare(a, b)));
}
