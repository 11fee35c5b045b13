/**
 * The server's field-path syntax for CEL fieldPath and selectableFields (cel/validation.go
 * ValidFieldPath): `.name` or `['quoted key']`, resolved through properties or additionalProperties.
 */
import { isRecord } from '../core/types.js';
import { emptyStructural, type Structural } from '../crd/structural-schema.js';

interface FieldPathResult {
  readonly error?: string;
  /**
   * The path reaches a step with no schema at all (`root` null: NewStructural failed and the
   * validator is handed a nil schema): the server dereferences nil there and panics.
   */
  readonly panics?: true;
  /** The schema the path resolves to. */
  readonly schema?: Structural;
  /** Segments of the resolved path. */
  readonly segments?: readonly string[];
  /**
   * The path as the server prints it (field.Path's String): a property `.name`, a key of
   * additionalProperties `[key]`, unquoted; what a CEL rule's error is reported at, below its node.
   */
  readonly normalized?: string;
}

function tokenize(p: string): string[] {
  const toks: string[] = [];
  let i = 0;
  while (i < p.length) {
    if (p[i] === "'") {
      let j = i + 1;
      while (j < p.length && !(p[j] === "'" && p[j - 1] !== '\\')) j++;
      if (j < p.length) {
        toks.push(p.slice(i, j + 1));
        i = j + 1;
        continue;
      }
      toks.push(p.slice(i));
      break;
    }
    const c = p[i]!;
    if (c === '.' || c === '[' || c === ']') {
      toks.push(c);
      i++;
      continue;
    }
    let j = i;
    while (j < p.length && !['.', '[', ']'].includes(p[j]!)) j++;
    toks.push(p.slice(i, j));
    i = j;
  }
  return toks;
}

/** The escapes unescapeSingleQuote knows (no `\"`, `\x..` or `\u....`). */
const SIMPLE_ESC: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'" };

/**
 * The server's unescapeSingleQuote: every backslash and the character after it (Go's regexp `\\.`,
 * whose `.` is any character but a newline, so a backslash before a newline or at the end stays as
 * it is) is replaced; an unknown escape is an error, and the error is the last such escape's (each
 * replacement overwrites it).
 */
function unescape(s: string): { readonly value: string } | { readonly error: string } {
  let out = '';
  let error: string | undefined;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const next = i + 1 < s.length ? String.fromCodePoint(s.codePointAt(i + 1)!) : undefined;
    if (c !== '\\' || next === undefined || next === '\n') {
      out += c;
      continue;
    }
    i += next.length;
    const r = SIMPLE_ESC[next];
    if (r === undefined) error = `invalid escape char \\${next}`;
    else out += r;
  }
  return error !== undefined ? { error } : { value: out };
}

/** Whether the raw record has an own key `k` that is neither null nor absent. */
function ownPresent(raw: Record<string, unknown>, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(raw, k) && raw[k] !== null && raw[k] !== undefined;
}

/**
 * ValidFieldPath over `root`; null stands for the nil schema selectableFields validation passes on
 * when the schema is not structural: the tokens are read as usual, and the first step through a
 * property or key panics (`panics`).
 */
export function validFieldPath(path: string, root: Structural | null, allowArrayNotation = true): FieldPathResult {
  const toks = tokenize(path);
  if (root === null) return nilSchemaPath(toks, allowArrayNotation);
  let schema: Structural = root;
  const segments: string[] = [];
  let normalized = '';
  const step = (name: string): string | undefined => {
    const s = schema;
    // the structural form keeps no properties map when it is empty (as written: entries that are no
    // schema still count, and then lead nowhere)
    const props = ownPresent(s.raw, 'properties') ? s.raw['properties'] : undefined;
    if (isRecord(props) && Object.keys(props).length > 0) {
      const p = s.properties.get(name);
      if (p === undefined) return 'does not refer to a valid field';
      schema = p;
      normalized = normalized === '' ? name : `${normalized}.${name}`;
    } else if (ownPresent(s.raw, 'additionalProperties')) {
      schema = s.additionalProperties?.schema ?? emptyStructural();
      normalized = `${normalized}[${name}]`;
    } else return 'does not refer to a valid field';
    segments.push(name);
    return undefined;
  };
  for (let i = 0; i < toks.length; i++) {
    const tok = toks[i]!;
    if (tok === '[') {
      if (!allowArrayNotation) return { error: 'array notation is not allowed' };
      const t = toks[++i];
      if (t === undefined) return { error: 'unexpected end of JSON path' };
      if (t.length < 2 || t[0] !== "'" || t[t.length - 1] !== "'") {
        return { error: `expected single quoted string but got ${t}` };
      }
      const u = unescape(t.slice(1, -1));
      if ('error' in u) return { error: `invalid string literal: ${u.error}` };
      const e = step(u.value);
      if (e) return { error: e };
      const close = toks[++i];
      if (close === undefined) return { error: 'unexpected end of JSON path' };
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      const t = toks[++i];
      if (t === undefined) return { error: 'unexpected end of JSON path' };
      const e = step(t);
      if (e) return { error: e };
    } else {
      return { error: `expected [ or . but got: ${tok}` };
    }
  }
  return { schema, segments, normalized };
}

/** ValidFieldPath's errors before its first step, and the panic at that step, for a nil schema. */
function nilSchemaPath(toks: readonly string[], allowArrayNotation: boolean): FieldPathResult {
  const tok = toks[0];
  if (tok === '[') {
    if (!allowArrayNotation) return { error: 'array notation is not allowed' };
    const t = toks[1];
    if (t === undefined) return { error: 'unexpected end of JSON path' };
    if (t.length < 2 || t[0] !== "'" || t[t.length - 1] !== "'") return { error: `expected single quoted string but got ${t}` };
    const u = unescape(t.slice(1, -1));
    if ('error' in u) return { error: `invalid string literal: ${u.error}` };
    return { panics: true };
  }
  if (tok === '.') return toks[1] === undefined ? { error: 'unexpected end of JSON path' } : { panics: true };
  return { error: `expected [ or . but got: ${tok}` };
}
