/** src/go/time.ts against Go's time.Parse(time.RFC3339) and metav1.Time's formatting (test/go/vectors.ts: how to re-record). */
import { describe, expect, it } from 'vitest';
import { formatRFC3339, parseTimeRFC3339 } from '../../src/go/time.js';
import { vectors } from './vectors.js';

describe('time.Parse(time.RFC3339, s)', () => {
  it.each(vectors.time.map((c) => [c.in, c] as const))('%j', (input, c) => {
    const t = parseTimeRFC3339(input);
    if (c.error !== undefined) expect(t).toEqual({ error: c.error });
    else {
      expect(t).toEqual({ sec: c.sec ?? 0, nsec: c.nsec ?? 0 });
      if (!('error' in t)) expect(formatRFC3339(t)).toBe(c.formatted);
    }
  });
});
