/**
 * The sizes the CRD cost estimator reads from the declared types of a structural schema:
 * apiserver pkg/cel/common/schemas.go SchemaDeclType as far as `MaxElements` and
 * `MinSerializedSize` go (field names escaped as cel.Escape does), and the size estimator of
 * apiextensions schema/cel/compilation.go (a field path walked from the rule's node).
 *
 * `bounds` lets the explanation ask "what if this node declared maxItems/maxLength/maxProperties
 * = n": it overrides the declared bound of a schema node, and every size is derived again.
 */
import type { Structural } from '../../crd/structural-schema.js';
import { utf8Len } from '../../go/strings.js';
import { range, type Range } from './cost.js';
import { cappedNameLength, capsMetadataNames, hasTypeAndObjectMeta } from './decl.js';
import { escapeProperty } from './escape.js';

/** celconfig.MaxRequestSizeBytes */
export const MAX_REQUEST_SIZE_BYTES = 3n * 1024n * 1024n;
const MAX_DURATION_SIZE_JSON = 32n;
const MAX_DATETIME_SIZE_JSON = 32n;
const JSON_DATE_SIZE = 12n;
const MIN_DURATION_SIZE_JSON = 3n;
const MIN_DATETIME_SIZE_JSON = 21n;
const MIN_STRING_SIZE = 2n;
const MIN_BOOL_SIZE = 4n;
const MIN_NUMBER_SIZE = 1n;

export interface SizeDecl {
  readonly kind: 'object' | 'list' | 'map' | 'scalar';
  readonly maxElements: bigint;
  readonly minSerializedSize: bigint;
  /** object fields by escaped name */
  readonly fields?: ReadonlyMap<string, SizeDecl>;
  readonly elem?: SizeDecl;
  readonly key?: SizeDecl;
  /** the schema node this declaration was built from (undefined for generated nodes) */
  readonly schema?: Structural;
}

/** maxItems / maxLength / maxProperties overrides, by schema node */
export type Bounds = ReadonlyMap<Structural, bigint>;

const toBig = (v: number | bigint): bigint => (typeof v === 'bigint' ? v : Number.isFinite(v) ? BigInt(Math.trunc(v)) : 0n);
const zeroIfNegative = (v: bigint): bigint => (v < 0n ? 0n : v);

function stringMax(s: Structural): bigint {
  if (s.extensions.intOrString) return MAX_REQUEST_SIZE_BYTES - 2n;
  switch (s.valueValidation.format) {
    case 'duration':
      return MAX_DURATION_SIZE_JSON;
    case 'date':
      return JSON_DATE_SIZE;
    case 'date-time':
      return MAX_DATETIME_SIZE_JSON;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2n;
  }
}

const STRING_SCHEMA_PROPS = new Set(['kind', 'apiVersion']);

const STR: SizeDecl = { kind: 'scalar', maxElements: MAX_REQUEST_SIZE_BYTES - 2n, minSerializedSize: MIN_STRING_SIZE };
const MAP_KEY: SizeDecl = { kind: 'scalar', maxElements: 0n, minSerializedSize: MIN_STRING_SIZE };

const NO_BOUNDS: Bounds = new Map();

/**
 * SchemaDeclType of a server of minor 1.`kubeMinor`, sizes only; undefined where upstream gives no
 * type (the field is left out). Without bound overrides it is built once per node (every rule at or
 * above a node asks for it), and shared: a SizeDecl is never changed.
 */
export function sizeDecl(s: Structural, isResourceRoot: boolean, kubeMinor: number, bounds: Bounds = NO_BOUNDS): SizeDecl | undefined {
  if (bounds.size === 0) return s.derive(`cel-size-decl-${isResourceRoot}-${kubeMinor}`, () => buildSizeDecl(s, isResourceRoot, kubeMinor, NO_BOUNDS));
  return buildSizeDecl(s, isResourceRoot, kubeMinor, bounds);
}

