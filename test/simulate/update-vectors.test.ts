/**
 * runtime-semantics.md vectors of the update path and the subresources, run through
 * src/cr/update.ts and src/cr/scale-rest.ts: §10.6 V41-V47 (main-endpoint PrepareForUpdate), §10.7
 * V48-V52 (/status PrepareForUpdate), §10.8 V53-V56 (/status validation with list-type ratcheting),
 * §10.10 V59-V66 (scale and generation), §10.11 V67 and V77, §10.12 V79-V85 on updates, §5.5
 * (resourceVersion). The same operations run against the real server in
 * test/conformance/subresources.conformance.test.ts.
 *
 * The upstream strategy tests use objects without a schema and a made-up `metadata.other` field;
 * here every object goes through the whole update path (decoding included), so the schema preserves
 * unknown fields and a label stands for the metadata change.
 */
import { describe, expect, it } from 'vitest';
import { errorText } from '../../src/core/field-error.js';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { CrdCatalog } from '../../src/cr/catalog.js';
import { scaleGet, scaleUpdate } from '../../src/cr/scale-rest.js';
import { simulateUpdate, type Via } from '../../src/cr/update.js';
import { buildCrd } from '../../src/crd/model.js';
import { parseFile } from '../../src/manifest/parse.js';
import { cel } from '../helpers/cel.js';

type J = Record<string, unknown>;
const PRESERVE = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
const SCALE = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' };

function served(schema: J, subresources?: J) {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'noxus.mygroup.example.com' },
    spec: {
      group: 'mygroup.example.com',
      scope: 'Namespaced',
      names: { plural: 'noxus', singular: 'noxu', kind: 'WishIHadChosenNoxu' },
      versions: [{ name: 'v1beta1', served: true, storage: true, schema: { openAPIV3Schema: schema }, ...(subresources ? { subresources } : {}) }],
    },
  };
  const m = parseFile({ path: 'crd.json', text: JSON.stringify(crd) })[0]!.manifests[0]!;
  const l = new CrdCatalog([buildCrd(m, DEFAULT_KUBE_VERSION, cel)]).lookup('mygroup.example.com/v1beta1', 'WishIHadChosenNoxu');
  if (!l.ok) throw new Error(l.message);
  return l.served;
}

const TYPE = { apiVersion: 'mygroup.example.com/v1beta1', kind: 'WishIHadChosenNoxu' };
function obj(body: J, md: J = {}): J {
  return { ...TYPE, metadata: { name: 'foo', namespace: 'default', resourceVersion: '1', ...md }, ...body };
}
const withStatus = served(PRESERVE, { status: {} });
const withoutStatus = served(PRESERVE);

function update(s: ReturnType<typeof served>, old: J, neu: J, via: Via = 'main') {
  return simulateUpdate(old, neu, s, { kube: DEFAULT_KUBE_VERSION, via });
}
function body(v: J | undefined): J {
  const { apiVersion: _a, kind: _k, metadata: _m, ...rest } = v ?? {};
  return rest;
}
const generation = (v: J | undefined) => (v?.['metadata'] as J)['generation'];
const labels = (v: J | undefined) => (v?.['metadata'] as J)['labels'];

