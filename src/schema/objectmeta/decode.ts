/** metav1.ObjectMeta and its JSON decoding (sigs.k8s.io/json, case-sensitive, like utiljson.Unmarshal) and re-encoding. */
import { goTypeOf } from '../../go/print.js';
import { Loc } from '../../core/path.js';
import { isRecord, type JsonPath } from '../../core/types.js';
import { ZERO_TIME, formatRFC3339, isZeroTime, parseTimeRFC3339, type GoTime } from '../../go/time.js';
import { asBig, int64Value, isInt64 } from '../../go/value.js';
import { deepCopy } from '../../go/copy.js';
import { goJSON } from '../../go/json.js';
import { goSortedKeys } from '../../go/strings.js';

type Raw = Record<string, unknown>;

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
  /** Manifest position of the entry. */
  readonly at: JsonPath;
}

export interface ManagedFieldsEntry {
  manager: string;
  operation: string;
  apiVersion: string;
  time?: GoTime;
  fieldsType: string;
  /** The raw fieldsV1 value (any JSON; undefined = nil). */
  fieldsV1?: unknown;
  subresource: string;
}

/** A decoded metav1.ObjectMeta. Maps keep the decoding (sorted) order; undefined stands for Go's nil. */
export interface ObjectMeta {
  name: string;
  generateName: string;
  namespace: string;
  selfLink: string;
  uid: string;
  resourceVersion: string;
  generation: bigint;
  creationTimestamp: GoTime;
  deletionTimestamp?: GoTime;
  deletionGracePeriodSeconds?: bigint;
  labels?: Map<string, string>;
  annotations?: Map<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}

function emptyMeta(): ObjectMeta {
  return {
    name: '',
    generateName: '',
    namespace: '',
    selfLink: '',
    uid: '',
    resourceVersion: '',
    generation: 0n,
    creationTimestamp: ZERO_TIME,
  };
}

/** A decoding error: Go's text and where the offending value sits in the manifest. */
interface DecodeError {
  readonly msg: string;
  readonly at: JsonPath;
}

/** An error returned by an Unmarshaler (metav1.Time): aborts decoding. */
class HardError {
  constructor(readonly err: DecodeError) {}
}

/** Go's decodeState: first saved type error, strict (unknown field) errors. */
interface Dec {
  readonly strict: boolean;
  saved?: DecodeError;
  readonly unknown: string[];
  readonly seen: Set<string>;
}

/** Go's errorContext: innermost struct type name and the JSON field stack. */
interface ECtx {
  readonly struct: string;
  readonly stack: readonly string[];
}

const NO_CTX: ECtx = { struct: '', stack: [] };

function kindOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number' || typeof v === 'bigint') return 'number';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'array';
  return 'object';
}

function typeErrorText(valueKind: string, goType: string, ectx: ECtx): string {
  if (ectx.struct !== '' || ectx.stack.length > 0) {
    return `json: cannot unmarshal ${valueKind} into Go struct field ${ectx.struct}.${ectx.stack.join('.')} of type ${goType}`;
  }
  return `json: cannot unmarshal ${valueKind} into Go value of type ${goType}`;
}

function saveTypeError(dec: Dec, valueKind: string, goType: string, ectx: ECtx, at: JsonPath): void {
  if (dec.saved === undefined) dec.saved = { msg: typeErrorText(valueKind, goType, ectx), at };
}

function unknownField(dec: Dec, sp: string, key: string): void {
  if (!dec.strict || dec.unknown.length >= 100) return;
  const p = sp === '' ? key : `${sp}.${key}`;
  if (dec.seen.has(p)) return;
  dec.seen.add(p);
  dec.unknown.push(p);
}

/** A string (or string-kinded) target; undefined = leave as is (null or error). */
function decString(dec: Dec, v: unknown, ectx: ECtx, at: JsonPath, goType = 'string'): string | undefined {
  if (typeof v === 'string') return v;
  if (v !== null && v !== undefined) saveTypeError(dec, kindOf(v), goType, ectx, at);
  return undefined;
}

