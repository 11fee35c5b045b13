/** strconv.Quote (fmt's %q of a string) and strconv.IsPrint. */
import { PRINTABLE_RANGES } from './print-table.js';
import { wellFormed } from './strings.js';

/**
 * strconv.IsPrint (the same set as unicode.IsPrint): letters, marks, numbers, punctuation, symbols
 * and the ASCII space, in Go's Unicode version (the JS engine's \p{…} classes follow a newer one,
 * where some ten thousand more code points are assigned). `ch` is one code point.
 */
export function isPrint(ch: string): boolean {
  const c = ch.codePointAt(0)!;
  if (c < 0x7f) return c >= 0x20;
  // binary search for the last range starting at or below c
  let lo = 0;
  let hi = PRINTABLE_RANGES.length / 2 - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (PRINTABLE_RANGES[2 * mid]! <= c) lo = mid;
    else hi = mid - 1;
  }
  return PRINTABLE_RANGES[2 * lo]! <= c && c <= PRINTABLE_RANGES[2 * lo + 1]!;
}

/**
 * strconv.Quote (what %q prints for a string). The string is the one Go holds after decoding JSON:
 * a lone surrogate is U+FFFD there.
 */
export function quote(s: string): string {
  let out = '"';
  for (const ch of wellFormed(s)) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (isPrint(ch)) out += ch;
    else if (c === 7) out += '\\a';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c === 11) out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c < 0x10000) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += `\\U${c.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}
