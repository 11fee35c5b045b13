/**
 * The parts of the apiserver's unstructured-to-CEL value adapters (apiserver pkg/cel/common
 * valuesunstructured.go) that a plain JS array or Map does not give: lists with
 * `x-kubernetes-list-type: set` or `map` compare without regard to order and concatenate as a union
 * or a keyed merge. The evaluator binds such lists as ordinary arrays and records what they are here;
 * the rule text is rewritten (rewrite.ts) so that `==`, `!=`, `+` and `in` go through these
 * functions, which fall back to the engine's own operator for everything else.
 */

import { CelGoError, CelGoPanic, CelUnsupported, type Fallback } from './lib/ops.js';
import { nanosOf } from './lib/time.js';
import { runtime } from './lib/runtime.js';
import { isDuration, isLibraryValue, isPlainObject, isUint, libraryType } from './lib/classes.js';
import { unescapeProperty } from './escape.js';

export type { Fallback };

/** What a bound list is, when it is not an ordinary (atomic) list. */
export interface ListKind {
  readonly kind: 'set' | 'map';
  /** list-map keys (for `map`). */
  readonly keys: readonly string[];
  /**
   * The adapters of a 1.37 server: set elements keyed by their CEL values (a `number` 1 is the
   * double 1.0), non-scalar elements an error, equality counting every element of the receiver.
   * Before, the raw decoded values (an integral JSON number is an int64) and the size alone.
   */
  readonly celValues: boolean;
}

const lists = new WeakMap<object, ListKind>();
/** Objects made from the custom resource's data (not CEL literals): map-list keys are looked up in them. */
const bound = new WeakSet<object>();
/**
 * Lists whose order is that of a map's entries (map(), filter() or transformList() over a map of
 * several entries, and what keeps their order): the server goes through a map in Go's random
 * order, so which element stands where is not known.
 */
const mapOrdered = new WeakSet<object>();

/** Marks `out` as in a map's order when `from` (the comprehension's range, or an operand) has a map's order of several elements. */
export function keepMapOrder<T>(from: unknown, out: T): T {
  if (Array.isArray(out) && out.length > 1 && (mapOrdered.has(from as object) || isSeveralEntryMap(from))) mapOrdered.add(out);
  return out;
}

function isSeveralEntryMap(x: unknown): boolean {
  if (x instanceof Map) return x.size > 1;
  return isPlainObject(x) && Object.keys(x).length > 1;
}

/** `what` reads `l` by position: where l is in a map's order (keepMapOrder) crdx cannot know the server's answer. */
export function positional(l: unknown, what: string): void {
  if (Array.isArray(l) && l.length > 1 && mapOrdered.has(l)) throw new CelUnsupported(`${what} of a list in the order of a map's entries, which the server goes through in Go's random order`);
}

export function markList(a: unknown[], k: ListKind): unknown[] {
  lists.set(a, k);
  return a;
}

/** Whether a Map or a list was made from the custom resource's data (not a CEL literal). */
export function isBound(m: object): boolean {
  return bound.has(m);
}

/**
 * Whether a list is one of the apiserver's adapters rather than a list cel-go makes: a list of the
 * object's data, or the union or merge of a set or map list (`+`: refValSetList, refValMapList).
 * cel-go's own lists (literals, macro and library results, `+` of atomic lists) are Zeroers, the
 * adapters are not (optional.ofNonZeroValue of an empty one has a value).
 */
export function isAdapterList(a: unknown[]): boolean {
  return bound.has(a) || lists.has(a);
}

export function markBound<T extends object>(m: T): T {
  bound.add(m);
  return m;
}

/** The element type of a list bound from the schema, where a sum() of it, empty, needs its zero. */
const numericItems = new WeakMap<object, 'int' | 'double'>();
export function markNumericItems<T extends object>(l: T, kind: 'int' | 'double'): T {
  numericItems.set(l, kind);
  return l;
}
export function numericItemsOf(l: object): 'int' | 'double' | undefined {
  return numericItems.get(l);
}

/** Objects with properties (not additionalProperties maps): their keys are escaped CEL field names. */
const escapedObjects = new WeakSet<object>();

export function markEscapedObject<T extends object>(m: T): T {
  escapedObjects.add(m);
  return m;
}

export function isEscapedObject(m: object): boolean {
  return escapedObjects.has(m);
}