function buildSizeDecl(s: Structural, isResourceRoot: boolean, kubeMinor: number, bounds: Bounds): SizeDecl | undefined {
  const bound = (v: number | bigint | undefined): bigint | undefined => {
    const o = bounds.get(s);
    if (o !== undefined) return o;
    return v === undefined ? undefined : zeroIfNegative(toBig(v));
  };
  const vv = s.valueValidation;
  if (s.extensions.intOrString) {
    const ml = bound(vv.maxLength);
    return { kind: 'scalar', maxElements: ml !== undefined ? ml * 4n : stringMax(s), minSerializedSize: 1n, schema: s };
  }
  switch (s.generic.type) {
    case 'array': {
      if (!s.items) return undefined;
      const it = sizeDecl(s.items, s.items.extensions.embeddedResource, kubeMinor, bounds);
      if (!it) return undefined;
      const mi = bound(vv.maxItems);
      return {
        kind: 'list',
        maxElements: mi ?? (MAX_REQUEST_SIZE_BYTES - 2n) / (it.minSerializedSize + 1n),
        minSerializedSize: 2n,
        elem: it,
        schema: s,
      };
    }
    case 'object': {
      const ap = s.additionalProperties?.schema;
      if (ap) {
        const v = sizeDecl(ap, ap.extensions.embeddedResource, kubeMinor, bounds);
        if (!v) return undefined;
        const mp = bound(vv.maxProperties);
        return {
          kind: 'map',
          maxElements: mp ?? (MAX_REQUEST_SIZE_BYTES - 2n) / (v.minSerializedSize + 6n),
          minSerializedSize: 2n,
          elem: v,
          key: MAP_KEY,
          schema: s,
        };
      }
      const fields = new Map<string, SizeDecl>();
      const req = new Set(vv.required);
      let min = 2n;
      const addField = (name: string, d: SizeDecl | undefined, required: boolean, hasDefault: boolean): void => {
        if (!d) return;
        const esc = escapeProperty(name);
        if (esc !== undefined) fields.set(esc, d);
        if (required && !hasDefault) min += BigInt(utf8Len(name)) + d.minSerializedSize + 4n;
      };
      const withMeta = isResourceRoot && !hasTypeAndObjectMeta(s);
      for (const [name, p] of s.properties) {
        if (withMeta && (STRING_SCHEMA_PROPS.has(name) || name === 'metadata')) continue;
        addField(name, sizeDecl(p, p.extensions.embeddedResource, kubeMinor, bounds), req.has(name), p.generic.hasDefault);
      }
      if (withMeta) {
        addField('kind', STR, req.has('kind'), false);
        addField('apiVersion', STR, req.has('apiVersion'), false);
        // from 1.37 capped at 253 / 252 characters (or the user's smaller maxLength on them)
        const capped = (prop: 'name' | 'generateName'): SizeDecl => {
          const userNode = s.properties.get('metadata')?.properties.get(prop);
          const override = userNode ? bounds.get(userNode) : undefined;
          const n = BigInt(cappedNameLength(s, prop, override === undefined ? undefined : Number(override)));
          return { kind: 'scalar', maxElements: zeroIfNegative(n) * 4n, minSerializedSize: MIN_STRING_SIZE };
        };
        const names = capsMetadataNames(kubeMinor) ? { name: capped('name'), generateName: capped('generateName') } : { name: STR, generateName: STR };
        const meta: SizeDecl = { kind: 'object', maxElements: 0n, minSerializedSize: 2n, fields: new Map([['name', names.name], ['generateName', names.generateName]]) };
        addField('metadata', meta, req.has('metadata'), false);
      }
      return { kind: 'object', maxElements: 0n, minSerializedSize: min, fields, schema: s };
    }
    case 'string': {
      const f = vv.format;
      if (f === 'byte') return { kind: 'scalar', maxElements: bound(vv.maxLength) ?? stringMax(s), minSerializedSize: MIN_STRING_SIZE, schema: s };
      if (f === 'duration') return { kind: 'scalar', maxElements: stringMax(s), minSerializedSize: MIN_DURATION_SIZE_JSON, schema: s };
      if (f === 'date') return { kind: 'scalar', maxElements: stringMax(s), minSerializedSize: JSON_DATE_SIZE, schema: s };
      if (f === 'date-time') return { kind: 'scalar', maxElements: stringMax(s), minSerializedSize: MIN_DATETIME_SIZE_JSON, schema: s };
      const ml = bound(vv.maxLength);
      let max: bigint;
      if (ml !== undefined) max = ml * 4n;
      else if (vv.enum && vv.enum.length > 0) {
        max = 0n;
        for (const e of vv.enum) if (typeof e === 'string' && BigInt(utf8Len(e)) > max) max = BigInt(utf8Len(e));
      } else max = stringMax(s);
      return { kind: 'scalar', maxElements: max, minSerializedSize: MIN_STRING_SIZE, schema: s };
    }
    case 'boolean':
      return { kind: 'scalar', maxElements: 0n, minSerializedSize: MIN_BOOL_SIZE, schema: s };
    case 'number':
    case 'integer':
      return { kind: 'scalar', maxElements: 0n, minSerializedSize: MIN_NUMBER_SIZE, schema: s };
  }
  return undefined;
}

/** sizeEstimator.EstimateSize: the path's first element is the variable (self, oldSelf, …) and is skipped. */
export function sizeAtPath(root: SizeDecl): (path: readonly string[]) => Range | undefined {
  return (path) => {
    if (path.length === 0) return undefined;
    let cur: SizeDecl | undefined = root;
    for (let i = 1; i < path.length; i++) {
      const n = path[i]!;
      if (n === '@items' || n === '@values') cur = cur.elem;
      else if (n === '@keys') cur = cur.key;
      else cur = cur.fields?.get(n);
      if (!cur) return undefined;
    }
    return range(0n, cur.maxElements);
  };
}

/** The declaration a size path ends at (for explanations), or undefined. */
export function declAtPath(root: SizeDecl, path: readonly string[]): SizeDecl | undefined {
  let cur: SizeDecl | undefined = root;
  for (let i = 1; i < path.length && cur; i++) {
    const n = path[i]!;
    cur = n === '@items' || n === '@values' ? cur.elem : n === '@keys' ? cur.key : cur.fields?.get(n);
  }
  return cur;
}

/** maxCardinality of compilation.go: how often a value of this minimum size fits in a request. */
export function maxCardinality(minSerializedSize: bigint): bigint {
  return MAX_REQUEST_SIZE_BYTES / (minSerializedSize + 1n);
}
