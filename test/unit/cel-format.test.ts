/**
 * cel-go's strings extension `format()` (version 2, ext/formatting.go) as crdx evaluates it
 * (src/schema/cel/lib/strings.ts): every clause, precision, the x/text English number rendering
 * (grouped thousands, ×10 and superscript exponents, ∞), and the runtime error texts. The expected
 * values were recorded from cel-go v0.26.0 with golang.org/x/text v0.39.0, the versions the 1.36
 * apiserver links (test/apiserver/go.mod), evaluating each expression (dyn() keeps the compile-time
 * format check out of the way).
 */
import { describe, expect, it } from 'vitest';
import { makeEnvs } from '../../src/schema/cel/env.js';
import { rewriteForEval } from '../../src/schema/cel/rewrite.js';
import { cel } from '../helpers/cel.js';

const envs = makeEnvs(cel.module);

const RECORDED: [string, 'ok' | 'err', string][] = [
  ["'%s'.format([1.5])", 'ok', '1.5'],
  ["'%s'.format([1234567.0])", 'ok', '1.234567e+06'],
  ["'%s'.format([100000.0])", 'ok', '100000'],
  ["'%s'.format([0.00001])", 'ok', '1e-05'],
  ["'%s'.format([-0.0])", 'ok', '-0'],
  ["'%s'.format([dyn(double('NaN'))])", 'ok', 'NaN'],
  ["'%s'.format([double('-Infinity')])", 'ok', '-Inf'],
  ["'%s'.format([1e21])", 'ok', '1e+21'],
  ["'%f'.format([1234567.125])", "ok", "1,234,567.125000"],
  ["'%.2f'.format([1234567.125])", "ok", "1,234,567.12"],
  ["'%.0f'.format([2.5])", "ok", "2"],
  ["'%.0f'.format([3.5])", "ok", "4"],
  ["'%.3f'.format([-0.0005])", "ok", "-0.001"],
  ["'%.3f'.format([-0.0001])", "ok", "-0.000"],
  ["'%.0f'.format([-0.4])", "ok", "-0"],
  ["'%f'.format([0.0])", "ok", "0.000000"],
  ["'%.2f'.format([999.999])", "ok", "1,000.00"],
  ["'%.1f'.format([0.05])", "ok", "0.1"],
  ["'%.1f'.format([0.15])", "ok", "0.1"],
  ["'%.1f'.format([0.25])", "ok", "0.2"],
  ["'%.10f'.format([1.0/3.0])", "ok", "0.3333333333"],
  ["'%.20f'.format([0.1])", "ok", "0.10000000000000000555"],
  ["'%f'.format([1e21])", "ok", "1,000,000,000,000,000,000,000.000000"],
  ["'%f'.format([123.456e10])", "ok", "1,234,560,000,000.000000"],
  ["'%f'.format([5e-324])", "ok", "0.000000"],
  ["'%.1f'.format([1e-7])", "ok", "0.0"],
  ["'%f'.format([dyn(-1234.5)])", "ok", "-1,234.500000"],
  ["'%f'.format([dyn('NaN')])", "ok", "NaN"],
  ["'%f'.format([dyn('Infinity')])", "ok", "∞"],
  ["'%f'.format([dyn('-Infinity')])", "ok", "-∞"],
  ["'%.2f'.format([dyn('NaN')])", "ok", "NaN"],
  ["'%e'.format([3.14])", "ok", "3.140000×10⁰⁰"],
  ["'%e'.format([1234567.125])", "ok", "1.234567×10⁰⁶"],
  ["'%e'.format([1234567.5])", "ok", "1.234568×10⁰⁶"],
  ["'%e'.format([1234568.5])", "ok", "1.234568×10⁰⁶"],
  ["'%.2e'.format([0.000123])", "ok", "1.230000×10⁻⁰⁴"],
  ["'%.0e'.format([5.0])", "ok", "5.000000×10⁰⁰"],
  ["'%.20e'.format([1.0])", "ok", "       1.000000×10⁰⁰"],
  ["'%e'.format([0.0])", "ok", "0.000000×10⁰⁰"],
  ["'%e'.format([-1e300])", "ok", "-1.000000×10³⁰⁰"],
  ["'%e'.format([1e-300])", "ok", "1.000000×10⁻³⁰⁰"],
  ["'%e'.format([5e-324])", "ok", "4.940656×10⁻³²⁴"],
  ["'%e'.format([1.7976931348623157e308])", "ok", "1.797693×10³⁰⁸"],
  ["'%e'.format([9.9999999])", "ok", "1.000000×10⁰¹"],
  ["'%e'.format([123456789012345680000.0])", "ok", "1.234568×10²⁰"],
  ["'%e'.format([dyn('NaN')])", "ok", "   NaN"],
  ["'%e'.format([dyn('-Infinity')])", "ok", "    -∞"],
  ["'%.15e'.format([dyn('NaN')])", "ok", "            NaN"],
  ["'%.1e'.format([dyn('Infinity')])", "ok", "∞"],
  ["'%x'.format([255])", "ok", "ff"],
  ["'%X'.format([-255])", "ok", "-FF"],
  ["'%x'.format(['héllo'])", "ok", "68c3a96c6c6f"],
  ["'%X'.format([b'\\xff\\x00'])", "ok", "FF00"],
  ["'%x'.format([18446744073709551615u])", "ok", "ffffffffffffffff"],
  ["'%o'.format([-8])", "ok", "-10"],
  ["'%o'.format([8u])", "ok", "10"],
  ["'%b'.format([true])", "ok", "1"],
  ["'%b'.format([false])", "ok", "0"],
  ["'%b'.format([5])", "ok", "101"],
  ["'%b'.format([-9223372036854775808])", "ok", "-1000000000000000000000000000000000000000000000000000000000000000"],
  ["'%.3d'.format([1])", "ok", "1"],
  ["'%.3x'.format([1])", "ok", "1"],
  ["'%b'.format([dyn('x')])", "err", "error during formatting: only integers and bools can be formatted as binary, was given string"],
  ["'%o'.format([dyn(1.5)])", "err", "error during formatting: octal clause can only be used on integers, was given double"],
  ["'%x'.format([dyn(1.5)])", "err", "error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given double"],
  ["'%f'.format([dyn(1)])", "err", "error during formatting: fixed-point clause can only be used on doubles, was given int"],
  ["'%e'.format([dyn('x')])", "err", "error during formatting: scientific clause can only be used on doubles, was given string"],
  ["'%d'.format([dyn(1.5)])", "err", "error during formatting: decimal clause can only be used on integers, was given double"],
  ["'%f'.format([dyn(18446744073709551615u)])", "err", "error during formatting: fixed-point clause can only be used on doubles, was given uint"],
  ["'%x'.format([dyn(null)])", "err", "error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given null_type"],
  ["'%b'.format([dyn([1])])", "err", "error during formatting: only integers and bools can be formatted as binary, was given list"],
  ["'%o %o %o'.format([7, 8, 9])", "ok", "7 10 11"],
  ["'%b %b %b'.format([7, 8, 9])", "ok", "111 1000 1001"]
];