describe('§10.6 main-endpoint PrepareForUpdate', () => {
  const g1 = { generation: 1 };
  it('V41 status on: a spec change raises the generation, status stays', () => {
    const r = update(withStatus, obj({ spec: 'old', status: 'old' }, g1), obj({ spec: 'new', status: 'old' }, g1));
    expect(body(r.value)).toEqual({ spec: 'new', status: 'old' });
    expect(generation(r.value)).toBe(2);
  });
  it('V42 status on: a status change is dropped, generation stays', () => {
    const r = update(withStatus, obj({ spec: 'old', status: 'old' }, g1), obj({ spec: 'old', status: 'new' }, g1));
    expect(body(r.value)).toEqual({ spec: 'old', status: 'old' });
    expect(generation(r.value)).toBe(1);
    expect(r.noop).toBe(true);
  });
  it('V43 status on: a metadata change is kept, generation stays', () => {
    const r = update(withStatus, obj({ spec: 'old', status: 'old' }, { ...g1, labels: { other: 'old' } }), obj({ spec: 'old', status: 'old' }, { ...g1, labels: { other: 'new' } }));
    expect(labels(r.value)).toEqual({ other: 'new' });
    expect(generation(r.value)).toBe(1);
  });
  it('V44 status off: a spec change raises the generation', () => {
    const r = update(withoutStatus, obj({ spec: 'old', status: 'old' }, g1), obj({ spec: 'new', status: 'old' }, g1));
    expect(body(r.value)).toEqual({ spec: 'new', status: 'old' });
    expect(generation(r.value)).toBe(2);
  });
  it('V45 status off: a status change is written and raises the generation', () => {
    const r = update(withoutStatus, obj({ spec: 'old', status: 'old' }, g1), obj({ spec: 'old', status: 'new' }, g1));
    expect(body(r.value)).toEqual({ spec: 'old', status: 'new' });
    expect(generation(r.value)).toBe(2);
  });
  it('V46 status off: any other top-level field raises the generation', () => {
    const r = update(withoutStatus, obj({ spec: 'old', image: 'old', status: 'old' }, g1), obj({ spec: 'old', image: 'new', status: 'old' }, g1));
    expect(body(r.value)).toEqual({ spec: 'old', image: 'new', status: 'old' });
    expect(generation(r.value)).toBe(2);
  });
  it('V47 status off: a metadata change keeps generation 1', () => {
    const r = update(withoutStatus, obj({ spec: 'old', status: 'old' }, { ...g1, labels: { other: 'old' } }), obj({ spec: 'old', status: 'old' }, { ...g1, labels: { other: 'new' } }));
    expect(labels(r.value)).toEqual({ other: 'new' });
    expect(generation(r.value)).toBe(1);
  });
  it('the client cannot set the generation; an old object without one counts as generation 1', () => {
    const r = update(withStatus, obj({ spec: 'old' }), obj({ spec: 'new' }, { generation: 10 }));
    expect(generation(r.value)).toBe(2);
    expect(r.generation).toEqual({ before: 1, after: 2 });
  });
});

describe('§10.7 /status PrepareForUpdate', () => {
  const cases: [string, J, J, J][] = [
    ['V48', { spec: 'old' }, { spec: 'new' }, { spec: 'old' }],
    ['V49', { spec: 'old' }, { new: 'new' }, { spec: 'old' }],
    ['V50', { spec: 'old', status: 'old' }, { spec: 'old' }, { spec: 'old' }],
    ['V51', { spec: 'old', status: 'old' }, { status: 'new' }, { spec: 'old', status: 'new' }],
    ['V52', { spec: 'old', status: 'old' }, { spec: 'new', new: 'new', status: 'new' }, { spec: 'old', status: 'new' }],
  ];
  for (const [id, old, neu, want] of cases) {
    it(`${id}`, () => {
      const r = update(withStatus, obj(old, { generation: 4, labels: { a: 'old' } }), obj(neu, { labels: { a: 'new' } }), 'status');
      expect(body(r.value)).toEqual(want);
      // metadata comes from the stored object; the generation never moves through /status
      expect(labels(r.value)).toEqual({ a: 'old' });
      expect(generation(r.value)).toBe(4);
    });
  }
});

describe('§10.8 /status validation with list-type ratcheting', () => {
  // upstream the items are `type: object` and the strategy has no schema validator; through the whole
  // path the numbers would fail that type, so the items are integers here
  const s = served({ type: 'object', properties: { numArray: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } } } }, { status: {} });
  const cases: [string, unknown[], unknown[], boolean][] = [
    ['V53', [1, 2], [1, 3], true],
    ['V54', [1, 2], [1, 1], false],
    ['V55', [1, 1], [1, 2], true],
    ['V56', [1, 1], [1, 1], true],
  ];
  for (const [id, oldArr, newArr, valid] of cases) {
    it(`${id}: ${JSON.stringify(oldArr)} → ${JSON.stringify(newArr)} ${valid ? 'valid' : 'invalid'}`, () => {
      // the test's objects carry numArray at the root; the /status strategy copies the stored object, so
      // the root list is the old one: its validity is what ratcheting compares, through the main endpoint
      const r = update(s, obj({ numArray: oldArr }), obj({ numArray: newArr }), 'main');
      expect(r.errors.map(errorText)).toEqual(valid ? [] : ['numArray[1]: Duplicate value: 1']);
    });
  }
  it('(legacy) a /status update that sets status.phase is valid without a status schema', () => {
    const r = update(s, obj({}), obj({ status: { phase: 'ready' } }), 'status');
    expect(r.errors).toEqual([]);
  });
});