/**
 * A value CEL cannot reach (a preserve-unknown field, a field without a CEL name): the adapters
 * compare it with equality.Semantic.DeepEqual and support nothing else.
 */
export class RawValue {
  constructor(readonly v: unknown) {}
}

/**
 * A field an object with properties does not declare (kept under x-kubernetes-preserve-unknown-fields):
 * in an equality the server compares it only when the other object holds the same key
 * (unstructuredMap.Equal), the sizes of the two objects being equal.
 */
export class UnknownField extends RawValue {}

/**
 * A declared property whose value is null, in an object with properties: the server treats it as
 * absent (unstructuredMap.Find: `has()` is false, reading it is `no such key`), but it still counts in
 * the object's size, so an equality with an object that lacks the field is false. Kept under a key no
 * CEL name reaches; `name` is the property's escaped name (the key a present value has).
 */
export class NullField {
  constructor(readonly name: string) {}
}

/** DeepEqual on decoded JSON (an integer and a float are different values). */
function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (typeof a === 'object' && typeof b === 'object' && a !== null && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const ob = b as Record<string, unknown>;
    return ka.length === Object.keys(ob).length && ka.every((k) => Object.prototype.hasOwnProperty.call(ob, k) && deepEqual((a as Record<string, unknown>)[k], ob[k]));
  }
  return false;
}


/** A key that tells scalars apart as Go map keys do (int64 1 and float64 1 differ). */
function scalarKey(v: unknown): string | undefined {
  switch (typeof v) {
    case 'bigint':
      return `i${v}`;
    case 'number':
      return `d${v}`;
    case 'string':
      return `s${v}`;
    case 'boolean':
      return `b${v}`;
    default:
      return v === null ? 'n' : undefined;
  }
}

/** Bound values in 1.36's keys: the raw decoded value, where an integral JSON number is an int64 (not crdx's double). */
function rawKey(v: unknown): string | undefined {
  if (typeof v === 'number' && Number.isInteger(v)) return `i${v}`;
  return scalarKey(v);
}

/** Go's `%#v` of a []byte: `[]byte{0x61, 0xff}` (bytes in hex without leading zeros). */
function goBytesSharpV(b: Uint8Array): string {
  return `[]byte{${Array.from(b, (x) => `0x${x.toString(16)}`).join(', ')}}`;
}

/**
 * setElementKey (1.37): lists and maps refused with the server's error; a scalar by its Go value
 * (ref.Val.Value()) as a map key, which tells the Go types apart (int64 1, uint64 1 and float64 1
 * differ; a duration is a time.Duration); bytes are not comparable in Go and are keyed by their
 * `%#v`, a string (so the string `[]byte{0x61}` is the same key as b'a', as on the server).
 * A timestamp's key is a time.Time, whose == also compares the location pointer: crdx does not
 * claim to know it.
 */
function setKey(v: unknown): string {
  if (Array.isArray(v) || v instanceof Map || isPlainObject(v))
    throw new CelGoError('listSet operations are only supported on lists of scalar values');
  if (isUint(v)) return `u${v.valueOf()}`;
  if (isDuration(v)) return `D${v.seconds * 1_000_000_000n + BigInt(v.nanos)}`;
  const k = scalarKey(v instanceof Uint8Array ? goBytesSharpV(v) : v);
  if (k === undefined) throw new CelUnsupported('a set list element or operand that is a timestamp or a library value (its Go map key)');
  return k;
}

/** 1.36 hashed the raw elements: an object or array element panics, recovered as an internal error. */
function rawSetKeys(a: readonly unknown[]): (string | undefined)[] {
  return a.map((v) => {
    if (v instanceof Map && bound.has(v)) throw new CelGoError('internal error: runtime error: hash of unhashable type map[string]interface {}');
    if (Array.isArray(v)) throw new CelGoError('internal error: runtime error: hash of unhashable type []interface {}');
    // a duration, timestamp or bytes element's raw value is its string in the data: no key (below)
    if (typeof v === 'object' && v !== null && !(v instanceof Date) && !(v instanceof Uint8Array) && !isDuration(v)) throw new CelUnsupported('a set list element that is not a scalar of the resource');
    return rawKey(v);
  });
}

/**
 * 1.36's lookup of another list's element among raw elements: undefined where it is not found.
 * `opaque`: some raw element crdx bound as a duration, timestamp or bytes (an undefined key), a
 * string in Go, which only a string reaches (through dyn): crdx does not keep that string.
 */
