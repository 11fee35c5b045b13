/**
 * Validation ratcheting's correlation of a new value with the old one (k8s.io/apiserver pkg/cel/common
 * equality.go `CorrelatedObject`, as used by apiextensions-apiserver pkg/apiserver/validation/ratcheting.go).
 */
import { asBig, asFloat, isMap, kindOf } from '../../go/value.js';
import type { OSchema } from './schema.js';
import { deepEqual } from '../../go/equal.js';

/** common.CorrelatedObject (k8s.io/apiserver/pkg/cel/common/equality.go): a new value, the old value it corresponds to, and its schema. */
export class Corr {
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
        if (c === undefined) return mapList ? false : deepEqual(a, o);
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
    return deepEqual(a, b);
  }
}

/** SubPropertyValidator: a ratcheting validator for a correlated child, the plain one otherwise (and for the root's apiVersion/kind). */
export function byKey(corr: Corr | undefined, field: string, parentPath: string): readonly [Corr | undefined, boolean] {
  if (corr === undefined || (parentPath === '' && (field === 'kind' || field === 'apiVersion'))) return NO_CORR;
  const c = corr.key(field);
  return [c, c !== undefined];
}

/** No old value to correlate with (every create): one shared answer. */
const NO_CORR: readonly [undefined, false] = [undefined, false];

/** SubIndexValidator */
export function byIndex(corr: Corr | undefined, i: number): readonly [Corr | undefined, boolean] {
  if (corr === undefined) return NO_CORR;
  const c = corr.index(i);
  return [c, c !== undefined];
}
