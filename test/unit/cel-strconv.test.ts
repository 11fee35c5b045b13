/**
 * cel-go's string conversions (types.String.ConvertToType) at run time, with Go's strconv
 * (src/go/strconv.ts): the evaluator (cel-js) parses strings its own way ('' as 0, '0b101', '1e400'
 * as +Inf, no 'T'). The same cases, and more, are replayed against a real server by the `strconv`
 * library of test/conformance/cel-libs.cases.ts; the parsers themselves are tested against Go in
 * test/go/strconv.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { NEWEST_KUBE_VERSION } from '../../src/core/kube-version.js';
import { evaluateExpression } from '../../src/schema/cel-eval.js';
import { cel } from '../helpers/cel.js';

const run = (expr: string, s: string) => evaluateExpression(expr, { s }, cel, NEWEST_KUBE_VERSION);
const fails = (to: string) => ({ kind: 'error', text: `type conversion error from 'string' to '${to}'` });

describe('string conversions at run time', () => {
  it.each([
    ['int(s)', '', fails('int')],
    ['int(s)', '0b101', fails('int')],
    ['int(s)', '0X1F', fails('int')],
    ['int(s)', '+7', { kind: 'value', value: 7n }],
    ['int(s)', '0000000000000000000000000007', { kind: 'value', value: 7n }],
    ['int(s)', '9223372036854775808', fails('int')],
    ['uint(s)', '+7', fails('uint')],
    ['uint(s)', '', fails('uint')],
    ['double(s)', '', fails('double')],
    ['double(s)', '1e400', fails('double')],
    ['double(s)', '0x10', fails('double')],
    ['double(s)', '0x1.cp2', { kind: 'value', value: 7 }],
    ['double(s)', '1_0.5', { kind: 'value', value: 10.5 }],
    ['double(s)', '-Infinity', { kind: 'value', value: -Infinity }],
    ['bool(s)', 'T', { kind: 'value', value: true }],
    ['bool(s)', 'F', { kind: 'value', value: false }],
    ['bool(s)', 'tRUE', fails('bool')],
  ])('%s of %j', (expr, s, want) => {
    expect(run(expr, s)).toMatchObject(want);
  });

  it('a uint stays a uint, a double of a number stays that number', () => {
    const u = run('uint(s) == 7u', '7');
    expect(u).toEqual({ kind: 'value', value: true });
    expect(evaluateExpression('double(x) == 2.0', { x: 2n }, cel, NEWEST_KUBE_VERSION)).toEqual({ kind: 'value', value: true });
    expect(evaluateExpression('bool(x)', { x: true }, cel, NEWEST_KUBE_VERSION)).toEqual({ kind: 'value', value: true });
  });
});
