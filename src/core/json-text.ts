/**
 * JSON text of a decoded value that may hold int64s beyond 2^53 as bigints (src/manifest/parse.ts
 * reads such integers exactly): they print as their digits, as Go's encoding/json prints an int64.
 * JSON.stringify alone throws on a bigint (then the text is made again with a replacer).
 */
const MARK = '\u0000crdx-int64:';
const MARKED = /"\\u0000crdx-int64:(-?\d+)"/g;

export function jsonText(v: unknown, indent?: number): string | undefined {
  // JSON.stringify without a replacer is several times faster, and a bigint is rare: try it first
  try {
    return JSON.stringify(v, null, indent);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
  }
  let big = false;
  const s = JSON.stringify(
    v,
    (_k, x: unknown) => {
      if (typeof x !== 'bigint') return x;
      big = true;
      return `${MARK}${x}`;
    },
    indent,
  );
  return big && s !== undefined ? s.replace(MARKED, '$1') : s;
}