describe('format() as cel-go 0.26 formats it', () => {
  for (const [expr, kind, want] of RECORDED) {
    it(expr, () => {
      const run = envs.libs.parse(rewriteForEval(envs.plain.parse(expr).ast));
      if (kind === 'ok') expect(run({})).toBe(want);
      else expect(() => run({})).toThrow(want);
    });
  }
});

/**
 * `%s` of lists, maps, bytes, durations and timestamps (ext/formatting.go FormatString, the same in
 * cel-go 0.26 and 0.29): recorded from the 1.37 apiserver (test/apiserver, cel-go v0.29.2) as the
 * messageExpression `'%s'.format([…])` of a failing rule.
 */
const RECORDED_S: [string, string][] = [
  ["'%s'.format([[1, 'a', 1.5, b'x', duration('1.5s'), timestamp('2024-01-01T00:00:00.5Z'), null, true, 2u]])", '[1, "a", 1.500000, b"x", duration("1.5s"), timestamp("2024-01-01T00:00:00.5Z"), null, true, 2]'],
  ["'%s'.format([{'b': 1, 'a': 2.0, 'c': 'x'}])", '{"a":2.000000, "b":1, "c":"x"}'],
  ["'%s'.format([b'hello'])", 'hello'],
  ["'%s'.format([duration('1h2m3.5s')])", '3723.5s'],
  ["'%s'.format([timestamp('2024-01-01T00:00:00.120Z')])", '2024-01-01T00:00:00.12Z'],
  ["'%s'.format([timestamp('2024-01-01T00:00:00Z')])", '2024-01-01T00:00:00Z'],
  ["'%s'.format([[double('NaN'), double('Infinity'), -0.0, 1e21, 0.0005]])", '["NaN", "+Inf", -0.000000, 1000000000000000000000.000000, 0.000500]'],
  ["'%s'.format([[[1, 2], {'k': [b'\\x00']}]])", '[[1, 2], {"k":[b"\\x00"]}]'],
  ["'%s'.format([{'\\u00e9': 1, 'z': 2, '\\U0001F600': 3, '\\uFFFD': 4, 'a\"b': 5}])", '{"a\\"b":5, "z":2, "é":1, "\uFFFD":4, "😀":3}'],
  ["'%s'.format([duration('-1.000000001s')])", '-1.000000001s'],
  ["'%s'.format([[duration('0s'), duration('100ms')]])", '[duration("0s"), duration("0.1s")]'],
  ["'%s'.format([[type(1)]])", '[int]'],
  ["'%s'.format([type(1)])", 'int'],
  ["'%s'.format([timestamp('2024-01-01T10:00:00+02:00')])", '2024-01-01T10:00:00+02:00'],
  ["'%s'.format([timestamp('2024-01-01T10:00:00+02:00') + duration('1h')])", '2024-01-01T11:00:00+02:00'],
  ["'%s'.format([timestamp('2024-01-01T10:00:00+00:00')])", '2024-01-01T10:00:00Z'],
];

