/** Go's string order (src/go/strings.ts) is the byte order of the strings' UTF-8, lone surrogates read as U+FFFD. */
import { describe, expect, it } from 'vitest';
import { goCompare, goSortedKeys } from '../../src/go/strings.js';

/** What Go compares: the UTF-8 bytes (Node encodes a lone surrogate as U+FFFD, as Go's JSON decoder reads it). */
const bytesOrder = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));

describe('goCompare', () => {
  it('orders by UTF-8 bytes, not by UTF-16 code units', () => {
    // U+FF5E sorts before U+1F600 in Go, after its surrogates in JavaScript
    expect(goCompare('\uff5e', '\u{1f600}')).toBeLessThan(0);
    expect('\uff5e' < '\u{1f600}').toBe(false);
    expect(goSortedKeys({ b: 1, a: 2, '\u{1f600}': 3, '\uff5e': 4, aa: 5, A: 6 })).toEqual(['A', 'a', 'aa', 'b', '\uff5e', '\u{1f600}']);
  });

  it('agrees with the byte order on strings of every kind of character', () => {
    const alphabet = ['a', 'b', 'Z', '0', '-', '\u00e9', '\u07ff', '\u0800', '\ud7ff', '\ue000', '\uff5e', '\uffff', '\u{10000}', '\u{1f600}', '\ud800', '\udc00'];
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const word = () => Array.from({ length: rnd(5) }, () => alphabet[rnd(alphabet.length)]).join('');
    for (let i = 0; i < 20_000; i++) {
      const a = word();
      const b = rnd(4) === 0 ? a + word() : word();
      expect(Math.sign(goCompare(a, b)), `${JSON.stringify(a)} ${JSON.stringify(b)}`).toBe(bytesOrder(a, b));
    }
  });
});
