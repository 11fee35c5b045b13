/**
 * The Kubernetes URL library (apiserver pkg/cel/library/urls.go): url, isURL, getScheme, getHost,
 * getHostname, getPort, getEscapedPath, getQuery. Validity is Go's url.ParseRequestURI
 * (schema/formats/url.ts); the parts are Go's url.Parse for the plain spellings crdx reads the same
 * way (percent escapes in the host or path are reported as not evaluated); its parse errors are
 * Go's (requestURIError).
 */
import { isRequestURI } from '../../formats/url.js';
import { quote } from '../../../go/quote.js';
import { utf8Text } from '../../../go/strings.js';
import { parseAddr } from '../../../go/netip.js';
import { GO_TYPE, type GoTypeNames } from './classes.js';
import { CelGoError, CelUnsupported } from './ops.js';
import type { LibEnv } from './types.js';

export class URLValue {
  get [GO_TYPE](): GoTypeNames {
    return { name: 'kubernetes.URL', go: 'cel.URL' };
  }

  constructor(
    readonly raw: string,
    readonly scheme: string,
    readonly host: string,
    readonly path: string,
    readonly rawQuery: string,
  ) {}
  celEqual(o: unknown): boolean {
    if (!(o instanceof URLValue)) return false;
    if (o.raw === this.raw) return true;
    throw new CelUnsupported('comparing two URLs written differently (Go compares their String())');
  }
}

/**
 * url.ParseRequestURI's error (url.Error: `parse "<raw>": <why>`) for a string it refuses (Go 1.26
 * net/url parse with viaRequest): a control character, empty, a leading colon, a relative
 * reference, and the authority's and path's errors (userinfo, IP literal, port, percent escapes,
 * host characters). undefined for a string it accepts, or when Go's text would quote bytes that are
 * not UTF-8 (not reproduced).
 */
export function requestURIError(raw: string): string | undefined {
  const why = requestURIWhy(raw);
  return why === undefined ? undefined : `parse ${quote(raw)}: ${why}`;
}

function requestURIWhy(raw: string): string | undefined {
  if (/[\x00-\x1f\x7f]/.test(raw)) return 'net/url: invalid control character in URL';
  if (raw === '') return 'empty url';
  if (raw === '*') return undefined;
  if (raw[0] === ':') return 'missing protocol scheme';
  const m = /^[A-Za-z][A-Za-z0-9+\-.]*:/.exec(raw);
  const scheme = m ? m[0].slice(0, -1).toLowerCase() : '';
  let rest = m ? raw.slice(m[0].length) : raw;
  if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1);
  else if (rest.includes('?')) rest = rest.slice(0, rest.indexOf('?'));
  if (!rest.startsWith('/')) return scheme !== '' ? undefined : 'invalid URI for request';
  if (scheme !== '' && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) [authority, rest] = [authority.slice(0, slash), authority.slice(slash)];
    const why = authorityWhy(scheme, authority);
    if (why !== undefined) return why;
  }
  return unescapeWhy(rest, 'path');
}

type Mode = 'path' | 'host' | 'zone' | 'userPassword';

const isHexByte = (b: number | undefined): boolean => b !== undefined && /[0-9a-fA-F]/.test(String.fromCharCode(b));

/** shouldEscape(c, encodeHost) for an ASCII byte. */
const hostEscapes = (c: number): boolean => {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9]/.test(ch)) return false;
  return !"-_.~!$&'()*+,;=:[]<>\"".includes(ch);
};

/** A Go string's bytes quoted with %q; null when they are not UTF-8 (Go would print \x escapes). */
function quoteBytes(b: Uint8Array): string | null {
  const text = utf8Text(b);
  return text === undefined ? null : quote(text);
}

class NotWorded extends Error {}

