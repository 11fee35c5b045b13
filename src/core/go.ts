/** Small pieces of Go semantics that several server ports need. */

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
