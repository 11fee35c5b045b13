/**
 * Dropping of non-nullable nulls that have no default, as apiextensions-apiserver
 * pkg/apiserver/schema/defaulting/prunenulls.go PruneNonNullableNullsWithoutDefaults does it
 * (run right after pruning), without mutating the input.
 *
 * For an object key, its schema is the declared property, else the additionalProperties schema
 * (none for the bool forms), else none. A `null` whose schema exists, is not `nullable` and has no
 * `default` is deleted; anything else is walked with that schema. Array elements are walked with
 * `items` but never removed (a null element stays). x-kubernetes-preserve-unknown-fields and
 * embedded resources are not looked at.
 */
import { isRecord, type JsonPath } from '../core/types.js';
import { newObject, setOwn } from './json.js';
import { fieldSchema, hasDefault, isNullable, itemsOf } from './schema-view.js';
import type { Change, StepResult, StepSchema } from './types.js';

export function pruneNonNullableNullsWithoutDefaults(value: unknown, schema: StepSchema, _opts: unknown = undefined): StepResult {
  const changes: Change[] = [];
  return { value: walk(value, schema, [], changes), changes };
}

function walk(x: unknown, s: StepSchema, path: JsonPath, changes: Change[]): unknown {
  if (Array.isArray(x)) {
    const items = itemsOf(s);
    return x.map((v, i) => walk(v, items, [...path, i], changes));
  }
  if (!isRecord(x)) return x;
  const out = newObject();
  for (const k of Object.keys(x)) {
    const v = x[k];
    const ks = fieldSchema(s, k);
    if (v === null && ks !== undefined && !isNullable(ks) && !hasDefault(ks)) {
      changes.push({ kind: 'null-dropped', path: [...path, k], before: null });
      continue;
    }
    setOwn(out, k, walk(v, ks, [...path, k], changes));
  }
  return out;
}
