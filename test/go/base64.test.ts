/** src/go/base64.ts against Go's base64.StdEncoding.Decode (test/go/vectors.ts: how to re-record). */
import { describe, expect, it } from 'vitest';
import { base64Decode, base64ErrorOffset } from '../../src/go/base64.js';
import { vectors } from './vectors.js';

describe('base64.StdEncoding.Decode', () => {
  it('has recorded cases', () => expect(vectors.base64.length).toBeGreaterThan(20));
  it.each(vectors.base64.map((c) => [c.in, c] as const))('%j', (input, c) => {
    const at = base64ErrorOffset(input);
    expect(at === undefined ? undefined : `illegal base64 data at input byte ${at}`).toBe(c.error);
  });
});

describe('base64.URLEncoding.Decode (strfmt.Base64, CEL format: byte)', () => {
  it('has recorded cases', () => expect(vectors.base64url.length).toBeGreaterThan(10));
  it.each(vectors.base64url.map((c) => [c.in, c] as const))('%j', (input, c) => {
    const at = base64ErrorOffset(input, 'url');
    expect(at === undefined ? undefined : `illegal base64 data at input byte ${at}`).toBe(c.error);
    if (at === undefined) expect(Buffer.from(base64Decode(input, 'url')).toString('hex')).toBe(c.out ?? '');
  });
});
