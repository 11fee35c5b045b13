/**
 * The Kubernetes IP library (apiserver pkg/cel/library/ip.go) over Go's netip.ParseAddr
 * (go/netip.ts): isIP, ip, ip.isCanonical, family, isUnspecified, isLoopback,
 * isLinkLocalMulticast, isLinkLocalUnicast, isGlobalUnicast, string(), and equality. Zones and
 * IPv4-mapped IPv6 addresses are refused as the server refuses them, with its error texts.
 */
import { addrString, is4In6, parseAddr, type Addr } from '../../../go/netip.js';
import { quote } from '../../../go/quote.js';
import { GO_TYPE, type GoTypeNames } from './classes.js';
import { CelGoError } from './ops.js';
import type { LibEnv } from './types.js';

export class IPValue {
  get [GO_TYPE](): GoTypeNames {
    return { name: 'net.IP', go: 'cel.IP' };
  }

  constructor(
    /** 4 bytes (IPv4) or 16. */
    readonly bytes: readonly number[],
  ) {}
  get is4(): boolean {
    return this.bytes.length === 4;
  }
  get addr(): Addr {
    return { bytes: [...this.bytes], zone: '' };
  }
  celEqual(o: unknown): boolean {
    return o instanceof IPValue && o.bytes.length === this.bytes.length && o.bytes.every((b, i) => b === this.bytes[i]);
  }
}

/** parseIPAddr: the address, or the server's error text. */
export function parseIP(s: string): IPValue | string {
  const a = parseAddr(s);
  if (!a.ok) return `IP Address ${quote(s)} parse error during conversion from string: ${a.error}`;
  if (a.value.zone !== '') return `IP address ${quote(s)} with zone value is not allowed`;
  if (is4In6(a.value)) return `IPv4-mapped IPv6 address ${quote(s)} is not allowed`;
  return new IPValue(a.value.bytes);
}

/** netip.Addr.String() (no zone). */
export function format(ip: IPValue): string {
  return addrString(ip.addr);
}

const isMulticast = (ip: IPValue): boolean => (ip.is4 ? (ip.bytes[0]! & 0xf0) === 0xe0 : ip.bytes[0] === 0xff);
const isLoopback = (ip: IPValue): boolean => (ip.is4 ? ip.bytes[0] === 127 : ip.bytes.every((b, i) => b === (i === 15 ? 1 : 0)));
const isLinkLocalUnicast = (ip: IPValue): boolean => (ip.is4 ? ip.bytes[0] === 169 && ip.bytes[1] === 254 : ip.bytes[0] === 0xfe && (ip.bytes[1]! & 0xc0) === 0x80);
const isUnspecified = (ip: IPValue): boolean => ip.bytes.every((b) => b === 0);

export function registerIP(env: LibEnv & { registerType(name: string, ctor: unknown): unknown }): void {
  env.registerType('net.IP', IPValue);
  env.registerFunction('isIP(string): bool', (s: string) => parseIP(s) instanceof IPValue);
  env.registerFunction('ip(string): net.IP', (s: string) => {
    const ip = parseIP(s);
    if (!(ip instanceof IPValue)) throw new CelGoError(ip);
    return ip;
  });
  env.registerFunction('__crdx_ip_isCanonical(string): bool', (s: string) => {
    const ip = parseIP(s);
    if (!(ip instanceof IPValue)) throw new CelGoError(ip);
    return format(ip) === s;
  });
  env.registerFunction('string(net.IP): string', format);
  env.registerFunction('net.IP.family(): int', (ip: IPValue) => (ip.is4 ? 4n : 6n));
  env.registerFunction('net.IP.isUnspecified(): bool', isUnspecified);
  env.registerFunction('net.IP.isLoopback(): bool', isLoopback);
  env.registerFunction('net.IP.isLinkLocalMulticast(): bool', (ip: IPValue) => (ip.is4 ? ip.bytes[0] === 224 && ip.bytes[1] === 0 && ip.bytes[2] === 0 : ip.bytes[0] === 0xff && (ip.bytes[1]! & 0x0f) === 0x02));
  env.registerFunction('net.IP.isLinkLocalUnicast(): bool', isLinkLocalUnicast);
  env.registerFunction('net.IP.isGlobalUnicast(): bool', (ip: IPValue) => {
    if (ip.is4 && ip.bytes.every((b) => b === 255)) return false;
    return !isUnspecified(ip) && !isLoopback(ip) && !isMulticast(ip) && !isLinkLocalUnicast(ip);
  });
}
