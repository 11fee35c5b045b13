/**
 * The test vectors of /work/shared/spec/runtime-semantics.md that concern pruning, null dropping,
 * defaulting and their order: §10.1 (V01–V13, V05b), §10.2 (V14–V17), §10.3 (V18–V28d) and the
 * pruning part of §10.11 V68/V69 (the unknown-field warnings that pruning contributes; the
 * duplicate-field and metadata entries come from the JSON decoder and objectmeta) and V71
 * (defaults of the request version, then of the storage version). Expectations are the spec's;
 * every one of them was also replayed through the upstream Go code and agreed.
 */
import { describe, expect, it } from 'vitest';
import { buildStructural, type Structural } from '../../src/crd/structural-schema.js';
import { applyDefaults } from '../../src/schema/behaviours/default.js';
import { decode } from '../../src/simulate/pipeline.js';
import { prune } from '../../src/schema/behaviours/prune.js';
import { pruneNonNullableNullsWithoutDefaults } from '../../src/schema/behaviours/prune-nulls.js';

type J = unknown;
interface Vector { id: string; name?: string; op: string; schema: J; root?: boolean; value: J; expect?: { value: J; unknown?: string[] } }

const V24_SCHEMA = {
  type: 'object', 'x-kubernetes-preserve-unknown-fields': true,
  properties: {
    alpha: { type: 'string' }, beta: { type: 'number' },
    pruning: { type: 'object', properties: { preserving: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, pruning: { type: 'object' } } },
    preserving: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: {
      preserving: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      preservingUnknownType: { 'x-kubernetes-preserve-unknown-fields': true },
      pruning: { type: 'object' } } },
    preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true,
      additionalProperties: { type: 'object', properties: { specified: { type: 'object' } } } },
    preservingAdditionalPropertiesKeyPruneValues: { type: 'object',
      additionalProperties: { type: 'object', properties: { specified: { type: 'object' } } } },
  },
};
const V24_IN = {"unspecified":"bar","alpha":"abc","beta":42.0,"unspecifiedObject":{"unspecified":"bar"},
 "pruning":{"unspecified":"bar","unspecifiedObject":{"unspecified":"bar"},"pruning":{"unspecified":"bar"},"apiVersion":"unknown","preserving":{"unspecified":"bar"}},
 "preserving":{"unspecified":"bar","unspecifiedObject":{"unspecified":"bar"},"pruning":{"unspecified":"bar"},"preserving":{"unspecified":"bar"},"preservingUnknownType":[{"foo":true},{"bar":true}]},
 "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields":{"foo":{"specified":{"unspecified":"bar"},"unspecified":"bar"}},
 "preservingAdditionalPropertiesKeyPruneValues":{"foo":{"specified":{"unspecified":"bar"},"unspecified":"bar"}}};
const V24_OUT = {"unspecified":"bar","alpha":"abc","beta":42.0,"unspecifiedObject":{"unspecified":"bar"},
 "pruning":{"pruning":{},"preserving":{"unspecified":"bar"}},
 "preserving":{"unspecified":"bar","unspecifiedObject":{"unspecified":"bar"},"pruning":{},"preserving":{"unspecified":"bar"},"preservingUnknownType":[{"foo":true},{"bar":true}]},
 "preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields":{"foo":{"specified":{}}},
 "preservingAdditionalPropertiesKeyPruneValues":{"foo":{"specified":{}}}};
const V24_UNK = ['preserving.pruning.unspecified', 'preservingAdditionalPropertiesKeyPruneValues.foo.specified.unspecified', 'preservingAdditionalPropertiesKeyPruneValues.foo.unspecified', 'preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.specified.unspecified', 'preservingAdditionalPropertiesNotInheritingXPreserveUnknownFields.foo.unspecified', 'pruning.apiVersion', 'pruning.pruning.unspecified', 'pruning.unspecified', 'pruning.unspecifiedObject'];

const emb = (props: Record<string, J> | undefined, extra: Record<string, J> = {}) => ({ type: 'object', 'x-kubernetes-embedded-resource': true, ...(props ? { properties: props } : {}), ...extra });
const V27_SCHEMA = { type: 'object', properties: {
  pruned: emb({ spec: { type: 'object' } }),
  preserving: emb(undefined, { 'x-kubernetes-preserve-unknown-fields': true }),
  nested: emb({ spec: { type: 'object', properties: { embedded: emb({ spec: { type: 'object' } }) } } }),
} };
const M = () => ({ name: 'instance', unspecified: 'bar' });
const V27_IN = () => ({ apiVersion: 'foo/v1', kind: 'Foo', metadata: M(), unspecified: 'bar',
  pruned: { apiVersion: 'foo/v1', kind: 'Foo', unspecified: 'bar', metadata: M(), spec: { unspecified: 'bar' } },
  preserving: { apiVersion: 'foo/v1', kind: 'Foo', unspecified: 'bar', metadata: M(), spec: { unspecified: 'bar' } },
  nested: { apiVersion: 'foo/v1', kind: 'Foo', unspecified: 'bar', metadata: M(),
    spec: { unspecified: 'bar', embedded: { apiVersion: 'foo/v1', kind: 'Foo', unspecified: 'bar', metadata: M(), spec: { unspecified: 'bar' } } } } });
