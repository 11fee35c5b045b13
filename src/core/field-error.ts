import { since } from './version-gates.js';
import { goSharpV, goValue } from '../go/print.js';
import { quote } from '../go/quote.js';
import { goJSON } from '../go/json.js';
import type { JsonPath, ServerCause, ServerErrorType } from './types.js';
import type { Loc } from './path.js';

/** Marker for errors whose value is not printed (field.omitValue). */
export const OMIT = Symbol('omit');

/** A value whose Go rendering is already known (a struct printed with %#v by older servers). */
export class RenderedValue {
  constructor(readonly text: string) {}
}

/**
 * A field.Error as the API server builds it: type, server field path, bad value, detail,
 * plus where the offending value sits in the user's manifest.
 */
export interface FieldError {
  readonly type: ServerErrorType;
  readonly field: string;
  readonly value: unknown;
  readonly detail: string;
  readonly at: JsonPath;
  /** Point at the key rather than the value (for missing/forbidden fields). */
  readonly atKey?: boolean;
}

const TYPE_TEXT: Record<ServerErrorType, string> = {
  Required: 'Required value',
  Invalid: 'Invalid value',
  TypeInvalid: 'Invalid value',
  NotSupported: 'Unsupported value',
  Forbidden: 'Forbidden',
  Duplicate: 'Duplicate value',
  TooMany: 'Too many',
  TooLong: 'Too long',
  NotFound: 'Not found',
  Internal: 'Internal error',
};

const REASON: Record<ServerErrorType, string> = {
  Required: 'FieldValueRequired',
  Invalid: 'FieldValueInvalid',
  TypeInvalid: 'FieldValueTypeInvalid',
  NotSupported: 'FieldValueNotSupported',
  Forbidden: 'FieldValueForbidden',
  Duplicate: 'FieldValueDuplicate',
  TooMany: 'FieldValueTooMany',
  TooLong: 'FieldValueTooLong',
  NotFound: 'FieldValueNotFound',
  Internal: 'InternalError',
};

export function required(loc: Loc, detail: string): FieldError {
  return { type: 'Required', field: loc.field, value: OMIT, detail, at: loc.at, atKey: true };
}
export function forbidden(loc: Loc, detail: string): FieldError {
  return { type: 'Forbidden', field: loc.field, value: OMIT, detail, at: loc.at, atKey: true };
}
export function invalid(loc: Loc, value: unknown, detail: string): FieldError {
  return { type: 'Invalid', field: loc.field, value, detail, at: loc.at };
}
export function duplicate(loc: Loc, value: unknown): FieldError {
  return { type: 'Duplicate', field: loc.field, value, detail: '', at: loc.at };
}
export function tooMany(loc: Loc, actual: number, max: number): FieldError {
  return { type: 'TooMany', field: loc.field, value: actual, detail: `must have at most ${max} items`, at: loc.at };
}
export function tooLong(loc: Loc, value: unknown, max: number): FieldError {
  return { type: 'TooLong', field: loc.field, value, detail: `may not be more than ${max} bytes`, at: loc.at };
}
export function notSupported(loc: Loc, value: unknown, valid: readonly string[]): FieldError {
  const detail = valid.length > 0 ? `supported values: ${valid.map(quote).join(', ')}` : '';
  return { type: 'NotSupported', field: loc.field, value, detail, at: loc.at };
}

/** Renders a value as Go's field.Error does: %q for strings, %v for numbers and bools, JSON otherwise. */
function renderValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof RenderedValue) return v.text;
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return goValue(v);
  // json.Marshal: an object decoded from the request (a map[string]interface{}) with its keys in
  // byte order; a value that stands for a Go struct is a Map (go/json.ts structOrdered) and keeps
  // its fields in declaration order. Go's HTML-safe escaping (<, >, & and U+2028/U+2029 as \u003c …).
  return goJSON(v);
}

/** A value with its struct Maps (go/json.ts structOrdered) turned back into plain objects. */
function plainOf(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(plainOf);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), plainOf(x)]));
  return v;
}

/** field.Error.ErrorBody(): "<Type>[: <value>][: <detail>]" */
function errorBody(e: FieldError): string {
  let s = TYPE_TEXT[e.type];
  const omit =
    e.value === OMIT || e.type === 'Required' || e.type === 'Forbidden' || e.type === 'TooLong' || e.type === 'Internal';
  if (!omit) s += `: ${renderValue(e.value)}`;
  if (e.detail.length > 0) s += `: ${e.detail}`;
  return s;
}

/** field.Error.Error(): "<field>: <body>" */
export function errorText(e: FieldError): string {
  return `${e.field}: ${errorBody(e)}`;
}

export function toCause(e: FieldError): ServerCause {
  return { field: e.field, reason: REASON[e.type], message: errorBody(e) };
}

/**
 * Up to 1.33 field.Error printed a value that is not a string, number or bool with `%#v` (a map as
 * `map[string]interface {}{"a":1}`, a list as `[]interface {}{1}`) and a null as the string
 * `"null"`; from 1.34 it marshals them to JSON (apimachinery field/errors.go ErrorBody). Returns
 * `errors` with those values rendered as the older server did (unchanged for 1.34 and later).
 */
export function withLegacyValues(errors: readonly FieldError[], kubeMinor: number): FieldError[] {
  if (kubeMinor >= since('cr.json-values')) return [...errors];
  return errors.map((e) => {
    const v = e.value;
    if (v === null) return { ...e, value: new RenderedValue('"null"') };
    if (Array.isArray(v) || v instanceof Map || (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype)) return { ...e, value: new RenderedValue(goSharpV(plainOf(v))) };
    return e;
  });
}
