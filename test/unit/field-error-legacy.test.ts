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

describe('JSON value rendering: key order as json.Marshal writes it (1.34 and later)', () => {
  it('an unstructured map (decoded from the request) has its keys in byte order, a struct (a Map) its fields in declaration order', () => {
    // recorded on the 1.37 server: a duplicate in a set list of atomic objects written as {"zb":1,"a":"x","10":1,"9":2}
    const dup: FieldError = { type: 'Duplicate', field: 'spec.s[1]', value: { zb: 1, a: 'x', 10: 1, 9: 2, é: 0, z: { y: 1, b: 2 } }, detail: '', at: [] };
    expect(errorText(dup)).toBe('spec.s[1]: Duplicate value: {"10":1,"9":2,"a":"x","z":{"b":2,"y":1},"zb":1,"é":0}');
    // metav1.OwnerReference: apiVersion, kind, name, uid, controller (the server's text, kube-137-metadata.test.ts)
    const ref: FieldError = { type: 'Invalid', field: 'metadata.ownerReferences', value: [new Map<string, unknown>([['apiVersion', 'v1'], ['kind', 'K'], ['name', 'n'], ['uid', 'u'], ['controller', true]])], detail: 'd', at: [] };
    expect(errorText(ref)).toBe('metadata.ownerReferences: Invalid value: [{"apiVersion":"v1","kind":"K","name":"n","uid":"u","controller":true}]: d');
    // before 1.34 the struct prints as the map it was (%#v), as before
    expect(withLegacyValues([ref], 33).map(errorText)[0]).toContain('map[string]interface {}{');
  });
});