describe('§10.10 scale and generation', () => {
  const s = served(PRESERVE, { status: {}, scale: SCALE });
  const stored = obj(
    { spec: { replicas: 7, string: 'string', float64: 3.1415926, bool: true, stringList: ['foo', 'bar'], mixedList: ['foo', 42], nonPrimitiveList: ['foo', [1, 2]] } },
    { uid: 'u-1', creationTimestamp: '2024-01-01T00:00:00Z', resourceVersion: '5' },
  );
  it('V59 GET /scale', () => {
    expect(scaleGet(stored, s)).toEqual({
      scale: {
        kind: 'Scale',
        apiVersion: 'autoscaling/v1',
        metadata: { name: 'foo', namespace: 'default', uid: 'u-1', resourceVersion: '5', creationTimestamp: '2024-01-01T00:00:00Z' },
        spec: { replicas: 7 },
        status: { replicas: 0 },
      },
    });
  });
  it('V60 GET /scale without spec.replicas: 500', () => {
    const noReplicas = { ...stored, spec: { string: 'x' } };
    expect(scaleGet(noReplicas, s).failure).toEqual({ code: 500, reason: 'InternalError', message: 'Internal error occurred: the spec replicas field ".spec.replicas" does not exist' });
  });
  it('V61 PUT /scale: replicas 12, generation + 1', () => {
    const r = scaleUpdate(stored, s, 12, { kube: DEFAULT_KUBE_VERSION, resourceVersion: '5' });
    expect(r.scale?.spec).toEqual({ replicas: 12 });
    expect((r.update?.value?.['spec'] as J)['replicas']).toBe(12);
    expect(generation(r.update?.value)).toBe(2);
  });
  it('V62 PUT /scale on an object without spec.replicas creates it', () => {
    const r = scaleUpdate({ ...stored, spec: {} }, s, 12, { kube: DEFAULT_KUBE_VERSION, resourceVersion: '5' });
    expect(r.update?.value?.['spec']).toEqual({ replicas: 12 });
    const deeper = scaleUpdate(obj({}), s, 3, { kube: DEFAULT_KUBE_VERSION });
    expect(deeper.update?.value?.['spec']).toEqual({ replicas: 3 });
  });
  it('V63 PUT /scale without a resourceVersion is unconditional', () => {
    const r = scaleUpdate(stored, s, 8, { kube: DEFAULT_KUBE_VERSION });
    expect(r.failure).toBeUndefined();
    expect(r.scale?.spec).toEqual({ replicas: 8 });
    expect(r.scale?.metadata['resourceVersion']).toBeUndefined();
    // the same replicas again: nothing is written, the resourceVersion stays
    expect(scaleUpdate(stored, s, 7, { kube: DEFAULT_KUBE_VERSION }).scale?.metadata['resourceVersion']).toBe('5');
  });
  it('V64 PUT /scale with a stale resourceVersion: 409', () => {
    const r = scaleUpdate(stored, s, 12, { kube: DEFAULT_KUBE_VERSION, resourceVersion: '1' });
    expect(r.failure).toEqual({
      code: 409,
      reason: 'Conflict',
      at: ['metadata', 'resourceVersion'],
      message: 'Operation cannot be fulfilled on noxus.mygroup.example.com "foo": the object has been modified; please apply your changes to the latest version and try again',
    });
  });
  it('V65 generation: 1 → spec change 2 → status-only change 2', () => {
    const v1 = obj({ spec: { replicas: 7 } }, { generation: 1 });
    const r1 = update(s, v1, obj({ spec: { replicas: 8 } }, { generation: 10 }));
    expect(generation(r1.value)).toBe(2);
    const r2 = update(s, r1.value!, { ...r1.value!, status: { replicas: 3 } });
    expect(generation(r2.value)).toBe(2);
    expect(r2.value?.['status']).toBeUndefined();
  });
  it('V66 /status update writes status, spec stays', () => {
    const r = update(s, stored, { ...stored, spec: { replicas: 1 }, status: { replicas: 7 } }, 'status');
    expect(r.value?.['status']).toEqual({ replicas: 7 });
    expect((r.value?.['spec'] as J)['replicas']).toBe(7);
  });
  it('a CRD without the scale subresource: 404', () => {
    expect(scaleGet(stored, withStatus).failure?.code).toBe(404);
    expect(scaleUpdate(stored, withStatus, 1, { kube: DEFAULT_KUBE_VERSION }).failure?.code).toBe(404);
  });
  it('non-integer replicas: the accessor error, 500', () => {
    expect(scaleGet({ ...stored, spec: { replicas: 'x' } }, s).failure).toEqual({ code: 500, reason: '', message: '.spec.replicas accessor error: x is of the type string, expected int64' });
    expect(scaleGet({ ...stored, spec: { replicas: 1.5 } }, s).failure?.message).toBe('.spec.replicas accessor error: 1.5 is of the type float64, expected int64');
    expect(scaleGet({ ...stored, spec: 'x' }, s).failure?.message).toBe('.spec.replicas accessor error: x is of the type string, expected map[string]interface{}');
    expect(scaleUpdate({ ...stored, spec: 'x' }, s, 2, { kube: DEFAULT_KUBE_VERSION }).failure?.code).toBe(500);
  });
  it('negative replicas through /scale: 422 from the custom resource validation', () => {
    const r = scaleUpdate(stored, s, -1, { kube: DEFAULT_KUBE_VERSION });
    expect(r.update?.errors.map(errorText)).toEqual(['.spec.replicas: Invalid value: -1: should be a non-negative integer']);
    expect(r.scale).toBeUndefined();
  });
});

