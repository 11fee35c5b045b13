/**
 * Validation of a decoded JSON value against a CRD schema, as the API server does it when a custom
 * resource is created or updated (apiextensions-apiserver `validation.ValidateCustomResource`, which runs
 * the kube-openapi `validate.SchemaValidator` and maps its errors to field errors), plus the uniqueness
 * checks of `x-kubernetes-list-type: set|map` (`schema/listtype.ValidateListSetsAndMaps`).
 *
 * Everything here mirrors the server's behaviour, including its quirks:
 *  - the detail texts are go-openapi's, with the path relative to the validated root (`spec.x in body …`);
 *  - `1.5` passes `enum: [1]`, `97` passes `enum: ["a"]` (Go reflect conversions);
 *  - `null` never passes an `enum`, even with `nullable: true`;
 *  - integer values are compared with an integer-truncated `minimum`/`maximum`/`multipleOf`;
 *  - a bound that does not fit the declared integer type/format adds a `<nil>`-path error to every value;
 *  - `anyOf`/`oneOf` report the errors of the branch with the most successful checks (go-openapi MatchCount);
 *  - unknown formats are ignored; only the formats the server supports at its compatibility version are checked.
 *
 * Go iterates maps in random order, so the server's order of errors between sibling properties is not
 * deterministic. Here keys are visited in sorted (code point) order; everything else follows the server.
 *
 * JSON numbers: the server decodes an integer literal that fits in int64 as int64 and everything else as
 * float64. kubectl re-encodes `1.0` as `1` before sending, so a JS number that is an integer in the int64
 * range is treated as an int64, any other number as a float64. `bigint` values are accepted too.
 */
import { goSortedKeys } from '../core/go.js';
import { RE2JS } from 're2js';
import type { FieldError } from '../core/field-error.js';
import { OMIT } from '../core/field-error.js';
import type { Loc } from '../core/path.js';
import type { JsonPath } from '../core/types.js';

export interface ValueValidateOptions {
  /** Kubernetes minor version of the server (1.<minor>); default 36. Formats are gated by its compatibility version (minor - 1). */
  readonly kubeMinor?: number;
  /**
   * Build the validator the way `defaulting.ValidateDefaults` does (`Structural.ToKubeOpenAPI()`) instead of the
   * request path (`ConvertJSONSchemaPropsWithPostProcess` + `StripUnsupportedFormatsPostProcessorForVersion`):
   * formats are not stripped (every registered format is checked whatever the type), and
   * `x-kubernetes-int-or-string` does not imply a type. Default false.
   */
  readonly structural?: boolean;
  /** Also run the `x-kubernetes-list-type` set/map uniqueness checks (validateValue only). Default true. */
  readonly listTypes?: boolean;
}

type Raw = Record<string, unknown>;

/**
 * Schema validation (kube-openapi) followed by the list-type uniqueness checks, in the server's order.
 * `loc.field === ''` stands for the server's nil field path (the request path): errors without a name print as `<nil>`.
 */
export function validateValue(value: unknown, schema: Raw, loc: Loc, opts: ValueValidateOptions = {}): FieldError[] {
  const errs = validateSchema(value, schema, loc, opts);
  if (opts.listTypes !== false) errs.push(...validateListTypes(value, schema, loc));
  return errs;
}

/**
 * `ValidateCustomResourceUpdate(fldPath, new, old, validator)` with validation ratcheting (on by default
 * since 1.30, GA 1.33; pkg/apiserver/validation/ratcheting.go): the schema validator follows the new
 * value, and a value that can be correlated with an old one (object properties, items of
 * `x-kubernetes-list-type: map` lists by their keys; never atomic lists or sets) and is deep-equal to it
 * has its errors dropped. `apiVersion` and `kind` at the root are never ratcheted.
 */
export function validateSchemaUpdate(value: unknown, old: unknown, schema: Raw, loc: Loc, opts: ValueValidateOptions = {}): FieldError[] {
  const ctx = contextFor(opts);
  const s = compileSchema(schema, ctx);
  const v = normalizeValue(value);
  const res = validateAgainst(s, v, '', loc.at, ctx, new Corr(v, normalizeValue(old), s), true);
  return res.errors.map((e) => toFieldError(e, loc));
}

/** common.CorrelatedObject (k8s.io/apiserver/pkg/cel/common/equality.go): a new value, the old value it corresponds to, and its schema. */
class Corr {
  private readonly children = new Map<string | number, Corr | undefined>();
  private equal: boolean | undefined;
  private oldByKey: Map<string, unknown> | undefined;

  constructor(
    readonly value: unknown,
    readonly old: unknown,
    readonly schema: OSchema,
  ) {}

  /** Key(field): the property's correlated child, when both values are objects holding it and the schema knows it. */
  key(field: string): Corr | undefined {
    const k = `k:${field}`;
    if (this.children.has(k)) return this.children.get(k);
    let child: Corr | undefined;
    if (isMap(this.value) && isMap(this.old) && Object.prototype.hasOwnProperty.call(this.value, field) && Object.prototype.hasOwnProperty.call(this.old, field)) {
      const ps = this.schema.properties?.get(field) ?? this.schema.additionalProperties?.schema;
      if (ps !== undefined) child = new Corr(this.value[field], this.old[field], ps);
    }
    this.children.set(k, child);
    return child;
  }

  /** Index(i): only the items of a map-list correlate, with the old item of the same keys. */
  index(i: number): Corr | undefined {
    if (this.children.has(i)) return this.children.get(i);
    let child: Corr | undefined;
    if (Array.isArray(this.value) && Array.isArray(this.old) && i < this.value.length && this.schema.items !== undefined) {
      const o = this.oldItemFor(this.value[i]);
      if (o !== undefined && o !== null) child = new Corr(this.value[i], o, this.schema.items);
    }
    this.children.set(i, child);
    return child;
  }

  private oldItemFor(item: unknown): unknown {
    const s = this.schema;
    const old = this.old as unknown[];
    if (s.listType !== 'map' || !s.type.includes('array') || s.listMapKeys.length === 0 || old.length === 0 || !isMap(item)) return undefined;
    if (this.oldByKey === undefined) {
      this.oldByKey = new Map();
      for (const o of old) {
        if (!isMap(o)) continue;
        const k = this.compositeKey(o);
        if (k !== undefined && !this.oldByKey.has(k)) this.oldByKey.set(k, o);
      }
    }
    const k = this.compositeKey(item);
    return k === undefined ? undefined : this.oldByKey.get(k);
  }

  /** keyStrategy.CompositeKeyFor: scalar key values, typed (an int64 1 and a float64 1 differ). */
  private compositeKey(o: Record<string, unknown>): string | undefined {
    const parts: string[] = [];
    for (const key of this.schema.listMapKeys) {
      if (!Object.prototype.hasOwnProperty.call(o, key)) return undefined;
      const v = o[key];
      const kind = kindOf(v);
      if (kind === 'bool' || kind === 'string') parts.push(`${kind}:${String(v)}`);
      else if (kind === 'int') parts.push(`int:${asBig(v)}`);
      else if (kind === 'float') parts.push(`float:${asFloat(v)}`);
      else return undefined;
    }
    return parts.join('\u0000');
  }

  /** CachedDeepEqual */
  deepEqual(): boolean {
    if (this.equal === undefined) this.equal = this.computeEqual();
    return this.equal;
  }

  private computeEqual(): boolean {
    const a = this.value;
    const b = this.old;
    if (a == null && b == null) return true;
    if (a == null || b == null) return false;
    if (Array.isArray(a) !== Array.isArray(b) || isMap(a) !== isMap(b)) return false;
    if (Array.isArray(a)) {
      const o = b as unknown[];
      if (a.length !== o.length) return false;
      const mapList = this.schema.listType === 'map' && this.schema.type.includes('array') && this.schema.listMapKeys.length > 0;
      for (let i = 0; i < a.length; i++) {
        const c = this.index(i);
        if (c === undefined) return mapList ? false : goDeepEqual(a, o);
        if (!c.deepEqual()) return false;
      }
      return true;
    }
    if (isMap(a)) {
      const o = b as Record<string, unknown>;
      const keys = Object.keys(a);
      if (keys.length !== Object.keys(o).length) return false;
      for (const k of keys) {
        const c = this.key(k);
        if (c === undefined || !c.deepEqual()) return false;
      }
      return true;
    }
    return goDeepEqual(a, b);
  }
}

/** SubPropertyValidator: a ratcheting validator for a correlated child, the plain one otherwise (and for the root's apiVersion/kind). */
function byKey(corr: Corr | undefined, field: string, parentPath: string): readonly [Corr | undefined, boolean] {
  if (corr === undefined || (parentPath === '' && (field === 'kind' || field === 'apiVersion'))) return NO_CORR;
  const c = corr.key(field);
  return [c, c !== undefined];
}

/** No old value to correlate with (every create): one shared answer. */
const NO_CORR: readonly [undefined, false] = [undefined, false];

/** SubIndexValidator */
function byIndex(corr: Corr | undefined, i: number): readonly [Corr | undefined, boolean] {
  if (corr === undefined) return NO_CORR;
  const c = corr.index(i);
  return [c, c !== undefined];
}

/** Only `ValidateCustomResource(fldPath, value, validator)`: the kube-openapi schema validator and its error mapping. */
export function validateSchema(value: unknown, schema: Raw, loc: Loc, opts: ValueValidateOptions = {}): FieldError[] {
  const ctx = contextFor(opts);
  const s = compileSchema(schema, ctx);
  const res = validateAgainst(s, normalizedView(value), '', loc.at, ctx);
  return res.errors.map((e) => toFieldError(e, loc));
}

// ---------------------------------------------------------------------------------------------------------------
// Go value model
// ---------------------------------------------------------------------------------------------------------------

/** The Go dynamic type of a decoded JSON value (map[string]interface{}, []interface{}, string, int64, float64, bool, nil). */
type GoKind = 'null' | 'bool' | 'string' | 'int' | 'float' | 'slice' | 'map';

const TWO63 = 9223372036854775808; // 2^63 as a double
const MIN_INT64 = -(2n ** 63n);
const MAX_INT64 = 2n ** 63n - 1n;

function kindOf(v: unknown): GoKind {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(v) && v >= -TWO63 && v < TWO63 ? 'int' : 'float';
    case 'bigint':
      return v >= MIN_INT64 && v <= MAX_INT64 ? 'int' : 'float';
    case 'object':
      return Array.isArray(v) ? 'slice' : 'map';
    default:
      return 'null';
  }
}

function asBig(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  return 0n;
}

function asFloat(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return 0;
}

/** Go's int64(f) on amd64: truncation, and 0x8000000000000000 for NaN and out-of-range values. */
function goFloatToInt64(f: number): bigint {
  if (Number.isNaN(f) || f >= TWO63 || f < -TWO63) return MIN_INT64;
  return BigInt(Math.trunc(f));
}

/** Replaces lone surrogates by U+FFFD, as Go's JSON decoder does with invalid UTF-16 escapes. */
function wellFormed(s: string): string {
  // String.prototype.isWellFormed / toWellFormed (ES2024; V8 in every Node.js from 20): the same
  // replacement of lone surrogates by U+FFFD, without a RegExp scan of every string
  const w = s as string & { isWellFormed?: () => boolean; toWellFormed?: () => string };
  if (w.isWellFormed !== undefined && w.toWellFormed !== undefined) return w.isWellFormed() ? s : w.toWellFormed();
  return /[\uD800-\uDFFF]/.test(s)
    ? s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    : s;
}