describe('%s of aggregates and time values as cel-go formats them', () => {
  for (const [expr, want] of RECORDED_S) {
    it(expr, () => {
      const run = envs.libs.parse(rewriteForEval(envs.plain.parse(expr).ast));
      expect(run({})).toBe(want);
    });
  }
  // cel-js holds map literals with string keys: a key that may have been an int or a bool is refused, not guessed
  for (const expr of ["'%s'.format([{2: 'x', 1: 'y'}])", "'%s'.format([{true: 1}])"]) {
    it(`${expr} is not evaluated`, () => {
      const run = envs.libs.parse(rewriteForEval(envs.plain.parse(expr).ast));
      expect(() => run({})).toThrow(/format\(\) of a value of this type/);
    });
  }
});

describe("%e by the server's golang.org/x/text (recorded from x/text v0.19.0 and v0.23.0: message.NewPrinter(language.English).Sprintf(\"%e\", 1.0))", () => {
  it('spaces × with U+202F before 1.33, not from 1.33', async () => {
    const { evaluateExpression } = await import('../../src/schema/cel-eval.js');
    const at = (minor: number) => evaluateExpression("'%e'.format([1.0])", {}, cel, { major: 1, minor });
    expect(at(32)).toEqual({ kind: 'value', value: '1.000000\u202f×\u202f10⁰⁰' });
    expect(at(33)).toEqual({ kind: 'value', value: '1.000000×10⁰⁰' });
    expect(at(37)).toEqual({ kind: 'value', value: '1.000000×10⁰⁰' });
  });
});