function decInt64(dec: Dec, v: unknown, ectx: ECtx, at: JsonPath): bigint | undefined {
  if (typeof v === 'number' || typeof v === 'bigint') {
    // the number as kubectl sends it: an int64 literal, or a float64's JSON text
    if (isInt64(v)) return asBig(v);
    saveTypeError(dec, `number ${goJSON(v)}`, 'int64', ectx, at);
    return undefined;
  }
  if (v !== null && v !== undefined) saveTypeError(dec, kindOf(v), 'int64', ectx, at);
  return undefined;
}

function decBool(dec: Dec, v: unknown, ectx: ECtx, at: JsonPath): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v !== null && v !== undefined) saveTypeError(dec, kindOf(v), 'bool', ectx, at);
  return undefined;
}

/** metav1.Time.UnmarshalJSON (a non-null value). */
function decTime(v: unknown, ectx: ECtx, at: JsonPath): GoTime {
  if (typeof v !== 'string') throw new HardError({ msg: typeErrorText(kindOf(v), 'string', ectx), at });
  const t = parseTimeRFC3339(v);
  if ('error' in t) throw new HardError({ msg: t.error, at });
  return t;
}

function decStringMap(dec: Dec, v: unknown, ectx: ECtx, at: JsonPath): Map<string, string> | null | undefined {
  if (v === null || v === undefined) return null;
  if (!isRecord(v)) {
    saveTypeError(dec, kindOf(v), 'map[string]string', ectx, at);
    return undefined;
  }
  const m = new Map<string, string>();
  for (const k of goSortedKeys(v)) m.set(k, decString(dec, v[k], ectx, [...at, k]) ?? '');
  return m;
}

function decStringSlice(dec: Dec, v: unknown, ectx: ECtx, at: JsonPath): string[] | null | undefined {
  if (v === null || v === undefined) return null;
  if (!Array.isArray(v)) {
    saveTypeError(dec, kindOf(v), '[]string', ectx, at);
    return undefined;
  }
  return v.map((x, i) => decString(dec, x, ectx, [...at, i]) ?? '');
}

function fieldCtx(ectx: ECtx, struct: string, name: string): ECtx {
  return { struct, stack: [...ectx.stack, name] };
}

function decSlice<T>(
  dec: Dec,
  v: unknown,
  ectx: ECtx,
  sp: string,
  at: JsonPath,
  goType: string,
  elem: (x: unknown, sp: string, at: JsonPath) => T,
): T[] | null | undefined {
  if (v === null || v === undefined) return null;
  if (!Array.isArray(v)) {
    saveTypeError(dec, kindOf(v), goType, ectx, at);
    return undefined;
  }
  return v.map((x, i) => elem(x, `${sp}[${i}]`, [...at, i]));
}

function decOwnerReference(dec: Dec, v: unknown, ectx: ECtx, sp: string, at: JsonPath): OwnerReference {
  const ref: OwnerReference = { apiVersion: '', kind: '', name: '', uid: '', at };
  if (v === null || v === undefined) return ref;
  if (!isRecord(v)) {
    saveTypeError(dec, kindOf(v), 'v1.OwnerReference', ectx, at);
    return ref;
  }
  for (const k of goSortedKeys(v)) {
    const x = v[k];
    const c = fieldCtx(ectx, 'OwnerReference', k);
    const a = [...at, k];
    switch (k) {
      case 'apiVersion':
      case 'kind':
      case 'name':
        ref[k] = decString(dec, x, c, a) ?? ref[k];
        break;
      case 'uid':
        ref.uid = decString(dec, x, c, a, 'types.UID') ?? ref.uid;
        break;
      case 'controller':
      case 'blockOwnerDeletion': {
        if (x === null || x === undefined) delete ref[k];
        else ref[k] = decBool(dec, x, c, a) ?? false;
        break;
      }
      default:
        unknownField(dec, sp, k);
    }
  }
  return ref;
}

