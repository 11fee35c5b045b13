/**
 * Validation of a decoded JSON value against a CRD schema, as the API server does it when a custom
 * resource is created or updated (apiextensions-apiserver `validation.ValidateCustomResource`, which runs
 * the kube-openapi `validate.SchemaValidator` and maps its errors to field errors), plus the uniqueness
 * checks of `x-kubernetes-list-type: set|map` (`schema/listtype.ValidateListSetsAndMaps`).
 *
 * Everything here mirrors the server's behaviour, including its quirks:
 *  - the detail texts are go-openapi's, with the path relative to the validated root (`spec.x in body …`);
 *  - `1.5` passes `enum: [1]`, `97` passes `enum: ["a"]` (Go reflect conversions);
 *  - `null` never passes an `enum`, even with `nullable: true`;
 *  - integer values are compared with an integer-truncated `minimum`/`maximum`/`multipleOf`;
 *  - a bound that does not fit the declared integer type/format adds a `<nil>`-path error to every value;
 *  - `anyOf`/`oneOf` report the errors of the branch with the most successful checks (go-openapi MatchCount);
 *  - unknown formats are ignored; only the formats the server supports at its compatibility version are checked.
 *
 * Go iterates maps in random order, so the server's order of errors between sibling properties is not
 * deterministic. Here keys are visited in sorted (code point) order; everything else follows the server.
 *
 * JSON numbers: the server decodes an integer literal that fits in int64 as int64 and everything else as
 * float64. kubectl re-encodes `1.0` as `1` before sending, so a JS number that is an integer in the int64
 * range is treated as an int64, any other number as a float64. `bigint` values are accepted too.
 */
import { normalizeValue, normalizedView } from '../go/value.js';
import { toFieldError } from './validation/errors.js';
import { Corr } from './validation/ratchet.js';
import { contextFor, validationSchema, type ValueValidateOptions } from './validation/schema.js';
import { validateAgainst } from './validation/validate.js';
import { validateListTypes } from './list-types.js';
import type { Structural } from '../crd/structural-schema.js';
import type { FieldError } from '../core/field-error.js';
import type { Loc } from '../core/path.js';

export type { ValueValidateOptions } from './validation/schema.js';
export { validateListTypes, validateListTypesUpdate } from './list-types.js';
export { checkFormat } from './formats/index.js';
export { goJSON } from '../go/json.js';

/**
 * Schema validation (kube-openapi) followed by the list-type uniqueness checks, in the server's order.
 * `loc.field === ''` stands for the server's nil field path (the request path): errors without a name print as `<nil>`.
 */
export function validateValue(value: unknown, schema: Structural, loc: Loc, opts: ValueValidateOptions = {}): FieldError[] {
  const errs = validateSchema(value, schema, loc, opts);
  if (opts.listTypes !== false) errs.push(...validateListTypes(value, schema, loc));
  return errs;
}

/**
 * `ValidateCustomResourceUpdate(fldPath, new, old, validator)` with validation ratcheting (on by default
 * since 1.30, GA 1.33; pkg/apiserver/validation/ratcheting.go): the schema validator follows the new
 * value, and a value that can be correlated with an old one (object properties, items of
 * `x-kubernetes-list-type: map` lists by their keys; never atomic lists or sets) and is deep-equal to it
 * has its errors dropped. `apiVersion` and `kind` at the root are never ratcheted.
 */
export function validateSchemaUpdate(value: unknown, old: unknown, schema: Structural, loc: Loc, opts: ValueValidateOptions = {}): FieldError[] {
  const ctx = contextFor(opts);
  const s = validationSchema(schema, ctx);
  const v = normalizeValue(value);
  const res = validateAgainst(s, v, '', loc.at, ctx, new Corr(v, normalizeValue(old), s), true);
  return res.errors.map((e) => toFieldError(e, loc));
}

/** Only `ValidateCustomResource(fldPath, value, validator)`: the kube-openapi schema validator and its error mapping. */
export function validateSchema(value: unknown, schema: Structural, loc: Loc, opts: ValueValidateOptions = {}): FieldError[] {
  const ctx = contextFor(opts);
  const s = validationSchema(schema, ctx);
  const res = validateAgainst(s, normalizedView(value), '', loc.at, ctx);
  return res.errors.map((e) => toFieldError(e, loc));
}
