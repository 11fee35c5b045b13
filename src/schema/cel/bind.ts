/**
 * A custom resource's value as the apiserver binds it for CEL (apiserver pkg/cel/common
 * valuesunstructured.go UnstructuredToVal, with the field names of SchemaDeclType):
 * - objects with properties (and embedded resources, which get apiVersion, kind and a metadata of
 *   name and generateName only) are Maps keyed by the escaped property names (cel.Escape);
 *   undeclared fields (preserve-unknown) are kept, unreachable, for equality;
 * - objects with an additionalProperties schema are Maps with the keys as written;
 * - objects with neither, and typeless preserve-unknown values, compare only (RawValue);
 * - set and map lists are marked (values.ts);
 * - int-or-string is an int or a string; `number` is always a double;
 * - strings with format duration, date, date-time and byte are durations, timestamps and bytes.
 * Where crdx is not sure to bind a value as the server does, the result says why (Unbound).
 */
import { isRecord } from '../../core/types.js';
import { CelGoError } from './lib/ops.js';
import { parseStrfmtDuration } from '../formats/index.js';
import { parseTimeRFC3339 } from '../../go/time.js';
import { base64Decode, base64ErrorOffset } from '../../go/base64.js';
import type { Structural } from '../../crd/structural-schema.js';
import { adoptTimestamp, timestampOfText } from './lib/time.js';
import { escapeProperty as celEscape, unescapeProperty as celUnescape } from './escape.js';
import { isEscapedObject, markBound, markEscapedObject, markList, markNumericItems, NullField, RawValue, UnknownField } from './values.js';

export class Unbound {
  constructor(readonly why: string) {}
}

/**
 * A value the server binds as an error (types.NewErr in UnstructuredToVal): every rule that reads it
 * fails with the error's text. At the node itself the evaluator reports that error; a value above
 * it is Unbound (crdx does not follow an error value through an object or a list).
 */
export class BoundError extends Unbound {
  constructor(readonly error: string) {
    super(`the server fails every rule that reads it: ${error}`);
  }
}

/** A child's Unbound as its parent's: a BoundError only binds its own node (or an object's field, below). */
const up = (c: Unbound): Unbound => (c instanceof BoundError ? new Unbound(c.why) : c);

/**
 * An object with a field the server binds as an error: reading the field (`self.b`, `self.b.size()`)
 * fails with the error, as cel-go's field selection returns it (`has(self.b)` too: the server reads
 * the value), and rules that do not read the field are evaluated as usual.
 */
function withErrorFields(m: Map<string, unknown>): Map<string, unknown> {
  // an own get on a plain Map: cel-js knows a value's type by its constructor
  Object.defineProperty(m, 'get', {
    value: (k: string): unknown => {
      const v = Map.prototype.get.call(m, k);
      if (v instanceof BoundError) throw new CelGoError(v.error);
      return v;
    },
  });
  return m;
}

/** The engine's constructors for values it has no literal for. */
export interface Makers {
  duration(seconds: bigint, nanos: number): unknown;
  /** The list adapters of a 1.37 server (set and map lists compare by CEL values; values.ts). */
  readonly adapters137?: boolean;
}

/**
 * The key of a bound object's Map a CEL field name reaches: an object with properties is keyed by
 * escaped names and the server unescapes the name it is asked for (unstructuredMap.Find), so
 * `self.package` and `self.__package__` both reach the property `package`; other maps take the name
 * as it is. undefined: no key.
 */
export function boundFieldKey(m: Map<string, unknown>, field: string): string | undefined {
  if (!isEscapedObject(m)) return field;
  const name = celUnescape(field);
  return name === undefined ? undefined : celEscape(name);
}

/** The key under which a field with no CEL name is kept (for equality only; no CEL name reaches it). */
const hidden = (k: string): string => `\u0000${k}`;

function bindString(v: string, s: Structural, mk: Makers): unknown {
  switch (s.valueValidation.format) {
    case 'duration': {
      // strfmt's reading, laxer spellings ("2d", "1 week") included
      const ns = parseStrfmtDuration(v);
      if (ns === undefined) return new Unbound(`the duration ${JSON.stringify(v)} is not one crdx binds as the server does`);
      return mk.duration(ns / 1_000_000_000n, Number(ns % 1_000_000_000n));
    }
    case 'date': {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
      if (!m) return new Unbound(`the date ${JSON.stringify(v)} is not one crdx binds`);
      const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
      if (d.getUTCDate() !== Number(m[3]) || d.getUTCFullYear() !== Number(m[1])) return new Unbound(`the date ${JSON.stringify(v)} is not one crdx binds`);
      return adoptTimestamp(d);
    }
    case 'date-time': {
      const t = parseTimeRFC3339(v);
      if ('error' in t) return new Unbound(`the date-time ${JSON.stringify(v)} is not one crdx binds at the server's precision`);
      // strfmt.DateTime keeps the nanoseconds and the zone the value was written in
      return timestampOfText(t.sec, t.nsec, v);
    }
    case 'byte': {
      // strfmt.Base64.UnmarshalText: base64.URLEncoding, where the format check reads StdEncoding, so
      // a value with '+' or '/' passes the schema and fails every rule that reads it
      const at = base64ErrorOffset(v, 'url');
      if (at !== undefined) return new BoundError(`Invalid byte formatted string ${v}: illegal base64 data at input byte ${at}`);
      return base64Decode(v, 'url');
    }
    default:
      return v;
  }
}