const V27_OUT = { pruned: { apiVersion: 'foo/v1', kind: 'Foo', metadata: M(), spec: {} },
  preserving: { apiVersion: 'foo/v1', kind: 'Foo', unspecified: 'bar', metadata: M(), spec: { unspecified: 'bar' } },
  nested: { apiVersion: 'foo/v1', kind: 'Foo', metadata: M(), spec: { embedded: { apiVersion: 'foo/v1', kind: 'Foo', metadata: M(), spec: {} } } } };
const V27_UNK = ['nested.spec.embedded.spec.unspecified', 'nested.spec.embedded.unspecified', 'nested.spec.unspecified', 'nested.unspecified', 'pruned.spec.unspecified', 'pruned.unspecified', 'unspecified'];

const M28 = () => ({ name: 'instance', namespace: 'myns', labels: { foo: 'bar' }, unspecified: 'bar' });
const V28_SCHEMA = { type: 'object', properties: {
  metadata: { type: 'object' },
  pruned: emb({ metadata: { type: 'object' }, spec: { type: 'object' } }),
  preserving: emb(undefined, { 'x-kubernetes-preserve-unknown-fields': true }),
  nested: emb({ spec: { type: 'object', properties: { embedded: emb({ metadata: { type: 'object' }, spec: { type: 'object' } }) } } }),
} };
const V28_IN = { apiVersion: 'foo/v1', kind: 'Foo', metadata: M28(), unspecified: 'bar',
  pruned: { apiVersion: 'foo/v1', kind: 'Foo', unspecified: 'bar', metadata: M28(), spec: { unspecified: 'bar' } },
  preserving: { apiVersion: 'foo/v1', kind: 'Foo', unspecified: 'bar', metadata: M28(), spec: { unspecified: 'bar' } },
  nested: { apiVersion: 'foo/v1', kind: 'Foo', unspecified: 'bar', metadata: M28(),
    spec: { unspecified: 'bar', embedded: { apiVersion: 'foo/v1', kind: 'Foo', unspecified: 'bar', metadata: M28(), spec: { unspecified: 'bar' } } } } };
const V28_OUT = { apiVersion: 'foo/v1', kind: 'Foo', metadata: M28(),
  pruned: { apiVersion: 'foo/v1', kind: 'Foo', metadata: M28(), spec: {} },
  preserving: { apiVersion: 'foo/v1', kind: 'Foo', unspecified: 'bar', metadata: M28(), spec: { unspecified: 'bar' } },
  nested: { apiVersion: 'foo/v1', kind: 'Foo', metadata: M28(), spec: { embedded: { apiVersion: 'foo/v1', kind: 'Foo', metadata: M28(), spec: {} } } } };

const V05_SCHEMA = { properties: {
  array: { items: { properties: { a: { default: 'A' }, b: { default: 'B' } } } },
  object: { properties: { a: { default: 'N' }, b: { default: 'O' } } },
  additionalProperties: { additionalProperties: { properties: { a: { default: 'alpha' }, b: { default: 'beta' } } } },
  foo: { default: 'bar' },
} };

const V68_SPEC = { type: 'object', properties: {
  cronSpec: { type: 'string' }, knownField1: { type: 'string' },
  ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['containerPort', 'protocol'], items: { type: 'object', required: ['containerPort', 'protocol'], properties: {
    containerPort: { type: 'integer', format: 'int32' }, hostIP: { type: 'string' }, hostPort: { type: 'integer', format: 'int32' }, name: { type: 'string' }, protocol: { type: 'string' } } } },
  embeddedObj: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { apiversion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object', properties: { name: { type: 'string' } } } } },
} };
const V68_BODY = { apiVersion: 'stable.example.com/v1', kind: 'NoxuPrune', metadata: { name: 'x', unknownMeta: 'metaVal', resourceVersion: '1' },
  spec: { unknown1: 'val1', unknownDupe: 'valDupe2', knownField1: 'val2',
    ports: [{ name: 'portName', containerPort: 8080, protocol: 'TCP', hostPort: 8082, unknownNested: 'val' }],
    embeddedObj: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'my-cm', namespace: 'my-ns', unknownEmbeddedMeta: 'foo' } } } };

