import { deepEqual } from '../go/equal.js';
import { isRecord } from '../core/types.js';

export type Rec = Record<string, unknown>;

export function rec(v: unknown): Rec | undefined {
  return isRecord(v) ? v : undefined;
}
export function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
export function bool(v: unknown): boolean {
  return v === true;
}
export function arr(v: unknown): readonly unknown[] {
  return Array.isArray(v) ? v : [];
}
/** A pointer-ish field: present and not null. */
export function has(o: Rec | undefined, k: string): boolean {
  return o !== undefined && k in o && o[k] !== null && o[k] !== undefined;
}

const MAP_FIELDS = new Set(['properties', 'definitions', 'patternProperties', 'dependencies', 'labels', 'annotations']);

/**
 * apiequality.Semantic.DeepEqual over decoded JSON: nil and empty slices are equal, and so are
 * nil and empty maps (the map-typed fields); struct pointers ({} vs absent) stay different.
 */
export function semanticEqual(a: unknown, b: unknown, key = ''): boolean {
  // the same value (a version against itself): equal without a walk
  if (a === b) return true;
  // JSON-valued fields (default, example, enum members) hold values, not Go slices or maps: [] and {} are values there
  if (JSON_VALUED.has(key)) return (a === undefined || a === null) === (b === undefined || b === null) && deepEqual(a, b);
  const emptyA = isEmptyish(a, key);
  const emptyB = isEmptyish(b, key);
  if (emptyA || emptyB) return emptyA && emptyB;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => semanticEqual(x, b[i]));
  }
  if (isRecord(a) || isRecord(b)) {
    if (!isRecord(a) || !isRecord(b)) return false;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(a[k], b[k], k)) return false;
    return true;
  }
  return a === b;
}

const JSON_VALUED = new Set(['default', 'example']);

function isEmptyish(v: unknown, key: string): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (MAP_FIELDS.has(key) && isRecord(v)) return Object.keys(v).length === 0;
  return false;
}
