/**
 * Pruning of unknown fields (semantics of apiextensions pruning/algorithm.go), pure: returns a
 * new value and the list of pruned paths.
 */
import { isRecord } from '../core/types.js';
import { addl, flag, itemsSchema, prop, META_FIELDS, type Schema } from './raw.js';

export type Segments = readonly (string | number)[];

export interface PruneResult {
  readonly value: unknown;
  /** Pruned paths (relative to the pruned value). */
  readonly pruned: readonly Segments[];
}

/** `isResourceRoot`: the value is a resource whose apiVersion, kind and metadata are kept. */
export function prune(value: unknown, schema: Schema | undefined, isResourceRoot: boolean): PruneResult {
  const pruned: Segments[] = [];
  let s = schema;
  if (isResourceRoot && !(s && flag(s, 'x-kubernetes-embedded-resource'))) s = { ...(s ?? {}), 'x-kubernetes-embedded-resource': true };
  const out = pruneValue(value, s, [], pruned);
  return { value: out, pruned };
}

/** additionalProperties as the structural pruner sees it: a schema, or "present without schema". */
function apSchema(s: Schema): { present: boolean; schema: Schema | undefined } {
  const ap = addl(s);
  if (ap === undefined) return { present: false, schema: undefined };
  return { present: true, schema: typeof ap === 'boolean' ? undefined : ap };
}

function pruneValue(x: unknown, s: Schema | undefined, path: Segments, pruned: Segments[]): unknown {
  if (s && flag(s, 'x-kubernetes-preserve-unknown-fields')) return skipPrune(x, s, path, pruned);
  if (Array.isArray(x)) {
    const it = s ? itemsSchema(s) : undefined;
    return x.map((v, i) => pruneValue(v, it, [...path, i], pruned));
  }
  if (!isRecord(x)) return x;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (s === undefined) {
      pruned.push([...path, k]);
      continue;
    }
    if (flag(s, 'x-kubernetes-embedded-resource')) {
      if ((k === 'apiVersion' || k === 'kind') && typeof v === 'string') {
        out[k] = v;
        continue;
      }
      if (k === 'metadata' && isRecord(v)) {
        // ObjectMeta is not pruned by the schema; objectmeta coercion drops its unknown fields
        out[k] = v;
        continue;
      }
    }
    const ps = prop(s, k);
    const ap = apSchema(s);
    if (ps) out[k] = pruneValue(v, ps, [...path, k], pruned);
    else if (ap.present) out[k] = pruneValue(v, ap.schema, [...path, k], pruned);
    else pruned.push([...path, k]);
  }
  return out;
}

/** Below x-kubernetes-preserve-unknown-fields: unknown fields stay, known ones are still pruned. */
function skipPrune(x: unknown, s: Schema | undefined, path: Segments, pruned: Segments[]): unknown {
  if (s === undefined) return x;
  if (Array.isArray(x)) {
    const it = itemsSchema(s);
    return x.map((v, i) => skipPrune(v, it, [...path, i], pruned));
  }
  if (!isRecord(x)) return x;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (flag(s, 'x-kubernetes-embedded-resource') && META_FIELDS.has(k)) {
      out[k] = v;
      continue;
    }
    const ps = prop(s, k);
    const ap = apSchema(s);
    if (ps) out[k] = pruneValue(v, ps, [...path, k], pruned);
    else if (ap.present) out[k] = pruneValue(v, ap.schema, [...path, k], pruned);
    else out[k] = v;
  }
  return out;
}
