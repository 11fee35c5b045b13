/** src/go/strings.ts against Go (test/go/vectors.ts: how to re-record). */
import { describe, expect, it } from 'vitest';
import { toLower } from '../../src/go/strings.js';
import { vectors } from './vectors.js';

describe('strings.ToLower', () => {
  it.each(vectors.toLower.map((c) => [c.in, c.out] as const))('%s -> %s', (input, out) => {
    expect(toLower(input)).toBe(out);
  });
});
