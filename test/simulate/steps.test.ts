/** Behaviour of the simulation steps beyond their output values: change logs, purity, paths, the pipeline's wiring. */
import { describe, expect, it } from 'vitest';
import { buildStructural } from '../../src/crd/structural-schema.js';
import { applyDefaults } from '../../src/schema/behaviours/default.js';
import { DECODE_STAGES, decode, type ObjectMetaHooks } from '../../src/simulate/pipeline.js';
import { goCompare as compareBytes } from '../../src/go/strings.js';
import { formatUnknownFieldPath, prune } from '../../src/schema/behaviours/prune.js';
import { pruneNonNullableNullsWithoutDefaults } from '../../src/schema/behaviours/prune-nulls.js';

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

/** Every object/array reachable from `v`. */
function nodes(v: unknown, out = new Set<object>()): Set<object> {
  if (typeof v === 'object' && v !== null) {
    out.add(v);
    for (const k of Object.keys(v)) nodes((v as Record<string, unknown>)[k], out);
  }
  return out;
}

const SCHEMA = buildStructural(deepFreeze({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        a: { type: 'string', default: 'A' },
        n: { type: 'string' },
        keep: { type: 'string', nullable: true },
        obj: { type: 'object', default: { inner: {} }, properties: { inner: { type: 'object', properties: { x: { type: 'integer', default: 7 } } } } },
        list: { type: 'array', items: { type: 'object', properties: { k: { type: 'string', default: 'k' } } } },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
}));

describe('prune', () => {
  it('logs each removed key with its value, in walk order, and reports the server paths sorted', () => {
    const input = deepFreeze({ spec: { z: 1, list: [{ k: 'x', q: { deep: 1 } }], free: { any: { thing: 1 } } }, b: 2 });
    const r = prune(input, SCHEMA, { isResourceRoot: true });
    expect(r.value).toEqual({ spec: { list: [{ k: 'x' }], free: { any: { thing: 1 } } } });
    expect(r.changes).toEqual([
      { kind: 'pruned', path: ['spec', 'z'], before: 1 },
      { kind: 'pruned', path: ['spec', 'list', 0, 'q'], before: { deep: 1 } },
      { kind: 'pruned', path: ['b'], before: 2 },
    ]);
    expect(r.unknownFieldPaths).toEqual(['b', 'spec.list[0].q', 'spec.z']);
  });

  it('shares nothing with its input', () => {
    const input = deepFreeze({ apiVersion: 'g/v1', kind: 'K', metadata: { labels: { a: 'b' } }, spec: { free: { x: [{ y: 1 }] }, list: [{ k: 'a' }] } });
    const r = prune(input, SCHEMA, { isResourceRoot: true });
    expect(r.value).toEqual(input);
    const shared = [...nodes(r.value)].filter((n) => nodes(input).has(n));
    expect(shared).toEqual([]);
  });

  it('removes apiVersion/kind/metadata at the top of a non-root value without reporting them', () => {
    const r = prune({ apiVersion: 'v', kind: 'k', metadata: {}, x: 1 }, buildStructural({ type: 'object' }), { isResourceRoot: false });
    expect(r.value).toEqual({});
    expect(r.changes.map((c) => c.path)).toEqual([['apiVersion'], ['kind'], ['metadata'], ['x']]);
    expect(r.unknownFieldPaths).toEqual(['x']);
  });

  it('keeps the root meta fields of a resource whatever the schema, even with no schema', () => {
    const r = prune({ apiVersion: 7, kind: null, metadata: 'x', spec: {} }, undefined, { isResourceRoot: true });
    expect(r.value).toEqual({ apiVersion: 7, kind: null, metadata: 'x' });
    expect(r.unknownFieldPaths).toEqual(['spec']);
  });

  it('formats paths like UnknownFieldPathOptions', () => {
    expect(formatUnknownFieldPath(['spec', 'items', 0, 'foo'])).toBe('spec.items[0].foo');
    expect(formatUnknownFieldPath([1, 'b'])).toBe('[1].b');
    expect(formatUnknownFieldPath(['m', 'a.b', 'c'])).toBe('m.a.b.c');
    expect(formatUnknownFieldPath(['', '', 'kind'])).toBe('..kind');
    expect(formatUnknownFieldPath(['l', 0, 1])).toBe('l[0][1]');
  });

  it('sorts like Go (UTF-8 bytes), not like JavaScript (UTF-16 units)', () => {
    const keys = ['😀', 'ｚ', 'é', 'Z', 'a', ''];
    expect([...keys].sort(compareBytes)).toEqual(['', 'Z', 'a', 'é', 'ｚ', '😀']);
    expect([...keys].sort()).not.toEqual([...keys].sort(compareBytes));
  });
});

