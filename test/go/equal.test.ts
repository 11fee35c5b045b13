/** src/go/equal.ts against Go's reflect.DeepEqual on decoded JSON (test/go/vectors.ts: how to re-record). */
import { describe, expect, it } from 'vitest';
import { deepEqual } from '../../src/go/equal.js';
import { decodeJSON, vectors } from './vectors.js';

describe('reflect.DeepEqual', () => {
  it.each(vectors.equal.map((c) => [c.a, c.b, c.equal] as const))('%s and %s: %s', (a, b, equal) => {
    expect(deepEqual(decodeJSON(a), decodeJSON(b))).toBe(equal);
    expect(deepEqual(decodeJSON(b), decodeJSON(a))).toBe(equal);
  });
});
