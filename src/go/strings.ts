/** Go's strings: byte-order comparison, UTF-8 lengths, strings.ToLower, and how a JSON decode repairs UTF-16. */

/** A lone surrogate cannot come out of Go's JSON decoder: it reads U+FFFD there. */
function goRune(ch: string): number {
  const c = ch.codePointAt(0)!;
  return c >= 0xd800 && c <= 0xdfff ? 0xfffd : c;
}

/** Go's string order (bytes of UTF-8), which is code point order, not UTF-16 code unit order. */
export function goCompare(a: string, b: string): number {
  if (a === b) return 0;
  // below the surrogates, code unit order is code point order
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x >= 0xd800 || y >= 0xd800) return runeCompare(a, b);
    if (x !== y) return x - y;
  }
  return a.length - b.length;
}

function runeCompare(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const ca = ia.next();
    const cb = ib.next();
    if (ca.done === true) return cb.done === true ? 0 : -1;
    if (cb.done === true) return 1;
    const d = goRune(ca.value) - goRune(cb.value);
    if (d !== 0) return d;
  }
}

/** The keys of an object in Go's sorted order (where upstream iterates a map, we visit sorted). */
export function goSortedKeys(o: Record<string, unknown>): string[] {
  return Object.keys(o).sort(goCompare);
}

/** len(s) of the Go string: its UTF-8 bytes. */
export function utf8Len(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/**
 * string(b) of Go bytes that are valid UTF-8 (utf8.Valid), byte for byte (a leading BOM kept);
 * undefined for invalid UTF-8.
 */
export function utf8Text(b: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(b);
  } catch {
    return undefined;
  }
}

/** utf8.RuneCountInString. */
export function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Replaces lone surrogates by U+FFFD, as Go's JSON decoder does with invalid UTF-16 escapes. */
export function wellFormed(s: string): string {
  // String.prototype.isWellFormed / toWellFormed (ES2024; V8 in every Node.js from 20): the same
  // replacement of lone surrogates by U+FFFD, without a RegExp scan of every string
  const w = s as string & { isWellFormed?: () => boolean; toWellFormed?: () => string };
  if (w.isWellFormed !== undefined && w.toWellFormed !== undefined) return w.isWellFormed() ? s : w.toWellFormed();
  return /[\uD800-\uDFFF]/.test(s)
    ? s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    : s;
}

/** strings.ToLower: unicode.ToLower rune by rune. */
export function toLower(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(s)) return s.toLowerCase();
  let out = '';
  for (const ch of s) {
    if (ch === '\u0130') {
      out += 'i';
      continue;
    }
    const l = ch.toLowerCase();
    out += [...l].length === 1 ? l : ch;
  }
  return out;
}
