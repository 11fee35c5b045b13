/**
 * Dropping of non-nullable nulls that have no default, as apiextensions-apiserver
 * pkg/apiserver/schema/defaulting/prunenulls.go PruneNonNullableNullsWithoutDefaults does it
 * (run right after pruning), without mutating the input.
 *
 * For an object key, its schema is the declared property, else the additionalProperties schema
 * (none for the bool forms), else none. A `null` whose schema exists, is not `nullable` and has no
 * `default` is deleted; anything else is walked with that schema. Array elements are walked with
 * `items` but never removed (a null element stays). x-kubernetes-preserve-unknown-fields and
 * embedded resources are not looked at. What nothing is dropped from is returned as it is (shared
 * with the input, which is never changed).
 */
import { newObject, setOwn } from '../../core/json-value.js';
import { isRecord, type JsonPath } from '../../core/types.js';
import { fieldSchema } from '../../crd/structural-schema.js';
import type { Change, StepResult, StepSchema } from './types.js';

export function pruneNonNullableNullsWithoutDefaults(value: unknown, schema: StepSchema, _opts: unknown = undefined): StepResult {
  const changes: Change[] = [];
  return { value: walk(value, schema, [], changes), changes };
}

/**
 * The value with the nulls dropped; the value itself (not a copy) where nothing below it is dropped.
 * `path` is where `x` sits, a stack the walk pushes to and pops from (copied into a change).
 */
function walk(x: unknown, s: StepSchema, path: (string | number)[], changes: Change[]): unknown {
  if (Array.isArray(x)) {
    const items = s?.items;
    let out: unknown[] | undefined;
    for (let i = 0; i < x.length; i++) {
      path.push(i);
      const v = walk(x[i], items, path, changes);
      path.pop();
      if (v !== x[i]) (out ??= x.slice())[i] = v;
    }
    return out ?? x;
  }
  if (!isRecord(x)) return x;
  const keys = Object.keys(x);
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = x[k];
    const ks = fieldSchema(s, k);
    if (v === null && ks !== undefined && !ks.generic.nullable && !ks.generic.hasDefault) {
      changes.push({ kind: 'null-dropped', path: [...path, k], before: null });
      out ??= copyKeys(x, keys, i);
      continue;
    }
    path.push(k);
    const w = walk(v, ks, path, changes);
    path.pop();
    if (w !== v) out ??= copyKeys(x, keys, i);
    if (out !== undefined) setOwn(out, k, w);
  }
  return out ?? x;
}

/** A new object with the first `n` keys of `x` (the ones the walk has kept unchanged so far). */
function copyKeys(x: Record<string, unknown>, keys: readonly string[], n: number): Record<string, unknown> {
  const out = newObject();
  for (let i = 0; i < n; i++) setOwn(out, keys[i]!, x[keys[i]!]);
  return out;
}
