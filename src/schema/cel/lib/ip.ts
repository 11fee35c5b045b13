/**
 * The Kubernetes IP library (apiserver pkg/cel/library/ip.go) over Go's netip.ParseAddr
 * (schema/formats/net.ts): isIP, ip, ip.isCanonical, family, isUnspecified, isLoopback,
 * isLinkLocalMulticast, isLinkLocalUnicast, isGlobalUnicast, and equality. Zones and IPv4-mapped
 * IPv6 addresses are refused as the server refuses them; ip() of such a string (Go's error text) is
 * reported as not evaluated.
 */
import { netipParseAddr } from '../../formats/net.js';
import { CelUnsupported } from './ops.js';
import type { LibEnv } from './types.js';

export class IPValue {
  constructor(
    /** 4 bytes (IPv4) or 16. */
    readonly bytes: readonly number[],
  ) {}
  get is4(): boolean {
    return this.bytes.length === 4;
  }
  celEqual(o: unknown): boolean {
    return o instanceof IPValue && o.bytes.length === this.bytes.length && o.bytes.every((b, i) => b === this.bytes[i]);
  }
}

/** The bytes of an address netip.ParseAddr accepted (no zone). */
function bytesOf(s: string, is4: boolean): number[] {
  if (is4) return s.split('.').map(Number);
  let t = s;
  const lc = t.lastIndexOf(':');
  const last = t.slice(lc + 1);
  if (last.includes('.')) {
    // an embedded IPv4 address: two more groups
    const [a, b, c, d] = last.split('.').map(Number) as [number, number, number, number];
    t = `${t.slice(0, lc + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const parse = (x: string): number[] => (x === '' ? [] : x.split(':').map((h) => parseInt(h, 16)));
  const dbl = t.indexOf('::');
  let groups: number[];
  if (dbl >= 0) {
    const left = parse(t.slice(0, dbl));
    const right = parse(t.slice(dbl + 2));
    groups = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  } else groups = parse(t);
  const out: number[] = [];
  for (const g of groups) out.push(g >> 8, g & 0xff);
  return out;
}

/** parseIPAddr: the address, or why the server refuses it. */
function parseIP(s: string): IPValue | string {
  const a = netipParseAddr(s);
  if (!a) return 'parse';
  if (a.zone !== '') return 'zone';
  const b = bytesOf(s, a.is4);
  if (b.length !== (a.is4 ? 4 : 16)) throw new CelUnsupported(`the IP address ${JSON.stringify(s)} is not one crdx reads`);
  if (!a.is4 && b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff) return '4in6';
  return new IPValue(b);
}

/** netip.Addr.String() (no zone). */
function format(ip: IPValue): string {
  if (ip.is4) return ip.bytes.join('.');
  const g: number[] = [];
  for (let i = 0; i < 16; i += 2) g.push((ip.bytes[i]! << 8) | ip.bytes[i + 1]!);
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
  const hex = (xs: number[]) => xs.map((x) => x.toString(16)).join(':');
  if (best < 0) return hex(g);
  return `${hex(g.slice(0, best))}::${hex(g.slice(best + bestLen))}`;
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
    if (!(ip instanceof IPValue)) throw new CelUnsupported(`ip(${JSON.stringify(s)}) fails on the server with an error crdx does not reproduce`);
    return ip;
  });
  env.registerFunction('__crdx_ip_isCanonical(string): bool', (s: string) => {
    const ip = parseIP(s);
    if (!(ip instanceof IPValue)) throw new CelUnsupported(`ip.isCanonical(${JSON.stringify(s)}) fails on the server with an error crdx does not reproduce`);
    return format(ip) === s;
  });
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
