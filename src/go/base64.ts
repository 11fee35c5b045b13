/**
 * encoding/base64's Decode with StdEncoding (what encoding/json does with a JSON string decoded
 * into a []byte) or URLEncoding (kube-openapi's strfmt.Base64.UnmarshalText, which the apiserver's
 * CEL uses for `format: byte`): the byte offset of its CorruptInputError (`illegal base64 data at
 * input byte N`), or undefined when it decodes. Padding is required, `\r` and `\n` are skipped,
 * and the check is not strict (bits after the last byte may be set).
 */
export type Base64Alphabet = 'std' | 'url';
const ALPHABETS: Readonly<Record<Base64Alphabet, string>> = {
  std: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
};
const VALIDS: Record<Base64Alphabet, Uint8Array> = { std: new Uint8Array(256), url: new Uint8Array(256) };
for (const a of ['std', 'url'] as const) for (const c of ALPHABETS[a]) VALIDS[a][c.charCodeAt(0)] = 1;

const isNewline = (b: number) => b === 10 || b === 13;

export function base64ErrorOffset(text: string, alphabet: Base64Alphabet = 'std'): number | undefined {
  const VALID = VALIDS[alphabet];
  const src = new TextEncoder().encode(text);
  let si = 0;
  while (si < src.length) {
    // one quantum: up to four characters of the alphabet, newlines skipped
    let j = 0;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return undefined;
        return si - j;
      }
      const b = src[si++]!;
      if (VALID[b]) continue;
      if (isNewline(b)) {
        j--;
        continue;
      }
      if (b !== 61 /* = */) return si - 1;
      // padding: "=" after two characters needs a second one; then only newlines may follow
      if (j < 2) return si - 1;
      if (j === 2) {
        while (si < src.length && isNewline(src[si]!)) si++;
        if (si === src.length) return src.length;
        if (src[si] !== 61) return si - 1;
        si++;
      }
      while (si < src.length && isNewline(src[si]!)) si++;
      return si < src.length ? si : undefined;
    }
  }
  return undefined;
}

/** The bytes Decode gives for a text base64ErrorOffset accepts (with the same alphabet). */
export function base64Decode(text: string, alphabet: Base64Alphabet = 'std'): Uint8Array {
  let t = text.replace(/[\r\n]/g, '');
  if (alphabet === 'url') t = t.replace(/-/g, '+').replace(/_/g, '/');
  return new Uint8Array(Buffer.from(t, 'base64'));
}
