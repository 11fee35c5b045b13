/** src/go/regexp.ts against Go's regexp.Compile and FindString (test/go/vectors.ts: how to re-record). */
import { describe, expect, it } from 'vitest';
import { compileRegex } from '../../src/go/regexp.js';
import { vectors } from './vectors.js';

describe('regexp.Compile', () => {
  it('has recorded cases', () => expect(vectors.regexp.length).toBeGreaterThan(20));
  it.each(vectors.regexp.map((c) => [c.in, c] as const))('%j', (pattern, c) => {
    const r = compileRegex(pattern);
    if (c.error !== undefined) {
      expect(r).toEqual({ ok: false, message: c.error });
      return;
    }
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const m = r.re.matcher(c.sample ?? '');
    const want = c.find ?? '';
    expect(m.find() ? m.group() : '-1').toBe(want);
  });
});
