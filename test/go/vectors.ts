/**
 * The behaviours src/go/ reimplements, as Go itself answers them: go-vectors.json, printed by the
 * Go program in test/go/vectors (Go 1.26, stdlib only). Every test under test/go/ compares each
 * recorded case.
 *
 * Re-record after changing the program (or to check a newer Go):
 *
 *     cd test/go/vectors && go run . > ../go-vectors.json
 */
import { readFileSync } from 'node:fs';

export interface GoVectors {
  readonly go: string;
  readonly quote: readonly { in: string; out: string }[];
  readonly printable: readonly (readonly [number, number])[];
  readonly float: readonly { bits: string; f: string; g: string; g32: string; v: string; json: string | null }[];
  readonly value: readonly { in: string; v: string; t: string; json: string; indent: string }[];
  readonly equal: readonly { a: string; b: string; equal: boolean }[];
  readonly time: readonly { in: string; sec?: number; nsec?: number; error?: string; formatted?: string }[];
  readonly duration: readonly { in: string; ns?: string; error?: boolean }[];
  readonly toLower: readonly { in: string; out: string }[];
  readonly addr: readonly { in: string; out?: string; error?: string }[];
  readonly prefix: readonly { in: string; out?: string; masked?: string; error?: string }[];
  readonly base64: readonly { in: string; error?: string }[];
  /** base64.URLEncoding.Decode: the error's text, or the bytes in hex. */
  readonly base64url: readonly { in: string; error?: string; out?: string }[];
  readonly strconv: readonly { in: string; int?: string; uint?: string; float?: string; bool?: boolean }[];
  /** regexp.Compile: the error's text, or FindString of the sample (find absent: ''; '-1': no match). */
  readonly regexp: readonly { in: string; error?: string; sample?: string; find?: string }[];
}

export const vectors = JSON.parse(readFileSync(new URL('./go-vectors.json', import.meta.url), 'utf8')) as GoVectors;

/** The float64 whose IEEE 754 bits are the hex text. */
export function float64(bits: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${bits}`));
  return view.getFloat64(0);
}

const BIG = '@@int64:';

/**
 * A JSON text decoded as the server decodes it, in this project's representation: integer
 * literals beyond 2^53 that fit int64 exactly (bigint), other numbers as JS numbers.
 */
export function decodeJSON(text: string): unknown {
  const marked = text.replace(/(?<=^|[[:,])(-?\d{16,})(?=[,\]}]|$)/g, `"${BIG}$1"`);
  return JSON.parse(marked, (_k, v: unknown) => {
    if (typeof v !== 'string' || !v.startsWith(BIG)) return v;
    const n = BigInt(v.slice(BIG.length));
    return n >= -(2n ** 63n) && n < 2n ** 63n ? n : Number(n);
  });
}