function rawLookupKey(opaque: boolean, x: unknown): string | undefined {
  const key = rawOther(x);
  if (opaque && typeof x === 'string') throw new CelUnsupported('a string looked up in a set list of durations, timestamps or bytes');
  return key;
}

/**
 * 1.36 looked the other list's elements up by their CEL values' Go values (a double literal is a
 * float64, an int an int64); an element of the resource by its raw value.
 */
function rawOther(x: unknown): string | undefined {
  // a []byte is not hashable: the lookup panics, recovered as an internal error
  if (x instanceof Uint8Array) throw new CelGoError('internal error: runtime error: hash of unhashable type []uint8');
  if (typeof x === 'object' && x !== null && !(x instanceof Date) && !isDuration(x)) throw new CelUnsupported('a set list compared with or added to a list holding a value that is not a scalar');
  // a time.Time is never one of the raw elements (strings, numbers, booleans)
  return scalarKey(x);
}

/**
 * The key of a map-list element (undefined: the element is not an object from the data). `raw`: the
 * server's toMapKey, which indexes the element's raw data with the escaped key names (its Equal, at
 * every minor, and its `+` before 1.37): a key whose name CEL escapes (`namespace`, `a-b`) is never
 * found there and counts as nil. 1.37's `+` finds the key through the CEL object (refValMapKey).
 */
function mapKey(e: unknown, keys: readonly string[], raw: boolean): string | undefined {
  if (!(e instanceof Map) || !bound.has(e)) return undefined;
  return keys
    .map((k) => {
      if (raw && unescapeProperty(k) !== k) return 'n';
      if (!e.has(k)) return 'n';
      const key = scalarKey(e.get(k));
      // the server keys by the raw value (a duration's or a timestamp's string as written), which crdx does not keep
      if (key === undefined) throw new CelUnsupported('a list-map key that is a duration, timestamp or bytes');
      return key;
    })
    .join('\u0000');
}

interface Opt {
  hasValue(): boolean;
  value(): unknown;
  orValue(d: unknown): unknown;
}

/** A cel-js optional (its class is not exported by the package entry). */
const isOptional = (x: unknown): x is Opt => typeof x === 'object' && x !== null && typeof (x as Partial<Opt>).hasValue === 'function' && typeof (x as Partial<Opt>).orValue === 'function';

const TWO_63 = 9223372036854775808;
const TWO_64 = 18446744073709551616;

/** A double that int() converts (cel-go doubleToInt64Checked: NaN, ±Inf and beyond ±2^63 overflow). */
export const doubleFitsInt = (d: number): boolean => d > -TWO_63 && d < TWO_63;
/** A double that uint() converts (cel-go doubleToUint64Checked). */
export const doubleFitsUint = (d: number): boolean => d >= 0 && d < TWO_64;

/** An int (bigint) or uint (cel-js UnsignedInt) as a bigint, with whether it is unsigned. */
function integerOf(x: unknown): { v: bigint; unsigned: boolean } | undefined {
  if (typeof x === 'bigint') return { v: x, unsigned: false };
  if (isUint(x)) return { v: x.valueOf(), unsigned: true };
  return undefined;
}

/**
 * cel-go's comparison of an int or uint with a double (common/types compare.go): a double beyond
 * the integer type's range orders outside it, otherwise the integer is converted to a double (so
 * 2^63 - 1 equals 2^63.0). Undefined for other pairs and for NaN (left to the engine).
 */
export function crossNumericCompare(a: unknown, b: unknown): number | undefined {
  const ia = integerOf(a);
  const ib = integerOf(b);
  if (ia && typeof b === 'number') return Number.isNaN(b) ? undefined : -doubleVsInteger(b, ia);
  if (ib && typeof a === 'number') return Number.isNaN(a) ? undefined : doubleVsInteger(a, ib);
  return undefined;
}

function doubleVsInteger(d: number, i: { v: bigint; unsigned: boolean }): number {
  if (i.unsigned ? d < 0 : d < -TWO_63) return -1;
  if (d > (i.unsigned ? TWO_64 : TWO_63)) return 1;
  const x = Number(i.v);
  return d < x ? -1 : d > x ? 1 : 0;
}