describe('§10.11 end to end', () => {
  it('V67 /status validates only the status schema, with status. paths', () => {
    const s = served(
      {
        type: 'object',
        properties: {
          spec: { type: 'object', properties: { num: { type: 'integer', maximum: 10 } } },
          status: { type: 'object', properties: { num: { type: 'integer', maximum: 10 } } },
        },
      },
      { status: {} },
    );
    const stored = obj({ spec: { num: 10 }, status: { num: 10 } });
    expect(update(s, stored, obj({ spec: { num: 15 }, status: { num: 10 } }), 'status').errors).toEqual([]);
    expect(update(s, stored, obj({ spec: { num: 10 }, status: { num: 15 } }), 'status').errors.map(errorText)).toEqual([
      'status.num: Invalid value: 15: num in body should be less than or equal to 10',
    ]);
  });
  it('V77 PUT /scale copies only spec.replicas; the selector stays', () => {
    const s = served(PRESERVE, { status: {}, scale: SCALE });
    const stored = obj({ spec: { replicas: 3 }, status: { labelSelector: 'bar' } });
    expect(scaleGet(stored, s).scale?.status).toEqual({ replicas: 0, selector: 'bar' });
    const r = scaleUpdate(stored, s, 5, { kube: DEFAULT_KUBE_VERSION });
    expect(r.scale?.status).toEqual({ replicas: 0, selector: 'bar' });
    expect(r.update?.value?.['status']).toEqual({ labelSelector: 'bar' });
    const big = update(s, stored, obj({ spec: { replicas: 9223372036854775807n } }));
    expect(big.errors.map(errorText)).toEqual(['.spec.replicas: Invalid value: 9223372036854775807: should be less than or equal to 2147483647']);
  });
});