const VECTORS: Vector[] = [
  // §10.1 defaulting
  { id: 'V01', name: 'empty', op: 'default', schema: null, value: null, expect: { value: null } },
  { id: 'V02', name: 'scalar', op: 'default', schema: { default: 'foo' }, value: 4, expect: { value: 4 } },
  { id: 'V03', name: 'scalar array', op: 'default', schema: { items: { default: 'foo' } }, value: [1, 2], expect: { value: [1, 2] } },
  { id: 'V04', name: 'object array', op: 'default', schema: { items: { properties: { a: { default: 'A' }, b: { default: 'B' }, c: { default: 'C' } } } },
    value: [{ a: 1 }, { b: 1 }, { c: 1 }], expect: { value: [{ a: 1, b: 'B', c: 'C' }, { a: 'A', b: 1, c: 'C' }, { a: 'A', b: 'B', c: 1 }] } },
  { id: 'V05', name: 'object array object', op: 'default', schema: V05_SCHEMA,
    value: { array: [{ a: 1 }, { b: 2 }], object: { a: 1 }, additionalProperties: { x: { a: 1 }, y: { b: 2 } } },
    expect: { value: { array: [{ a: 1, b: 'B' }, { a: 'A', b: 2 }], object: { a: 1, b: 'O' }, additionalProperties: { x: { a: 1, b: 'beta' }, y: { a: 'alpha', b: 2 } }, foo: 'bar' } } },
  { id: 'V05b', name: 'nested defaults', op: 'default', schema: { properties: { spec: { default: {}, properties: { replicas: { default: 1 } } } } }, value: {}, expect: { value: { spec: { replicas: 1 } } } },
  { id: 'V06', name: 'empty and null', op: 'default', schema: { items: { properties: { a: { default: 'A' } } } },
    value: [{}, { a: 1 }, { a: 0 }, { a: 0.0 }, { a: '' }, { a: null }, { a: [] }, { a: {} }],
    expect: { value: [{ a: 'A' }, { a: 1 }, { a: 0 }, { a: 0.0 }, { a: '' }, { a: 'A' }, { a: [] }, { a: {} }] } },
  { id: 'V07', name: 'null in nullable list', op: 'default', schema: { nullable: true, items: { properties: { a: { default: 'A' } } } }, value: [null], expect: { value: [null] } },
  { id: 'V08', name: 'null in non-nullable list', op: 'default', schema: { items: { default: 'A' } }, value: [null], expect: { value: ['A'] } },
  { id: 'V09', name: 'null in nullable object', op: 'default', schema: { properties: { a: { nullable: true, default: 'A' } } }, value: { a: null }, expect: { value: { a: null } } },
  { id: 'V10', name: 'null in non-nullable object', op: 'default', schema: { properties: { a: { default: 'A' } } }, value: { a: null }, expect: { value: { a: 'A' } } },
  { id: 'V11', name: 'null in nullable additionalProperties', op: 'default', schema: { additionalProperties: { nullable: true, default: 'A' } }, value: { a: null }, expect: { value: { a: null } } },
  { id: 'V12', name: 'null in non-nullable additionalProperties', op: 'default', schema: { additionalProperties: { default: 'A' } }, value: { a: null }, expect: { value: { a: 'A' } } },
  { id: 'V13', name: 'null unknown field', op: 'default', schema: { additionalProperties: true }, value: { a: null }, expect: { value: { a: null } } },
  // §10.2 null dropping
  { id: 'V14', name: 'empty', op: 'prunenulls', schema: null, value: null, expect: { value: null } },
  { id: 'V15', name: 'scalar', op: 'prunenulls', schema: { default: 'foo' }, value: 4, expect: { value: 4 } },
  { id: 'V16', name: 'scalar array', op: 'prunenulls', schema: null, value: [1, null], expect: { value: [1, null] } },
  { id: 'V17', name: 'object array', op: 'prunenulls', schema: { items: { properties: { a: { default: 'A' }, b: { nullable: true }, c: { default: 'C', nullable: true }, d: {} } } },
    value: [{ a: null }, { b: null }, { c: null }, { d: null }, { e: null }], expect: { value: [{ a: null }, { b: null }, { c: null }, {}, { e: null }] } },
  // §10.3 pruning
  { id: 'V18', name: 'empty', op: 'prune', schema: null, value: null, expect: { value: null, unknown: [] } },
  { id: 'V19', name: 'scalar', op: 'prune', schema: {}, value: 4, expect: { value: 4, unknown: [] } },
  { id: 'V20', name: 'scalar array', op: 'prune', schema: { items: {} }, value: [1, 2], expect: { value: [1, 2], unknown: [] } },
  { id: 'V21', name: 'object array', op: 'prune', schema: { items: { properties: { a: {}, c: {} } } }, value: [{ a: 1 }, { b: 1 }, { a: 1, b: 2, c: 3 }],
    expect: { value: [{ a: 1 }, {}, { a: 1, c: 3 }], unknown: ['[1].b', '[2].b'] } },
  { id: 'V22', name: 'object array with nil schema', op: 'prune', schema: null, value: [{ a: 1 }, { b: 1 }, { a: 1, b: 2, c: 3 }],
    expect: { value: [{}, {}, {}], unknown: ['[0].a', '[1].b', '[2].a', '[2].b', '[2].c'] } },
  { id: 'V23', name: 'object array object', op: 'prune', schema: { properties: { array: { items: { properties: { a: {}, c: {} } } }, specified: { properties: { a: {}, c: {} } } } },
    value: { array: [{ a: 1 }, { b: 1 }, { a: 1, b: 2, c: 3 }], unspecified: { a: 1 }, specified: { a: 1, b: 2, c: 3 } },
    expect: { value: { array: [{ a: 1 }, {}, { a: 1, c: 3 }], specified: { a: 1, c: 3 } }, unknown: ['array[1].b', 'array[2].b', 'specified.b', 'unspecified'] } },
  { id: 'V24', name: 'nested x-kubernetes-preserve-unknown-fields', op: 'prune', schema: V24_SCHEMA, value: V24_IN, expect: { value: V24_OUT, unknown: V24_UNK } },
  { id: 'V25', name: 'additionalProperties with schema', op: 'prune', schema: { properties: { a: {}, c: { additionalProperties: { type: 'integer' } } } },
    value: { a: 1, b: 1, c: { a: 1, b: 2, c: { a: 1 } } }, expect: { value: { a: 1, c: { a: 1, b: 2, c: {} } }, unknown: ['b', 'c.c.a'] } },
  { id: 'V26', name: 'additionalProperties with bool', op: 'prune', schema: { properties: { a: {}, c: { additionalProperties: false } } },
    value: { a: 1, b: 1, c: { a: 1, b: 2, c: { a: 1, apiVersion: 'unknown' } } }, expect: { value: { a: 1, c: { a: 1, b: 2, c: {} } }, unknown: ['b', 'c.c.a', 'c.c.apiVersion'] } },
  { id: 'V27', name: 'x-kubernetes-embedded-resource', op: 'prune', schema: V27_SCHEMA, root: false, value: V27_IN(), expect: { value: V27_OUT, unknown: V27_UNK } },
  { id: 'V28', name: 'x-kubernetes-embedded-resource, with root=true', op: 'prune', schema: V28_SCHEMA, root: true, value: V28_IN, expect: { value: V28_OUT, unknown: V27_UNK } },
  { id: 'V28b', name: 'preserving array', op: 'prune', root: true, schema: { properties: { list: { type: 'array', 'x-kubernetes-preserve-unknown-fields': true, items: { type: 'object', properties: { a: { type: 'integer' } } } } } },
    value: { list: [{ a: 1, z: 2 }] }, expect: { value: { list: [{ a: 1, z: 2 }] }, unknown: [] } },
  { id: 'V28c', name: 'bare object', op: 'prune', root: true, schema: { type: 'object', properties: { spec: { type: 'object' } } },
    value: { spec: { x: 1, y: { z: 2 } } }, expect: { value: { spec: {} }, unknown: ['spec.x', 'spec.y'] } },
  { id: 'V28d', name: 'additionalProperties true', op: 'prune', root: true, schema: { type: 'object', properties: { spec: { type: 'object', properties: { m: { type: 'object', additionalProperties: true } } } } },
    value: { spec: { m: { a: 1, b: { c: 1 } } } }, expect: { value: { spec: { m: { a: 1, b: {} } } }, unknown: ['spec.m.b.c'] } },
  // §10.11 V68/V69: the pruning part of the unknown-field warnings
  { id: 'V68', name: 'field validation, schema CRD', op: 'pipeline', schema: { type: 'object', properties: { spec: V68_SPEC } }, value: V68_BODY,
    expect: { value: { ...V68_BODY, spec: { knownField1: 'val2', ports: [{ name: 'portName', containerPort: 8080, protocol: 'TCP', hostPort: 8082 }], embeddedObj: V68_BODY.spec.embeddedObj } },
      unknown: ['spec.ports[0].unknownNested', 'spec.unknown1', 'spec.unknownDupe'] } },
  { id: 'V69', name: 'field validation, schemaless CRD', op: 'pipeline', schema: { type: 'object', properties: { spec: { ...V68_SPEC, 'x-kubernetes-preserve-unknown-fields': true } } }, value: V68_BODY,
    expect: { value: { ...V68_BODY, spec: { ...V68_BODY.spec, ports: [{ name: 'portName', containerPort: 8080, protocol: 'TCP', hostPort: 8082 }] } }, unknown: ['spec.ports[0].unknownNested'] } },

];