function decManagedFieldsEntry(dec: Dec, v: unknown, ectx: ECtx, sp: string, at: JsonPath): ManagedFieldsEntry {
  const e: ManagedFieldsEntry = { manager: '', operation: '', apiVersion: '', fieldsType: '', subresource: '' };
  if (v === null || v === undefined) return e;
  if (!isRecord(v)) {
    saveTypeError(dec, kindOf(v), 'v1.ManagedFieldsEntry', ectx, at);
    return e;
  }
  for (const k of goSortedKeys(v)) {
    const x = v[k];
    const c = fieldCtx(ectx, 'ManagedFieldsEntry', k);
    const a = [...at, k];
    switch (k) {
      case 'manager':
      case 'apiVersion':
      case 'fieldsType':
      case 'subresource':
        e[k] = decString(dec, x, c, a) ?? e[k];
        break;
      case 'operation':
        e.operation = decString(dec, x, c, a, 'v1.ManagedFieldsOperationType') ?? e.operation;
        break;
      case 'time':
        if (x === null || x === undefined) delete e.time;
        else e.time = decTime(x, c, a);
        break;
      case 'fieldsV1':
        if (x === null || x === undefined) delete e.fieldsV1;
        else e.fieldsV1 = deepCopy(x);
        break;
      default:
        unknownField(dec, sp, k);
    }
  }
  return e;
}

/** Decodes (the fields of) `v` into `meta`, like json.Unmarshal into a *metav1.ObjectMeta. May throw HardError. */
function decObjectMetaInto(dec: Dec, v: unknown, at: JsonPath, meta: ObjectMeta): void {
  if (v === null || v === undefined) return;
  if (!isRecord(v)) {
    saveTypeError(dec, kindOf(v), 'v1.ObjectMeta', NO_CTX, at);
    return;
  }
  for (const k of goSortedKeys(v)) {
    const x = v[k];
    const c = fieldCtx(NO_CTX, 'ObjectMeta', k);
    const a = [...at, k];
    switch (k) {
      case 'name':
      case 'generateName':
      case 'namespace':
      case 'selfLink':
      case 'resourceVersion':
        meta[k] = decString(dec, x, c, a) ?? meta[k];
        break;
      case 'uid':
        meta.uid = decString(dec, x, c, a, 'types.UID') ?? meta.uid;
        break;
      case 'generation':
        meta.generation = decInt64(dec, x, c, a) ?? meta.generation;
        break;
      case 'creationTimestamp':
        meta.creationTimestamp = x === null || x === undefined ? ZERO_TIME : decTime(x, c, a);
        break;
      case 'deletionTimestamp':
        if (x === null || x === undefined) delete meta.deletionTimestamp;
        else meta.deletionTimestamp = decTime(x, c, a);
        break;
      case 'deletionGracePeriodSeconds':
        if (x === null || x === undefined) delete meta.deletionGracePeriodSeconds;
        else meta.deletionGracePeriodSeconds = decInt64(dec, x, c, a) ?? 0n;
        break;
      case 'labels':
      case 'annotations': {
        const m = decStringMap(dec, x, c, a);
        if (m === null) delete meta[k];
        else if (m !== undefined) meta[k] = m;
        break;
      }
      case 'finalizers': {
        const l = decStringSlice(dec, x, c, a);
        if (l === null) delete meta.finalizers;
        else if (l !== undefined) meta.finalizers = l;
        break;
      }
      case 'ownerReferences': {
        const l = decSlice(dec, x, c, k, a, '[]v1.OwnerReference', (e, sp, ea) =>
          decOwnerReference(dec, e, c, sp, ea),
        );
        if (l === null) delete meta.ownerReferences;
        else if (l !== undefined) meta.ownerReferences = l;
        break;
      }
      case 'managedFields': {
        const l = decSlice(dec, x, c, k, a, '[]v1.ManagedFieldsEntry', (e, sp, ea) =>
          decManagedFieldsEntry(dec, e, c, sp, ea),
        );
        if (l === null) delete meta.managedFields;
        else if (l !== undefined) meta.managedFields = l;
        break;
      }
      default:
        unknownField(dec, '', k);
    }
  }
}

/** One json.Unmarshal / kjson.UnmarshalStrict of `v` into `meta`. */
function unmarshalMeta(
  v: unknown,
  at: JsonPath,
  meta: ObjectMeta,
  strict: boolean,
): { error?: DecodeError; unknown: string[] } {
  const dec: Dec = { strict, unknown: [], seen: new Set() };
  try {
    decObjectMetaInto(dec, v, at, meta);
  } catch (e) {
    if (e instanceof HardError) return { error: e.err, unknown: [] };
    throw e;
  }
  if (dec.saved !== undefined) return { error: dec.saved, unknown: [] };
  return { unknown: dec.unknown };
}

interface GetObjectMetaResult {
  readonly meta?: ObjectMeta;
  readonly found: boolean;
  readonly unknown: string[];
  readonly error?: DecodeError;
}