describe('pruneNonNullableNullsWithoutDefaults', () => {
  it('logs dropped nulls; keeps nullable, defaulted, unknown and array-element nulls', () => {
    const input = deepFreeze({ spec: { a: null, n: null, keep: null, other: null, list: [null, { k: null }], free: { n: null } } });
    const r = pruneNonNullableNullsWithoutDefaults(input, SCHEMA);
    expect(r.value).toEqual({ spec: { a: null, keep: null, other: null, list: [null, { k: null }], free: { n: null } } });
    expect(r.changes).toEqual([{ kind: 'null-dropped', path: ['spec', 'n'], before: null }]);
  });
});

describe('applyDefaults', () => {
  it('logs each default, outer before nested, with before only for replaced nulls', () => {
    const r = applyDefaults(deepFreeze({ spec: { a: null, list: [{}] } }), SCHEMA);
    expect(r.value).toEqual({ spec: { a: 'A', list: [{ k: 'k' }], obj: { inner: { x: 7 } } } });
    expect(r.changes).toEqual([
      { kind: 'defaulted', path: ['spec', 'a'], before: null, after: 'A' },
      { kind: 'defaulted', path: ['spec', 'obj'], after: { inner: {} } },
      { kind: 'defaulted', path: ['spec', 'list', 0, 'k'], after: 'k' },
      { kind: 'defaulted', path: ['spec', 'obj', 'inner', 'x'], after: 7 },
    ]);
  });

  it('deep-copies defaults: two uses never share, the schema is never touched', () => {
    const schema = deepFreeze({ type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'object', default: { l: [1] } } } } });
    const r = applyDefaults({ m: { a: null, b: null } }, buildStructural(schema));
    const m = (r.value as { m: { a: { l: number[] }; b: { l: number[] } } }).m;
    expect(m.a).toEqual({ l: [1] });
    expect(m.a).not.toBe(m.b);
    expect(m.a.l).not.toBe(m.b.l);
    m.a.l.push(2);
    expect(m.b.l).toEqual([1]);
  });

  it('does nothing without a schema: the input itself comes back', () => {
    const input = { a: { b: null } };
    const r = applyDefaults(input, undefined);
    expect(r.value).toBe(input);
    expect(r.changes).toEqual([]);
  });

  it('copies only the objects on the way to a default; the rest is shared, the input unchanged', () => {
    const schema = deepFreeze({ type: 'object', properties: { a: { type: 'object', properties: { x: { type: 'integer', default: 1 } } }, b: { type: 'object' }, l: { type: 'array', items: { type: 'object', properties: { y: { type: 'string', default: 'd' } } } } } });
    const input = deepFreeze({ a: {}, b: { deep: { v: 1 } }, l: [{ y: 'set' }, {}] });
    const r = applyDefaults(input, buildStructural(schema));
    expect(r.value).toEqual({ a: { x: 1 }, b: { deep: { v: 1 } }, l: [{ y: 'set' }, { y: 'd' }] });
    const v = r.value as typeof input & { a: object; l: object[] };
    expect(v).not.toBe(input);
    expect(v.a).not.toBe(input.a);
    expect(v.b).toBe(input.b);
    expect(v.l).not.toBe(input.l);
    expect(v.l[0]).toBe(input.l[0]);
    expect(r.changes.map((c) => c.path)).toEqual([['a', 'x'], ['l', 1, 'y']]);
  });
});