function schemaOf(s: unknown): Structural | undefined {
  return s === null ? undefined : buildStructural(s as Record<string, unknown>);
}

describe('runtime-semantics.md §10 vectors', () => {
  for (const v of VECTORS) {
    it(`${v.id} ${v.op}: ${v.name ?? ''}`, () => {
      const input = JSON.parse(JSON.stringify(v.value)) as unknown;
      const snapshot = JSON.stringify(input);
      const expected = v.expect!;
      if (v.op === 'prune') {
        const r = prune(input, schemaOf(v.schema), { isResourceRoot: v.root === true });
        expect(r.value).toEqual(expected.value);
        expect(r.unknownFieldPaths).toEqual(expected.unknown ?? []);
      } else if (v.op === 'prunenulls') {
        expect(pruneNonNullableNullsWithoutDefaults(input, schemaOf(v.schema)).value).toEqual(expected.value);
      } else if (v.op === 'default') {
        expect(applyDefaults(input, schemaOf(v.schema)).value).toEqual(expected.value);
      } else {
        const r = decode(input, schemaOf(v.schema));
        expect(r.value).toEqual(expected.value);
        expect(r.unknownFieldPaths).toEqual(expected.unknown ?? []);
      }
      expect(JSON.stringify(input)).toBe(snapshot);
    });
  }
});

