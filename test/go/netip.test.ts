/** src/go/netip.ts against Go's netip.ParseAddr and ParsePrefix (test/go/vectors.ts: how to re-record). */
import { describe, expect, it } from 'vitest';
import { addrString, maskAddr, parseAddr, parsePrefix } from '../../src/go/netip.js';
import { vectors } from './vectors.js';

describe('netip.ParseAddr', () => {
  it.each(vectors.addr.map((c) => [c.in, c] as const))('%j', (input, c) => {
    const a = parseAddr(input);
    expect(a.ok ? { out: addrString(a.value) } : { error: a.error }).toEqual(c.error !== undefined ? { error: c.error } : { out: c.out });
  });
});

describe('netip.ParsePrefix', () => {
  it.each(vectors.prefix.map((c) => [c.in, c] as const))('%j', (input, c) => {
    const p = parsePrefix(input);
    const got = p.ok ? { out: `${addrString(p.value.addr)}/${p.value.bits}`, masked: `${addrString(maskAddr(p.value.addr, p.value.bits))}/${p.value.bits}` } : { error: p.error };
    expect(got).toEqual(c.error !== undefined ? { error: c.error } : { out: c.out, masked: c.masked });
  });
});
