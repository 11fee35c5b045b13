/**
 * The Kubernetes URL library (apiserver pkg/cel/library/urls.go): url, isURL, getScheme, getHost,
 * getHostname, getPort, getEscapedPath, getQuery. Validity is Go's url.ParseRequestURI
 * (schema/formats/url.ts); the parts are Go's url.Parse for the plain spellings crdx reads the same
 * way (percent escapes in the host or path, and Go's parse errors other than those of
 * requestURIError, are reported as not evaluated).
 */
import { isRequestURI } from '../../formats/url.js';
import { quote } from '../../../go/quote.js';
import { CelGoError, CelUnsupported } from './ops.js';
import type { LibEnv } from './types.js';

export class URLValue {
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
 * url.ParseRequestURI's error (url.Error: `parse "<raw>": <why>`) for a string it refuses, when it
 * is one of the reasons crdx words as Go does (a control character, empty, a leading colon, a
 * relative reference); undefined for the others.
 */
export function requestURIError(raw: string): string | undefined {
  let why: string | undefined;
  if (/[\x00-\x1f\x7f]/.test(raw)) why = 'net/url: invalid control character in URL';
  else if (raw === '') why = 'empty url';
  else if (raw[0] === ':') why = 'missing protocol scheme';
  else {
    const m = /^[A-Za-z][A-Za-z0-9+\-.]*:/.exec(raw);
    let rest = m ? raw.slice(m[0].length) : raw;
    if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1);
    else if (rest.includes('?')) rest = rest.slice(0, rest.indexOf('?'));
    if (!m && !rest.startsWith('/')) why = 'invalid URI for request';
  }
  return why === undefined ? undefined : `parse ${quote(raw)}: ${why}`;
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
  if (host.includes('%')) throw new CelUnsupported('a URL whose host has percent escapes');
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
      const err = requestURIError(s);
      // Go's other parse errors (hosts, ports, escapes) are not reproduced
      if (err === undefined) throw new CelUnsupported(`url(${JSON.stringify(s)}) fails on the server with a Go error crdx does not reproduce`);
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
