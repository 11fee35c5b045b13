/** The IP, CIDR and MAC parsers of Go 1.26's net and net/netip, as strfmt uses them. */

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isASCII(s: string): boolean {
  return /^[\x00-\x7f]*$/.test(s);
}

/** dtoi of the forked/std net package: decimal digits, failing at 0xFFFFFF. */
function dtoi(s: string): { n: number; i: number; ok: boolean } {
  let n = 0;
  let i = 0;
  for (; i < s.length && isDigit(s[i]); i++) {
    n = n * 10 + (s.charCodeAt(i) - 48);
    if (n >= 0xffffff) return { n: 0xffffff, i, ok: false };
  }
  return i === 0 ? { n: 0, i: 0, ok: false } : { n, i, ok: true };
}

export function hexVal(c: string | undefined): number {
  if (c === undefined) return -1;
  if (c >= '0' && c <= '9') return c.charCodeAt(0) - 48;
  if (c >= 'a' && c <= 'f') return c.charCodeAt(0) - 87;
  if (c >= 'A' && c <= 'F') return c.charCodeAt(0) - 55;
  return -1;
}

function xtoi(s: string): { n: number; i: number; ok: boolean } {
  let n = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const h = hexVal(s[i]);
    if (h < 0) break;
    n = n * 16 + h;
    if (n >= 0xffffff) return { n: 0, i, ok: false };
  }
  return i === 0 ? { n: 0, i, ok: false } : { n, i, ok: true };
}

/** k8s.io/utils/net forked parseIPv4 (leading zeros allowed). */
function sloppyIPv4(str: string): boolean {
  let s = str;
  for (let i = 0; i < 4; i++) {
    if (s.length === 0) return false;
    if (i > 0) {
      if (s[0] !== '.') return false;
      s = s.slice(1);
    }
    const { n, i: c, ok } = dtoi(s);
    if (!ok || n > 0xff) return false;
    s = s.slice(c);
  }
  return s.length === 0;
}

/** k8s.io/utils/net forked parseIPv6 (any number of hex digits below 0xFFFFFF per group). */
function sloppyIPv6(str: string): boolean {
  let s = str;
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return true;
  }
  let i = 0;
  while (i < 16) {
    const { n, i: c, ok } = xtoi(s);
    if (!ok || n > 0xffff) return false;
    if (c < s.length && s[c] === '.') {
      if (ellipsis < 0 && i !== 12) return false;
      if (i + 4 > 16) return false;
      if (!sloppyIPv4(s)) return false;
      s = '';
      i += 4;
      break;
    }
    i += 2;
    s = s.slice(c);
    if (s.length === 0) break;
    if (s[0] !== ':' || s.length === 1) return false;
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return false;
  if (i < 16) return ellipsis >= 0;
  return ellipsis < 0;
}

/** netutils.ParseIPSloppy(s) != nil. */
export function parseIPSloppy(s: string): true | undefined {
  if (!isASCII(s)) return undefined;
  for (const ch of s) {
    if (ch === '.') return sloppyIPv4(s) ? true : undefined;
    if (ch === ':') return sloppyIPv6(s) ? true : undefined;
  }
  return undefined;
}

/** netutils.ParseCIDRSloppy(s) succeeds. */
export function isCIDRSloppy(s: string): boolean {
  if (!isASCII(s)) return false;
  const i = s.indexOf('/');
  if (i < 0) return false;
  const addr = s.slice(0, i);
  const mask = s.slice(i + 1);
  let iplen = 4;
  let ok = sloppyIPv4(addr);
  if (!ok) {
    iplen = 16;
    ok = sloppyIPv6(addr);
  }
  const d = dtoi(mask);
  return ok && d.ok && d.i === mask.length && d.n >= 0 && d.n <= 8 * iplen;
}

/** netip.ParseAddr (Go 1.26): undefined on error, else whether it is IPv4 and its zone. */
export function netipParseAddr(s: string): { is4: boolean; zone: string } | undefined {
  for (const ch of s) {
    if (ch === '.') return strictIPv4Fields(s) ? { is4: true, zone: '' } : undefined;
    if (ch === ':') return strictIPv6(s);
    if (ch === '%') return undefined;
  }
  return undefined;
}

function strictIPv4Fields(s: string): boolean {
  let val = 0;
  let pos = 0;
  let digLen = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c >= '0' && c <= '9') {
      if (digLen === 1 && val === 0) return false;
      val = val * 10 + (c.charCodeAt(0) - 48);
      digLen++;
      if (val > 255) return false;
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') return false;
      if (pos === 3) return false;
      pos++;
      val = 0;
      digLen = 0;
    } else {
      return false;
    }
  }
  return pos >= 3;
}

function strictIPv6(input: string): { is4: boolean; zone: string } | undefined {
  let s = input;
  let zone = '';
  const z = s.indexOf('%');
  if (z !== -1) {
    zone = s.slice(z + 1);
    s = s.slice(0, z);
    if (zone === '') return undefined;
  }
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return { is4: false, zone };
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const h = hexVal(s[off]);
      if (h < 0) break;
      acc = acc * 16 + h;
      if (off > 3) return undefined;
      if (acc > 0xffff) return undefined;
    }
    if (off === 0) return undefined;
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) return undefined;
      if (i + 4 > 16) return undefined;
      if (!strictIPv4Fields(s)) return undefined;
      s = '';
      i += 4;
      break;
    }
    i += 2;
    s = s.slice(off);
    if (s.length === 0) break;
    if (s[0] !== ':' || s.length === 1) return undefined;
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return undefined;
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return undefined;
  if (i < 16) {
    if (ellipsis < 0) return undefined;
  } else if (ellipsis >= 0) {
    return undefined;
  }
  return { is4: false, zone };
}

/** net.ParseIP(s) != nil (Go 1.26: netip.ParseAddr without a zone). */
export function parseIPStd(s: string): boolean {
  const a = netipParseAddr(s);
  return a !== undefined && a.zone === '';
}

/** net.ParseMAC succeeds. */
export function isMAC(s: string): boolean {
  if (!isASCII(s) || s.length < 12) return false;
  const xtoi2 = (t: string, e: string): boolean => {
    if (t.length > 2 && t[2] !== e) return false;
    return hexVal(t[0]) >= 0 && hexVal(t[1]) >= 0;
  };
  const sizes = [6, 8, 20];
  if (s[2] === ':' || s[2] === '-') {
    if ((s.length + 1) % 3 !== 0) return false;
    const n = (s.length + 1) / 3;
    if (!sizes.includes(n)) return false;
    for (let x = 0, i = 0; i < n; i++, x += 3) if (!xtoi2(s.slice(x), s[2])) return false;
    return true;
  }
  if (s[4] === '.') {
    if ((s.length + 1) % 5 !== 0) return false;
    const n = (2 * (s.length + 1)) / 5;
    if (!sizes.includes(n)) return false;
    for (let x = 0, i = 0; i < n; i += 2, x += 5) {
      if (!xtoi2(s.slice(x, x + 2), '\0')) return false;
      if (!xtoi2(s.slice(x + 2), s[4])) return false;
    }
    return true;
  }
  if (s.length % 2 !== 0) return false;
  const n = s.length / 2;
  if (!sizes.includes(n)) return false;
  for (let x = 0; x < s.length; x += 2) if (!xtoi2(s.slice(x, x + 2), '\0')) return false;
  return true;
}
