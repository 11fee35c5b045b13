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
import { goCompare } from '../../go/strings.js';
import { deepCopy, newObject, setOwn } from '../../core/json-value.js';
import { isRecord, type JsonPath } from '../../core/types.js';
import { META_FIELDS, asEmbeddedResource, emptyStructural } from '../../crd/structural-schema.js';
import type { Change, StepResult, StepSchema } from './types.js';

interface PruneOptions {
  /** The value is a whole resource: the root is an embedded resource. The API server always sets this for CRs. */
  readonly isResourceRoot?: boolean;
}

interface PruneResult extends StepResult {
  /**
   * The paths the server reports as unknown fields (`unknown field "<path>"`), in its notation
   * (UnknownFieldPathOptions: keys joined by `.`, indexes as `[i]`, map keys as plain keys) and its
   * order (sort.Strings: byte order).
   */
  readonly unknownFieldPaths: readonly string[];
}

interface Acc {
  readonly changes: Change[];
  readonly unknown: string[];
}

export function prune(value: unknown, schema: StepSchema, opts: PruneOptions = {}): PruneResult {
  let s = schema;
  if (opts.isResourceRoot === true) {
    s = asEmbeddedResource(s ?? emptyStructural());
  }
  const acc: Acc = { changes: [], unknown: [] };
  const out = pruneNode(value, s, [], acc);
  return { value: out, changes: acc.changes, unknownFieldPaths: [...acc.unknown].sort(goCompare) };
}

/** Records the removal of the key at `path` (the walk's stack: copied here). */
function remove(acc: Acc, path: readonly (string | number)[], before: unknown, record: boolean): void {
  const p = path.slice();
  acc.changes.push({ kind: 'pruned', path: p, before: deepCopy(before) });
  if (record) acc.unknown.push(formatUnknownFieldPath(p));
}

/**
 * prune(): the schema-driven walk; a copy of `x`. `path` is where `x` sits, a stack the walk pushes
 * to and pops from.
 */
function pruneNode(x: unknown, s: StepSchema, path: (string | number)[], acc: Acc): unknown {
  if (s?.extensions.preserveUnknownFields === true) return skipPrune(x, s, path, acc);
  if (Array.isArray(x)) {
    const items = s?.items;
    const out = new Array<unknown>(x.length);
    for (let i = 0; i < x.length; i++) {
      path.push(i);
      out[i] = pruneNode(x[i], items, path, acc);
      path.pop();
    }
    return out;
  }
  if (!isRecord(x)) return x;
  const out = newObject();
  for (const k of Object.keys(x)) {
    const v = x[k];
    path.push(k);
    if (s === undefined) remove(acc, path, v, true);
    else if (s.extensions.embeddedResource && META_FIELDS.has(k)) setOwn(out, k, deepCopy(v));
    else {
      const ps = s.properties.get(k);
      const ap = ps === undefined ? s.additionalProperties : undefined;
      if (ps !== undefined) setOwn(out, k, pruneNode(v, ps, path, acc));
      else if (ap !== undefined) setOwn(out, k, pruneNode(v, ap.schema, path, acc));
      // the server does not report apiVersion/kind/metadata removed at the top level of the pruned value
      else remove(acc, path, v, !META_FIELDS.has(k) || path.length > 1);
    }
    path.pop();
  }
  return out;
}

/** skipPrune(): below x-kubernetes-preserve-unknown-fields, unknown keys stay and are not reported. */
function skipPrune(x: unknown, s: StepSchema, path: (string | number)[], acc: Acc): unknown {
  if (s === undefined) return deepCopy(x);
  if (Array.isArray(x)) {
    const items = s.items;
    const out = new Array<unknown>(x.length);
    for (let i = 0; i < x.length; i++) {
      path.push(i);
      out[i] = skipPrune(x[i], items, path, acc);
      path.pop();
    }
    return out;
  }
  if (!isRecord(x)) return x;
  const out = newObject();
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (s.extensions.embeddedResource && META_FIELDS.has(k)) {
      setOwn(out, k, deepCopy(v));
      continue;
    }
    const ps = s.properties.get(k);
    const ap = ps === undefined ? s.additionalProperties : undefined;
    path.push(k);
    if (ps !== undefined) setOwn(out, k, pruneNode(v, ps, path, acc));
    else if (ap !== undefined) setOwn(out, k, pruneNode(v, ap.schema, path, acc));
    else setOwn(out, k, deepCopy(v));
    path.pop();
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

