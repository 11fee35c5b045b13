/**
 * The objectmeta hooks of the decode pipeline (src/simulate/pipeline.ts), built on the Go-verified
 * port in src/schema/objectmeta.ts:
 *  - root: objectmeta.GetObjectMetaWithOptions + SetObjectMeta (the typed ObjectMeta round trip; the
 *    root keeps `creationTimestamp: null` when unset);
 *  - embedded: objectmeta.CoerceWithOptions(nil, obj, schema, isResourceRoot=false).
 * Changes are computed by comparing before and after, so they name exactly what the round trip did.
 */
import { deepEqual } from '../go/equal.js';
import { errorText } from '../core/field-error.js';
import { Loc } from '../core/path.js';
import { isRecord, type JsonPath } from '../core/types.js';
import { coerceObjectMeta } from '../schema/objectmeta.js';
import { getObjectMeta, objectMetaToUnstructured } from '../schema/objectmeta/decode.js';
import type { Change } from '../schema/behaviours/types.js';
import type { MetaStepResult, ObjectMetaHooks } from '../simulate/pipeline.js';

const ROOT = new Loc('', []);

export const objectMetaHooks: ObjectMetaHooks = {
  root(metadata, { dropMalformedFields }) {
    const r = getObjectMeta({ metadata }, ROOT, { drop: dropMalformedFields, unknown: !dropMalformedFields });
    if (r.error !== undefined) return { value: metadata, changes: [], error: { message: r.error.msg, at: r.error.at } };
    const value: Record<string, unknown> = r.meta ? objectMetaToUnstructured(r.meta) : {};
    if (!('creationTimestamp' in value)) value['creationTimestamp'] = null;
    const changes: Change[] = [];
    diff(metadata, value, [], changes);
    return { value, changes: changes.filter((c) => !(c.path.length === 1 && c.path[0] === 'creationTimestamp' && c.after === null && !('before' in c))), unknownFieldPaths: r.unknown };
  },
  embedded(value, schema, { dropInvalidFields }): MetaStepResult {
    // no embedded resource at or below the root: coercion has nothing to do
    if (schema === undefined || !schema.facts.embeddedBelow) return { value, changes: [] };
    const r = coerceObjectMeta(ROOT, value, schema, false, { dropInvalidFields, returnUnknownFieldPaths: !dropInvalidFields });
    if (r.error !== undefined) return { value, changes: [], error: { message: errorText(r.error), at: r.error.at } };
    const changes: Change[] = [];
    diff(value, r.value, [], changes);
    return { value: r.value, changes, unknownFieldPaths: r.unknownFieldPaths };
  },
};

/** Records what differs between two JSON values: removed and changed keys of objects, recursively. */
function diff(before: unknown, after: unknown, path: JsonPath, out: Change[]): void {
  if (deepEqual(before, after)) return;
  if (isRecord(before) && isRecord(after)) {
    for (const k of Object.keys(before)) {
      if (!Object.prototype.hasOwnProperty.call(after, k)) out.push({ kind: 'metadata-coerced', path: [...path, k], before: before[k] });
      else diff(before[k], after[k], [...path, k], out);
    }
    for (const k of Object.keys(after))
      if (!Object.prototype.hasOwnProperty.call(before, k)) out.push({ kind: 'metadata-coerced', path: [...path, k], after: after[k] });
    return;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    before.forEach((b, i) => diff(b, after[i], [...path, i], out));
    return;
  }
  out.push({ kind: 'metadata-coerced', path, before, after });
}