/** Decoded JSON as Go sees it: strings well-formed, Dates as RFC 3339 strings, undefined object members dropped. */
function normalizeValue(v: unknown): unknown {
  if (typeof v === 'string') return wellFormed(v);
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(normalizeValue);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[wellFormed(k)] = normalizeValue(x);
    return out;
  }
  return v;
}

/**
 * normalizeValue without copying what it would not change: the value itself when it is already as
 * Go sees it, else a copy (built as normalizeValue builds it) whose unchanged parts are shared with
 * the input. The validator only reads its data.
 */
function normalizedView(v: unknown): unknown {
  if (typeof v === 'string') return wellFormed(v);
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      const c = normalizedView(x);
      if (c !== x) (out ??= v.slice())[i] = c;
    }
    return out ?? v;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  // the members' views, made once something changes (most objects have nothing to change)
  let vals: unknown[] | undefined;
  let changed = Object.getPrototypeOf(o) !== Object.prototype;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const x = o[k];
    if (x === undefined) {
      changed = true;
      continue;
    }
    const c = normalizedView(x);
    if (vals !== undefined) vals[i] = c;
    else if (c !== x) {
      vals = new Array(keys.length);
      for (let j = 0; j < i; j++) vals[j] = o[keys[j]!];
      vals[i] = c;
    }
    if (c !== x || k === '__proto__' || wellFormed(k) !== k) changed = true;
  }
  if (!changed) return o;
  if (vals === undefined) vals = keys.map((k) => o[k]);
  const out: Record<string, unknown> = {};
  for (let i = 0; i < keys.length; i++) if (o[keys[i]!] !== undefined) out[wellFormed(keys[i]!)] = vals[i];
  return out;
}

/**
 * A copy with object keys sorted (code point order), so that the JSON rendering of a field error value
 * matches Go's json.Marshal of a map. Scalars are returned as they are.
 */
function sortedCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedCopy);
  if (isMap(v)) {
    const out: Record<string, unknown> = {};
    for (const k of sortedKeys(v)) out[k] = sortedCopy(v[k]);
    return out;
  }
  return v;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

const sortedKeys = (o: Record<string, unknown>): string[] => goSortedKeys(o);

