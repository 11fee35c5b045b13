/**
 * Validation ratcheting's correlation of a new value with the old one (k8s.io/apiserver pkg/cel/common
 * equality.go `CorrelatedObject`), over either schema form the server hands it: the OpenAPI schema of
 * the value validator (apiextensions-apiserver pkg/apiserver/validation/ratcheting.go, `Corr`) and the
 * structural schema of the CEL validator (registry/customresource strategy.go, `Correlated<Structural>`
 * with `STRUCTURAL_SHAPE` in cel-eval.ts). Both read the same three things of a schema node.
 */
import { asBig, asFloat, isMap, kindOf } from '../../go/value.js';
import type { OSchema } from './schema.js';
import { deepEqual } from '../../go/equal.js';

/** What the correlation reads of a schema node (common.Schema's Properties/AdditionalProperties, Items, XListType/XListMapKeys). */
export interface CorrShape<S> {
  /** Properties()[field], else AdditionalProperties().Schema(), else undefined. */
  child(s: S, field: string): S | undefined;
  items(s: S): S | undefined;
  /** The keys of a `x-kubernetes-list-type: map` array node; undefined for any other node. */
  mapKeys(s: S): readonly string[] | undefined;
}

const OPENAPI_SHAPE: CorrShape<OSchema> = {
  child: (s, field) => s.properties?.get(field) ?? s.additionalProperties?.schema,
  items: (s) => s.items,
  mapKeys: (s) => (s.listType === 'map' && s.type.includes('array') && s.listMapKeys.length > 0 ? s.listMapKeys : undefined),
};

/** common.CorrelatedObject (k8s.io/apiserver/pkg/cel/common/equality.go): a new value, the old value it corresponds to, and its schema. */
export class Correlated<S> {
  private readonly children = new Map<string | number, Correlated<S> | undefined>();
  private equal: boolean | undefined;
  private oldByKey: Map<string, unknown> | undefined;

  constructor(
    readonly value: unknown,
    readonly old: unknown,
    readonly schema: S,
    private readonly shape: CorrShape<S>,
  ) {}

  /** Key(field): the property's correlated child, when both values are objects holding it and the schema knows it. */
  key(field: string): Correlated<S> | undefined {
    const k = `k:${field}`;
    if (this.children.has(k)) return this.children.get(k);
    let child: Correlated<S> | undefined;
    if (isMap(this.value) && isMap(this.old) && Object.prototype.hasOwnProperty.call(this.value, field) && Object.prototype.hasOwnProperty.call(this.old, field)) {
      const ps = this.shape.child(this.schema, field);
      if (ps !== undefined) child = new Correlated(this.value[field], this.old[field], ps, this.shape);
    }
    this.children.set(k, child);
    return child;
  }

  /** Index(i): only the items of a map-list correlate, with the old item of the same keys. */
  index(i: number): Correlated<S> | undefined {
    if (this.children.has(i)) return this.children.get(i);
    let child: Correlated<S> | undefined;
    const items = this.shape.items(this.schema);
    if (Array.isArray(this.value) && Array.isArray(this.old) && i < this.value.length && items !== undefined) {
      const o = this.oldItemFor(this.value[i]);
      if (o !== undefined && o !== null) child = new Correlated(this.value[i], o, items, this.shape);
    }
    this.children.set(i, child);
    return child;
  }

  private oldItemFor(item: unknown): unknown {
    const keys = this.shape.mapKeys(this.schema);
    const old = this.old as unknown[];
    if (keys === undefined || old.length === 0 || !isMap(item)) return undefined;
    if (this.oldByKey === undefined) {
      this.oldByKey = new Map();
      for (const o of old) {
        if (!isMap(o)) continue;
        const k = compositeKey(keys, o);
        if (k !== undefined && !this.oldByKey.has(k)) this.oldByKey.set(k, o);
      }
    }
    const k = compositeKey(keys, item);
    return k === undefined ? undefined : this.oldByKey.get(k);
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
      const mapList = this.shape.mapKeys(this.schema) !== undefined;
      for (let i = 0; i < a.length; i++) {
        const c = this.index(i);
        if (c === undefined) return mapList ? false : deepEqual(a, o);
        if (!c.deepEqual()) return false;
      }
      return true;
    }
    if (isMap(a)) {
      const o = b as Record<string, unknown>;
      const keys = Object.keys(a);
      if (keys.length !== Object.keys(o).length) return false;
      // a key the schema does not know (under x-kubernetes-preserve-unknown-fields) has no
      // correlated child, and the object is then never equal to its old value
      for (const k of keys) {
        const c = this.key(k);
        if (c === undefined || !c.deepEqual()) return false;
      }
      return true;
    }
    return deepEqual(a, b);
  }
}

/** keyStrategy.CompositeKeyFor: scalar key values, typed (an int64 1 and a float64 1 differ). */
function compositeKey(keys: readonly string[], o: Record<string, unknown>): string | undefined {
  const parts: string[] = [];
  for (const key of keys) {
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

/** The value validator's correlation (over its OpenAPI schema). */
export class Corr extends Correlated<OSchema> {
  constructor(value: unknown, old: unknown, schema: OSchema) {
    super(value, old, schema, OPENAPI_SHAPE);
  }
}

/** SubPropertyValidator: a ratcheting validator for a correlated child, the plain one otherwise (and for the root's apiVersion/kind). */
export function byKey(corr: Correlated<OSchema> | undefined, field: string, parentPath: string): readonly [Correlated<OSchema> | undefined, boolean] {
  if (corr === undefined || (parentPath === '' && (field === 'kind' || field === 'apiVersion'))) return NO_CORR;
  const c = corr.key(field);
  return [c, c !== undefined];
}

/** No old value to correlate with (every create): one shared answer. */
const NO_CORR: readonly [undefined, false] = [undefined, false];

/** SubIndexValidator */
export function byIndex(corr: Correlated<OSchema> | undefined, i: number): readonly [Correlated<OSchema> | undefined, boolean] {
  if (corr === undefined) return NO_CORR;
  const c = corr.index(i);
  return [c, c !== undefined];
}
