/**
 * strfmt's base64 and date-time patterns run as JavaScript regular expressions (formats/index.ts):
 * they must match exactly the strings Go's regexp (re2js here) matches, with the same groups, on
 * strings made of the characters the patterns care about and of those they do not (a line break, a
 * non-ASCII letter, a character outside the BMP, a lone surrogate).
 */
import { describe, expect, it } from 'vitest';
import { compileRegex } from '../../src/go/regexp.js';
import { BASE64_PATTERN, BASE64_RE, checkFormat, DATETIME_PATTERN, DATETIME_RE } from '../../src/schema/formats/index.js';
import { rng } from '../helpers/rng.js';


function strings(alphabet: readonly string[], seeds: readonly string[], n: number, seed: number): string[] {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const out = [...seeds];
  for (let i = 0; i < n; i++) {
    // a valid seed mutated a few times, or random characters
    let s = r() < 0.6 ? pick(seeds) : Array.from({ length: Math.floor(r() * 14) }, () => pick(alphabet)).join('');
    for (let k = Math.floor(r() * 3); k > 0; k--) {
      const at = Math.floor(r() * (s.length + 1));
      const op = r();
      s = op < 0.4 ? s.slice(0, at) + pick(alphabet) + s.slice(at + 1) : op < 0.7 ? s.slice(0, at) + pick(alphabet) + s.slice(at) : s.slice(0, at) + s.slice(at + 1);
    }
    out.push(s);
  }
  return out;
}

function re2(pattern: string, groups: number): (s: string) => string[] | null {
  const c = compileRegex(pattern);
  if (!c.ok) throw new Error(c.message);
  return (s) => {
    const m = c.re.matcher(s);
    return m.find() ? Array.from({ length: groups }, (_, g) => m.group(g + 1) ?? '') : null;
  };
}

const ODD = ['\n', '\r', 'é', '\u{1d7d8}', '\ud800', ' ', '\u2028'];

describe('strfmt patterns as JavaScript regular expressions', () => {
  it('date-time: the same matches and groups as re2js', () => {
    const go = re2(DATETIME_PATTERN, 3);
    const alphabet = ['0', '1', '2', '5', '9', ':', '.', ',', 'z', '+', '-', 'x', ...ODD];
    const seeds = ['12:00:00z', '23:59:59.123456789z', '00:00:00+01:00', '12:00:00-07:30', '12:00:00.5+01:00', '12:00:00é5z', '12:00:00\u{1d7d8}5z', '12:00:00\n5z'];
    const cases = strings(alphabet, seeds, 20_000, 1);
    let matched = 0;
    for (const s of cases) {
      const m = DATETIME_RE.exec(s);
      const js = m === null ? null : [m[1]!, m[2]!, m[3]!];
      expect(js, JSON.stringify(s)).toEqual(go(s));
      if (js !== null) matched++;
    }
    // both sides of the verdict are well represented
    expect(matched).toBeGreaterThan(2000);
    expect(cases.length - matched).toBeGreaterThan(2000);
  });

  it('base64: the same matches as re2js', () => {
    const go = re2(BASE64_PATTERN, 0);
    const alphabet = ['A', 'z', '0', '9', '+', '/', '=', '-', '_', ...ODD];
    const seeds = ['YWJj', 'YWI=', 'YQ==', 'YWJjZA==', '/w==', '+/+/', ''];
    const cases = strings(alphabet, seeds, 20_000, 2);
    let matched = 0;
    for (const s of cases) {
      const js = BASE64_RE.test(s);
      expect(js, JSON.stringify(s)).toBe(go(s) !== null);
      if (js) matched++;
    }
    expect(matched).toBeGreaterThan(2000);
    expect(cases.length - matched).toBeGreaterThan(2000);
  });
});

// answers recorded from kube-openapi's strfmt.IsDateTime (d427ff9ee9ad, the module 1.37 builds with)
describe('date-time as strfmt.IsDateTime reads it', () => {
  it.each([
    ['2020-01-01T12:00:00Z', true],
    ['2020-01-01t12:00:00.5+01:00', true],
    ['2020-02-30T12:00:00Z', false],
    ['2020-01-01T24:00:00Z', false],
    // strings.ToLower maps U+0130 to one `i`, which `.` of the fraction takes
    ['2020-01-01T12:00:00\u01305Z', true],
    ['2020-01-01T12:00:00\u00e95Z', true],
    ['2020-01-01T12:00:00\n5Z', false],
    ['2020-01-01T12:00:00\r5Z', true],
    ['2020-01-01T12:00:00\u20285Z', true],
  ])('%j: %s', (s, ok) => {
    expect(checkFormat('date-time', s)).toBe(ok);
  });
});
