/**
 * Small accessors over a raw JSONSchemaProps (wire names, decoded JSON), for the CRD validation
 * rules that check the schema as written (structural.ts, walk.ts, visit.ts, analyze.ts: unsupported
 * fields, Go zero values, non-structural forms). Everything that runs on custom resources reads
 * the typed schema (structural-schema.ts) instead.
 */
import { isRecord } from '../core/types.js';

export type Schema = Record<string, unknown>;

export function present(s: Schema, k: string): boolean {
  return Object.hasOwn(s, k) && s[k] !== null && s[k] !== undefined;
}
export function sType(s: Schema): string {
  return typeof s['type'] === 'string' ? s['type'] : '';
}
export function flag(s: Schema, k: string): boolean {
  return s[k] === true;
}
export function props(s: Schema): [string, Schema][] {
  const p = s['properties'];
  if (!isRecord(p)) return [];
  return Object.entries(p)
    .filter((e): e is [string, Schema] => isRecord(e[1]))
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
export function prop(s: Schema, k: string): Schema | undefined {
  const p = s['properties'];
  // a property name is the user's: only an own key of `properties` is one (never `__proto__`'s prototype)
  if (!isRecord(p) || !Object.hasOwn(p, k)) return undefined;
  const v = p[k];
  return isRecord(v) ? v : undefined;
}
export function hasProps(s: Schema): boolean {
  const p = s['properties'];
  return isRecord(p) && Object.keys(p).length > 0;
}
/** items as a single schema (undefined when absent or an array). */
export function itemsSchema(s: Schema): Schema | undefined {
  const i = s['items'];
  return isRecord(i) ? i : undefined;
}
export function itemsArray(s: Schema): Schema[] | undefined {
  const i = s['items'];
  return Array.isArray(i) ? i.filter(isRecord) : undefined;
}
/** additionalProperties: a schema, a boolean, or absent. */
export function addl(s: Schema): Schema | boolean | undefined {
  const a = s['additionalProperties'];
  if (isRecord(a)) return a;
  if (typeof a === 'boolean') return a;
  return undefined;
}
export function schemaList(s: Schema, k: 'allOf' | 'anyOf' | 'oneOf'): Schema[] {
  const v = s[k];
  return Array.isArray(v) ? v.map((x) => (isRecord(x) ? x : {})) : [];
}
export function notSchema(s: Schema): Schema | undefined {
  const v = s['not'];
  return isRecord(v) ? v : undefined;
}
export function strList(s: Schema, k: string): string[] {
  const v = s[k];
  return Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : String(x))) : [];
}

/** Fields that are plain Go bools or strings in JSONSchemaProps (false / "" are their zero values). */
const PLAIN_BOOL = new Set(['nullable', 'uniqueItems', 'exclusiveMaximum', 'exclusiveMinimum', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string']);
const PLAIN_STRING = new Set(['id', '$schema', 'description', 'type', 'format', 'title', 'pattern']);
/** Slices the structural conversion rebuilds by appending (empty becomes nil). */
const REBUILT_SLICES = new Set(['enum', 'allOf', 'anyOf', 'oneOf']);

/** reflect's zero value of the Go field behind a wire field (absent, null, false/"" for plain fields). */
export function isGoZero(s: Schema, k: string, rebuilt = false): boolean {
  const v = s[k];
  if (v === null || v === undefined) return true;
  if (v === false) return PLAIN_BOOL.has(k);
  if (v === '') return PLAIN_STRING.has(k);
  if (rebuilt && Array.isArray(v) && v.length === 0) return REBUILT_SLICES.has(k);
  return false;
}
