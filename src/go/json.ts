/** encoding/json.Marshal of a decoded JSON value. */
import { asBig, asFloat, kindOf, sortedKeys, wellFormed } from './value.js';

/** encoding/json.Marshal of a decoded JSON value (sorted keys, HTML-safe escaping). */
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
    case 'float': {
      const f = asFloat(v);
      return Number.isFinite(f) ? String(f) : 'null';
    }
    case 'slice':
      return `[${(v as unknown[]).map(goJSON).join(',')}]`;
    case 'map': {
      const o = v as Record<string, unknown>;
      return `{${sortedKeys(o)
        .map((k) => `${jsonString(k)}:${goJSON(o[k])}`)
        .join(',')}}`;
    }
  }
}

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