function utf8Len(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

function runeCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** reflect.DeepEqual on decoded JSON values (int64 and float64 are different types). */
function goDeepEqual(a: unknown, b: unknown): boolean {
  const ka = kindOf(a);
  if (ka !== kindOf(b)) return false;
  switch (ka) {
    case 'null':
      return true;
    case 'bool':
    case 'string':
      return a === b;
    case 'int':
      return asBig(a) === asBig(b);
    case 'float':
      return asFloat(a) === asFloat(b);
    case 'slice': {
      const x = a as unknown[];
      const y = b as unknown[];
      return x.length === y.length && x.every((e, i) => goDeepEqual(e, y[i]));
    }
    case 'map': {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const kx = Object.keys(x);
      if (kx.length !== Object.keys(y).length) return false;
      return kx.every((k) => Object.prototype.hasOwnProperty.call(y, k) && goDeepEqual(x[k], y[k]));
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Go formatting
// ---------------------------------------------------------------------------------------------------------------

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** strconv.Quote (what %q prints for a string). */
function quote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (PRINTABLE.test(ch)) out += ch;
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

/** Shortest round-trip digits and decimal exponent of a finite non-zero |x|: x = 0.d1d2… × 10^dp. */
function shortestDigits(x: number): { digits: string; dp: number } {
  const [mant = '0', exp = '0'] = Math.abs(x).toExponential().split('e');
  const digits = mant.replace('.', '');
  return { digits, dp: Number(exp) + 1 };
}

/** strconv.FormatFloat(x, 'f', -1, 64). */
function formatFloatF(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : x > 0 ? '+Inf' : '-Inf';
  const { digits, dp } = shortestDigits(x);
  let s: string;
  if (dp <= 0) s = `0.${'0'.repeat(-dp)}${digits}`;
  else if (dp >= digits.length) s = digits + '0'.repeat(dp - digits.length);
  else s = `${digits.slice(0, dp)}.${digits.slice(dp)}`;
  return x < 0 ? `-${s}` : s;
}

/** fmt's %v for a float64: strconv 'g' with the shortest digits, in exponent form when exp < -4 || exp >= 6 (1e+06, 1e-05). */
function formatFloatV(x: number): string {
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : x > 0 ? '+Inf' : '-Inf';
  const { digits, dp } = shortestDigits(x);
  const exp = dp - 1;
  if (exp < -4 || exp >= 6) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${x < 0 ? '-' : ''}${m}e${exp < 0 ? '-' : '+'}${e}`;
  }
  return formatFloatF(x);
}

/** %v of a decoded JSON value (only used for texts that never reach the user, e.g. the enum message). */
function formatV(v: unknown): string {
  switch (kindOf(v)) {
    case 'null':
      return '<nil>';
    case 'bool':
    case 'string':
      return String(v);
    case 'int':
      return asBig(v).toString();
    case 'float':
      return formatFloatV(asFloat(v));
    case 'slice':
      return `[${(v as unknown[]).map(formatV).join(' ')}]`;
    case 'map': {
      const o = v as Record<string, unknown>;
      return `map[${sortedKeys(o)
        .map((k) => `${k}:${formatV(o[k])}`)
        .join(' ')}]`;
    }
  }
}

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

// ---------------------------------------------------------------------------------------------------------------
// Regular expressions (Go regexp syntax and semantics through RE2JS), compiled once per pattern
// ---------------------------------------------------------------------------------------------------------------

type Compiled = { ok: true; re: RE2JS } | { ok: false; message: string };
const REGEXES = new Map<string, Compiled>();

function compileRegex(pattern: string): Compiled {
  let c = REGEXES.get(pattern);
  if (c === undefined) {
    try {
      c = { ok: true, re: RE2JS.compile(pattern) };
    } catch (e) {
      c = { ok: false, message: e instanceof Error ? e.message : String(e) };
    }
    REGEXES.set(pattern, c);
  }
  return c;
}

/** regexp.MatchString: unanchored search; an invalid pattern never matches. */
function reMatch(pattern: string, s: string): boolean {
  const c = compileRegex(pattern);
  return c.ok && c.re.matcher(s).find();
}

// ---------------------------------------------------------------------------------------------------------------
// The kube-openapi schema (spec.Schema after ConvertJSONSchemaProps / ToKubeOpenAPI)
// ---------------------------------------------------------------------------------------------------------------

interface SchemaOrBool {
  readonly allows: boolean;
  readonly schema: OSchema | undefined;
}

interface OSchema {
  readonly type: readonly string[];
  readonly nullable: boolean;
  /** After the server's format post-processing (unsupported formats are ''). */
  readonly format: string;
  readonly maximum: number | undefined;
  readonly exclusiveMaximum: boolean;
  readonly minimum: number | undefined;
  readonly exclusiveMinimum: boolean;
  readonly multipleOf: number | undefined;
  readonly maxLength: number | undefined;
  readonly minLength: number | undefined;
  readonly pattern: string;
  readonly maxItems: number | undefined;
  readonly minItems: number | undefined;
  readonly uniqueItems: boolean;
  readonly maxProperties: number | undefined;
  readonly minProperties: number | undefined;
  readonly required: readonly string[];
  readonly enum: readonly unknown[];
  readonly allOf: readonly OSchema[];
  readonly anyOf: readonly OSchema[];
  readonly oneOf: readonly OSchema[];
  readonly not: OSchema | undefined;
  /** Sorted by key. */
  readonly properties: ReadonlyMap<string, OSchema> | undefined;
  readonly patternProperties: ReadonlyMap<string, OSchema> | undefined;
  readonly additionalProperties: SchemaOrBool | undefined;
  readonly items: OSchema | undefined;
  readonly itemsTuple: readonly OSchema[] | undefined;
  readonly additionalItems: SchemaOrBool | undefined;
  readonly dependencies: ReadonlyMap<string, { schema: OSchema | undefined; property: readonly string[] }> | undefined;
  /** x-kubernetes-list-type and -map-keys (ratcheting correlates map-list items by key). */
  readonly listType: string;
  readonly listMapKeys: readonly string[];
}

interface Ctx {
  readonly key: string;
  readonly structural: boolean;
  /** Normalized names of the formats kept by the post-processor (request path only). */
  readonly supported: ReadonlySet<string>;
  /** Normalized names of the formats in strfmt.Default. */
  readonly registry: ReadonlySet<string>;
}

const BASE_FORMATS = [
  'bsonobjectid',
  'uri',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'cidr',
  'mac',
  'uuid',
  'uuid3',
  'uuid4',
  'uuid5',
  'isbn',
  'isbn10',
  'isbn13',
  'creditcard',
  'ssn',
  'hexcolor',
  'rgbcolor',
  'byte',
  'password',
  'date',
  'duration',
  'datetime',
];
/** Added to the supported list in 1.34 (validated from compatibility version 1.34, i.e. a 1.35 server). */
const K8S_FORMATS = ['k8sshortname', 'k8slongname'];

const CONTEXTS = new Map<string, Ctx>();

function contextFor(opts: ValueValidateOptions): Ctx {
  const minor = opts.kubeMinor ?? 36;
  const structural = opts.structural === true;
  const key = `${minor}/${structural}`;
  let ctx = CONTEXTS.get(key);
  if (ctx === undefined) {
    const compat = minor - 1;
    ctx = {
      key,
      structural,
      supported: new Set(compat >= 34 ? [...BASE_FORMATS, ...K8S_FORMATS] : BASE_FORMATS),
      registry: new Set(minor >= 34 ? [...BASE_FORMATS, ...K8S_FORMATS] : BASE_FORMATS),
    };
    CONTEXTS.set(key, ctx);
  }
  return ctx;
}

const COMPILED = new WeakMap<object, Map<string, OSchema>>();

function compileSchema(raw: Raw, ctx: Ctx): OSchema {
  let byCtx = COMPILED.get(raw);
  if (byCtx === undefined) {
    byCtx = new Map();
    COMPILED.set(raw, byCtx);
  }
  let s = byCtx.get(ctx.key);
  if (s === undefined) {
    s = convert(raw, ctx);
    byCtx.set(ctx.key, s);
  }
  return s;
}

function num(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

function sub(v: unknown, ctx: Ctx): OSchema | undefined {
  return isMap(v) ? compileSchema(v, ctx) : undefined;
}

function subList(v: unknown, ctx: Ctx): OSchema[] {
  return Array.isArray(v) ? v.filter(isMap).map((x) => compileSchema(x, ctx)) : [];
}

function subMap(v: unknown, ctx: Ctx): Map<string, OSchema> | undefined {
  if (!isMap(v)) return undefined;
  const m = new Map<string, OSchema>();
  for (const k of sortedKeys(v)) {
    const x = v[k];
    m.set(k, isMap(x) ? compileSchema(x, ctx) : compileSchema({}, ctx));
  }
  return m;
}

function schemaOrBool(v: unknown, ctx: Ctx): SchemaOrBool | undefined {
  if (typeof v === 'boolean') return { allows: v, schema: undefined };
  if (isMap(v)) return { allows: true, schema: compileSchema(v, ctx) };
  return undefined;
}

/** ConvertJSONSchemaPropsWithPostProcess(StripUnsupportedFormatsPostProcessorForVersion), or ToKubeOpenAPI. */
function convert(raw: Raw, ctx: Ctx): OSchema {
  let type: string[] = [];
  if (typeof raw.type === 'string' && raw.type !== '') type = [raw.type];
  else if (Array.isArray(raw.type)) type = raw.type.filter((t): t is string => typeof t === 'string');
  if (raw['x-kubernetes-int-or-string'] === true && !ctx.structural) type = ['integer', 'string'];

  let format = typeof raw.format === 'string' ? raw.format : '';
  if (format !== '' && !ctx.structural) format = stripUnsupportedFormat(format, type, ctx);

  let dependencies: Map<string, { schema: OSchema | undefined; property: readonly string[] }> | undefined;
  if (!ctx.structural && isMap(raw.dependencies)) {
    dependencies = new Map();
    for (const k of sortedKeys(raw.dependencies)) {
      const d = raw.dependencies[k];
      dependencies.set(k, {
        schema: isMap(d) ? compileSchema(d, ctx) : undefined,
        property: Array.isArray(d) ? d.filter((x): x is string => typeof x === 'string') : [],
      });
    }
  }

  return {
    type,
    nullable: raw.nullable === true,
    format,
    maximum: num(raw.maximum),
    exclusiveMaximum: raw.exclusiveMaximum === true,
    minimum: num(raw.minimum),
    exclusiveMinimum: raw.exclusiveMinimum === true,
    multipleOf: num(raw.multipleOf),
    maxLength: num(raw.maxLength),
    minLength: num(raw.minLength),
    pattern: typeof raw.pattern === 'string' ? raw.pattern : '',
    maxItems: num(raw.maxItems),
    minItems: num(raw.minItems),
    uniqueItems: raw.uniqueItems === true,
    maxProperties: num(raw.maxProperties),
    minProperties: num(raw.minProperties),
    required: Array.isArray(raw.required) ? raw.required.filter((x): x is string => typeof x === 'string') : [],
    enum: Array.isArray(raw.enum) ? raw.enum.map(normalizeValue) : [],
    allOf: subList(raw.allOf, ctx),
    anyOf: subList(raw.anyOf, ctx),
    oneOf: subList(raw.oneOf, ctx),
    not: sub(raw.not, ctx),
    properties: subMap(raw.properties, ctx),
    patternProperties: ctx.structural ? undefined : subMap(raw.patternProperties, ctx),
    additionalProperties: schemaOrBool(raw.additionalProperties, ctx),
    items: sub(raw.items, ctx),
    itemsTuple: !ctx.structural && Array.isArray(raw.items) ? subList(raw.items, ctx) : undefined,
    additionalItems: ctx.structural ? undefined : schemaOrBool(raw.additionalItems, ctx),
    dependencies,
    listType: typeof raw['x-kubernetes-list-type'] === 'string' ? raw['x-kubernetes-list-type'] : '',
    listMapKeys: Array.isArray(raw['x-kubernetes-list-map-keys']) ? raw['x-kubernetes-list-map-keys'].filter((x): x is string => typeof x === 'string') : [],
  };
}

/** StripUnsupportedFormatsPostProcessorForVersion (formats.go). */
function stripUnsupportedFormat(format: string, type: readonly string[], ctx: Ctx): string {
  const schemaType = type.length === 1 ? type[0] : '';
  switch (schemaType) {
    case '':
    case 'string':
      return ctx.supported.has(normalizeFormat(format)) ? format : '';
    case 'integer':
      return format === 'int32' || format === 'int64' ? format : '';
    case 'number':
      return format === 'float' || format === 'double' ? format : '';
    default:
      return '';
  }
}

/** strfmt.DefaultNameNormalizer. */
function normalizeFormat(f: string): string {
  return f.replaceAll('-', '');
}

// ---------------------------------------------------------------------------------------------------------------
// validate.Result and the go-openapi errors
// ---------------------------------------------------------------------------------------------------------------

/** The go-openapi error codes that ValidateCustomResource maps specially, and the rest. */
type Code =
  | 'invalidType'
  | 'required'
  | 'tooLong'
  | 'tooShort'
  | 'pattern'
  | 'enum'
  | 'multipleOf'
  | 'max'
  | 'min'
  | 'unique'
  | 'maxItems'
  | 'minItems'
  | 'tooFewProperties'
  | 'tooManyProperties'
  | 'unallowedProperty'
  | 'multipleOfMustBePositive'
  /** Not an *errors.Validation (composite errors, range-check errors): Invalid at the root path with value "". */
  | 'plain';

/**
 * Where a value sits: a path, or a step below another place. The validators make one step per member
 * they visit; the path is only spelled out for an error (pathOf).
 */
type At = JsonPath | AtLink;
class AtLink {
  constructor(
    readonly parent: At,
    readonly seg: string | number,
  ) {}
}

function pathOf(at: At): JsonPath {
  if (!(at instanceof AtLink)) return at;
  const segs: (string | number)[] = [];
  let x: At = at;
  for (; x instanceof AtLink; x = x.parent) segs.push(x.seg);
  return [...x, ...segs.reverse()];
}

interface VErr {
  readonly code: Code;
  /** errors.Validation.Name: the openapi path ('' at the root, `.x` for required/additional properties at the root). */
  readonly name: string;
  readonly msg: string;
  /** errors.Validation.Value; undefined is Go's nil. */
  readonly value?: unknown;
  readonly valid?: number;
  readonly values?: readonly unknown[];
  readonly at: At;
  readonly atKey?: boolean;
}

class Result {
  readonly errors: VErr[] = [];
  matchCount = 0;

  /** Texts of `errors` (a set: thousands of errors made the linear search quadratic); made on the first add. */
  private texts: Set<string> | undefined;

  /** AddErrors: skips errors whose text is already reported. */
  add(...errs: (VErr | undefined)[]): void {
    this.addAll(errs);
  }

  private addAll(errs: readonly (VErr | undefined)[]): void {
    let texts = this.texts;
    if (texts === undefined || texts.size !== this.errors.length) {
      // errors pushed directly (single)
      texts ??= this.texts = new Set<string>();
      for (const x of this.errors) texts.add(x.msg);
    }
    for (const e of errs) {
      if (e !== undefined && !texts.has(e.msg)) {
        this.errors.push(e);
        texts.add(e.msg);
      }
    }
  }

  merge(o: Result | undefined): this {
    if (o !== undefined) {
      // most results hold no error: nothing to add (and no set to make)
      if (o.errors.length > 0) this.addAll(o.errors);
      this.matchCount += o.matchCount;
    }
    return this;
  }

  inc(): void {
    this.matchCount++;
  }

  get valid(): boolean {
    return this.errors.length === 0;
  }
}

/** errorHelp.sErr: a result holding one error and no match. */
function single(e: VErr): Result {
  const r = new Result();
  r.errors.push(e);
  return r;
}

const IN = 'body';

function invalidType(name: string, typeName: string, value: string, at: At): VErr {
  return { code: 'invalidType', name, value, at, msg: `${name} in ${IN} must be of type ${typeName}: ${quote(value)}` };
}

function plain(msg: string, at: At): VErr {
  return { code: 'plain', name: '', msg, at };
}

// ---------------------------------------------------------------------------------------------------------------
// SchemaValidator
// ---------------------------------------------------------------------------------------------------------------

/** validate.SchemaValidator.Validate: the validators in order, each applied when it applies to the value's kind. */
function validateAgainst(s: OSchema, data: unknown, path: string, at: At, ctx: Ctx, corr?: Corr, ratchet = false): Result {
  const result = validateNode(s, data, path, at, ctx, corr);
  // ratchetingValueValidator.Validate: the errors of an unchanged (correlated and deep-equal) value become warnings
  if (ratchet && corr !== undefined && !result.valid && corr.deepEqual()) {
    const r = new Result();
    r.matchCount = result.matchCount;
    return r;
  }
  return result;
}

function validateNode(s: OSchema, data: unknown, path: string, at: At, ctx: Ctx, corr: Corr | undefined): Result {
  const result = new Result();
  const kind = kindOf(data);
  if (kind === 'null') {
    addType(result, typeError(s, data, kind, path, at));
    result.merge(commonValidator(s, data, path, at));
    return result;
  }
  if (s.type.length > 0 || s.format !== '') {
    addType(result, typeError(s, data, kind, path, at));
    result.inc();
  }
  result.merge(schemaPropsValidator(s, data, kind, path, at, ctx, corr));
  result.inc();
  if (kind === 'string') {
    result.merge(stringValidator(s, data as string, path, at));
    result.inc();
    if (s.format !== '' && ctx.registry.has(normalizeFormat(s.format))) {
      result.merge(formatValidator(s.format, data as string, path, at));
      result.inc();
    }
  }
  if (kind === 'int' || kind === 'float') {
    result.merge(numberValidator(s, data, kind, path, at));
    result.inc();
  }
  if (kind === 'slice') {
    result.merge(sliceValidator(s, data as unknown[], path, at, ctx, corr));
    result.inc();
  }
  result.merge(commonValidator(s, data, path, at));
  result.inc();
  if (kind === 'map') {
    result.merge(objectValidator(s, data as Record<string, unknown>, path, at, ctx, corr));
    result.inc();
  }
  result.inc();
  return result;
}

/** Merges typeValidator's result: its error, else its one match. */
function addType(result: Result, e: VErr | undefined): void {
  if (e === undefined) result.inc();
  else result.add(e);
}

/** schemaInfoForType: the schema type and format of a Go kind. */
const SCHEMA_INFO = {
  bool: ['boolean', ''],
  string: ['string', ''],
  int: ['integer', 'int64'],
  float: ['number', 'float64'],
  slice: ['array', ''],
  map: ['object', ''],
} as const;

/**
 * typeValidator (type.go): its error, or undefined when it matches (the caller adds the error, or
 * counts the match: the validator's result has one or the other).
 */
function typeError(s: OSchema, data: unknown, kind: GoKind, path: string, at: At): VErr | undefined {
  const types = s.type;
  if (kind === 'null') {
    if (types.length > 0 && !types.includes('null') && !s.nullable) {
      return invalidType(path, types.join(','), 'null', at);
    }
    return undefined;
  }
  const [schType, format] = SCHEMA_INFO[kind];
  const isFloatInt = schType === 'number' && isFloat64AJSONInteger(asFloat(data)) && types.includes('integer');
  const isIntFloat = schType === 'integer' && types.includes('number');
  const stringOrSlice = kind === 'string' || kind === 'slice';

  if (!stringOrSlice && s.format !== '' && !(types.includes(schType) || format === s.format || isFloatInt || isIntFloat)) {
    return invalidType(path, s.format, format, at);
  }
  if (!(types.includes('number') || types.includes('integer')) && s.format !== '' && stringOrSlice) {
    return undefined;
  }
  if (!(types.includes(schType) || isFloatInt || isIntFloat)) {
    return invalidType(path, types.join(','), schType, at);
  }
  return undefined;
}

/** swag.IsFloat64AJSONInteger (go-openapi/swag v0.23.0). */
function isFloat64AJSONInteger(f: number): boolean {
  const maxJSON = 9007199254740991;
  if (!Number.isFinite(f) || f < -maxJSON || f > maxJSON) return false;
  const t = Math.trunc(f);
  // float64(uint64(f)) on amd64: a negative value wraps around 2^64.
  const g = t >= 0 ? t : Number(2n ** 64n + BigInt(t));
  const fa = Math.abs(f);
  const ga = Math.abs(g);
  const diff = Math.abs(f - g);
  if (f === g) return true;
  if (f === t || f === g) return true;
  const eps = 1e-9;
  const smallest = Number.MIN_VALUE;
  if (f === 0 || g === 0 || diff < smallest) return diff < eps * smallest;
  return diff / Math.min(fa + ga, Number.MAX_VALUE) < eps;
}

/** schemaPropsValidator (schema_props.go): allOf, anyOf, oneOf, not, dependencies. */
function schemaPropsValidator(s: OSchema, data: unknown, kind: GoKind, path: string, at: At, ctx: Ctx, corr: Corr | undefined): Result {
  const main = new Result();

  if (s.anyOf.length > 0) {
    let bestFailures: Result | undefined;
    let firstSuccess: Result | undefined;
    let succeededOnce = false;
    for (const sch of s.anyOf) {
      const r = validateAgainst(sch, data, path, at, ctx, corr);
      if (r.valid) {
        bestFailures = undefined;
        succeededOnce = true;
        firstSuccess ??= r;
        break;
      }
      if (bestFailures === undefined || r.matchCount > bestFailures.matchCount) bestFailures = r;
    }
    if (!succeededOnce) main.add(plain(`${quote(path)} must validate at least one schema (anyOf)`, at));
    if (bestFailures !== undefined) main.merge(bestFailures);
    else if (firstSuccess !== undefined) main.merge(firstSuccess);
  }

  if (s.oneOf.length > 0) {
    let bestFailures: Result | undefined;
    let firstSuccess: Result | undefined;
    let validated = 0;
    for (const sch of s.oneOf) {
      const r = validateAgainst(sch, data, path, at, ctx, corr);
      if (r.valid) {
        validated++;
        bestFailures = undefined;
        firstSuccess ??= r;
        continue;
      }
      if (validated === 0 && (bestFailures === undefined || r.matchCount > bestFailures.matchCount)) bestFailures = r;
    }
    if (validated !== 1) {
      const additional = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
      main.add(plain(`${quote(path)} must validate one and only one schema (oneOf). ${additional}`, at));
      if (bestFailures !== undefined) main.merge(bestFailures);
    } else if (firstSuccess !== undefined) {
      main.merge(firstSuccess);
    }
  }

  if (s.allOf.length > 0) {
    let validated = 0;
    for (const sch of s.allOf) {
      const r = validateAgainst(sch, data, path, at, ctx, corr);
      if (r.valid) validated++;
      main.merge(r);
    }
    if (validated !== s.allOf.length) {
      const additional = validated === 0 ? '. None validated' : '';
      main.add(plain(`${quote(path)} must validate all the schemas (allOf)${additional}`, at));
    }
  }

  if (s.not !== undefined && validateAgainst(s.not, data, path, at, ctx, corr).valid) {
    main.add(plain(`${quote(path)} must not validate the schema (not)`, at));
  }

  if (s.dependencies !== undefined && s.dependencies.size > 0 && kind === 'map') {
    const val = data as Record<string, unknown>;
    for (const key of sortedKeys(val)) {
      const dep = s.dependencies.get(key);
      if (dep === undefined) continue;
      if (dep.schema !== undefined) {
        main.merge(validateAgainst(dep.schema, data, `${path}.${key}`, at, ctx));
        continue;
      }
      for (const depKey of dep.property) {
        if (!Object.prototype.hasOwnProperty.call(val, depKey)) main.add(plain(`${quote(path)} has a dependency on ${depKey}`, at));
      }
    }
  }

  main.inc();
  return main;
}

/** stringValidator (validator.go): maxLength, then minLength, then pattern; stops at the first failure. */
function stringValidator(s: OSchema, data: string, path: string, at: At): Result | undefined {
  if (s.maxLength !== undefined && runeCount(data) > s.maxLength) {
    return single({
      code: 'tooLong',
      name: path,
      value: data,
      valid: s.maxLength,
      at,
      msg: `${path} in ${IN} should be at most ${s.maxLength} chars long`,
    });
  }
  if (s.minLength !== undefined && runeCount(data) < s.minLength) {
    return single({
      code: 'tooShort',
      name: path,
      value: data,
      valid: s.minLength,
      at,
      msg: `${path} in ${IN} should be at least ${s.minLength} chars long`,
    });
  }
  if (s.pattern !== '') {
    const c = compileRegex(s.pattern);
    if (!c.ok) {
      return single({
        code: 'pattern',
        name: path,
        value: data,
        at,
        msg: `${path} in ${IN} should match '${s.pattern}, but pattern is invalid: ${c.message}'`,
      });
    }
    if (!c.re.matcher(data).find()) {
      return single({ code: 'pattern', name: path, value: data, at, msg: `${path} in ${IN} should match '${s.pattern}'` });
    }
  }
  return undefined;
}

/** formatValidator (formats.go) with strfmt.Default. */
function formatValidator(format: string, data: string, path: string, at: At): Result | undefined {
  const check = FORMAT_CHECKS[normalizeFormat(format)];
  if (check === undefined || check(data)) return undefined;
  return single(invalidType(path, format, data, at));
}

/** commonValidator (validator.go basicCommonValidator): enum, with Go's reflect conversions. */
function commonValidator(s: OSchema, data: unknown, path: string, at: At): Result | undefined {
  if (s.enum.length === 0) return undefined;
  for (const ev of s.enum) {
    if (enumMatches(data, ev)) return undefined;
  }
  return single({
    code: 'enum',
    name: path,
    value: data === undefined ? null : data,
    values: s.enum,
    at,
    msg: `${path} in ${IN} should be one of ${formatV(s.enum)}`,
  });
}

/** reflect.ValueOf(data).Type().ConvertibleTo(TypeOf(enumValue)) && DeepEqual(Convert(data), enumValue). */
function enumMatches(data: unknown, ev: unknown): boolean {
  const ek = kindOf(ev);
  const dk = kindOf(data);
  if (ek === 'null' || dk === 'null') return false;
  if (dk === ek) return goDeepEqual(data, ev);
  if (dk === 'int' && ek === 'float') return Number(asBig(data)) === asFloat(ev);
  if (dk === 'float' && ek === 'int') return goFloatToInt64(asFloat(data)) === asBig(ev);
  if (dk === 'int' && ek === 'string') return intToString(asBig(data)) === ev;
  return false;
}

/** Go's string(rune(i)) conversion of an int64. */
function intToString(i: bigint): string {
  if (i < 0n || i > 0x10ffffn || (i >= 0xd800n && i <= 0xdfffn)) return '\uFFFD';
  return String.fromCodePoint(Number(i));
}

/** numberValidator (validator.go). */
function numberValidator(s: OSchema, val: unknown, kind: GoKind, path: string, at: At): Result {
  let typeName = '';
  let format = '';
  if (s.type.length === 1) {
    if (s.type[0] === 'integer') {
      typeName = 'integer';
      if (s.format === 'int32' || s.format === 'int64') format = s.format;
    } else if (s.type[0] === 'number') {
      typeName = 'number';
      if (s.format === 'float' || s.format === 'double') format = s.format;
    }
  }
  const isInt = kind === 'int';
  const data = asFloat(val);
  const res = new Result();
  res.add(rangeCheck(val, isInt, typeName, format, 'Checked', path, at));

  const resMultiple = new Result();
  if (s.multipleOf !== undefined) {
    const f = s.multipleOf;
    resMultiple.add(rangeCheck(f, false, typeName, format, 'MultipleOf', path, at));
    const err = resMultiple.valid && isInt ? multipleOfInt(path, asBig(val), goFloatToInt64(f), at) : multipleOfFloat(path, data, f, at);
    if (err !== undefined) resMultiple.merge(single(err));
  }
  const resMaximum = new Result();
  if (s.maximum !== undefined) {
    const m = s.maximum;
    resMaximum.add(rangeCheck(m, false, typeName, format, 'Maximum boundary', path, at));
    const err =
      resMaximum.valid && isInt
        ? boundInt(path, asBig(val), goFloatToInt64(m), s.exclusiveMaximum, 'max', at)
        : boundFloat(path, resMaximum.valid ? val : data, data, m, s.exclusiveMaximum, 'max', at);
    if (err !== undefined) resMaximum.merge(single(err));
  }
  const resMinimum = new Result();
  if (s.minimum !== undefined) {
    const m = s.minimum;
    resMinimum.add(rangeCheck(m, false, typeName, format, 'Minimum boundary', path, at));
    const err =
      resMinimum.valid && isInt
        ? boundInt(path, asBig(val), goFloatToInt64(m), s.exclusiveMinimum, 'min', at)
        : boundFloat(path, resMinimum.valid ? val : data, data, m, s.exclusiveMinimum, 'min', at);
    if (err !== undefined) resMinimum.merge(single(err));
  }
  res.merge(resMultiple).merge(resMinimum).merge(resMaximum);
  res.inc();
  return res;
}

/** IsValueValidAgainstRange: a plain error when the value (or a bound) does not fit the type and format. */
function rangeCheck(
  v: unknown,
  isInt: boolean,
  typeName: string,
  format: string,
  prefix: string,
  path: string,
  at: At,
): VErr | undefined {
  let ok = true;
  if (typeName === 'integer') {
    // ParseInt(FormatFloat(v, 'f', -1, 64) or FormatInt(v), 10, 32|64)
    let i: bigint | undefined;
    if (isInt) i = asBig(v);
    else {
      // FormatFloat's shortest digits, not the float's exact value: -2^63 prints as -9223372036854776000
      // (out of range); below 1e21 JS prints the same digits without an exponent, above it is out of range
      const f = asFloat(v);
      if (Number.isInteger(f)) i = Math.abs(f) < 1e21 ? BigInt(String(f)) : BigInt(f);
    }
    if (i === undefined) ok = false;
    else if (format === 'int32') ok = i >= -(2n ** 31n) && i < 2n ** 31n;
    else ok = i >= MIN_INT64 && i <= MAX_INT64;
  } else if (format === 'float' || format === 'float32') {
    // ParseFloat(s, 32) fails when the value rounds to ±Inf in float32.
    ok = Math.abs(asFloat(v)) < 2 ** 128 - 2 ** 103;
  }
  if (ok) return undefined;
  const msg =
    format !== ''
      ? `${prefix} value must be of type ${typeName} with format ${format} in ${path}`
      : `${prefix} value must be of type ${typeName} (default format) in ${path}`;
  return plain(msg, at);
}

function multipleOfInt(path: string, data: bigint, factor: bigint, at: At): VErr | undefined {
  if (factor <= 0n) {
    return {
      code: 'multipleOfMustBePositive',
      name: path,
      value: bigOut(factor),
      at,
      msg: `factor MultipleOf declared for ${path} must be positive: ${factor}`,
    };
  }
  if (data % factor === 0n) return undefined;
  return { code: 'multipleOf', name: path, value: bigOut(data), at, msg: `${path} in ${IN} should be a multiple of ${factor}` };
}

function multipleOfFloat(path: string, data: number, factor: number, at: At): VErr | undefined {
  if (factor <= 0) {
    return {
      code: 'multipleOfMustBePositive',
      name: path,
      value: factor,
      at,
      msg: `factor MultipleOf declared for ${path} must be positive: ${formatFloatV(factor)}`,
    };
  }
  const mult = factor < 1 ? (1 / factor) * data : data / factor;
  if (isFloat64AJSONInteger(mult)) return undefined;
  return { code: 'multipleOf', name: path, value: data, at, msg: `${path} in ${IN} should be a multiple of ${formatFloatV(factor)}` };
}

function boundText(path: string, which: 'max' | 'min', exclusive: boolean, bound: string): string {
  if (which === 'max') return `${path} in ${IN} should be less than${exclusive ? '' : ' or equal to'} ${bound}`;
  return `${path} in ${IN} should be greater than${exclusive ? '' : ' or equal to'} ${bound}`;
}

/** MaximumInt / MinimumInt: the bound was truncated to an int64. */
function boundInt(path: string, data: bigint, bound: bigint, exclusive: boolean, which: 'max' | 'min', at: At): VErr | undefined {
  const fails =
    which === 'max' ? (exclusive ? data >= bound : data > bound) : exclusive ? data <= bound : data < bound;
  if (!fails) return undefined;
  return { code: which, name: path, value: bigOut(data), at, msg: boundText(path, which, exclusive, bound.toString()) };
}

/** Maximum / Minimum on float64s. `value` is what the error carries (the original value or its float64). */
function boundFloat(
  path: string,
  value: unknown,
  data: number,
  bound: number,
  exclusive: boolean,
  which: 'max' | 'min',
  at: At,
): VErr | undefined {
  const fails =
    which === 'max' ? (exclusive ? data >= bound : data > bound) : exclusive ? data <= bound : data < bound;
  if (!fails) return undefined;
  return { code: which, name: path, value, at, msg: boundText(path, which, exclusive, formatFloatV(bound)) };
}

/** An int64 handed back as a JS number when that is exact, else as a bigint. */
function bigOut(b: bigint): number | bigint {
  const n = Number(b);
  return BigInt(n) === b ? n : b;
}

/** schemaSliceValidator (slice_validator.go). */
function sliceValidator(s: OSchema, val: unknown[], path: string, at: At, ctx: Ctx, corr: Corr | undefined): Result {
  const result = new Result();
  const size = val.length;
  if (s.items !== undefined) {
    for (let i = 0; i < size; i++) result.merge(validateAgainst(s.items, val[i], `${path}[${i}]`, new AtLink(at, i), ctx, ...byIndex(corr, i)));
  }
  let itemsSize = 0;
  const tuple = s.itemsTuple ?? [];
  if (tuple.length > 0) {
    itemsSize = tuple.length;
    for (let i = 0; i < itemsSize && i < size; i++) {
      result.merge(validateAgainst(tuple[i]!, val[i], `${path}[${i}]`, new AtLink(at, i), ctx, ...byIndex(corr, i)));
    }
  }
  if (s.additionalItems !== undefined && itemsSize < size) {
    if (tuple.length > 0 && !s.additionalItems.allows) {
      result.add(plain("array doesn't allow for additional items", at));
    }
    const ai = s.additionalItems.schema;
    if (ai !== undefined) {
      // The upstream loop bound (size-itemsSize+1) is kept as is.
      for (let i = itemsSize; i < size - itemsSize + 1; i++) {
        result.merge(validateAgainst(ai, val[i], `${path}[${i}]`, new AtLink(at, i), ctx, ...byIndex(corr, i)));
      }
    }
  }
  if (s.minItems !== undefined && size < s.minItems) {
    result.add({
      code: 'minItems',
      name: path,
      value: size,
      valid: s.minItems,
      at,
      msg: `${path} in ${IN} should have at least ${s.minItems} items`,
    });
  }
  if (s.maxItems !== undefined && size > s.maxItems) {
    result.add({
      code: 'maxItems',
      name: path,
      value: size,
      valid: s.maxItems,
      at,
      msg: `${path} in ${IN} should have at most ${s.maxItems} items`,
    });
  }
  if (s.uniqueItems) {
    const seen: unknown[] = [];
    for (const v of val) {
      if (seen.some((u) => goDeepEqual(v, u))) {
        result.add({ code: 'unique', name: path, at, msg: `${path} in ${IN} shouldn't contain duplicates` });
        break;
      }
      seen.push(v);
    }
  }
  result.inc();
  return result;
}

/** objectValidator (object_validator.go). */
function objectValidator(s: OSchema, val: Record<string, unknown>, path: string, at: At, ctx: Ctx, corr: Corr | undefined): Result {
  const res = new Result();
  const props = s.properties;
  const has = (k: string): boolean => Object.prototype.hasOwnProperty.call(val, k);
  // the keys in Go's order are only walked when additionalProperties or patternProperties is set
  // (else the loop below finds nothing for any key): most objects are never sorted
  const ap = s.additionalProperties;
  const keys = ap !== undefined || s.patternProperties !== undefined ? sortedKeys(val) : Object.keys(val);
  const numKeys = keys.length;

  if (s.minProperties !== undefined && numKeys < s.minProperties) {
    res.add({
      code: 'tooFewProperties',
      name: path,
      value: numKeys,
      valid: s.minProperties,
      at,
      msg: `${path} in ${IN} should have at least ${s.minProperties} properties`,
    });
  }
  if (s.maxProperties !== undefined && numKeys > s.maxProperties) {
    res.add({
      code: 'tooManyProperties',
      name: path,
      value: numKeys,
      valid: s.maxProperties,
      at,
      msg: `${path} in ${IN} should have at most ${s.maxProperties} properties`,
    });
  }

  if (ap !== undefined && !ap.allows) {
    for (const k of keys) {
      const regular = props?.has(k) ?? false;
      let matched = false;
      for (const pk of s.patternProperties?.keys() ?? []) {
        if (reMatch(pk, k)) {
          matched = true;
          break;
        }
      }
      if (!regular && !matched) {
        res.add({
          code: 'unallowedProperty',
          name: path,
          value: k,
          at: new AtLink(at, k),
          atKey: true,
          msg: `${path}.${k} in ${IN} is a forbidden property`,
        });
      }
    }
  } else if (s.patternProperties !== undefined || ap?.schema !== undefined) {
    for (const key of keys) {
      const regular = props?.has(key) ?? false;
      const { matched } = validatePatternProperty(s, key, val[key], res, path, at, ctx, corr);
      if (!(regular || matched) && ap?.schema !== undefined) {
        res.merge(validateAgainst(ap.schema, val[key], `${path}.${key}`, new AtLink(at, key), ctx, ...byKey(corr, key, path)));
      }
    }
  }

  if (props !== undefined) {
    for (const [pName, pSchema] of props) {
      if (!has(pName)) continue;
      const rName = path !== '' ? `${path}.${pName}` : pName;
      res.merge(validateAgainst(pSchema, val[pName], rName, new AtLink(at, pName), ctx, ...byKey(corr, pName, path)));
    }
  }

  for (const k of s.required) {
    if (!has(k)) {
      res.add({ code: 'required', name: `${path}.${k}`, at: new AtLink(at, k), atKey: true, msg: `${path}.${k} in ${IN} is required` });
    }
  }

  if (s.patternProperties !== undefined) {
    for (const key of keys) {
      const regular = props?.has(key) ?? false;
      const { matched, patterns } = validatePatternProperty(s, key, val[key], res, path, at, ctx, corr);
      if (!regular && matched) {
        for (const pName of patterns) {
          const ps = s.patternProperties.get(pName);
          if (ps !== undefined) res.merge(validateAgainst(ps, val[key], `${path}.${key}`, new AtLink(at, key), ctx, ...byKey(corr, key, path)));
        }
      }
    }
  }
  return res;
}

function validatePatternProperty(
  s: OSchema,
  key: string,
  value: unknown,
  result: Result,
  path: string,
  at: At,
  ctx: Ctx,
  corr: Corr | undefined,
): { matched: boolean; patterns: string[] } {
  const patterns: string[] = [];
  for (const [k, sch] of s.patternProperties ?? []) {
    if (reMatch(k, key)) {
      patterns.push(k);
      result.merge(validateAgainst(sch, value, `${path}.${key}`, new AtLink(at, key), ctx, ...byKey(corr, key, path)));
    }
  }
  return { matched: patterns.length > 0, patterns };
}

// ---------------------------------------------------------------------------------------------------------------
// kubeOpenAPIResultToFieldErrors (apiextensions-apiserver pkg/apiserver/validation/validation.go)
// ---------------------------------------------------------------------------------------------------------------

function fieldPath(base: string, name: string): string {
  if (name.length > 0 && name !== '.') {
    const child = name.startsWith('.') ? name.slice(1) : name;
    return base === '' ? child : `${base}.${child}`;
  }
  return base === '' ? '<nil>' : base;
}

function toFieldError(e: VErr, loc: Loc): FieldError {
  const at = pathOf(e.at);
  const atKey = e.atKey === true ? { atKey: true as const } : {};
  if (e.code === 'plain') {
    return { type: 'Invalid', field: loc.field === '' ? '<nil>' : loc.field, value: '', detail: e.msg, at };
  }
  const field = fieldPath(loc.field, e.name);
  const value = e.value === undefined ? '' : sortedCopy(e.value);
  switch (e.code) {
    case 'required':
      return { type: 'Required', field, value: OMIT, detail: '', at, ...atKey };
    case 'enum': {
      const values = (e.values ?? []).map((v) => (typeof v === 'string' ? v : goJSON(v)));
      const detail = values.length > 0 ? `supported values: ${values.map(quote).join(', ')}` : '';
      return { type: 'NotSupported', field, value: sortedCopy(e.value ?? null), detail, at };
    }
    case 'tooLong': {
      const max = e.valid ?? -1;
      const detail = max >= 0 ? `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` : 'value is too long';
      return { type: 'TooLong', field, value: OMIT, detail, at };
    }
    case 'maxItems':
    case 'tooManyProperties': {
      const max = e.valid ?? -1;
      const detail = max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items';
      return { type: 'TooMany', field, value: typeof e.value === 'number' ? e.value : OMIT, detail, at };
    }
    case 'invalidType':
      return { type: 'TypeInvalid', field, value, detail: e.msg, at };
    default:
      return { type: 'Invalid', field, value, detail: e.msg, at, ...atKey };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// x-kubernetes-list-type set/map uniqueness (pkg/apiserver/schema/listtype/validation.go)
// ---------------------------------------------------------------------------------------------------------------

/**
 * ValidateListSetsAndMaps: Duplicate errors for repeated items of `set` lists and repeated keys of `map` lists,
 * and Invalid for non-object items of `map` lists. Walks the structural schema (properties,
 * additionalProperties, items) only. Paths use `loc` (the server passes a nil path: `spec.list[1]`).
 */
/** Update: the list-type checks of the new object are reported only if the old object passed them. */
export function validateListTypesUpdate(value: unknown, old: unknown, schema: Raw, loc: Loc): FieldError[] {
  if (validateListTypes(old, schema, loc).length > 0) return [];
  return validateListTypes(value, schema, loc);
}

export function validateListTypes(value: unknown, schema: Raw, loc: Loc): FieldError[] {
  if (!reachesListType(schema)) return [];
  return listWalk(loc, schema, normalizedView(value));
}

/**
 * Whether a set or map list type sits at or below a schema node (through properties,
 * additionalProperties and items, as listWalk goes): below a node where none does, the walk finds
 * nothing. Cached per schema object.
 */
const reachesListTypeCache = new WeakMap<Raw, boolean>();
function reachesListType(s: Raw): boolean {
  let v = reachesListTypeCache.get(s);
  if (v !== undefined) return v;
  reachesListTypeCache.set(s, true); // conservative while in progress
  const t = s['x-kubernetes-list-type'];
  v = t === 'set' || t === 'map';
  const p = s.properties;
  if (!v && isMap(p)) for (const k of Object.keys(p)) if (isMap(p[k]) && reachesListType(p[k])) v = true;
  if (!v && isMap(s.additionalProperties)) v = reachesListType(s.additionalProperties);
  if (!v && isMap(s.items)) v = reachesListType(s.items);
  reachesListTypeCache.set(s, v);
  return v;
}

function listWalk(loc: Loc, s: Raw, obj: unknown): FieldError[] {
  if (!reachesListType(s)) return [];
  if (Array.isArray(obj)) return listArray(loc, s, obj);
  if (isMap(obj)) return listObject(loc, s, obj);
  return [];
}

function listObject(loc: Loc, s: Raw, obj: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const keys = sortedKeys(obj);
  if (isMap(s.additionalProperties)) {
    for (const k of keys) errs.push(...listWalk(loc.key(k), s.additionalProperties, obj[k]));
  }
  if (isMap(s.properties)) {
    const props = s.properties;
    for (const k of keys) {
      const sub = props[k];
      if (Object.prototype.hasOwnProperty.call(props, k) && isMap(sub)) errs.push(...listWalk(loc.child(k), sub, obj[k]));
    }
  }
  return errs;
}

function listArray(loc: Loc, s: Raw, obj: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') {
    for (const i of nonUniqueIndices(obj)) errs.push(dup(loc.index(i), obj[i]));
  } else if (listType === 'map') {
    const keys = s['x-kubernetes-list-map-keys'];
    errs.push(...listMap(loc, Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [], obj));
  }
  if (isMap(s.items)) {
    for (let i = 0; i < obj.length; i++) errs.push(...listWalk(loc.index(i), s.items, obj[i]));
  }
  return errs;
}

function dup(loc: Loc, value: unknown): FieldError {
  return { type: 'Duplicate', field: loc.field, value: sortedCopy(value), detail: '', at: loc.at };
}

const UNSPECIFIED = Symbol('unspecifiedKeyValue');

/** The identity validateListSet gives an item: Go map keys for scalars (typed), json.Marshal for compounds. */
function setKey(x: unknown): string {
  if (x === UNSPECIFIED) return 'u';
  switch (kindOf(x)) {
    case 'null':
      return 'n';
    case 'bool':
      return `b:${String(x)}`;
    case 'string':
      return `s:${x as string}`;
    case 'int':
      return `i:${asBig(x)}`;
    case 'float': {
      const f = asFloat(x);
      return `f:${f === 0 ? 0 : f}`;
    }
    default:
      return `c:${goJSON(x)}`;
  }
}

/** validateListSet: the index of the second occurrence of every repeated item. */
function nonUniqueIndices(items: readonly unknown[]): number[] {
  if (items.length <= 1) return [];
  const seen = new Map<string, number>();
  const out: number[] = [];
  items.forEach((x, i) => {
    const k = setKey(x);
    const times = seen.get(k);
    if (times === undefined) seen.set(k, 1);
    else {
      seen.set(k, times + 1);
      if (times === 1) out.push(i);
    }
  });
  return out;
}

function listMap(loc: Loc, mapKeys: readonly string[], obj: unknown[]): FieldError[] {
  for (let i = 0; i < obj.length; i++) {
    const x = obj[i];
    if (x !== null && x !== undefined && !isMap(x)) {
      const l = loc.index(i);
      return [{ type: 'Invalid', field: l.field, value: sortedCopy(x), detail: 'must be an object for an array of list-type map', at: l.at }];
    }
  }
  if (obj.length <= 1) return [];

  if (mapKeys.length === 1) {
    const keyField = mapKeys[0]!;
    const keys = obj.map((x) => (isMap(x) && Object.prototype.hasOwnProperty.call(x, keyField) ? x[keyField] : UNSPECIFIED));
    return nonUniqueIndices(keys).map((i) => {
      const k = keys[i];
      return dup(loc.index(i), k === UNSPECIFIED ? {} : { [keyField]: k });
    });
  }

  const keys = obj.map((x) => {
    const key: Record<string, unknown> = {};
    if (isMap(x)) {
      for (const f of mapKeys) if (Object.prototype.hasOwnProperty.call(x, f)) key[f] = x[f];
    }
    return key;
  });
  return nonUniqueIndices(keys).map((i) => dup(loc.index(i), keys[i]));
}

// ---------------------------------------------------------------------------------------------------------------
// strfmt.Default: the format checks (kube-openapi pkg/validation/strfmt, Go 1.26 net, net/url, net/mail, time)
// ---------------------------------------------------------------------------------------------------------------

const HOSTNAME_PATTERN =
  '^([a-zA-Z0-9\\p{S}\\p{L}]((-?[a-zA-Z0-9\\p{S}\\p{L}]{0,62})?)|([a-zA-Z0-9\\p{S}\\p{L}](([a-zA-Z0-9-\\p{S}\\p{L}]{0,61}[a-zA-Z0-9\\p{S}\\p{L}])?)(\\.)){1,}([a-zA-Z\\p{L}]){2,63})$';
const UUID_PATTERN = '(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$';
const UUID3_PATTERN = '(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$';
const UUID4_PATTERN = '(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$';
const UUID5_PATTERN = '(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$';
const CREDIT_CARD_PATTERN =
  '^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\\d{3})\\d{11})$';
const HEXCOLOR_PATTERN = '^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$';
const RGBCOLOR_PATTERN =
  '^rgb\\(\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*\\)$';
const BASE64_PATTERN = '^(?:[A-Za-z0-9+\\/]{4})*(?:[A-Za-z0-9+\\/]{2}==|[A-Za-z0-9+\\/]{3}=|[A-Za-z0-9+\\/]{4})$';
const SSN_PATTERN = '^\\d{3}[- ]?\\d{2}[- ]?\\d{4}$';
const DATETIME_PATTERN = '^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$';
const DURATION_PATTERN = '((\\d+)\\s*([A-Za-zµ]+))';
const SHORT_NAME_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';

const FORMAT_CHECKS: Readonly<Record<string, (s: string) => boolean>> = {
  bsonobjectid: (s) => /^[0-9a-fA-F]{24}$/.test(s),
  uri: isRequestURI,
  email: isEmail,
  hostname: isHostname,
  ipv4: (s) => parseIPSloppy(s) !== undefined && s.includes('.'),
  ipv6: (s) => parseIPStd(s) && s.includes(':'),
  cidr: isCIDRSloppy,
  mac: isMAC,
  uuid: (s) => reMatch(UUID_PATTERN, s),
  uuid3: (s) => reMatch(UUID3_PATTERN, s),
  uuid4: (s) => reMatch(UUID4_PATTERN, s),
  uuid5: (s) => reMatch(UUID5_PATTERN, s),
  isbn: (s) => isISBN(s, 10) || isISBN(s, 13),
  isbn10: (s) => isISBN(s, 10),
  isbn13: (s) => isISBN(s, 13),
  creditcard: isCreditCard,
  ssn: (s) => s !== '' && utf8Len(s) === 11 && reMatch(SSN_PATTERN, s),
  hexcolor: (s) => reMatch(HEXCOLOR_PATTERN, s),
  rgbcolor: (s) => reMatch(RGBCOLOR_PATTERN, s),
  byte: (s) => reMatch(BASE64_PATTERN, s),
  password: () => true,
  date: isDate,
  datetime: isDateTime,
  duration: isDuration,
  k8sshortname: (s) => utf8Len(s) <= 63 && reMatch(`^${SHORT_NAME_FMT}$`, s),
  k8slongname: (s) => utf8Len(s) <= 253 && reMatch(`^${SHORT_NAME_FMT}(\\.${SHORT_NAME_FMT})*$`, s),
};

/** Whether a string passes a format as the server checks it (undefined when the format is not in its registry). */
export function checkFormat(format: string, s: string, kubeMinor = 36): boolean | undefined {
  const name = normalizeFormat(format);
  if (!contextFor({ kubeMinor, structural: true }).registry.has(name)) return undefined;
  return FORMAT_CHECKS[name]!(wellFormed(s));
}

function isHostname(s: string): boolean {
  if (!reMatch(HOSTNAME_PATTERN, s)) return false;
  if (utf8Len(s) > 255) return false;
  return s.split('.').every((p) => utf8Len(p) <= 63);
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/** time.Parse("2006-01-02", s) succeeds. */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m === null) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day >= 1 && day <= days;
}

/** strfmt.IsDateTime. */
function isDateTime(str: string): boolean {
  if (utf8Len(str) < 4) return false;
  const s = str.toLowerCase().split('t');
  if (s.length < 2 || !isDate(s[0]!)) return false;
  const c = compileRegex(DATETIME_PATTERN);
  if (!c.ok) return false;
  const m = c.re.matcher(s[1]!);
  if (!m.find()) return false;
  return (m.group(1) ?? '') <= '23' && (m.group(2) ?? '') <= '59' && (m.group(3) ?? '') <= '59';
}

/** strfmt.ParseDuration: time.ParseDuration, else the permissive "<n> <unit>" scan. */
function isDuration(s: string): boolean {
  if (goParseDuration(s)) return true;
  const c = compileRegex(DURATION_PATTERN);
  if (!c.ok) return false;
  const units: readonly (readonly string[])[] = [
    ['ns', 'nano'],
    ['us', 'µs', 'micro'],
    ['ms', 'milli'],
    ['s', 'sec'],
    ['m', 'min'],
    ['h', 'hr', 'hour'],
    ['d', 'day'],
    ['w', 'wk', 'week'],
  ];
  const m = c.re.matcher(s);
  let ok = false;
  while (m.find()) {
    if (BigInt(m.group(2) ?? '0') > MAX_INT64) return false; // strconv.Atoi out of range
    const unit = (m.group(3) ?? '').toLowerCase();
    for (const variants of units) {
      const last = variants.length - 1;
      variants.forEach((variant, i) => {
        if ((last === i && unit.startsWith(variant)) || variant === unit) ok = true;
      });
    }
  }
  return ok;
}

const DURATION_UNITS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1000n],
  ['µs', 1000n],
  ['μs', 1000n],
  ['ms', 1000000n],
  ['s', 1000000000n],
  ['m', 60000000000n],
  ['h', 3600000000000n],
]);

