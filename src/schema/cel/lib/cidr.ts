/**
 * The Kubernetes CIDR library (apiserver pkg/cel/library/cidr.go) over Go's netip.ParsePrefix
 * (go/netip.ts): cidr, isCIDR, containsIP, containsCIDR, ip, masked, prefixLength, string(), and
 * equality (netip.Prefix ==: the address as written, unmasked, and the length). Errors carry the
 * server's texts (the parse error is wrapped twice there, and so here).
 */
import { addrString, is4In6, maskAddr, parsePrefix, samePrefix, type Addr } from '../../../go/netip.js';
import { quote } from '../../../go/quote.js';
import { IPValue, parseIP } from './ip.js';
import { GO_TYPE, type GoTypeNames } from './classes.js';
import { CelGoError } from './ops.js';
import type { LibEnv } from './types.js';

const WRAP = 'network address parse error during conversion from string: ';

export class CIDRValue {
  get [GO_TYPE](): GoTypeNames {
    return { name: 'net.CIDR', go: 'cel.CIDR' };
  }

  constructor(
    readonly addr: Addr,
    readonly bits: number,
  ) {}
  celEqual(o: unknown): boolean {
    return o instanceof CIDRValue && o.bits === this.bits && o.addr.bytes.length === this.addr.bytes.length && o.addr.bytes.every((b, i) => b === this.addr.bytes[i]);
  }
  toString(): string {
    return `${addrString(this.addr)}/${this.bits}`;
  }
}

/** parseCIDR: the prefix, or the error text parseCIDR returns. */
function parseCIDR(s: string): CIDRValue | string {
  const p = parsePrefix(s);
  if (!p.ok) return WRAP + p.error;
  if (is4In6(p.value.addr)) return `IPv4-mapped IPv6 address ${quote(s)} is not allowed`;
  return new CIDRValue(p.value.addr, p.value.bits);
}

/** cidr(string) */
function toCIDR(s: string): CIDRValue {
  const c = parseCIDR(s);
  if (typeof c === 'string') throw new CelGoError(WRAP + c);
  return c;
}

/** Prefix.Contains */
function containsIP(c: CIDRValue, ip: IPValue): boolean {
  return c.addr.bytes.length === ip.bytes.length && samePrefix(c.addr, ip.addr, c.bits);
}

/** Prefix.Overlaps, and the receiver's prefix no longer than the other's. */
function containsCIDR(c: CIDRValue, o: CIDRValue): boolean {
  if (c.addr.bytes.length !== o.addr.bytes.length) return false;
  return samePrefix(c.addr, o.addr, Math.min(c.bits, o.bits)) && c.bits <= o.bits;
}

export function registerCIDR(env: LibEnv & { registerType(name: string, ctor: unknown): unknown }): void {
  env.registerType('net.CIDR', CIDRValue);
  env.registerFunction('cidr(string): net.CIDR', toCIDR);
  env.registerFunction('isCIDR(string): bool', (s: string) => typeof parseCIDR(s) !== 'string');
  env.registerFunction('string(net.CIDR): string', (c: CIDRValue) => c.toString());
  env.registerFunction('net.CIDR.containsIP(string): bool', (c: CIDRValue, s: string) => {
    const ip = parseIP(s);
    // cidrContainsIP(arg, stringToIP(other)): the parse error is not an IP, and the function
    // answers MaybeNoSuchOverloadErr(arg), of the CIDR: "no such overload" (containsCIDR returns the
    // parse error itself)
    if (!(ip instanceof IPValue)) throw new CelGoError('no such overload');
    return containsIP(c, ip);
  });
  env.registerFunction('net.CIDR.containsIP(net.IP): bool', containsIP);
  env.registerFunction('net.CIDR.containsCIDR(string): bool', (c: CIDRValue, s: string) => containsCIDR(c, toCIDR(s)));
  env.registerFunction('net.CIDR.containsCIDR(net.CIDR): bool', containsCIDR);
  env.registerFunction('net.CIDR.ip(): net.IP', (c: CIDRValue) => new IPValue(c.addr.bytes));
  env.registerFunction('net.CIDR.masked(): net.CIDR', (c: CIDRValue) => new CIDRValue(maskAddr(c.addr, c.bits), c.bits));
  env.registerFunction('net.CIDR.prefixLength(): int', (c: CIDRValue) => BigInt(c.bits));
}