/**
 * A Kubernetes library value (quantity, URL, IP, CIDR, semver, format) against a value of another
 * type (null aside): its Equal answers MaybeNoSuchOverloadErr, an error. `==` fails with it, `!=`
 * takes it for unequal, a list's or map's Equal for not unequal (it stops at False only), and
 * Contains for not found.
 */
export function libraryMismatch(a: unknown, b: unknown): boolean {
  if (a === null || typeof a !== 'object' || b === null) return false;
  const t = libraryType(a);
  return t !== undefined && (typeof b !== 'object' || libraryType(b)?.name !== t.name);
}

/**
 * Whether `a`'s Equal with `b` is an error in cel-go: a library value against another type
 * (libraryMismatch), or one of the apiserver's list or map adapters (cel/common/values.go) against
 * a value that is no list, or no map, respectively (MaybeNoSuchOverloadErr). cel-go's Equal settles
 * null first. `==` fails with the error, `!=` takes it for unequal, the Equal of a list or map
 * holding the two for not unequal.
 */
export function equalFails(a: unknown, b: unknown): boolean {
  if (b === null) return false;
  if (libraryMismatch(a, b)) return true;
  return isAdapter(a) && containerKind(a) !== containerKind(b);
}

/** The error of an Equal inside a list's (the apiserver's list answers its element's): `!=` takes it for unequal. */
export class EqualError extends CelGoError {}

/** A list, a map (bound or made by CEL), or neither. */
const containerKind = (x: unknown): 'list' | 'map' | undefined => (Array.isArray(x) ? 'list' : x instanceof Map || isPlainObject(x) ? 'map' : undefined);

/** One of the apiserver's list or map adapters of the resource's data. */
const isAdapter = (x: unknown): boolean => (Array.isArray(x) ? isAdapterList(x) : x instanceof Map && isBound(x));

/** cel-go's equality on the values we bind (the left operand decides, as in the adapters). */
export function celEqual(a: unknown, b: unknown, eq: Fallback): boolean {
  // an int or uint and a double: as cel-go compares them (the integer as a double)
  const cross = crossNumericCompare(a, b);
  if (cross !== undefined) return cross === 0;
  if (a instanceof RawValue || b instanceof RawValue) return a instanceof RawValue && b instanceof RawValue && deepEqual(a.v, b.v);
  // library types (quantity, URL, IP, …) define their own equality
  if (typeof a === 'object' && a !== null && typeof (a as { celEqual?: unknown }).celEqual === 'function') return (a as { celEqual(o: unknown): boolean }).celEqual(b);
  // timestamps to the nanosecond (cel-js compares their milliseconds)
  if (a instanceof Date && b instanceof Date) return nanosOf(a) === nanosOf(b);
  // optionals: both empty, or both holding equal values
  if (isOptional(a) && isOptional(b)) return a.hasValue() === b.hasValue() && (!a.hasValue() || celEqual(a.value(), b.value(), eq));
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    const k = lists.get(a);
    if (k?.kind === 'set' && k.celValues) {
      const set = new Set<string>(a.map(setKey));
      const seen = new Set<string>();
      for (const x of b) {
        const key = setKey(x);
        if (!set.has(key)) return false;
        seen.add(key);
      }
      return seen.size === set.size;
    }
    if (k?.kind === 'set') {
      const keys = rawSetKeys(a);
      const set = new Set<string | undefined>(keys);
      const opaque = keys.includes(undefined);
      return b.every((x) => {
        const key = rawLookupKey(opaque, x);
        return key !== undefined && set.has(key);
      });
    }
    if (k?.kind === 'map') {
      const byKey = new Map<string, unknown>();
      for (const x of a) {
        const key = mapKey(x, k.keys, true);
        if (key !== undefined) byKey.set(key, x);
      }
      const seen = new Set<string>();
      for (const x of b) {
        const key = mapKey(x, k.keys, true);
        if (key === undefined || !byKey.has(key)) return false;
        if (!celEqual(byKey.get(key), x, eq)) return false;
        seen.add(key);
      }
      // 1.37 also asks that every element of the receiver was matched
      return !k.celValues || seen.size === byKey.size;
    }
    for (let i = 0; i < a.length; i++) {
      // an element whose Equal is an error: the apiserver's list answers it (calling the element's
      // Equal itself, null not settled first), a list CEL made goes on
      if (isAdapterList(a)) {
        if (b[i] === null ? isAdapter(a[i]) : equalFails(a[i], b[i])) throw new EqualError('no such overload');
      } else if (equalFails(a[i], b[i])) continue;
      if (!celEqual(a[i], b[i], eq)) return false;
    }
    return true;
  }
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [key, v] of a) {
      // unstructuredMap.Equal: a null field is not found; the other object must not find it either
      if (v instanceof NullField) {
        if (b.has(v.name)) return false;
        continue;
      }
      if (!b.has(key)) {
        if (v instanceof UnknownField) continue;
        return false;
      }
      if (equalFails(v, b.get(key))) {
        // the apiserver's map answers the error of the first such field it meets, in Go's random order
        if (isBound(a)) throw new CelUnsupported('an object compared with a map one of whose values compares as an error');
        continue;
      }
      if (!celEqual(v, b.get(key), eq)) return false;
    }
    return true;
  }
  // map literals holding a library value (the engine that runs `eq` has no library types): by key,
  // as a map's Equal goes (libraryMismatch)
  if (isPlainObject(a) && isPlainObject(b) && [...Object.values(a), ...Object.values(b)].some(isLibraryValue)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && (equalFails(a[k], b[k]) || celEqual(a[k], b[k], eq)));
  }
  // a list or a map and a value of another kind: unequal (Equal answers False; where it answers an
  // error, equalFails, the caller decides first)
  const ka = containerKind(a);
  const kb = containerKind(b);
  if (ka !== kb && (ka !== undefined || kb !== undefined)) return false;
  return eq(a, b) === true;
}

