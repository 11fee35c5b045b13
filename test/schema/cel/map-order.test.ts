/**
 * Lists in the order of a map's entries: map(), filter() and transformList() over a map of several
 * entries (and what keeps that order: +, reverse(), distinct()) give a list whose order on the server
 * is Go's random map order. What reads such a list by position (an index within bounds, ==/!= of
 * lists of one size, join(), indexOf(), lastIndexOf(), slice(), isSorted(), format()) is not
 * evaluated; what does not (size(), in, all(), sort(), an index past the end) is. And errors inside a
 * comprehension over such a map: known when every failing element failed with the same error.
 */
import { describe, expect, it } from 'vitest';
import { evaluateExpression } from '../../../src/schema/cel-eval.js';
import { cel } from '../../helpers/cel.js';

const M = "{'a': 1, 'b': 2}";
const outcome = (text: string) => evaluateExpression(text, {}, cel);

describe('lists in a map\'s order', () => {
  it.each([
    `${M}.map(k, k)[0] == 'a'`,
    `${M}.map(k, k).join(',') != ''`,
    `${M}.transformList(k, v, k)[1] == 'b'`,
    `${M}.map(k, k) == ['a', 'b']`,
    `${M}.map(k, k) != ['a', 'b']`,
    `${M}.map(k, k).reverse()[0] == 'a'`,
    `(${M}.map(k, k) + ['c'])[0] == 'a'`,
    `${M}.map(k, k).indexOf('a') == 0`,
    `${M}.map(k, k).isSorted()`,
    `${M}.filter(k, true).slice(0, 1) == ['a']`,
    `'%s'.format([${M}.map(k, k)]) != ''`,
  ])('%s: not evaluated', (text) => {
    const o = outcome(text);
    expect(o.kind).toBe('abstain');
    expect(o.kind === 'abstain' && o.why).toMatch(/in the order of a map's entries, which the server goes through in Go's random order/);
  });

  it.each([
    [`${M}.map(k, k).all(x, x != '')`, true],
    [`${M}.map(k, k).sort()[0] == 'a'`, true],
    [`${M}.map(k, k).size() == 2`, true],
    [`'a' in ${M}.map(k, k)`, true],
    [`${M}.filter(k, k == 'a')[0] == 'a'`, true],
    [`{'a': 1}.map(k, k)[0] == 'a'`, true],
    [`[1, 2].map(x, x)[0] == 1`, true],
    [`${M}.map(k, k) == ['a']`, false],
  ])('%s: evaluated', (text, value) => {
    expect(outcome(text)).toEqual({ kind: 'value', value });
  });

  it('an index past the end fails in any order', () => {
    const o = outcome(`${M}.map(k, k)[2] == 'a'`);
    expect(o.kind).toBe('error');
  });
});

describe('errors inside a comprehension over a map of several entries', () => {
  it('the same error from every failing entry is the rule\'s, whatever the order', () => {
    expect(outcome(`${M}.all(k, int('x' + k) > 0)`)).toMatchObject({ kind: 'error', text: "type conversion error from 'string' to 'int'" });
  });
  it('an error before the comprehension, which every entry fails with too, is the rule\'s', () => {
    // cel-js's messages go on with an excerpt of the source where each failed: compared by their texts
    const self = new Map<string, unknown>([['tags', new Map([['a', 'x'], ['b', 'y']])]]);
    expect(evaluateExpression(`self.name == 'a' || self.tags.exists(k, bytes(self.name) <= b'abc')`, { self }, cel)).toMatchObject({ kind: 'error', text: 'no such key: name' });
    expect(evaluateExpression(`self.name == 'a' || ${M}.exists(k, self.name == k)`, { self }, cel)).toMatchObject({ kind: 'error', text: 'no such key: name' });
  });
  it('entries failing with different errors: which the server meets first is not known', () => {
    expect(outcome(`${M}.all(k, k == 'a' ? int('x' + k) > 0 : 1 / 0 > 0)`)).toMatchObject({ kind: 'error', text: undefined });
    // a list's order is known
    expect(outcome(`['a', 'b'].all(k, k == 'a' ? int('x' + k) > 0 : 1 / 0 > 0)`)).toMatchObject({ kind: 'error', text: "type conversion error from 'string' to 'int'" });
  });
});
