/** Go 1.26 net/url.ParseRequestURI (strfmt's `uri`). */
import { hexVal, netipParseAddr } from './net.js';

type UrlMode = 'path' | 'host' | 'zone' | 'userPassword';

/** shouldEscape for the modes the parser checks (host and zone share their rules). */
function urlShouldEscapeHost(c: string): boolean {
  if (/^[A-Za-z0-9]$/.test(c)) return false;
  if ("!$&'()*+,;=:[]<>\"".includes(c)) return false;
  if ('-_.~'.includes(c)) return false;
  return true;
}

function urlUnescapeOk(s: string, mode: UrlMode): boolean {
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (c === '%') {
      if (i + 2 >= s.length || hexVal(s[i + 1]) < 0 || hexVal(s[i + 2]) < 0) return false;
      const hi = hexVal(s[i + 1]);
      const v = hi * 16 + hexVal(s[i + 2]);
      if (mode === 'host' && hi < 8 && s.slice(i, i + 3) !== '%25') return false;
      if (mode === 'zone' && s.slice(i, i + 3) !== '%25' && v !== 0x20 && (v >= 0x80 || urlShouldEscapeHost(String.fromCharCode(v)))) {
        return false;
      }
      i += 3;
    } else {
      if ((mode === 'host' || mode === 'zone') && c.charCodeAt(0) < 0x80 && urlShouldEscapeHost(c)) return false;
      i++;
    }
  }
  return true;
}

function validOptionalPort(port: string): boolean {
  if (port === '') return true;
  if (port[0] !== ':') return false;
  for (const ch of port.slice(1)) if (ch < '0' || ch > '9') return false;
  return true;
}

function validUserinfo(s: string): boolean {
  for (const ch of s) {
    if (/^[A-Za-z0-9]$/.test(ch)) continue;
    if ("-._:~!$&'()*+,;=%@".includes(ch)) continue;
    return false;
  }
  return true;
}

function urlParseHost(scheme: string, host: string): boolean {
  const open = host.lastIndexOf('[');
  if (open > 0) return false;
  if (open === 0) {
    const close = host.lastIndexOf(']');
    if (close < 0) return false;
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) return false;
    if (!urlUnescapeOk(colonPort, 'host')) return false;
    const hostname = host.slice(1, close);
    let unescaped: string;
    const zoneIdx = hostname.indexOf('%25');
    if (zoneIdx >= 0) {
      const hostPart = hostname.slice(0, zoneIdx);
      const zonePart = hostname.slice(zoneIdx);
      if (!urlUnescapeOk(hostPart, 'host') || !urlUnescapeOk(zonePart, 'zone')) return false;
      unescaped = percentDecode(hostPart) + percentDecode(zonePart);
    } else {
      if (!urlUnescapeOk(hostname, 'host')) return false;
      unescaped = percentDecode(hostname);
    }
    const addr = netipParseAddr(unescaped);
    return addr !== undefined && !addr.is4;
  }
  const i = host.indexOf(':');
  if (i !== -1) {
    const last = host.lastIndexOf(':');
    let j = i;
    if (last !== i && scheme !== 'http' && scheme !== 'https') j = last;
    if (!validOptionalPort(host.slice(j))) return false;
  }
  return urlUnescapeOk(host, 'host');
}

/** Percent-decoding of an already checked string, bytes kept as latin1 (only ASCII matters to the callers). */
function percentDecode(s: string): string {
  return s.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

export function isRequestURI(raw: string): boolean {
  if (/[\x00-\x1f\x7f]/.test(raw)) return false;
  if (raw === '') return false;
  if (raw === '*') return true;
  // getScheme
  let scheme = '';
  let rest = raw;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/^[A-Za-z]$/.test(c)) continue;
    if (/^[0-9+\-.]$/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) return false;
      scheme = raw.slice(0, i).toLowerCase();
      rest = raw.slice(i + 1);
    }
    break;
  }
  if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf('?');
    if (q >= 0) rest = rest.slice(0, q);
  }
  if (!rest.startsWith('/')) return scheme !== '';
  if (scheme !== '' && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    const at = authority.lastIndexOf('@');
    if (!urlParseHost(scheme, at < 0 ? authority : authority.slice(at + 1))) return false;
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      if (!validUserinfo(userinfo)) return false;
      for (const part of userinfo.includes(':') ? [userinfo.slice(0, userinfo.indexOf(':')), userinfo.slice(userinfo.indexOf(':') + 1)] : [userinfo]) {
        if (!urlUnescapeOk(part, 'userPassword')) return false;
      }
    }
  }
  return urlUnescapeOk(rest, 'path');
}
