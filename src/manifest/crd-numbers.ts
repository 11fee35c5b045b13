/** How the server decodes the numbers of a CustomResourceDefinition (float64, except in its schemas' JSON values). */
import { isRecord, setOwn } from '../core/types.js';

/**
 * int64s beyond 2^53 become numbers (float64) in a CRD, except in the JSON values of its schemas
 * (`default`, `enum`, `example`): the server reads the numbers of a schema (maximum, minimum,
 * multipleOf) as float64 and its integer fields (maxLength, ...) as int64 the rules never need
 * exactly, but it keeps a schema's JSON values as raw JSON and decodes them with int64s exact
 * (k8s.io/apimachinery's json.Unmarshal), so `default: 9223372036854775807` is a valid int64 default.
 */
export function crdNumbers(crd: Record<string, unknown>): void {
  const spec = crd['spec'];
  if (!isRecord(spec)) return void toFloats(crd);
  for (const k of Object.keys(crd)) if (k !== 'spec') setOwn(crd, k, toFloats(crd[k]));
  for (const k of Object.keys(spec)) {
    const v = spec[k];
    if (k === 'validation' && isRecord(v)) validationNumbers(v);
    else if (k === 'versions' && Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const ver: unknown = v[i];
        if (!isRecord(ver)) v[i] = toFloats(ver);
        else for (const vk of Object.keys(ver)) {
          const x = ver[vk];
          if (vk === 'schema' && isRecord(x)) validationNumbers(x);
          else setOwn(ver, vk, toFloats(x));
        }
      }
    } else setOwn(spec, k, toFloats(v));
  }
}

/** A CustomResourceValidation: its openAPIV3Schema is a schema, anything else plain numbers. */
function validationNumbers(v: Record<string, unknown>): void {
  for (const k of Object.keys(v)) setOwn(v, k, k === 'openAPIV3Schema' ? schemaNumbers(v[k]) : toFloats(v[k]));
}

const SCHEMA_VALUES = new Set(['default', 'enum', 'example']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', 'dependencies']);
const SCHEMA_ONE = new Set(['not', 'items', 'additionalProperties', 'additionalItems']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'items']);

/** A JSONSchemaProps (or what stands in its place): JSON values kept, schemas below walked. */
function schemaNumbers(s: unknown): unknown {
  if (!isRecord(s)) return toFloats(s);
  for (const k of Object.keys(s)) {
    const v = s[k];
    if (SCHEMA_VALUES.has(k)) continue;
    if (SCHEMA_MAPS.has(k) && isRecord(v)) {
      for (const name of Object.keys(v)) setOwn(v, name, schemaNumbers(v[name]));
    } else if (SCHEMA_LISTS.has(k) && Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = schemaNumbers(v[i]);
    } else if (SCHEMA_ONE.has(k)) setOwn(s, k, schemaNumbers(v));
    else setOwn(s, k, toFloats(v));
  }
  return s;
}

function toFloats(v: unknown): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = toFloats(v[i]);
  } else if (isRecord(v)) {
    for (const k of Object.keys(v)) setOwn(v, k, toFloats(v[k]));
  }
  return v;
}
