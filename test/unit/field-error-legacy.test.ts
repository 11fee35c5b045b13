/**
 * field.Error value rendering before and after 1.34 (apimachinery field/errors.go ErrorBody): %#v
 * of maps and lists and a quoted "null" up to 1.33, JSON from 1.34. The texts are the 1.33 and 1.36
 * servers' (minors.conformance 'value-rendering').
 */
import { describe, expect, it } from 'vitest';
import { errorText, withLegacyValues, type FieldError } from '../../src/core/field-error.js';

const errs: FieldError[] = [
  { type: 'NotSupported', field: 'spec.o', value: { a: 2, b: 1.5, s: 'x"y', z: null }, detail: 'supported values: "{\\"a\\":1}"', at: [] },
  { type: 'NotSupported', field: 'spec.l', value: [3, 'x', [true], {}], detail: '', at: [] },
  { type: 'NotSupported', field: 'spec.nn', value: null, detail: 'supported values: "a"', at: [] },
  { type: 'Invalid', field: 'spec.s', value: 'x', detail: 'd', at: [] },
];

describe('withLegacyValues', () => {
  it('1.33: %#v and "null"', () => {
    expect(withLegacyValues(errs, 33).map(errorText)).toEqual([
      'spec.o: Unsupported value: map[string]interface {}{"a":2, "b":1.5, "s":"x\\"y", "z":interface {}(nil)}: supported values: "{\\"a\\":1}"',
      'spec.l: Unsupported value: []interface {}{3, "x", []interface {}{true}, map[string]interface {}{}}',
      'spec.nn: Unsupported value: "null": supported values: "a"',
      'spec.s: Invalid value: "x": d',
    ]);
  });
  it('1.34 and later: JSON, unchanged', () => {
    expect(withLegacyValues(errs, 34).map(errorText)).toEqual([
      'spec.o: Unsupported value: {"a":2,"b":1.5,"s":"x\\"y","z":null}: supported values: "{\\"a\\":1}"',
      'spec.l: Unsupported value: [3,"x",[true],{}]',
      'spec.nn: Unsupported value: null: supported values: "a"',
      'spec.s: Invalid value: "x": d',
    ]);
  });
});