/** time.ParseDuration succeeds (Go 1.26). */
function goParseDuration(orig: string): boolean {
  let s = orig;
  const LIMIT = 2n ** 63n;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) s = s.slice(1);
  if (s === '0') return true;
  if (s === '') return false;
  let d = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s[0]))) return false;
    // leadingInt
    let v = 0n;
    let i = 0;
    for (; i < s.length && isDigit(s[i]); i++) {
      if (v > LIMIT / 10n) return false;
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > LIMIT) return false;
    }
    const pre = i > 0;
    s = s.slice(i);
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s !== '' && s[0] === '.') {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      for (; j < s.length && isDigit(s[j]); j++) {
        if (overflow) continue;
        if (f > (LIMIT - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
        if (y > LIMIT) {
          overflow = true;
          continue;
        }
        f = y;
        scale *= 10;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) return false;
    let k = 0;
    for (; k < s.length; k++) {
      if (s[k] === '.' || isDigit(s[k])) break;
    }
    if (k === 0) return false;
    const unit = DURATION_UNITS.get(s.slice(0, k));
    s = s.slice(k);
    if (unit === undefined) return false;
    if (v > LIMIT / unit) return false;
    v *= unit;
    if (f > 0n) {
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > LIMIT) return false;
    }
    d += v;
    if (d > LIMIT) return false;
  }
  if (orig[0] === '-') return true;
  return d <= LIMIT - 1n;
}

