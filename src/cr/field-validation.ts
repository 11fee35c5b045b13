/**
 * What a request's field validation (src/core/field-validation.ts) makes of the unknown fields
 * found while decoding its body: warnings (Warn), nothing (Ignore), or the 400 BadRequest that ends
 * the request (Strict). The decoding itself (pruning, root and embedded metadata) finds them, in the
 * server's order (customresource_handler.go schemaCoercingDecoder: root metadata, pruning's sorted
 * paths, embedded metadata).
 */
import { cannotBeHandled, strictDecodingText, unknownFieldText, type FieldValidation } from '../core/field-validation.js';
import type { JsonPath } from '../core/types.js';
import { formatUnknownFieldPath } from '../schema/behaviours/prune.js';
import { parseLoosePath } from './loose-path.js';

export interface UnknownField {
  /** The server's path of the field (pruning's notation: `spec.map.key`, `spec.list[0].x`). */
  readonly field: string;
  /** The server's entry: `unknown field "<path>"`. */
  readonly text: string;
  /** Where the field is in the request body. */
  readonly path: JsonPath;
}

/** The 400 a Strict request fails with, and the fields it names (in its order). */
export interface StrictDecodingFailure {
  readonly message: string;
  readonly fields: readonly UnknownField[];
}

/** The unknown fields of a decoded body, each at its place in the body. */
export function unknownFields(decoded: { readonly changes: readonly { readonly path: JsonPath; readonly after?: unknown }[]; readonly unknownFieldPaths: readonly string[] }): UnknownField[] {
  const removed = new Map<string, JsonPath>();
  for (const c of decoded.changes) if (!('after' in c)) removed.set(formatUnknownFieldPath(c.path), c.path);
  return decoded.unknownFieldPaths.map((p) => ({ field: p, text: unknownFieldText(p), path: removed.get(p) ?? parseLoosePath(p) }));
}

/** Strict with unknown fields: the request's 400; otherwise undefined. */
export function strictFailure(mode: FieldValidation, kind: string, version: string, fields: readonly UnknownField[]): StrictDecodingFailure | undefined {
  if (mode !== 'Strict' || fields.length === 0) return undefined;
  return { message: cannotBeHandled(kind, version, strictDecodingText(fields.map((f) => f.text))), fields };
}
