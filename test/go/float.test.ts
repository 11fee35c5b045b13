/** src/go/float.ts and the float parts of json.ts and yaml-emit.ts against Go (test/go/vectors.ts: how to re-record). */
import { describe, expect, it } from 'vitest';
import { formatFloat } from '../../src/go/float.js';
import { jsonFloat } from '../../src/go/json.js';
import { goValue } from '../../src/go/print.js';
import { float64, vectors } from './vectors.js';

describe.each(vectors.float.map((c) => [float64(c.bits), c] as const))('%s', (x, c) => {
  it("FormatFloat(x, 'f', -1, 64)", () => expect(formatFloat(x, 'f')).toBe(c.f));
  it("FormatFloat(x, 'g', -1, 64)", () => expect(formatFloat(x, 'g')).toBe(c.g));
  it("FormatFloat(float32(x), 'g', -1, 32)", () => expect(formatFloat(x, 'g', 32)).toBe(c.g32));
  it('%v of a float64', () => {
    // a JS integer in the int64 range stands for an int64 (-0 too: kubectl sends it as 0 or -0, both int64 literals): not a float64 here
    if (Number.isInteger(x) && x >= -(2 ** 63) && x < 2 ** 63) return;
    expect(goValue(x)).toBe(c.v);
  });
  it('json.Marshal', () => expect(Number.isFinite(x) ? jsonFloat(x) : null).toBe(c.json));
});