function isASCII(s: string): boolean {
  return /^[\x00-\x7f]*$/.test(s);
}

/** dtoi of the forked/std net package: decimal digits, failing at 0xFFFFFF. */
function dtoi(s: string): { n: number; i: number; ok: boolean } {
  let n = 0;
  let i = 0;
  for (; i < s.length && isDigit(s[i]); i++) {
    n = n * 10 + (s.charCodeAt(i) - 48);
    if (n >= 0xffffff) return { n: 0xffffff, i, ok: false };
  }
  return i === 0 ? { n: 0, i: 0, ok: false } : { n, i, ok: true };
}

function hexVal(c: string | undefined): number {
  if (c === undefined) return -1;
  if (c >= '0' && c <= '9') return c.charCodeAt(0) - 48;
  if (c >= 'a' && c <= 'f') return c.charCodeAt(0) - 87;
  if (c >= 'A' && c <= 'F') return c.charCodeAt(0) - 55;
  return -1;
}

function xtoi(s: string): { n: number; i: number; ok: boolean } {
  let n = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const h = hexVal(s[i]);
    if (h < 0) break;
    n = n * 16 + h;
    if (n >= 0xffffff) return { n: 0, i, ok: false };
  }
  return i === 0 ? { n: 0, i, ok: false } : { n, i, ok: true };
}