describe('§10.12 scale paths on update', () => {
  const s = served(PRESERVE, { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } });
  const sub = served(PRESERVE, { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } });
  const cases: [string, J, string[]][] = [
    ['V79', { spec: { replicas: -1 } }, ['.spec.replicas: Invalid value: -1: should be a non-negative integer']],
    ['V80', { spec: { replicas: 2147483648 } }, ['.spec.replicas: Invalid value: 2147483648: should be less than or equal to 2147483647']],
    ['V81', { spec: { replicas: '3' } }, ['.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 3 is of the type string, expected int64']],
    ['V83', { spec: {}, status: { replicas: -2 } }, ['.status.replicas: Invalid value: -2: should be a non-negative integer']],
    [
      'V84',
      { status: { selector: { matchLabels: { a: 'b' } } } },
      ['.status.selector: Invalid value: "": .status.selector accessor error: map[matchLabels:map[a:b]] is of the type map[string]interface {}, expected string'],
    ],
    ['V85', {}, []],
  ];
  for (const [id, b, want] of cases) {
    it(`${id} through the main endpoint`, () => {
      expect(update(s, obj({}), obj(b)).errors.map(errorText)).toEqual(want);
    });
  }
  it('V83/V84 through /status: only ValidateScaleStatus', () => {
    expect(update(sub, obj({ spec: { replicas: -1 } }), obj({ status: { replicas: -2 } }), 'status').errors.map(errorText)).toEqual([
      '.status.replicas: Invalid value: -2: should be a non-negative integer',
    ]);
  });
});

describe('§5.5 resourceVersion and the URL', () => {
  const stored = obj({ spec: { a: 1 } }, { resourceVersion: '7' });
  it('no resourceVersion: 422 with the resource in the message', () => {
    const neu = obj({ spec: { a: 2 } });
    delete (neu['metadata'] as J)['resourceVersion'];
    expect(update(withStatus, stored, neu).failure).toEqual({
      code: 422,
      reason: 'Invalid',
      at: ['metadata'],
      message: 'noxus.mygroup.example.com "foo" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
    });
  });
  it('a stale resourceVersion: 409, through either endpoint', () => {
    for (const via of ['main', 'status'] as const) expect(update(withStatus, stored, obj({ spec: { a: 2 } }, { resourceVersion: '6' }), via).failure?.code).toBe(409);
  });
  it('another name or namespace than the stored object: 400', () => {
    expect(update(withStatus, stored, obj({}, { resourceVersion: '7', name: 'bar' })).failure?.message).toBe('the name of the object (bar) does not match the name on the URL (foo)');
    expect(update(withStatus, stored, obj({}, { resourceVersion: '7', namespace: 'other' })).failure?.message).toBe(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  });
});

describe('validation ratcheting (main endpoint)', () => {
  const s = served({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          a: { type: 'string', maxLength: 3 },
          b: { type: 'string', maxLength: 3 },
          ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer', maximum: 10 } } } },
          atomic: { type: 'array', items: { type: 'integer', maximum: 10 } },
        },
      },
    },
  });
  it('an unchanged invalid value is not reported, a changed one is', () => {
    const old = obj({ spec: { a: 'toolong', b: 'ok' } });
    expect(update(s, old, obj({ spec: { a: 'toolong', b: 'ok2' } })).errors).toEqual([]);
    expect(update(s, old, obj({ spec: { a: 'toolong2', b: 'ok' } })).errors.map(errorText)).toEqual(['spec.a: Too long: may not be more than 3 bytes']);
  });
  it('map-list items correlate by key, atomic lists only as a whole', () => {
    const old = obj({ spec: { ports: [{ name: 'x', port: 99 }], atomic: [99, 1] } });
    expect(update(s, old, obj({ spec: { ports: [{ name: 'y', port: 1 }, { name: 'x', port: 99 }], atomic: [99, 1] } })).errors).toEqual([]);
    expect(update(s, old, obj({ spec: { ports: [{ name: 'x', port: 99 }], atomic: [99, 2] } })).errors.map(errorText)).toEqual([
      'spec.atomic[0]: Invalid value: 99: spec.atomic[0] in body should be less than or equal to 10',
    ]);
  });
});
