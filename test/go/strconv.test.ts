/** src/go/strconv.ts against Go's strconv.ParseInt / ParseUint (base 10, 64 bits), ParseFloat (64) and ParseBool (test/go/vectors.ts: how to re-record). */
import { describe, expect, it } from 'vitest';
import { parseBool, parseFloat64, parseInt10, parseUint10 } from '../../src/go/strconv.js';
import { vectors } from './vectors.js';

/** A float64's bits in hex, as the Go program prints them (NaN: Go's own NaN bits). */
function bits(x: number): string {
  if (Number.isNaN(x)) return '7ff8000000000001';
  const b = Buffer.alloc(8);
  b.writeDoubleBE(x);
  return b.toString('hex');
}

describe('strconv', () => {
  it('has recorded cases', () => expect(vectors.strconv.length).toBeGreaterThan(80));
  it.each(vectors.strconv.map((c) => [c.in, c] as const))('%j', (input, c) => {
    expect(parseInt10(input)?.toString()).toBe(c.int);
    expect(parseUint10(input)?.toString()).toBe(c.uint);
    const f = parseFloat64(input);
    expect(f === undefined ? undefined : bits(f)).toBe(c.float);
    expect(parseBool(input)).toBe(c.bool);
  });
});