/** net/url unescape's error for s in mode (EscapeError, InvalidHostError), undefined when it unescapes. */
function unescapeWhy(s: string, mode: Mode): string | undefined {
  const b = Buffer.from(s, 'utf8');
  const q = (x: Uint8Array): string => {
    const t = quoteBytes(x);
    if (t === null) throw new NotWorded();
    return t;
  };
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    if (c === 0x25) {
      if (i + 2 >= b.length || !isHexByte(b[i + 1]) || !isHexByte(b[i + 2])) return `invalid URL escape ${q(b.subarray(i, i + 3))}`;
      const hi = parseInt(String.fromCharCode(b[i + 1]!), 16);
      const v = hi * 16 + parseInt(String.fromCharCode(b[i + 2]!), 16);
      const three = b.subarray(i, i + 3).toString('latin1');
      if (mode === 'host' && hi < 8 && three !== '%25') return `invalid URL escape ${q(b.subarray(i, i + 3))}`;
      if (mode === 'zone' && three !== '%25' && v !== 0x20 && (v >= 0x80 || hostEscapes(v))) return `invalid URL escape ${q(b.subarray(i, i + 3))}`;
      i += 3;
    } else {
      if ((mode === 'host' || mode === 'zone') && c < 0x80 && hostEscapes(c)) return `invalid character ${q(b.subarray(i, i + 1))} in host name`;
      i++;
    }
  }
  return undefined;
}

const validOptionalPort = (p: string): boolean => p === '' || /^:[0-9]*$/.test(p);

/** parseAuthority: the host first, then the userinfo. */
function authorityWhy(scheme: string, authority: string): string | undefined {
  const at = authority.lastIndexOf('@');
  const hostWhy = hostParseWhy(scheme, at < 0 ? authority : authority.slice(at + 1));
  if (hostWhy !== undefined || at < 0) return hostWhy;
  const userinfo = authority.slice(0, at);
  if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo)) return 'net/url: invalid userinfo';
  const colon = userinfo.indexOf(':');
  const parts = colon < 0 ? [userinfo] : [userinfo.slice(0, colon), userinfo.slice(colon + 1)];
  for (const part of parts) {
    const why = unescapeWhy(part, 'userPassword');
    if (why !== undefined) return why;
  }
  return undefined;
}

/** Percent-decoding of checked host bytes (latin1: the address parser reads ASCII). */
const percentDecode = (s: string): string => s.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** parseHost (host[:port], or an IP literal in brackets). */
function hostParseWhy(scheme: string, host: string): string | undefined {
  const open = host.lastIndexOf('[');
  if (open > 0) return 'invalid IP-literal';
  if (open === 0) {
    const close = host.lastIndexOf(']');
    if (close < 0) return "missing ']' in host";
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) return `invalid port ${quote(colonPort)} after host`;
    const portWhy = unescapeWhy(colonPort, 'host');
    if (portWhy !== undefined) return portWhy;
    const hostname = host.slice(1, close);
    const zone = hostname.indexOf('%25');
    let unescaped: string;
    if (zone >= 0) {
      const why = unescapeWhy(hostname.slice(0, zone), 'host') ?? unescapeWhy(hostname.slice(zone), 'zone');
      if (why !== undefined) return why;
      unescaped = percentDecode(hostname.slice(0, zone)) + percentDecode(hostname.slice(zone));
    } else {
      const why = unescapeWhy(hostname, 'host');
      if (why !== undefined) return why;
      unescaped = percentDecode(hostname);
    }
    // a non-ASCII (escaped) byte in the address: netip's text would quote bytes crdx does not hold
    if (/[^\x00-\x7f]/.test(unescaped)) throw new NotWorded();
    const addr = parseAddr(unescaped);
    if (!addr.ok) return `invalid host: ${addr.error}`;
    if (addr.value.bytes.length === 4) return 'invalid IP-literal';
    return undefined;
  }
  const i = host.indexOf(':');
  if (i !== -1) {
    const last = host.lastIndexOf(':');
    // Go 1.26: colons in the host are strict for http and https only (urlstrictcolons)
    const j = last !== i && scheme !== 'http' && scheme !== 'https' ? last : i;
    const colonPort = host.slice(j);
    if (!validOptionalPort(colonPort)) return `invalid port ${quote(colonPort)} after host`;
  }
  return unescapeWhy(host, 'host');
}

/** requestURIError, or undefined where Go's text is not reproduced (bytes that are not UTF-8). */
export function requestURIErrorOrUnworded(raw: string): string | undefined | null {
  try {
    return requestURIError(raw);
  } catch (e) {
    if (e instanceof NotWorded) return null;
    throw e;
  }
}

