/**
 * runtime-semantics.md §10.4 (objectmeta/algorithm_test.go TestCoerce) and §10.5
 * (objectmeta/coerce_test.go TestGetObjectMetaWithOptions, TestGetObjectMetaNils).
 */
import { describe, expect, it } from 'vitest';
import { buildStructural } from '../../src/crd/structural-schema.js';
import { Loc } from '../../src/core/path.js';
import { coerceObjectMeta } from '../../src/schema/objectmeta.js';
import { getObjectMeta, objectMetaToUnstructured } from '../../src/schema/objectmeta/decode.js';

type J = Record<string, unknown>;
const ROOT = new Loc('', []);
const coerce = (value: unknown, schema: J | undefined, root: boolean, drop = false) =>
  coerceObjectMeta(ROOT, value, schema && buildStructural(schema), root, { dropInvalidFields: drop, returnUnknownFieldPaths: true });

const emb = (props?: J, extra: J = {}): J => ({ type: 'object', 'x-kubernetes-embedded-resource': true, ...(props ? { properties: props } : {}), ...extra });
const V27_SCHEMA: J = {
  type: 'object',
  properties: {
    pruned: emb({ spec: { type: 'object' } }),
    preserving: emb(undefined, { 'x-kubernetes-preserve-unknown-fields': true }),
    nested: emb({ spec: { type: 'object', properties: { embedded: emb({ spec: { type: 'object' } }) } } }),
  },
};
const M = () => ({ name: 'instance', unspecified: 'bar' });
const res = (): J => ({ apiVersion: 'foo/v1', kind: 'Foo', unspecified: 'bar', metadata: M(), spec: { unspecified: 'bar' } });
const V27_IN = (): J => ({
  apiVersion: 'foo/v1',
  kind: 'Foo',
  metadata: M(),
  unspecified: 'bar',
  pruned: res(),
  preserving: res(),
  nested: { ...res(), spec: { unspecified: 'bar', embedded: res() } },
});
const EMBEDDED_UNKNOWN = ['nested.metadata.unspecified', 'nested.spec.embedded.metadata.unspecified', 'preserving.metadata.unspecified', 'pruned.metadata.unspecified'];

describe('§10.4 embedded ObjectMeta coercion (TestCoerce)', () => {
  it('V29 empty', () => expect(coerce(null, undefined, false)).toMatchObject({ value: null, unknownFieldPaths: [] }));
  it('V30 scalar', () => expect(coerce(4, {}, false)).toMatchObject({ value: 4, unknownFieldPaths: [] }));
  it('V31 scalar array', () => expect(coerce([1, 2], { items: {} }, false)).toMatchObject({ value: [1, 2], unknownFieldPaths: [] }));

  it('V32 embedded resources, root not included: embedded metadata reduced, nothing else pruned', () => {
    const r = coerce(V27_IN(), V27_SCHEMA, false);
    const v = r.value as J;
    expect(r.error).toBeUndefined();
    expect((v['metadata'] as J)['unspecified']).toBe('bar');
    for (const k of ['pruned', 'preserving']) expect((v[k] as J)['metadata']).toEqual({ name: 'instance' });
    expect((v['nested'] as J)['metadata']).toEqual({ name: 'instance' });
    expect((((v['nested'] as J)['spec'] as J)['embedded'] as J)['metadata']).toEqual({ name: 'instance' });
    expect((v['pruned'] as J)['unspecified']).toBe('bar');
    expect(r.unknownFieldPaths).toEqual(EMBEDDED_UNKNOWN);
  });

  it('V33 the same with the root included', () => {
    const r = coerce(V27_IN(), V27_SCHEMA, true);
    expect((r.value as J)['metadata']).toEqual({ name: 'instance' });
    expect(r.unknownFieldPaths).toEqual(['metadata.unspecified', ...EMBEDDED_UNKNOWN]);
  });

  const V34_SCHEMA: J = { type: 'object', properties: { pruned: emb() } };
  it('V34 without name: unchanged, no error', () => {
    const input = { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'instance' }, pruned: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { namespace: 'kube-system' } } };
    const r = coerce(structuredClone(input), V34_SCHEMA, false);
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual(input);
  });

  it('V35 dropInvalidFields: wrong TypeMeta and malformed metadata fields are dropped', () => {
    const schema: J = { type: 'object', properties: { pruned: emb({ spec: { type: 'object' } }) } };
    const input = { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'instance' }, pruned: { apiVersion: 42, kind: 42, metadata: { name: 'instance', namespace: ['abc'], labels: { foo: 42 } } } };
    expect(coerce(input, schema, false, true).value).toEqual({ apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'instance' }, pruned: { metadata: { name: 'instance' } } });
  });

  it('V36 dropInvalidFields: a non-object metadata is left alone', () => {
    const input = { apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'instance' }, pruned: { apiVersion: 42, kind: 42, metadata: [42] } };
    expect(coerce(input, V34_SCHEMA, false, true).value).toEqual({ apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: 'instance' }, pruned: { metadata: [42] } });
  });
});

describe('§10.5 root ObjectMeta decoding (TestGetObjectMetaWithOptions)', () => {
  const UM = { name: 'my-meta', unknownField: 'foo', generateName: null, generation: null, labels: { foo: 'bar' }, annotations: 11 };
  const U = { name: 'my-meta', unknownField: 'foo', generateName: null, generation: null, labels: { foo: 'bar' } };
  const Mal = { name: 'my-meta', generateName: null, generation: null, labels: { foo: 'bar' }, annotations: 11 };
  const ANN_ERR = 'json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string';
  const GOOD = { name: 'my-meta', labels: { foo: 'bar' } };
  const get = (metadata: J, drop: boolean, unknown: boolean) => {
    const r = getObjectMeta({ metadata }, ROOT, { drop, unknown });
    return { meta: r.meta ? objectMetaToUnstructured(r.meta) : undefined, unknown: r.unknown, error: r.error?.msg };
  };

  it('V37 unknown and malformed', () => {
    expect(get(UM, false, false).error).toBe(ANN_ERR);
    expect(get(UM, true, false)).toMatchObject({ meta: GOOD, error: undefined });
    expect(get(UM, false, true).error).toBe(ANN_ERR);
    expect(get(UM, true, true)).toMatchObject({ meta: GOOD, unknown: ['metadata.unknownField'] });
  });
  it('V38 unknown only', () => {
    expect(get(U, false, false)).toMatchObject({ meta: GOOD, unknown: [] });
    expect(get(U, true, false)).toMatchObject({ meta: GOOD });
    expect(get(U, false, true)).toMatchObject({ meta: GOOD, unknown: ['metadata.unknownField'] });
    expect(get(U, true, true)).toMatchObject({ meta: GOOD, unknown: ['metadata.unknownField'] });
  });
  it('V39 malformed only', () => {
    expect(get(Mal, false, false).error).toBe(ANN_ERR);
    expect(get(Mal, true, false)).toMatchObject({ meta: GOOD });
    expect(get(Mal, false, true).error).toBe(ANN_ERR);
    expect(get(Mal, true, true)).toMatchObject({ meta: GOOD, unknown: [] });
  });
  it('V40 nulls decode to zero values (TestGetObjectMetaNils)', () => {
    const r = getObjectMeta({ metadata: { generateName: null, generation: null, labels: { foo: null } } }, ROOT, { drop: false, unknown: false });
    expect(r.error).toBeUndefined();
    expect(r.meta!.generateName).toBe('');
    expect(Number(r.meta!.generation)).toBe(0); // int64, held as a bigint
    expect(objectMetaToUnstructured(r.meta!)).toEqual({ labels: { foo: '' } });
  });
});