/** k8s.io/utils/net forked parseIPv4 (leading zeros allowed). */
function sloppyIPv4(str: string): boolean {
  let s = str;
  for (let i = 0; i < 4; i++) {
    if (s.length === 0) return false;
    if (i > 0) {
      if (s[0] !== '.') return false;
      s = s.slice(1);
    }
    const { n, i: c, ok } = dtoi(s);
    if (!ok || n > 0xff) return false;
    s = s.slice(c);
  }
  return s.length === 0;
}

/** k8s.io/utils/net forked parseIPv6 (any number of hex digits below 0xFFFFFF per group). */
function sloppyIPv6(str: string): boolean {
  let s = str;
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return true;
  }
  let i = 0;
  while (i < 16) {
    const { n, i: c, ok } = xtoi(s);
    if (!ok || n > 0xffff) return false;
    if (c < s.length && s[c] === '.') {
      if (ellipsis < 0 && i !== 12) return false;
      if (i + 4 > 16) return false;
      if (!sloppyIPv4(s)) return false;
      s = '';
      i += 4;
      break;
    }
    i += 2;
    s = s.slice(c);
    if (s.length === 0) break;
    if (s[0] !== ':' || s.length === 1) return false;
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return false;
  if (i < 16) return ellipsis >= 0;
  return ellipsis < 0;
}

