/**
 * Defaulting, as apiextensions-apiserver pkg/apiserver/schema/defaulting/algorithm.go Default does
 * it, without mutating the input.
 *
 * Top-down. In an object, every declared property with a `default` is set to a deep copy of it when
 * the key is missing or holds `null` and the property is not `nullable` (nullable nulls are kept).
 * Then every key (including the ones just defaulted, so defaults nest) is walked with its property
 * schema, or with the additionalProperties schema, where a non-nullable `null` is first replaced by
 * that schema's default (a no-op without one). Array elements that are non-nullable `null`s get the
 * `items` default, then every element is walked with `items`. additionalProperties and items
 * defaults never create entries; keys without a schema are left alone. `type`,
 * x-kubernetes-int-or-string and x-kubernetes-preserve-unknown-fields are not looked at.
 *
 * Changes: one 'defaulted' change per replaced value, in walk order; `after` is the default as
 * copied from the schema (defaults nested inside it follow as their own changes).
 *
 * What nothing is defaulted in is returned as it is (shared with the input, which is never changed);
 * defaults are copies of the schema's.
 */
import { deepCopy, hasOwn, newObject, setOwn } from '../../core/json-value.js';
import { isRecord, type JsonPath } from '../../core/types.js';
import type { Structural } from '../../crd/structural-schema.js';
import type { Change, StepResult, StepSchema } from './types.js';

export function applyDefaults(value: unknown, schema: StepSchema, _opts: unknown = undefined): StepResult {
  const changes: Change[] = [];
  return { value: walk(value, schema, [], changes), changes };
}

/** isNonNullableNull: a null whose schema exists and is not nullable. */
function nonNullableNull(v: unknown, s: Structural | undefined): s is Structural {
  return v === null && s !== undefined && !s.generic.nullable;
}

/** The node has a default: an s known to exist. */
function hasDefault(s: Structural | undefined): s is Structural {
  return s !== undefined && s.generic.hasDefault;
}

/**
 * The defaulted value; the value itself (not a copy) where nothing below it is defaulted. `path` is
 * where `x` sits, a stack the walk pushes to and pops from (copied into a change).
 */
function walk(x: unknown, s: StepSchema, path: (string | number)[], changes: Change[]): unknown {
  // where no default sits at or below the node, the walk records nothing and changes nothing
  if (s === undefined || !s.facts.defaultsBelow) return x;
  if (Array.isArray(x)) {
    const items = s.items;
    let out: unknown[] | undefined;
    for (let i = 0; i < x.length; i++) {
      let e: unknown = x[i];
      if (nonNullableNull(e, items) && hasDefault(items)) {
        e = deepCopy(items.generic.default);
        changes.push({ kind: 'defaulted', path: [...path, i], before: null, after: deepCopy(e) });
      }
      path.push(i);
      const w = walk(e, items, path, changes);
      path.pop();
      if (w !== x[i]) (out ??= x.slice())[i] = w;
    }
    return out ?? x;
  }
  if (!isRecord(x)) return x;

  // first pass: declared properties with a default, over the input's keys plus the new ones
  let out: Record<string, unknown> | undefined;
  for (const [k, ps] of s.properties) {
    if (!hasDefault(ps)) continue;
    const cur = out ?? x;
    const found = hasOwn(cur, k);
    if (!found || nonNullableNull(cur[k], ps)) {
      const d = deepCopy(ps.generic.default);
      changes.push(found ? { kind: 'defaulted', path: [...path, k], before: null, after: deepCopy(d) } : { kind: 'defaulted', path: [...path, k], after: deepCopy(d) });
      out ??= copyOf(x);
      setOwn(out, k, d);
    }
  }

  // second pass: recurse into every key
  const ap = s.additionalProperties;
  const src = out ?? x;
  for (const k of Object.keys(src)) {
    const ps = s.properties.get(k);
    const v = src[k];
    let w: unknown;
    path.push(k);
    if (ps !== undefined) {
      w = walk(v, ps, path, changes);
    } else if (ap !== undefined) {
      let e = v;
      if (nonNullableNull(e, ap.schema) && hasDefault(ap.schema)) {
        e = deepCopy(ap.schema.generic.default);
        changes.push({ kind: 'defaulted', path: path.slice(), before: null, after: deepCopy(e) });
      }
      w = walk(e, ap.schema, path, changes);
    } else {
      w = v;
    }
    path.pop();
    if (w !== v) {
      out ??= copyOf(x);
      setOwn(out, k, w);
    }
  }
  return out ?? x;
}

function copyOf(x: Record<string, unknown>): Record<string, unknown> {
  const out = newObject();
  for (const k of Object.keys(x)) setOwn(out, k, x[k]);
  return out;
}