/** The value bound for schema s (root: the resource root, typed with TypeMeta and ObjectMeta). */
export function bindValue(v: unknown, s: Structural, root: boolean, mk: Makers): unknown {
  if (v === null || v === undefined) return s.generic.nullable && v === null ? null : new Unbound('a null value where the schema is not nullable');
  if (s.extensions.intOrString) {
    if (typeof v === 'string') return v;
    if (typeof v === 'bigint') return v;
    if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
    return new Unbound('an int-or-string value that is neither');
  }
  const t = s.generic.type;
  switch (t) {
    case 'boolean':
      return typeof v === 'boolean' ? v : new Unbound('a value of the wrong type');
    case 'string':
      return typeof v === 'string' ? bindString(v, s, mk) : new Unbound('a value of the wrong type');
    case 'integer':
      if (typeof v === 'bigint') return v;
      return typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : new Unbound('an integer crdx cannot bind exactly');
    case 'number':
      if (typeof v === 'number') return v;
      return typeof v === 'bigint' && Number.isSafeInteger(Number(v)) ? Number(v) : new Unbound('a number crdx cannot bind exactly');
    case 'array': {
      const it = s.items;
      if (!Array.isArray(v) || !it) return new Unbound('an array crdx cannot bind');
      const out: unknown[] = [];
      for (const x of v) {
        const c = bindValue(x, it, false, mk);
        if (c instanceof Unbound) return up(c);
        out.push(c);
      }
      const lt = s.extensions.listType;
      if (lt === 'set' || lt === 'map') markList(out, { kind: lt, keys: (s.extensions.listMapKeys ?? []).map((k) => celEscape(k) ?? k), celValues: mk.adapters137 === true });
      // a list of integers or numbers: its declared element type gives an empty one's sum() (cel-go's checker picks the overload)
      if (!it.extensions.intOrString && (it.generic.type === 'integer' || it.generic.type === 'number')) markNumericItems(out, it.generic.type === 'integer' ? 'int' : 'double');
      // the object's lists are the apiserver's adapters (not Zeroers: optional.ofNonZeroValue)
      return markBound(out);
    }
    case 'object': {
      if (!isRecord(v)) return new Unbound('a value of the wrong type');
      const typed = root || s.extensions.embeddedResource;
      const m = new Map<string, unknown>();
      const ap = s.additionalProperties?.schema;
      if (!typed && !s.declaresProperties && ap) {
        for (const [k, x] of Object.entries(v)) {
          const c = bindValue(x, ap, false, mk);
          if (c instanceof Unbound) return up(c);
          m.set(k, c);
        }
        return markBound(m);
      }
      const fields = typed || s.declaresProperties;
      let withErrors = false;
      for (const [k, x] of Object.entries(v)) {
        if (typed && k === 'metadata') {
          // model.WithTypeAndObjectMeta: metadata holds name and generateName only
          if (!isRecord(x)) return new Unbound('a metadata that is not an object');
          const md = new Map<string, unknown>();
          for (const mk2 of ['name', 'generateName']) if (typeof x[mk2] === 'string') md.set(mk2, x[mk2]);
          m.set(k, markBound(md));
          continue;
        }
        if (typed && (k === 'apiVersion' || k === 'kind')) {
          if (typeof x !== 'string') return new Unbound(`a ${k} that is not a string`);
          m.set(k, x);
          continue;
        }
        const cs = fields ? s.properties.get(k) : undefined;
        const name = cs ? celEscape(k) : undefined;
        if (!cs || name === undefined || cs.generic.type === '' && !cs.extensions.intOrString) {
          // no CEL name (undeclared, unescapable, or a typeless preserve-unknown node): compared only
          m.set(hidden(k), cs ? new RawValue(x) : new UnknownField(x));
          continue;
        }
        if (x === null) {
          // unstructuredMap.Find: in an object with properties a null field is absent (a nullable one;
          // a null the schema does not allow is pruned or refused before CEL runs)
          if (!cs.generic.nullable) return new Unbound('a null value where the schema is not nullable');
          m.set(hidden(k), new NullField(name));
          continue;
        }
        const c = bindValue(x, cs, false, mk);
        if (c instanceof BoundError) withErrors = true;
        else if (c instanceof Unbound) return c;
        m.set(name, c);
      }
      return markEscapedObject(markBound(withErrors ? withErrorFields(m) : m));
    }
    default:
      if (s.extensions.preserveUnknownFields) return new RawValue(v);
      return new Unbound('a schema without a type');
  }
}
