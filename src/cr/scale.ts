/**
 * The scale-path checks the API server runs on every create and main-endpoint update of a custom
 * resource whose version has a scale subresource (apiextensions-apiserver
 * pkg/registry/customresource/validator.go ValidateScaleSpec and ValidateScaleStatus). The field paths keep the CRD's leading dot (`field.NewPath(".spec.replicas")`),
 * and a wrongly typed value is reported with the value 0 (or "") and the accessor error as detail.
 */
import { invalid, type FieldError } from '../core/field-error.js';
import { Loc } from '../core/path.js';
import { isRecord, type JsonPath } from '../core/types.js';
import { goTypeOf, goValue } from '../go/print.js';
import { int64Value, isInt64 } from '../go/value.js';

export interface ScaleSpec {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  /** Absent when the CRD does not set labelSelectorPath. */
  readonly labelSelectorPath?: string;
}

const MAX_INT32 = 2147483647;

export type Nested = { readonly found: boolean; readonly value?: unknown; readonly error?: string };

/** unstructured.NestedFieldNoCopy */
function nestedField(obj: unknown, fields: readonly string[]): Nested {
  let val: unknown = obj;
  for (let i = 0; i < fields.length; i++) {
    if (val === null || val === undefined) return { found: false };
    if (!isRecord(val)) {
      return { found: false, error: `${jsonPath(fields.slice(0, i + 1))} accessor error: ${goValue(val)} is of the type ${goTypeOf(val)}, expected map[string]interface{}` };
    }
    const f = fields[i]!;
    if (!Object.prototype.hasOwnProperty.call(val, f)) return { found: false };
    val = val[f];
  }
  return { found: true, value: val };
}

function jsonPath(fields: readonly string[]): string {
  return `.${fields.join('.')}`;
}

/** unstructured.NestedInt64: the value (0 when missing), whether it was found, or an accessor error. */
export function nestedInt64(obj: unknown, fields: readonly string[]): { value: bigint; found: boolean; error?: string } {
  const r = nestedField(obj, fields);
  if (r.error !== undefined) return { value: 0n, found: false, error: r.error };
  if (!r.found) return { value: 0n, found: false };
  const v = r.value;
  if (!isInt64(v)) return { value: 0n, found: false, error: `${jsonPath(fields)} accessor error: ${goValue(v)} is of the type ${goTypeOf(v)}, expected int64` };
  return { value: typeof v === 'bigint' ? v : BigInt(v), found: true };
}

/** unstructured.NestedString: the value ('' when missing), or an accessor error. */
export function nestedString(obj: unknown, fields: readonly string[]): { value: string; error?: string } {
  const r = nestedField(obj, fields);
  if (r.error !== undefined) return { value: '', error: r.error };
  if (!r.found) return { value: '' };
  if (typeof r.value === 'string') return { value: r.value };
  return { value: '', error: `${jsonPath(fields)} accessor error: ${goValue(r.value)} is of the type ${goTypeOf(r.value)}, expected string` };
}

/** A CRD replicas/selector path (`.spec.replicas`) as fields, the leading dot ignored. */
export function fieldsOf(path: string): string[] {
  return (path.startsWith('.') ? path.slice(1) : path).split('.');
}

function replicas(obj: unknown, path: string): FieldError[] {
  const fields = fieldsOf(path);
  const loc = new Loc(path, fields as JsonPath);
  const r = nestedInt64(obj, fields);
  if (r.error !== undefined) return [invalid(loc, 0, r.error)];
  if (r.value < 0n) return [invalid(loc, int64Value(r.value), 'should be a non-negative integer')];
  if (r.value > BigInt(MAX_INT32)) return [invalid(loc, int64Value(r.value), `should be less than or equal to ${MAX_INT32}`)];
  return [];
}

/** ValidateScaleSpec */
export function validateScaleSpec(obj: unknown, scale: ScaleSpec | undefined): FieldError[] {
  return scale ? replicas(obj, scale.specReplicasPath) : [];
}

/** ValidateScaleStatus */
export function validateScaleStatus(obj: unknown, scale: ScaleSpec | undefined): FieldError[] {
  if (!scale) return [];
  const errs = replicas(obj, scale.statusReplicasPath);
  if (scale.labelSelectorPath !== undefined) {
    const fields = fieldsOf(scale.labelSelectorPath);
    const r = nestedString(obj, fields);
    if (r.error !== undefined) errs.push(invalid(new Loc(scale.labelSelectorPath, fields), '', r.error));
  }
  return errs;
}