describe('V71: request-version defaults on create, storage-version defaults on the read-back', () => {
  const side = (own: 'v1beta1' | 'v1beta2', replicas: number) => ({
    type: 'object',
    properties: {
      a: { type: 'string', default: 'A' },
      b: { type: 'string', default: 'B' },
      c: { type: 'string' },
      v1beta1: own === 'v1beta1' ? { type: 'string', default: 'v1beta1' } : { type: 'string' },
      v1beta2: own === 'v1beta2' ? { type: 'string', default: 'v1beta2' } : { type: 'string' },
      replicas: { type: 'integer', format: 'int32', minimum: 0, default: replicas },
    },
  });
  const schema = (own: 'v1beta1' | 'v1beta2') => buildStructural({ type: 'object', properties: { spec: side(own, 1), status: side(own, 0) } });
  const body = { kind: 'Foo', apiVersion: 'tests.example.com/v1beta1', metadata: { name: 'foo' }, spec: { a: 'a' }, status: { b: 'b' } };

  it('creates through v1beta1 (served) and reads back from v1beta2 (storage)', () => {
    // request decode in the URL's version
    const req = decode(body, schema('v1beta1'));
    expect(req.value).toEqual({ ...body, spec: { a: 'a', b: 'B', v1beta1: 'v1beta1', replicas: 1 }, status: { a: 'A', b: 'b', v1beta1: 'v1beta1', replicas: 0 } });
    // PrepareForCreate drops status (status subresource), conversion (None) changes apiVersion
    const { status: _dropped, ...created } = req.value as Record<string, unknown>;
    const stored = decode({ ...created, apiVersion: 'tests.example.com/v1beta2' }, schema('v1beta2'), { skipDefaulting: true });
    // the response is read back from storage: storage-version defaults, then converted without defaulting
    const read = decode(stored.value, schema('v1beta2'), { dropInvalidMetadata: true, repairGeneration: true });
    const response = decode({ ...(read.value as Record<string, unknown>), apiVersion: 'tests.example.com/v1beta1' }, schema('v1beta1'), { skipDefaulting: true });
    const out = response.value as Record<string, unknown>;
    expect(out['spec']).toEqual({ a: 'a', b: 'B', v1beta1: 'v1beta1', v1beta2: 'v1beta2', replicas: 1 });
    expect(out).not.toHaveProperty('status');
  });

  it('a /status PUT with status: {} gets the status defaults', () => {
    const r = decode({ ...body, status: {} }, schema('v1beta1'));
    expect((r.value as Record<string, unknown>)['status']).toEqual({ a: 'A', b: 'B', v1beta1: 'v1beta1', replicas: 0 });
  });
});