/** netutils.ParseIPSloppy(s) != nil. */
function parseIPSloppy(s: string): true | undefined {
  if (!isASCII(s)) return undefined;
  for (const ch of s) {
    if (ch === '.') return sloppyIPv4(s) ? true : undefined;
    if (ch === ':') return sloppyIPv6(s) ? true : undefined;
  }
  return undefined;
}

/** netutils.ParseCIDRSloppy(s) succeeds. */
function isCIDRSloppy(s: string): boolean {
  if (!isASCII(s)) return false;
  const i = s.indexOf('/');
  if (i < 0) return false;
  const addr = s.slice(0, i);
  const mask = s.slice(i + 1);
  let iplen = 4;
  let ok = sloppyIPv4(addr);
  if (!ok) {
    iplen = 16;
    ok = sloppyIPv6(addr);
  }
  const d = dtoi(mask);
  return ok && d.ok && d.i === mask.length && d.n >= 0 && d.n <= 8 * iplen;
}

/** netip.ParseAddr (Go 1.26): undefined on error, else whether it is IPv4 and its zone. */
function netipParseAddr(s: string): { is4: boolean; zone: string } | undefined {
  for (const ch of s) {
    if (ch === '.') return strictIPv4Fields(s) ? { is4: true, zone: '' } : undefined;
    if (ch === ':') return strictIPv6(s);
    if (ch === '%') return undefined;
  }
  return undefined;
}

function strictIPv4Fields(s: string): boolean {
  let val = 0;
  let pos = 0;
  let digLen = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c >= '0' && c <= '9') {
      if (digLen === 1 && val === 0) return false;
      val = val * 10 + (c.charCodeAt(0) - 48);
      digLen++;
      if (val > 255) return false;
    } else if (c === '.') {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') return false;
      if (pos === 3) return false;
      pos++;
      val = 0;
      digLen = 0;
    } else {
      return false;
    }
  }
  return pos >= 3;
}

function strictIPv6(input: string): { is4: boolean; zone: string } | undefined {
  let s = input;
  let zone = '';
  const z = s.indexOf('%');
  if (z !== -1) {
    zone = s.slice(z + 1);
    s = s.slice(0, z);
    if (zone === '') return undefined;
  }
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return { is4: false, zone };
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const h = hexVal(s[off]);
      if (h < 0) break;
      acc = acc * 16 + h;
      if (off > 3) return undefined;
      if (acc > 0xffff) return undefined;
    }
    if (off === 0) return undefined;
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) return undefined;
      if (i + 4 > 16) return undefined;
      if (!strictIPv4Fields(s)) return undefined;
      s = '';
      i += 4;
      break;
    }
    i += 2;
    s = s.slice(off);
    if (s.length === 0) break;
    if (s[0] !== ':' || s.length === 1) return undefined;
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return undefined;
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return undefined;
  if (i < 16) {
    if (ellipsis < 0) return undefined;
  } else if (ellipsis >= 0) {
    return undefined;
  }
  return { is4: false, zone };
}

/** net.ParseIP(s) != nil (Go 1.26: netip.ParseAddr without a zone). */
function parseIPStd(s: string): boolean {
  const a = netipParseAddr(s);
  return a !== undefined && a.zone === '';
}

/** net.ParseMAC succeeds. */
function isMAC(s: string): boolean {
  if (!isASCII(s) || s.length < 12) return false;
  const xtoi2 = (t: string, e: string): boolean => {
    if (t.length > 2 && t[2] !== e) return false;
    return hexVal(t[0]) >= 0 && hexVal(t[1]) >= 0;
  };
  const sizes = [6, 8, 20];
  if (s[2] === ':' || s[2] === '-') {
    if ((s.length + 1) % 3 !== 0) return false;
    const n = (s.length + 1) / 3;
    if (!sizes.includes(n)) return false;
    for (let x = 0, i = 0; i < n; i++, x += 3) if (!xtoi2(s.slice(x), s[2])) return false;
    return true;
  }
  if (s[4] === '.') {
    if ((s.length + 1) % 5 !== 0) return false;
    const n = (2 * (s.length + 1)) / 5;
    if (!sizes.includes(n)) return false;
    for (let x = 0, i = 0; i < n; i += 2, x += 5) {
      if (!xtoi2(s.slice(x, x + 2), '\0')) return false;
      if (!xtoi2(s.slice(x + 2), s[4])) return false;
    }
    return true;
  }
  if (s.length % 2 !== 0) return false;
  const n = s.length / 2;
  if (!sizes.includes(n)) return false;
  for (let x = 0; x < s.length; x += 2) if (!xtoi2(s.slice(x, x + 2), '\0')) return false;
  return true;
}

function isISBN(str: string, version: 10 | 13): boolean {
  const sanitized = str.replace(/[\t\n\f\r -]+/g, '');
  const d = (i: number): number => sanitized.charCodeAt(i) - 48;
  if (version === 10) {
    if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(sanitized)) return false;
    let checksum = 0;
    for (let i = 0; i < 9; i++) checksum += (i + 1) * d(i);
    checksum += sanitized[9] === 'X' ? 100 : 10 * d(9);
    return checksum % 11 === 0;
  }
  if (!/^(?:[0-9]{13})$/.test(sanitized)) return false;
  let checksum = 0;
  for (let i = 0; i < 12; i++) checksum += (i % 2 === 0 ? 1 : 3) * d(i);
  return d(12) - ((10 - (checksum % 10)) % 10) === 0;
}

function isCreditCard(str: string): boolean {
  const sanitized = str.replace(/[^0-9]+/g, '');
  if (!reMatch(CREDIT_CARD_PATTERN, sanitized)) return false;
  let sum = 0;
  let shouldDouble = false;
  for (let i = sanitized.length - 1; i >= 0; i--) {
    let n = sanitized.charCodeAt(i) - 48;
    if (shouldDouble) {
      n *= 2;
      sum += n >= 10 ? (n % 10) + 1 : n;
    } else {
      sum += n;
    }
    shouldDouble = !shouldDouble;
  }
  return sum % 10 === 0;
}

// --- net/url.ParseRequestURI (Go 1.26, urlstrictcolons on) ---

type UrlMode = 'path' | 'host' | 'zone' | 'userPassword';

/** shouldEscape for the modes the parser checks (host and zone share their rules). */
function urlShouldEscapeHost(c: string): boolean {
  if (/^[A-Za-z0-9]$/.test(c)) return false;
  if ("!$&'()*+,;=:[]<>\"".includes(c)) return false;
  if ('-_.~'.includes(c)) return false;
  return true;
}

function urlUnescapeOk(s: string, mode: UrlMode): boolean {
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (c === '%') {
      if (i + 2 >= s.length || hexVal(s[i + 1]) < 0 || hexVal(s[i + 2]) < 0) return false;
      const hi = hexVal(s[i + 1]);
      const v = hi * 16 + hexVal(s[i + 2]);
      if (mode === 'host' && hi < 8 && s.slice(i, i + 3) !== '%25') return false;
      if (mode === 'zone' && s.slice(i, i + 3) !== '%25' && v !== 0x20 && (v >= 0x80 || urlShouldEscapeHost(String.fromCharCode(v)))) {
        return false;
      }
      i += 3;
    } else {
      if ((mode === 'host' || mode === 'zone') && c.charCodeAt(0) < 0x80 && urlShouldEscapeHost(c)) return false;
      i++;
    }
  }
  return true;
}

function validOptionalPort(port: string): boolean {
  if (port === '') return true;
  if (port[0] !== ':') return false;
  for (const ch of port.slice(1)) if (ch < '0' || ch > '9') return false;
  return true;
}

function validUserinfo(s: string): boolean {
  for (const ch of s) {
    if (/^[A-Za-z0-9]$/.test(ch)) continue;
    if ("-._:~!$&'()*+,;=%@".includes(ch)) continue;
    return false;
  }
  return true;
}

