/**
 * Decoded objects printed as kubectl prints what the server sends back: `-o json` is Go's
 * encoding/json (map keys in byte order, `<`, `>`, `&`, U+2028 and U+2029 escaped, four-space
 * indent), `-o yaml` is sigs.k8s.io/yaml's go-yaml v2 output, whose map keys come in go-yaml's
 * "natural" order (runs of digits compared as numbers, a non-letter before a letter).
 *
 * A JS object lists integer-like keys first whatever order they were added in, so the YAML side
 * has the `yaml` package sort the entries it makes, and the JSON side writes its own text.
 */
import { goCompare } from './go.js';
import { isRecord } from './types.js';

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

/** go-yaml v2's keyList.Less for two string keys (go.yaml.in/yaml/v2 sorter.go). */
export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = Array.from(a);
  const br = Array.from(b);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = LETTER.test(ar[i]!);
    const bl = LETTER.test(br[i]!);
    if (al && bl) return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
    if (al || bl) return bl;
    let an = 0n;
    let bn = 0n;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && DIGIT.test(ar[j]!); j--) {
        if (ar[j] !== '0') {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && DIGIT.test(ar[ai]!); ai++) an = BigInt.asIntN(64, an * 10n + BigInt(ar[ai]!.codePointAt(0)! - 48));
    let bi = i;
    for (; bi < br.length && DIGIT.test(br[bi]!); bi++) bn = BigInt.asIntN(64, bn * 10n + BigInt(br[bi]!.codePointAt(0)! - 48));
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
  }
  return ar.length < br.length;
}

/** go-yaml v2's order of two string keys as a comparator. */
export function goYamlKeyCompare(a: string, b: string): number {
  return goYamlKeyLess(a, b) ? -1 : goYamlKeyLess(b, a) ? 1 : 0;
}

const ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f<>&\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A string as Go's encoding/json writes it (HTML-safe; an unpaired surrogate becomes U+FFFD). */
export function goJsonString(s: string): string {
  return `"${s.replace(NEEDS_ESCAPE, (c) => {
    const e = ESCAPES[c];
    if (e !== undefined) return e;
    if (c.length === 1 && c.charCodeAt(0) >= 0xd800 && c.charCodeAt(0) <= 0xdfff) return '\ufffd';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  })}"`;
}

/**
 * JSON text as kubectl -o json prints a decoded object (json.MarshalIndent with four spaces):
 * the keys of an object in byte order (a Map's in its own order, see structOrdered), HTML-safe
 * strings, int64s beyond 2^53 (bigint) as their digits.
 */
export function goJsonIndent(v: unknown, indent = '    '): string {
  const out: string[] = [];
  write(v, '', indent, out);
  return out.join('');
}

function write(v: unknown, pad: string, indent: string, out: string[]): void {
  if (v === null || v === undefined) {
    out.push('null');
  } else if (typeof v === 'string') {
    out.push(goJsonString(v));
  } else if (typeof v === 'number') {
    out.push(Number.isFinite(v) ? JSON.stringify(v) : 'null');
  } else if (typeof v === 'bigint') {
    out.push(v.toString());
  } else if (typeof v === 'boolean') {
    out.push(v ? 'true' : 'false');
  } else if (Array.isArray(v)) {
    if (v.length === 0) return void out.push('[]');
    const inner = pad + indent;
    out.push('[\n');
    v.forEach((x, i) => {
      out.push(inner);
      write(x, inner, indent, out);
      out.push(i < v.length - 1 ? ',\n' : '\n');
    });
    out.push(`${pad}]`);
  } else if (v instanceof Map) {
    // a Map keeps its order (structOrdered)
    writeObject([...(v as Map<string, unknown>).entries()], pad, indent, out);
  } else if (isRecord(v)) {
    writeObject(
      Object.keys(v)
        .sort(goCompare)
        .map((k) => [k, v[k]]),
      pad,
      indent,
      out,
    );
  } else {
    out.push('null');
  }
}

/** The members of an object in the order given; undefined members are left out, as JSON.stringify does. */
function writeObject(members: [string, unknown][], pad: string, indent: string, out: string[]): void {
  const set = members.filter(([, x]) => x !== undefined);
  if (set.length === 0) return void out.push('{}');
  const inner = pad + indent;
  out.push('{\n');
  set.forEach(([k, x], i) => {
    out.push(`${inner}${goJsonString(k)}: `);
    write(x, inner, indent, out);
    out.push(i < set.length - 1 ? ',\n' : '\n');
  });
  out.push(`${pad}}`);
}

/**
 * A typed API object (a Go struct, such as autoscaling/v1 Scale) keeps its fields in declaration
 * order in JSON: the value with every object turned into a Map in the order its keys were set.
 */
export function structOrdered(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(structOrdered);
  if (isRecord(v)) return new Map(Object.keys(v).map((k) => [k, structOrdered(v[k])]));
  return v;
}