/** `a + b`: a set list is a union, a map list a keyed merge, other lists concatenate. */
export function celAdd(a: unknown, b: unknown, add: Fallback): unknown {
  if (!Array.isArray(a) || !Array.isArray(b)) return add(a, b);
  // a list in a map's order keeps it in the sum (keepMapOrder)
  return keepMapOrder(a, keepMapOrder(b, addLists(a, b, add)));
}

function addLists(a: unknown[], b: unknown[], add: Fallback): unknown {
  const k = lists.get(a);
  if (k?.kind === 'set') {
    const out = [...a];
    const keys: (string | undefined)[] = k.celValues ? a.map(setKey) : rawSetKeys(a);
    const seen = new Set(keys);
    const opaque = keys.includes(undefined);
    for (const x of b) {
      const key = k.celValues ? setKey(x) : rawLookupKey(opaque, x);
      if (key === undefined || !seen.has(key)) {
        seen.add(key);
        out.push(x);
      }
    }
    return markList(out, k);
  }
  if (k?.kind === 'map') {
    const out = [...a];
    const at = new Map<string, number>();
    a.forEach((x, i) => {
      const key = mapKey(x, k.keys, !k.celValues);
      if (key !== undefined) at.set(key, i);
    });
    for (const x of b) {
      const key = mapKey(x, k.keys, !k.celValues);
      const i = key === undefined ? undefined : at.get(key);
      if (i !== undefined) out[i] = x;
      else out.push(x);
    }
    return markList(out, k);
  }
  const out = add(a, b);
  // before 1.37 an atomic list of the object plus a list is another adapter (unstructuredList.Add),
  // from 1.37 cel-go's list (types.NewRefValList)
  if (!runtime.v137 && isAdapterList(a) && Array.isArray(out)) markBound(out);
  return out;
}

/** `x in coll`: list membership (each element compared with x, the element deciding); maps are left to the engine. */
export function celIn(x: unknown, coll: unknown, inOp: Fallback, eq: Fallback): unknown {
  // the needle's Equal decides; a library value's error on another type is no match
  if (Array.isArray(coll)) return isLibraryValue(x) ? coll.some((e) => !libraryMismatch(x, e) && celEqual(x, e, eq)) : coll.some((e) => celEqual(e, x, eq));
  // the apiserver's map of the resource's data finds string keys only (unstructuredMap.Find:
  // MaybeNoSuchOverloadErr of any other key)
  if (coll instanceof Map && isBound(coll) && typeof x !== 'string') throw new CelGoError('no such overload');
  // a map CEL made finds no key of a library type; bytes it looks up in a Go map, which panics on
  // the unhashable []byte (recovered as the evaluation's error, whatever is around it)
  if (coll instanceof Map || isPlainObject(coll)) {
    if (x instanceof Uint8Array) throw new CelGoPanic('internal error: runtime error: hash of unhashable type types.Bytes');
    if (isLibraryValue(x)) return false;
  }
  return inOp(x, coll);
}