function urlParseHost(scheme: string, host: string): boolean {
  const open = host.lastIndexOf('[');
  if (open > 0) return false;
  if (open === 0) {
    const close = host.lastIndexOf(']');
    if (close < 0) return false;
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) return false;
    if (!urlUnescapeOk(colonPort, 'host')) return false;
    const hostname = host.slice(1, close);
    let unescaped: string;
    const zoneIdx = hostname.indexOf('%25');
    if (zoneIdx >= 0) {
      const hostPart = hostname.slice(0, zoneIdx);
      const zonePart = hostname.slice(zoneIdx);
      if (!urlUnescapeOk(hostPart, 'host') || !urlUnescapeOk(zonePart, 'zone')) return false;
      unescaped = percentDecode(hostPart) + percentDecode(zonePart);
    } else {
      if (!urlUnescapeOk(hostname, 'host')) return false;
      unescaped = percentDecode(hostname);
    }
    const addr = netipParseAddr(unescaped);
    return addr !== undefined && !addr.is4;
  }
  const i = host.indexOf(':');
  if (i !== -1) {
    const last = host.lastIndexOf(':');
    let j = i;
    if (last !== i && scheme !== 'http' && scheme !== 'https') j = last;
    if (!validOptionalPort(host.slice(j))) return false;
  }
  return urlUnescapeOk(host, 'host');
}

/** Percent-decoding of an already checked string, bytes kept as latin1 (only ASCII matters to the callers). */
function percentDecode(s: string): string {
  return s.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

function isRequestURI(raw: string): boolean {
  if (/[\x00-\x1f\x7f]/.test(raw)) return false;
  if (raw === '') return false;
  if (raw === '*') return true;
  // getScheme
  let scheme = '';
  let rest = raw;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/^[A-Za-z]$/.test(c)) continue;
    if (/^[0-9+\-.]$/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) return false;
      scheme = raw.slice(0, i).toLowerCase();
      rest = raw.slice(i + 1);
    }
    break;
  }
  if (rest.endsWith('?') && rest.split('?').length === 2) rest = rest.slice(0, -1);
  else {
    const q = rest.indexOf('?');
    if (q >= 0) rest = rest.slice(0, q);
  }
  if (!rest.startsWith('/')) return scheme !== '';
  if (scheme !== '' && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const slash = authority.indexOf('/');
    if (slash >= 0) {
      rest = authority.slice(slash);
      authority = authority.slice(0, slash);
    }
    const at = authority.lastIndexOf('@');
    if (!urlParseHost(scheme, at < 0 ? authority : authority.slice(at + 1))) return false;
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      if (!validUserinfo(userinfo)) return false;
      for (const part of userinfo.includes(':') ? [userinfo.slice(0, userinfo.indexOf(':')), userinfo.slice(userinfo.indexOf(':') + 1)] : [userinfo]) {
        if (!urlUnescapeOk(part, 'userPassword')) return false;
      }
    }
  }
  return urlUnescapeOk(rest, 'path');
}

// --- net/mail.ParseAddress (Go 1.26) ---

class MailParser {
  constructor(public s: string) {}

  empty(): boolean {
    return this.s.length === 0;
  }
  peek(): string {
    return this.s[0] ?? '';
  }
  consume(c: string): boolean {
    if (this.empty() || this.peek() !== c) return false;
    this.s = this.s.slice(1);
    return true;
  }
  skipSpace(): void {
    this.s = this.s.replace(/^[ \t]+/, '');
  }
  skipCFWS(): boolean {
    this.skipSpace();
    while (this.consume('(')) {
      if (this.consumeComment() === undefined) return false;
      this.skipSpace();
    }
    return true;
  }
  /** undefined when unbalanced. */
  consumeComment(): string | undefined {
    let depth = 1;
    let comment = '';
    while (!this.empty() && depth !== 0) {
      if (this.peek() === '\\' && this.s.length > 1) this.s = this.s.slice(1);
      else if (this.peek() === '(') depth++;
      else if (this.peek() === ')') depth--;
      if (depth > 0) comment += this.s[0];
      this.s = this.s.slice(1);
    }
    return depth === 0 ? comment : undefined;
  }

  /** Returns the number of addresses, or undefined on error. */
  parseAddress(handleGroup: boolean): number | undefined {
    this.skipSpace();
    if (this.empty()) return undefined;
    if (this.consumeAddrSpec()) {
      this.skipSpace();
      if (!this.empty() && this.peek() === '(') {
        if (!this.consume('(')) return undefined;
        const comment = this.consumeComment();
        if (comment === undefined) return undefined;
        for (const word of comment.split(/[ \t]+/).filter((w) => w !== '')) {
          if (decodeRFC2047(word).err) return undefined;
        }
      }
      return 1;
    }
    if (this.peek() !== '<') {
      if (!this.consumePhrase()) return undefined;
    }
    this.skipSpace();
    if (handleGroup && this.consume(':')) return this.consumeGroupList();
    if (!this.consume('<')) return undefined;
    if (!this.consumeAddrSpec()) return undefined;
    if (!this.consume('>')) return undefined;
    return 1;
  }

  consumeGroupList(): number | undefined {
    let n = 0;
    this.skipSpace();
    if (this.consume(';')) return this.skipCFWS() ? 0 : undefined;
    for (;;) {
      this.skipSpace();
      const a = this.parseAddress(false);
      if (a === undefined) return undefined;
      n += a;
      if (!this.skipCFWS()) return undefined;
      if (this.consume(';')) {
        if (!this.skipCFWS()) return undefined;
        break;
      }
      if (!this.consume(',')) return undefined;
    }
    return n;
  }

  /** Restores the input on failure. */
  consumeAddrSpec(): boolean {
    const orig = this.s;
    const ok = this.addrSpec();
    if (!ok) this.s = orig;
    return ok;
  }

  private addrSpec(): boolean {
    this.skipSpace();
    if (this.empty()) return false;
    if (this.peek() === '"') {
      const q = this.consumeQuotedString();
      if (q === undefined || q === '') return false;
    } else if (this.consumeAtom(true, false) === undefined) {
      return false;
    }
    if (!this.consume('@')) return false;
    this.skipSpace();
    if (this.empty()) return false;
    if (this.peek() === '[') return this.consumeDomainLiteral();
    return this.consumeAtom(true, false) !== undefined;
  }

  /** addrParser.consumePhrase: fails only when no word at all could be read. */
  consumePhrase(): boolean {
    let words = 0;
    let pending = false; // Go's strings.Builder of decoded encoded-words is non-empty
    let failed = false;
    for (;;) {
      if (words > 0 && !this.skipCFWS()) return false;
      this.skipSpace();
      if (this.empty()) break;
      let encoded = false;
      let decodedNonEmpty = false;
      if (this.peek() === '"') {
        if (this.consumeQuotedString() === undefined) {
          failed = true;
          break;
        }
      } else {
        const atom = this.consumeAtom(true, true);
        if (atom === undefined) {
          failed = true;
          break;
        }
        const d = decodeRFC2047(atom);
        if (d.err) {
          failed = true;
          break;
        }
        encoded = d.isEncoded;
        decodedNonEmpty = d.nonEmpty;
      }
      if (encoded) {
        if (decodedNonEmpty) pending = true;
      } else if (pending) {
        words += 2;
        pending = false;
      } else {
        words++;
      }
    }
    if (pending) words++;
    return !(failed && words === 0);
  }

  consumeQuotedString(): string | undefined {
    let i = 1;
    let qs = '';
    let escaped = false;
    for (;;) {
      const cp = this.s.codePointAt(i);
      if (cp === undefined) return undefined;
      const r = String.fromCodePoint(cp);
      if (escaped) {
        if (!isVchar(cp) && !isWSP(cp)) return undefined;
        qs += r;
        escaped = false;
      } else if (isQtext(cp) || isWSP(cp)) {
        qs += r;
      } else if (r === '"') {
        break;
      } else if (r === '\\') {
        escaped = true;
      } else {
        return undefined;
      }
      i += r.length;
    }
    this.s = this.s.slice(i + 1);
    return qs;
  }

  consumeAtom(dot: boolean, permissive: boolean): string | undefined {
    let i = 0;
    for (;;) {
      const cp = this.s.codePointAt(i);
      if (cp === undefined || !isAtext(cp, dot)) break;
      i += cp > 0xffff ? 2 : 1;
    }
    if (i === 0) return undefined;
    const atom = this.s.slice(0, i);
    this.s = this.s.slice(i);
    if (!permissive && (atom.startsWith('.') || atom.includes('..') || atom.endsWith('.'))) return undefined;
    return atom;
  }

  consumeDomainLiteral(): boolean {
    if (!this.consume('[')) return false;
    let dtext = '';
    for (;;) {
      if (this.empty()) return false;
      if (this.peek() === ']') break;
      const cp = this.s.codePointAt(0)!;
      if (!isDtext(cp)) return false;
      const r = String.fromCodePoint(cp);
      dtext += r;
      this.s = this.s.slice(r.length);
    }
    if (!this.consume(']')) return false;
    return parseIPStd(dtext);
  }
}

function isVchar(r: number): boolean {
  return (r >= 0x21 && r <= 0x7e) || r >= 0x80;
}
function isWSP(r: number): boolean {
  return r === 0x20 || r === 0x09;
}
function isAtext(r: number, dot: boolean): boolean {
  const c = String.fromCodePoint(r);
  if (c === '.') return dot;
  if ('()<>[]:;@\\,"'.includes(c)) return false;
  return isVchar(r);
}
function isQtext(r: number): boolean {
  if (r === 0x5c || r === 0x22) return false;
  return isVchar(r);
}
function isDtext(r: number): boolean {
  if (r === 0x5b || r === 0x5d || r === 0x5c) return false;
  return isVchar(r);
}

/** addrParser.decodeRFC2047Word with the default decoder: only an unsupported charset is an error. */
function decodeRFC2047(word: string): { isEncoded: boolean; err: boolean; nonEmpty: boolean } {
  const notEncoded = { isEncoded: false, err: false, nonEmpty: false };
  if (utf8Len(word) < 8 || !word.startsWith('=?') || !word.endsWith('?=') || word.split('?').length - 1 !== 4) return notEncoded;
  const inner = word.slice(2, -2);
  const q1 = inner.indexOf('?');
  const charset = inner.slice(0, q1);
  if (charset === '') return notEncoded;
  const rest = inner.slice(q1 + 1);
  const q2 = rest.indexOf('?');
  const encoding = rest.slice(0, q2);
  const text = rest.slice(q2 + 1);
  if (utf8Len(encoding) !== 1) return notEncoded;
  let decodes: boolean;
  if (encoding === 'B' || encoding === 'b') {
    decodes = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text.replace(/[\r\n]/g, ''));
  } else if (encoding === 'Q' || encoding === 'q') {
    decodes = qDecodes(text);
  } else {
    return notEncoded;
  }
  if (!decodes) return notEncoded;
  const cs = charset.toLowerCase();
  // Every encoded character decodes to at least one byte, so the text is empty only when the encoded text is.
  const nonEmpty = text !== '';
  if (cs === 'utf-8' || cs === 'iso-8859-1' || cs === 'us-ascii') return { isEncoded: true, err: false, nonEmpty };
  return { isEncoded: true, err: true, nonEmpty };
}

function qDecodes(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (s[i] === '_') continue;
    if (s[i] === '=') {
      if (i + 2 >= s.length) return false;
      if (hexVal(s[i + 1]) < 0 || hexVal(s[i + 2]) < 0) return false;
      i += 2;
      continue;
    }
    if ((c >= 0x20 && c <= 0x7e) || c === 10 || c === 13 || c === 9) continue;
    return false;
  }
  return true;
}

/** strfmt.IsEmail: mail.ParseAddress succeeds (the address part is never empty then). */
function isEmail(str: string): boolean {
  const p = new MailParser(str);
  const n = p.parseAddress(true);
  if (n === undefined) return false;
  if (!p.skipCFWS()) return false;
  if (!p.empty()) return false;
  return n === 1;
}
