/**
 * Pruning of unknown fields, as apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go
 * (PruneWithOptions, prune, skipPrune) does it, without mutating the input.
 *
 * - `isResourceRoot`: a missing schema becomes the empty schema and the root is treated as an
 *   embedded resource, so the root `apiVersion`, `kind` and `metadata` are kept, unpruned.
 * - Embedded resources keep their `apiVersion`, `kind` and `metadata` untouched (coercion's job).
 * - `x-kubernetes-preserve-unknown-fields: true` switches to skipPrune: unknown keys stay, declared
 *   properties and additionalProperties values are pruned again; array items inherit the preserving.
 * - `additionalProperties` (a schema, `true` or `false`) keeps every key; the bool forms have no
 *   schema, so object values under them are emptied.
 * - A key is removed when it is neither declared nor covered by additionalProperties, or when there is
 *   no schema at all. Every removal is a 'pruned' change; the server's unknown-field list
 *   (`unknownFieldPaths`) has all of them except `apiVersion`/`kind`/`metadata` removed directly from
 *   the top level of the pruned value (only reachable when the value is not a resource root).
 */
import { goCompare } from '../core/go.js';
import { isRecord, type JsonPath } from '../core/types.js';
import { deepCopy, newObject, setOwn } from './json.js';
import { additionalOf, isEmbeddedResource, itemsOf, preservesUnknownFields, propertySchema } from './schema-view.js';
import type { Change, StepResult, StepSchema } from './types.js';

export interface PruneOptions {
  /** The value is a whole resource: the root is an embedded resource. The API server always sets this for CRs. */
  readonly isResourceRoot?: boolean;
}

export interface PruneResult extends StepResult {
  /**
   * The paths the server reports as unknown fields (`unknown field "<path>"`), in its notation
   * (UnknownFieldPathOptions: keys joined by `.`, indexes as `[i]`, map keys as plain keys) and its
   * order (sort.Strings: byte order).
   */
  readonly unknownFieldPaths: readonly string[];
}

const META_FIELDS: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);

interface Acc {
  readonly changes: Change[];
  readonly unknown: string[];
}

export function prune(value: unknown, schema: StepSchema, opts: PruneOptions = {}): PruneResult {
  let s = schema;
  if (opts.isResourceRoot === true) {
    s ??= {};
    if (!isEmbeddedResource(s)) s = { ...s, 'x-kubernetes-embedded-resource': true };
  }
  const acc: Acc = { changes: [], unknown: [] };
  const out = pruneNode(value, s, [], acc);
  return { value: out, changes: acc.changes, unknownFieldPaths: [...acc.unknown].sort(goCompare) };
}

function remove(acc: Acc, path: JsonPath, before: unknown, record: boolean): void {
  acc.changes.push({ kind: 'pruned', path, before: deepCopy(before) });
  if (record) acc.unknown.push(formatUnknownFieldPath(path));
}

/** prune(): the schema-driven walk. */
function pruneNode(x: unknown, s: StepSchema, path: JsonPath, acc: Acc): unknown {
  if (preservesUnknownFields(s)) return skipPrune(x, s, path, acc);
  if (Array.isArray(x)) {
    const items = itemsOf(s);
    return x.map((v, i) => pruneNode(v, items, [...path, i], acc));
  }
  if (!isRecord(x)) return x;
  const out = newObject();
  for (const k of Object.keys(x)) {
    const v = x[k];
    const p = [...path, k];
    if (s === undefined) {
      remove(acc, p, v, true);
      continue;
    }
    if (isEmbeddedResource(s) && META_FIELDS.has(k)) {
      setOwn(out, k, deepCopy(v));
      continue;
    }
    const ps = propertySchema(s, k);
    if (ps !== undefined) {
      setOwn(out, k, pruneNode(v, ps, p, acc));
      continue;
    }
    const ap = additionalOf(s);
    if (ap !== undefined) {
      setOwn(out, k, pruneNode(v, ap.schema, p, acc));
      continue;
    }
    // the server does not report apiVersion/kind/metadata removed at the top level of the pruned value
    remove(acc, p, v, !META_FIELDS.has(k) || path.length > 0);
  }
  return out;
}

/** skipPrune(): below x-kubernetes-preserve-unknown-fields, unknown keys stay and are not reported. */
function skipPrune(x: unknown, s: StepSchema, path: JsonPath, acc: Acc): unknown {
  if (s === undefined) return deepCopy(x);
  if (Array.isArray(x)) {
    const items = itemsOf(s);
    return x.map((v, i) => skipPrune(v, items, [...path, i], acc));
  }
  if (!isRecord(x)) return x;
  const out = newObject();
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (isEmbeddedResource(s) && META_FIELDS.has(k)) {
      setOwn(out, k, deepCopy(v));
      continue;
    }
    const ps = propertySchema(s, k);
    const ap = ps === undefined ? additionalOf(s) : undefined;
    if (ps !== undefined) setOwn(out, k, pruneNode(v, ps, [...path, k], acc));
    else if (ap !== undefined) setOwn(out, k, pruneNode(v, ap.schema, [...path, k], acc));
    else setOwn(out, k, deepCopy(v));
  }
  return out;
}

/**
 * A path in UnknownFieldPathOptions notation: every key but the first is preceded by `.` (even
 * when the path so far prints empty, e.g. after an empty key), every index is `[i]`:
 * `spec.items[0].foo`, `[1].b`, `spec.labelsMap.foo.bar`. Keys are printed raw.
 */
export function formatUnknownFieldPath(path: JsonPath): string {
  let out = '';
  path.forEach((seg, i) => {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += i === 0 ? seg : `.${seg}`;
  });
  return out;
}

