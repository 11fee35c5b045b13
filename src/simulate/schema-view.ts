/**
 * The structural view of a raw JSONSchemaProps that pruning, null dropping and defaulting read
 * (apiextensions schema/convert.go NewStructural: Properties, Items, AdditionalProperties,
 * Generic.Default/Nullable, Extensions). Value validations (allOf, anyOf, ...) are never read.
 */
import { isRecord } from '../core/types.js';
import type { Schema } from '../schema/raw.js';
import { getOwn, hasOwn } from './json.js';

/** s.Properties[k]: only own keys of `properties` whose value is an object. */
export function propertySchema(s: Schema, k: string): Schema | undefined {
  const p = getOwn(s, 'properties');
  if (!isRecord(p) || !hasOwn(p, k)) return undefined;
  const v = p[k];
  return isRecord(v) ? v : undefined;
}

/** s.Items: a single schema; absent, null or an (empty) array mean none. */
export function itemsOf(s: Schema | undefined): Schema | undefined {
  if (s === undefined) return undefined;
  const i = getOwn(s, 'items');
  return isRecord(i) ? i : undefined;
}

/**
 * s.AdditionalProperties: undefined when absent; otherwise `{ schema }`, where the bool forms
 * (`true` and `false`) carry no schema (StructuralOrBool{Bool: ...}, Structural nil).
 */
export function additionalOf(s: Schema): { readonly schema: Schema | undefined } | undefined {
  const a = getOwn(s, 'additionalProperties');
  if (isRecord(a)) return { schema: a };
  if (typeof a === 'boolean') return { schema: undefined };
  return undefined;
}

export function preservesUnknownFields(s: Schema | undefined): boolean {
  return s !== undefined && getOwn(s, 'x-kubernetes-preserve-unknown-fields') === true;
}

export function isEmbeddedResource(s: Schema | undefined): boolean {
  return s !== undefined && getOwn(s, 'x-kubernetes-embedded-resource') === true;
}

export function isNullable(s: Schema): boolean {
  return getOwn(s, 'nullable') === true;
}

/** Generic.Default.Object != nil: a `default: null` is no default (the Go pointer decodes to nil). */
export function hasDefault(s: Schema | undefined): s is Schema {
  if (s === undefined) return false;
  const d = getOwn(s, 'default');
  return d !== undefined && d !== null;
}

export function defaultOf(s: Schema): unknown {
  return getOwn(s, 'default');
}

/** The schema of key `k` of an object: the declared property, else the additionalProperties schema. */
export function fieldSchema(s: Schema | undefined, k: string): Schema | undefined {
  if (s === undefined) return undefined;
  return propertySchema(s, k) ?? additionalOf(s)?.schema;
}
