/**
 * encoding/json's output for decoded values: json.Marshal (compact, map keys in byte order,
 * HTML-safe strings) and json.MarshalIndent as kubectl -o json prints what the server sends back.
 */
import { jsonText } from '../core/json-text.js';
import { isRecord } from '../core/types.js';
import { goCompare, goSortedKeys, wellFormed } from './strings.js';
import { asBig, asFloat, INT64_MAX, INT64_MIN, kindOf } from './value.js';

/** encoding/json.Marshal of a decoded JSON value (sorted keys, HTML-safe escaping; a Map is a struct, in its order). */
export function goJSON(v: unknown): string {
  switch (kindOf(v)) {
    case 'null':
      return 'null';
    case 'bool':
      return String(v);
    case 'string':
      return jsonString(v as string);
    case 'int':
      return asBig(v).toString();
    case 'float':
      return jsonFloat(asFloat(v));
    case 'slice':
      return `[${(v as unknown[]).map(goJSON).join(',')}]`;
    case 'map': {
      // a Go struct (structOrdered): its fields in declaration order
      if (v instanceof Map) return `{${[...v].map(([k, x]) => `${jsonString(String(k))}:${goJSON(x)}`).join(',')}}`;
      const o = v as Record<string, unknown>;
      return `{${goSortedKeys(o)
        .map((k) => `${jsonString(k)}:${goJSON(o[k])}`)
        .join(',')}}`;
    }
  }
}

/**
 * The byte length of goJSON(v), read off JavaScript's own JSON text (much faster on a large object):
 * the two differ only in key order and in what Go escapes more (<, >, & as \u003c…: 5 bytes more;
 * U+2028 and U+2029 as \u2028: 3 more). A lone surrogate (JavaScript: \udXXX, Go: U+FFFD) counts
 * 3 bytes too many; YAML cannot carry one into a decoded value.
 */
export function goJSONLength(v: unknown): number {
  const s = jsonText(v) ?? 'null';
  const html = s.match(/[<>&]/g)?.length ?? 0;
  const separators = s.match(/[\u2028\u2029]/g)?.length ?? 0;
  return Buffer.byteLength(s, 'utf8') + 5 * html + 3 * separators;
}

/**
 * A float64 as encoding/json writes it: 'f' shortest, exponent form (`1e-7`, `1e+21`) below 1e-6
 * and from 1e21, the same thresholds and spelling as JS except for -0; NaN and infinities cannot
 * be encoded (json: unsupported value), `null` here.
 */
export function jsonFloat(f: number): string {
  if (!Number.isFinite(f)) return 'null';
  return Object.is(f, -0) ? '-0' : String(f);
}

/** A string as encoding/json writes it (HTML-safe; a lone surrogate becomes U+FFFD). */
function jsonString(s: string): string {
  let out = '"';
  for (const ch of wellFormed(s)) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029)
      out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
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
    out.push(jsonString(v));
  } else if (typeof v === 'number') {
    out.push(jsonFloat(v));
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
    out.push(`${inner}${jsonString(k)}: `);
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

/** What a number-preserving decode puts in place of a long integer before JSON.parse reads the text. */
const LONG_INT_MARK = '\u0000crdx-int:';
/** A string token, or an integer token of 16 or more digits that is neither part of a float nor of an exponent. */
const LONG_INT = /"(?:[^"\\]|\\.)*"|(?<![\w.+-])(-?\d{16,})(?![\w.])/g;

/**
 * A JSON text decoded as a Go client of the API server decodes it (k8s.io/apimachinery's
 * json.Unmarshal into interface{}): an integer token is an int64 when it fits, exact (a bigint
 * beyond 2^53), else a float64, as is any token with a fraction or an exponent. JSON.parse alone
 * would round 9007199254740993 to ...992; the server writes a whole float64 as digits too
 * (4611686018427388000), which a Go client reads as that int64.
 */
export function goJsonDecode(text: string): unknown {
  let found = false;
  const marked = text.replace(LONG_INT, (m: string, digits: string | undefined) => {
    if (digits === undefined || Number.isSafeInteger(Number(digits))) return m;
    found = true;
    return JSON.stringify(LONG_INT_MARK + digits);
  });
  // a text that holds the mark itself is read as JSON.parse reads it (never from a server)
  if (!found || text.includes(LONG_INT_MARK.slice(1))) return JSON.parse(text);
  return JSON.parse(marked, (_k, v: unknown) => {
    if (typeof v !== 'string' || !v.startsWith(LONG_INT_MARK)) return v;
    const digits = v.slice(LONG_INT_MARK.length);
    const i = BigInt(digits);
    return i >= INT64_MIN && i <= INT64_MAX ? i : Number(digits);
  });
}
