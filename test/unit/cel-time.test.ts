/**
 * Timestamp accessors with a time zone (src/schema/cel/lib/time.ts): numeric offsets read as cel-go
 * reads them (minutes outside 0–59 added as they are, in 1.37 too), IANA
 * names, and cel-go's error texts. Expected values recorded from cel-go v0.26.0 (the 1.36 server's).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeEnvs } from '../../src/schema/cel/env.js';
import { rewriteForEval } from '../../src/schema/cel/rewrite.js';
import { runtime } from '../../src/schema/cel/lib/runtime.js';
import { cel } from '../helpers/cel.js';

const envs = makeEnvs(cel.module);
const run = (expr: string): unknown => envs.libs.parse(rewriteForEval(envs.plain.parse(expr).ast))({});

const RECORDED: [string, 'ok' | 'err', string][] = [
  ["timestamp('2024-03-10T07:30:45.123Z').getHours('+05:30')", "ok", "13"],
  ["timestamp('2024-03-10T07:30:45.123Z').getMinutes('+05:30')", "ok", "0"],
  ["timestamp('2024-03-10T07:30:45.123Z').getHours('-08:00')", "ok", "23"],
  ["timestamp('2024-03-10T07:30:45.123Z').getDate('-08:00')", "ok", "9"],
  ["timestamp('2024-03-10T07:30:45.123Z').getDayOfWeek('-08:00')", "ok", "6"],
  ["timestamp('2024-03-10T07:30:45.123Z').getDayOfYear('-08:00')", "ok", "68"],
  ["timestamp('2024-03-10T07:30:45.123Z').getDayOfMonth('-08:00')", "ok", "8"],
  ["timestamp('2024-03-10T07:30:45.123Z').getMonth('+14:00')", "ok", "2"],
  ["timestamp('2024-03-10T07:30:45.123Z').getFullYear('-12:00')", "ok", "2024"],
  ["timestamp('2024-03-10T07:30:45.123Z').getMilliseconds('+01:00')", "ok", "123"],
  ["timestamp('2024-03-10T07:30:45.123Z').getSeconds('+01:00')", "ok", "45"],
  ["timestamp('2024-03-10T07:30:45.123Z').getHours('America/Los_Angeles')", "ok", "23"],
  ["timestamp('2024-03-10T10:30:45.123Z').getHours('America/Los_Angeles')", "ok", "3"],
  ["timestamp('2024-07-01T00:00:00Z').getHours('Europe/Paris')", "ok", "2"],
  ["timestamp('2024-01-01T00:00:00Z').getHours('Asia/Kolkata')", "ok", "5"],
  ["timestamp('2024-01-01T00:00:00Z').getMinutes('Asia/Kolkata')", "ok", "30"],
  ["timestamp('2024-01-01T00:00:00Z').getHours('UTC')", "ok", "0"],
  ["timestamp('2024-01-01T00:00:00Z').getHours('')", "ok", "0"],
  ["timestamp('2024-01-01T00:00:00Z').getHours('Mars/Olympus')", "err", "unknown time zone Mars/Olympus"],
  ["timestamp('2024-01-01T00:00:00Z').getHours('+01:75')", "ok", "2"],
  ["timestamp('2024-01-01T00:00:00Z').getMinutes('-01:75')", "ok", "45"],
  ["timestamp('2024-01-01T00:00:00Z').getHours('+0x:00')", "err", "strconv.Atoi: parsing \"+0x\": invalid syntax"],
  ["timestamp('2024-01-01T00:00:00Z').getHours('+01:')", "err", "strconv.Atoi: parsing \"\": invalid syntax"],
  ["timestamp('2024-01-01T00:00:00Z').getHours('-00:30')", "ok", "23"],
  ["timestamp('2024-01-01T00:00:00Z').getDayOfYear('-00:30')", "ok", "364"],
  ["timestamp('2024-12-31T23:59:59Z').getDayOfYear('+01:00')", "ok", "0"],
  ["timestamp('0001-01-01T00:00:00Z').getFullYear('+01:00')", "ok", "1"],
  ["timestamp('2024-01-01T00:00:00Z').getHours('+01:-5')", "ok", "0"]

];

describe('timestamp accessors with a time zone, as cel-go 0.26', () => {
  for (const [expr, kind, want] of RECORDED) {
    it(expr, () => {
      if (kind === 'ok') expect(run(expr)).toBe(BigInt(want));
      else expect(() => run(expr)).toThrow(want);
    });
  }
});

describe('1.37 (cel-go 0.29): offset minutes outside 0-59 are still added (the stdlib path has no check; the real 1.37 server agrees)', () => {
  afterEach(() => {
    runtime.v137 = false;
  });
  it("'+01:75'", () => {
    runtime.v137 = true;
    expect(run("timestamp('2024-01-01T00:00:00Z').getHours('+01:75')")).toBe(2n);
    expect(run("timestamp('2024-01-01T00:00:00Z').getHours('+01:-5')")).toBe(0n);
  });
});

/**
 * Timestamps to the nanosecond (time.ts makeTimestamp, patchTimestampArithmetic; values.ts celEqual):
 * recorded on the 1.37 apiserver as messageExpressions over a `format: date-time` field holding
 * 1969-12-31T23:59:59.999999999Z, and literals.
 */
describe('timestamps finer than a millisecond, as cel-go keeps them', () => {
  const t = "timestamp('1969-12-31T23:59:59.999999999Z')";
  const RECORDED: [string, string][] = [
    [`'%s, %s, %d'.format([${t} + duration('1ns'), ${t} - duration('1us'), ${t}.getMilliseconds()])`, '1970-01-01T00:00:00Z, 1969-12-31T23:59:59.999998999Z, 999'],
    [`'%s'.format([${t} < timestamp('1970-01-01T00:00:00Z')])`, 'true'],
    [`'%s'.format([${t} - timestamp('1969-12-31T23:59:59Z')])`, '0.999999999s'],
    ["'%s'.format([timestamp('2024-01-01T00:00:00.000000001Z') > timestamp('2024-01-01T00:00:00Z')])", 'true'],
  ];
  for (const [expr, want] of RECORDED) {
    it(expr, () => {
      const run = envs.libs.parse(rewriteForEval(envs.plain.parse(expr).ast));
      expect(run({})).toBe(want);
    });
  }
  it('== and != see the nanoseconds', () => {
    const run = (e: string) => envs.libs.parse(rewriteForEval(envs.plain.parse(e).ast))({});
    expect(run("timestamp('2024-01-01T00:00:00.000000001Z') == timestamp('2024-01-01T00:00:00Z')")).toBe(false);
    expect(run("timestamp('2024-01-01T00:00:00.000000001Z') == timestamp('2024-01-01T00:00:00Z') + duration('1ns')")).toBe(true);
    expect(run("timestamp('2024-01-01T00:00:00.000000002Z') <= timestamp('2024-01-01T00:00:00.000000001Z')")).toBe(false);
  });
});
