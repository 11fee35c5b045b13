/**
 * fmt's %v and %T of a decoded JSON value (map[string]interface{}, []interface{}, string, int64,
 * float64, bool, nil), as the server's messages print them (e.g. the accessor errors of
 * apimachinery `unstructured.Nested*`: `%v accessor error: %v is of the type %T, expected string`).
 *
 * Numbers follow the server's JSON decoding: an integer in the int64 range is an int64, any other
 * number a float64 (kubectl re-encodes `3.0` as `3`, so a JS integer stands for an int64).
 */
import { formatFloat } from './float.js';
import { quote } from './quote.js';
import { goSortedKeys, wellFormed } from './strings.js';
import { asBig, asFloat, kindOf } from './value.js';

/** `%v` */
export function goValue(v: unknown): string {
  switch (kindOf(v)) {
    case 'null':
      return '<nil>';
    case 'bool':
      return String(v);
    case 'string':
      return wellFormed(v as string);
    case 'int':
      return asBig(v).toString();
    case 'float':
      return formatFloat(asFloat(v), 'g');
    case 'slice':
      return `[${(v as unknown[]).map(goValue).join(' ')}]`;
    case 'map': {
      const o = v as Record<string, unknown>;
      return `map[${goSortedKeys(o)
        .map((k) => `${wellFormed(k)}:${goValue(o[k])}`)
        .join(' ')}]`;
    }
  }
}

/** `%T` */
export function goTypeOf(v: unknown): string {
  switch (kindOf(v)) {
    case 'null':
      return '<nil>';
    case 'bool':
      return 'bool';
    case 'string':
      return 'string';
    case 'int':
      return 'int64';
    case 'float':
      return 'float64';
    case 'slice':
      return '[]interface {}';
    case 'map':
      return 'map[string]interface {}';
  }
}

/** One field of a Go struct for `%#v`: a string, or a pointer (to a named type) that is nil or not. */
export type GoStructField = readonly [name: string, value: string] | readonly [name: string, pointer: string, set: boolean];

/**
 * `%#v` of a struct of string and pointer fields, e.g. `pkg.T{A:"x", B:(*bool)(nil)}`. A non-nil
 * pointer prints as Go prints it, its address, which only the server process knows: crdx writes
 * the placeholder 0xc000000000 there.
 */
export function goStructSharpV(type: string, fields: readonly GoStructField[]): string {
  const body = fields.map((f) => (f.length === 2 ? `${f[0]}:${quote(f[1])}` : `${f[0]}:(*${f[1]})(${f[2] ? '0xc000000000' : 'nil'})`));
  return `${type}{${body.join(', ')}}`;
}

/**
 * `%#v` of a decoded JSON value: `map[string]interface {}{"a":1, "b":"x"}` (keys sorted),
 * `[]interface {}{1, "x"}`, strings quoted as Go quotes them, `interface {}(nil)` for a null inside
 * a map or a slice (field.Error printed maps and slices so up to 1.33).
 */
export function goSharpV(v: unknown): string {
  switch (kindOf(v)) {
    case 'null':
      return 'interface {}(nil)';
    case 'bool':
      return String(v);
    case 'string':
      return quote(v as string);
    case 'int':
      return asBig(v).toString();
    case 'float':
      return formatFloat(asFloat(v), 'g');
    case 'slice':
      return `[]interface {}{${(v as unknown[]).map(goSharpV).join(', ')}}`;
    case 'map': {
      const o = v as Record<string, unknown>;
      return `map[string]interface {}{${goSortedKeys(o)
        .map((k) => `${quote(k)}:${goSharpV(o[k])}`)
        .join(', ')}}`;
    }
  }
}