/**
 * objectmeta.GetObjectMetaWithOptions: decodes obj.metadata; with `drop`, field by field, dropping the fields
 * that fail. `parent` is the embedded resource's location (unknown paths are `<parent>.metadata.<field>`).
 */
export function getObjectMeta(
  obj: Raw,
  parent: Loc,
  opts: { readonly drop: boolean; readonly unknown: boolean },
): GetObjectMetaResult {
  if (!Object.prototype.hasOwnProperty.call(obj, 'metadata')) return { found: false, unknown: [] };
  const metadata = obj['metadata'];
  const metaLoc = parent.child('metadata');
  const prefix = metaLoc.field;
  const full = emptyMeta();
  const r = unmarshalMeta(metadata, metaLoc.at, full, opts.unknown);
  if (r.error === undefined) {
    return { meta: full, found: true, unknown: r.unknown.map((p) => `${prefix}.${p}`) };
  }
  if (!opts.drop) return { found: true, unknown: [], error: r.error };
  if (!isRecord(metadata)) {
    return {
      found: false,
      unknown: [],
      error: { msg: `invalid metadata: expected object, got ${goTypeOf(metadata)}`, at: metaLoc.at },
    };
  }
  const acc = emptyMeta();
  const unknown: string[] = [];
  for (const k of goSortedKeys(metadata)) {
    const single = { [k]: metadata[k] };
    if (unmarshalMeta(single, metaLoc.at, emptyMeta(), false).error !== undefined) continue;
    const u = unmarshalMeta(single, metaLoc.at, acc, opts.unknown);
    unknown.push(...u.unknown.map((p) => `${prefix}.${p}`));
  }
  return { meta: acc, found: true, unknown };
}

export function ownerRefJSON(r: OwnerReference): Raw {
  const o: Raw = { apiVersion: r.apiVersion, kind: r.kind, name: r.name, uid: r.uid };
  if (r.controller !== undefined) o['controller'] = r.controller;
  if (r.blockOwnerDeletion !== undefined) o['blockOwnerDeletion'] = r.blockOwnerDeletion;
  return o;
}

const timeValue = (t: GoTime): string | null => (isZeroTime(t) ? null : formatRFC3339(t));

/** runtime.DefaultUnstructuredConverter.ToUnstructured(objectMeta) (omitempty/omitzero honoured). */
export function objectMetaToUnstructured(m: ObjectMeta): Raw {
  const o: Raw = {};
  for (const k of ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion'] as const) {
    if (m[k] !== '') o[k] = m[k];
  }
  if (m.generation !== 0n) o['generation'] = int64Value(m.generation);
  if (!isZeroTime(m.creationTimestamp)) o['creationTimestamp'] = formatRFC3339(m.creationTimestamp);
  if (m.deletionTimestamp !== undefined) o['deletionTimestamp'] = timeValue(m.deletionTimestamp);
  if (m.deletionGracePeriodSeconds !== undefined) o['deletionGracePeriodSeconds'] = int64Value(m.deletionGracePeriodSeconds);
  for (const k of ['labels', 'annotations'] as const) {
    const mm = m[k];
    if (mm !== undefined && mm.size > 0) o[k] = Object.fromEntries(mm);
  }
  if (m.ownerReferences !== undefined && m.ownerReferences.length > 0) o['ownerReferences'] = m.ownerReferences.map(ownerRefJSON);
  if (m.finalizers !== undefined && m.finalizers.length > 0) o['finalizers'] = [...m.finalizers];
  if (m.managedFields !== undefined && m.managedFields.length > 0) {
    o['managedFields'] = m.managedFields.map((e) => {
      const x: Raw = {};
      if (e.manager !== '') x['manager'] = e.manager;
      if (e.operation !== '') x['operation'] = e.operation;
      if (e.apiVersion !== '') x['apiVersion'] = e.apiVersion;
      if (e.time !== undefined) x['time'] = timeValue(e.time);
      if (e.fieldsType !== '') x['fieldsType'] = e.fieldsType;
      if (e.fieldsV1 !== undefined) x['fieldsV1'] = deepCopy(e.fieldsV1);
      if (e.subresource !== '') x['subresource'] = e.subresource;
      return x;
    });
  }
  return o;
}