/** url.Parse of a string ParseRequestURI accepts. */
function parse(raw: string): URLValue {
  let rest = raw;
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  if (rest === '*') return new URLValue(raw, '', '', '*', '');
  let scheme = '';
  const m = /^([A-Za-z][A-Za-z0-9+\-.]*):/.exec(rest);
  if (m) {
    scheme = m[1]!.toLowerCase();
    rest = rest.slice(m[0].length);
  }
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  let host = '';
  // an opaque URL (mailto:x) has no path
  if (scheme !== '' && !rest.startsWith('/')) return new URLValue(raw, scheme, '', '', rawQuery);
  if (!rest.startsWith('///') && rest.startsWith('//')) {
    const auth = rest.slice(2);
    const slash = auth.indexOf('/');
    const authority = slash >= 0 ? auth.slice(0, slash) : auth;
    rest = slash >= 0 ? auth.slice(slash) : '';
    const at = authority.lastIndexOf('@');
    host = at >= 0 ? authority.slice(at + 1) : authority;
  }
  // Go's URL.Host is unescaped (parseHost): the escaped bytes must make UTF-8 for crdx to hold them
  if (host.includes('%')) {
    const bytes = Buffer.from(host.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1');
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    if (!Buffer.from(text, 'utf8').equals(bytes) || /[^\x00-\x7f]/.test(host)) throw new CelUnsupported('a URL whose host has percent escapes that are not UTF-8, or escapes beside characters that are not ASCII');
    host = text;
  }
  if (!/^[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/.test(rest)) throw new CelUnsupported('a URL whose path has characters Go escapes');
  return new URLValue(raw, scheme, host, rest, rawQuery);
}

/** validOptionalPort */
const validPort = (p: string): boolean => p === '' || /^:[0-9]*$/.test(p);

function splitHostPort(h: string): [string, string] {
  let host = h;
  let port = '';
  const colon = h.lastIndexOf(':');
  if (colon !== -1 && validPort(h.slice(colon))) [host, port] = [h.slice(0, colon), h.slice(colon + 1)];
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return [host, port];
}

/** url.QueryUnescape, or undefined on a bad escape. */
function queryUnescape(s: string): string | undefined {
  if (/%(?![0-9a-fA-F]{2})/.test(s)) return undefined;
  const bytes: number[] = [];
  const t = s.replace(/\+/g, ' ');
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '%') {
      bytes.push(parseInt(t.slice(i + 1, i + 3), 16));
      i += 2;
    } else for (const b of Buffer.from(t[i]!, 'utf8')) bytes.push(b);
  }
  const buf = Buffer.from(bytes);
  const out = buf.toString('utf8');
  if (!Buffer.from(out, 'utf8').equals(buf)) throw new CelUnsupported('a URL query that is not UTF-8 once unescaped');
  return out;
}

/** url.ParseQuery, errors ignored (URL.Query). */
function query(raw: string): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const part of raw.split('&')) {
    if (part === '' || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const k = queryUnescape(eq >= 0 ? part.slice(0, eq) : part);
    const v = queryUnescape(eq >= 0 ? part.slice(eq + 1) : '');
    if (k === undefined || v === undefined) continue;
    m.set(k, [...(m.get(k) ?? []), v]);
  }
  return m;
}

export function registerURL(env: LibEnv & { registerType(name: string, ctor: unknown): unknown }): void {
  env.registerType('k8s.URL', URLValue);
  env.registerFunction('url(string): k8s.URL', (s: string) => {
    if (!isRequestURI(s)) {
      const err = requestURIErrorOrUnworded(s);
      // an error quoting bytes that are not UTF-8 is not reproduced
      if (err === undefined || err === null) throw new CelUnsupported(`url(${JSON.stringify(s)}) fails on the server with a Go error crdx does not reproduce`);
      throw new CelGoError(`URL parse error during conversion from string: ${err}`);
    }
    return parse(s);
  });
  env.registerFunction('isURL(string): bool', (s: string) => isRequestURI(s));
  env.registerFunction('k8s.URL.getScheme(): string', (u: URLValue) => u.scheme);
  env.registerFunction('k8s.URL.getHost(): string', (u: URLValue) => u.host);
  env.registerFunction('k8s.URL.getHostname(): string', (u: URLValue) => splitHostPort(u.host)[0]);
  env.registerFunction('k8s.URL.getPort(): string', (u: URLValue) => splitHostPort(u.host)[1]);
  env.registerFunction('k8s.URL.getEscapedPath(): string', (u: URLValue) => u.path);
  env.registerFunction('k8s.URL.getQuery(): map<string, list<string>>', (u: URLValue) => query(u.rawQuery));
}
