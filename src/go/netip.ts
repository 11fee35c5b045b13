/**
 * net/netip's ParseAddr and ParsePrefix (Go 1.26) with their error texts: the Kubernetes IP and
 * CIDR CEL libraries report them verbatim. Addresses are 4 or 16 bytes; IPv4 only takes the
 * dotted-decimal form without leading zeros.
 */
import { quote } from './quote.js';

export interface Addr {
  /** 4 bytes (IPv4) or 16. */
  readonly bytes: number[];
  /** The IPv6 zone ('' when none). */
  readonly zone: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const addrError = (input: string, msg: string, at = ''): Parsed<never> => ({
  ok: false,
  error: `ParseAddr(${quote(input)}): ${msg}${at !== '' ? ` (at ${quote(at)})` : ''}`,
});

/** parseIPv4Fields over input.slice(off, end), written to out. */
function ipv4Fields(input: string, off: number, end: number, out: number[]): Parsed<never> | undefined {
  const s = input.slice(off, end);
  let val = 0;
  let pos = 0;
  let digLen = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c >= '0' && c <= '9') {
      if (digLen === 1 && val === 0) return addrError(input, 'IPv4 field has octet with leading zero');
      val = val * 10 + (c.charCodeAt(0) - 48);
      digLen++;
      if (val > 255) return addrError(input, 'IPv4 field has value >255');
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') return addrError(input, 'IPv4 field must have at least one digit', s.slice(i));
      if (pos === 3) return addrError(input, 'IPv4 address too long');
      out[pos++] = val;
      val = 0;
      digLen = 0;
    } else return addrError(input, 'unexpected character', s.slice(i));
  }
  if (pos < 3) return addrError(input, 'IPv4 address too short');
  out[3] = val;
  return undefined;
}

function hex(c: string | undefined): number {
  if (c === undefined) return -1;
  if (c >= '0' && c <= '9') return c.charCodeAt(0) - 48;
  if (c >= 'a' && c <= 'f') return c.charCodeAt(0) - 87;
  if (c >= 'A' && c <= 'F') return c.charCodeAt(0) - 55;
  return -1;
}

function parseIPv6(input: string): Parsed<Addr> {
  let s = input;
  let zone = '';
  const z = s.indexOf('%');
  if (z !== -1) {
    zone = s.slice(z + 1);
    s = s.slice(0, z);
    if (zone === '') return addrError(input, 'zone must be a non-empty string');
  }
  const ip = Array<number>(16).fill(0);
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return { ok: true, value: { bytes: ip, zone } };
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const h = hex(s[off]);
      if (h < 0) break;
      acc = acc * 16 + h;
      if (off > 3) return addrError(input, 'each group must have 4 or less digits', s);
      if (acc > 0xffff) return addrError(input, 'IPv6 field has value >=2^16', s);
    }
    if (off === 0) return addrError(input, 'each colon-separated field must have at least one digit', s);
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) return addrError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s);
      if (i + 4 > 16) return addrError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s);
      const end = input.length - (zone.length > 0 ? zone.length + 1 : 0);
      const f: number[] = [0, 0, 0, 0];
      const err = ipv4Fields(input, end - s.length, end, f);
      if (err) return err;
      ip.splice(i, 4, ...f);
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s.length === 0) break;
    if (s[0] !== ':') return addrError(input, 'unexpected character, want colon', s);
    if (s.length === 1) return addrError(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return addrError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return addrError(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) return addrError(input, 'address string too short');
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    for (let j = ellipsis; j < ellipsis + n; j++) ip[j] = 0;
  } else if (ellipsis >= 0) return addrError(input, 'the :: must expand to at least one field of zeros');
  return { ok: true, value: { bytes: ip, zone } };
}

/** netip.ParseAddr */
export function parseAddr(s: string): Parsed<Addr> {
  for (const c of s) {
    if (c === '.') {
      const f: number[] = [0, 0, 0, 0];
      const err = ipv4Fields(s, 0, s.length, f);
      return err ?? { ok: true, value: { bytes: f, zone: '' } };
    }
    if (c === ':') return parseIPv6(s);
    if (c === '%') return addrError(s, 'missing IPv6 address');
  }
  return addrError(s, 'unable to parse IP');
}

export interface Prefix {
  readonly addr: Addr;
  readonly bits: number;
}

/** netip.ParsePrefix */
export function parsePrefix(s: string): Parsed<Prefix> {
  const fail = (msg: string): Parsed<never> => ({ ok: false, error: `netip.ParsePrefix(${quote(s)}): ${msg}` });
  const i = s.lastIndexOf('/');
  if (i < 0) return fail("no '/'");
  const a = parseAddr(s.slice(0, i));
  if (!a.ok) return fail(a.error);
  if (a.value.bytes.length === 16 && a.value.zone !== '') return fail('IPv6 zones cannot be present in a prefix');
  const bs = s.slice(i + 1);
  // strconv.Atoi, without a sign or leading zeros
  if (!/^(0|[1-9][0-9]*)$/.test(bs) || BigInt(bs) > 2n ** 63n - 1n) return fail(`bad bits after slash: ${quote(bs)}`);
  const bits = Number(bs);
  if (bits > 8 * a.value.bytes.length) return fail('prefix length out of range');
  return { ok: true, value: { addr: a.value, bits } };
}

/** Addr.Is4In6 */
export function is4In6(a: Addr): boolean {
  const b = a.bytes;
  return b.length === 16 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
}

/** Addr.String() (the zone, when there is one, after a '%'). */
export function addrString(a: Addr): string {
  const b = a.bytes;
  if (b.length === 4) return b.join('.');
  const g: number[] = [];
  for (let i = 0; i < 16; i += 2) g.push((b[i]! << 8) | b[i + 1]!);
  let text: string;
  if (is4In6(a)) text = `::ffff:${b.slice(12).join('.')}`;
  else {
    // the longest run of two or more zero groups (the first of equal runs) becomes ::
    let best = -1;
    let bestLen = 0;
    for (let i = 0; i < 8; ) {
      if (g[i] !== 0) {
        i++;
        continue;
      }
      let j = i;
      while (j < 8 && g[j] === 0) j++;
      if (j - i > bestLen && j - i >= 2) [best, bestLen] = [i, j - i];
      i = j;
    }
    const h = (xs: number[]) => xs.map((x) => x.toString(16)).join(':');
    text = best < 0 ? h(g) : `${h(g.slice(0, best))}::${h(g.slice(best + bestLen))}`;
  }
  return a.zone !== '' ? `${text}%${a.zone}` : text;
}

/** The first `bits` bits of a, the rest zero (Prefix.Masked's address). */
export function maskAddr(a: Addr, bits: number): Addr {
  const out = a.bytes.map((x, i) => {
    const keep = Math.max(0, Math.min(8, bits - 8 * i));
    return x & ((0xff << (8 - keep)) & 0xff);
  });
  return { bytes: out, zone: '' };
}

/** Whether the first `bits` bits of a and b (same family) are equal. */
export function samePrefix(a: Addr, b: Addr, bits: number): boolean {
  const x = maskAddr(a, bits).bytes;
  const y = maskAddr(b, bits).bytes;
  return x.length === y.length && x.every((v, i) => v === y[i]);
}