describe('decode pipeline', () => {
  it('runs the stages in the server order', () => {
    expect(DECODE_STAGES.map((s) => s.name)).toEqual(['save-root-meta', 'prune', 'drop-nulls', 'coerce-embedded-meta', 'restore-root-meta', 'default']);
  });

  it('prunes, drops nulls, then defaults; changes in that order', () => {
    const input = deepFreeze({ apiVersion: 'g/v1', kind: 'K', metadata: { name: 'x' }, spec: { a: null, n: null, z: 1 } });
    const r = decode(input, SCHEMA);
    expect(r.value).toEqual({ apiVersion: 'g/v1', kind: 'K', metadata: { name: 'x' }, spec: { a: 'A', obj: { inner: { x: 7 } } } });
    expect(r.changes.map((c) => `${c.kind}:${c.path.join('.')}`)).toEqual([
      'pruned:spec.z',
      'null-dropped:spec.n',
      'defaulted:spec.a',
      'defaulted:spec.obj',
      'defaulted:spec.obj.inner.x',
    ]);
    expect(r.unknownFieldPaths).toEqual(['spec.z']);
  });

  it('puts back root metadata that null dropping removed, without logging it', () => {
    const schema = { type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string' } } } } };
    const r = decode({ apiVersion: 'g/v1', kind: 'K', metadata: { name: null } }, buildStructural(schema));
    expect(r.value).toEqual({ apiVersion: 'g/v1', kind: 'K', metadata: { name: null } });
    expect(r.changes).toEqual([]);
  });

  it('wires the objectmeta hooks: unknown paths root metadata, pruned, embedded', () => {
    const seen: unknown[] = [];
    const hooks: ObjectMetaHooks = {
      root: (md, o) => {
        seen.push(['root', md, o.dropMalformedFields]);
        return { value: { name: 'x', creationTimestamp: null }, changes: [{ kind: 'metadata-coerced', path: ['junk'], before: 1 }], unknownFieldPaths: ['metadata.junk'] };
      },
      embedded: (v, _s, o) => {
        seen.push(['embedded', o.dropInvalidFields]);
        return { value: v, changes: [], unknownFieldPaths: ['spec.e.metadata.q'] };
      },
    };
    const r = decode({ apiVersion: 'g/v1', kind: 'K', metadata: { name: 'x', junk: 1 }, spec: { zz: 1 } }, SCHEMA, { objectMeta: hooks });
    expect(seen).toEqual([['root', { name: 'x', junk: 1 }, false], ['embedded', false]]);
    expect(r.unknownFieldPaths).toEqual(['metadata.junk', 'spec.zz', 'spec.e.metadata.q']);
    expect(r.changes[0]).toEqual({ kind: 'metadata-coerced', path: ['metadata', 'junk'], before: 1 });
    expect((r.value as Record<string, unknown>)['metadata']).toEqual({ name: 'x', creationTimestamp: null });
  });

  it('stops at a decode error and returns the input unchanged', () => {
    const hooks: ObjectMetaHooks = { root: () => ({ value: undefined, changes: [], error: { message: 'json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string' } }) };
    const input = { apiVersion: 'g/v1', kind: 'K', metadata: { annotations: 11 }, spec: { zz: 1 } };
    const r = decode(input, SCHEMA, { objectMeta: hooks });
    expect(r.error?.message).toMatch(/cannot unmarshal number/);
    expect(r.value).toEqual(input);
    expect(r.changes).toEqual([]);
  });

  it('rejects a non-string kind or apiVersion (unstructured.NestedString)', () => {
    expect(decode({ apiVersion: 'g/v1', kind: 42 }, SCHEMA).error?.message).toBe('.kind accessor error: 42 is of the type int64, expected string');
  });

  it('preserveUnknownFields (v1beta1 CRDs) skips pruning and null dropping but still defaults', () => {
    const r = decode({ spec: { z: 1, n: null } }, SCHEMA, { preserveUnknownFields: true });
    expect(r.value).toEqual({ spec: { z: 1, n: null, a: 'A', obj: { inner: { x: 7 } } } });
    expect(r.unknownFieldPaths).toEqual([]);
  });

  it('storage reads repair a missing generation; conversions skip defaulting', () => {
    const r = decode({ apiVersion: 'g/v1', kind: 'K', metadata: { name: 'x' } }, SCHEMA, { repairGeneration: true, skipDefaulting: true });
    expect(r.value).toEqual({ apiVersion: 'g/v1', kind: 'K', metadata: { name: 'x', generation: 1 } });
    expect(r.changes).toEqual([{ kind: 'metadata-coerced', path: ['metadata', 'generation'], after: 1 }]);
  });

  it('never invents root metadata', () => {
    expect(decode({ spec: {} }, SCHEMA, { repairGeneration: true }).value).toEqual({ spec: { a: 'A', obj: { inner: { x: 7 } } } });
  });
});

describe('the root kind/apiVersion accessor error prints the value as Go does (%v, %T)', () => {
  // unstructured.NestedString: "%v accessor error: %v is of the type %T, expected string"; the
  // pipeline used to print JSON ({"a":1}) and JS numbers (1234567.5) there
  it.each([
    [{ b: 1, a: [1, 'x'] }, '.kind accessor error: map[a:[1 x] b:1] is of the type map[string]interface {}, expected string'],
    [1234567.5, '.kind accessor error: 1.2345675e+06 is of the type float64, expected string'],
    [[true, null], '.kind accessor error: [true <nil>] is of the type []interface {}, expected string'],
    [2 ** 60, '.kind accessor error: 1152921504606846976 is of the type int64, expected string'],
  ])('%j', (kind, message) => {
    const r = decode({ apiVersion: 'g/v1', kind, metadata: { name: 'x' } }, SCHEMA);
    expect(r.error?.message).toBe(message);
  });
});
