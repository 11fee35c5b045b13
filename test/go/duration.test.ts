/** src/go/duration.ts against Go's time.ParseDuration (test/go/vectors.ts: how to re-record). */
import { describe, expect, it } from 'vitest';
import { parseDuration } from '../../src/go/duration.js';
import { vectors } from './vectors.js';

describe('time.ParseDuration', () => {
  it.each(vectors.duration.map((c) => [c.in, c] as const))('%j', (input, c) => {
    expect(parseDuration(input)).toBe(c.error === true ? undefined : BigInt(c.ns!));
  });
});
