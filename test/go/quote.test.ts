/** src/go/quote.ts against Go (test/go/vectors.ts: how to re-record). */
import { describe, expect, it } from 'vitest';
import { errorText } from '../../src/core/field-error.js';
import { isPrint, quote } from '../../src/go/quote.js';
import { vectors } from './vectors.js';

describe('strconv.Quote', () => {
  it.each(vectors.quote.map((c) => [c.in, c.out] as const))('quote(%s) = %s', (input, out) => {
    // the input as the server holds it after decoding the JSON string (a lone surrogate reads U+FFFD)
    expect(quote(JSON.parse(input) as string)).toBe(out);
  });
});

describe('strconv.IsPrint', () => {
  it('agrees with Go on every code point', () => {
    const printable = new Uint8Array(0x110000);
    for (const [lo, hi] of vectors.printable) printable.fill(1, lo, hi + 1);
    const wrong: string[] = [];
    for (let c = 0; c < 0x110000; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue; // no Go rune: a decoded string holds U+FFFD there
      if (isPrint(String.fromCodePoint(c)) !== (printable[c] === 1)) wrong.push(c.toString(16));
    }
    expect(wrong).toEqual([]);
  });
});

describe('field errors quote their string values with strconv.Quote', () => {
  // core/field-error had its own quote that only escaped control characters
  it.each([
    ['\u00a0', 'spec.x: Invalid value: "\\u00a0": d'],
    ['a\u200bb', 'spec.x: Invalid value: "a\\u200bb": d'],
    ['\ufeff', 'spec.x: Invalid value: "\\ufeff": d'],
    ['x\ud800', 'spec.x: Invalid value: "x\ufffd": d'],
    ['é😀', 'spec.x: Invalid value: "é😀": d'],
  ])('%j', (value, text) => {
    expect(errorText({ type: 'Invalid', field: 'spec.x', value, detail: 'd', at: [] })).toBe(text);
  });
});
