/**
 * runtime-semantics.md vectors about the create path, run through src/cr/create.ts:
 * §10.9 V57/V58 (embedded validation), §10.11 V72 (defaults of embedded meta fields), V73
 * (embedded resources), V74 (invalid ObjectMeta), V78 (custom resource names) and §10.12 V79-V85
 * (scale paths on create). The unit-level scale vectors are in test/unit/cr.test.ts; every case
 * here was also replayed against the real server (test/conformance/default.conformance.test.ts
 * runs the equivalent fixtures).
 */
import { describe, expect, it } from 'vitest';
import { buildStructural } from '../../src/crd/structural-schema.js';
import { errorText } from '../../src/core/field-error.js';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { Loc } from '../../src/core/path.js';
import { CrdCatalog } from '../../src/cr/catalog.js';
import { simulateCreate } from '../../src/cr/create.js';
import { buildCrd } from '../../src/crd/model.js';
import { parseFile } from '../../src/manifest/parse.js';
import { validateObjectMeta } from '../../src/schema/objectmeta.js';
import { cel } from '../helpers/cel.js';

type J = Record<string, unknown>;

function served(schema: J, opts: { scope?: string; subresources?: J } = {}) {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'noxus.mygroup.example.com' },
    spec: {
      group: 'mygroup.example.com',
      scope: opts.scope ?? 'Namespaced',
      names: { plural: 'noxus', singular: 'noxu', kind: 'WishIHadChosenNoxu' },
      versions: [{ name: 'v1beta1', served: true, storage: true, schema: { openAPIV3Schema: schema }, ...(opts.subresources ? { subresources: opts.subresources } : {}) }],
    },
  };
  const m = parseFile({ path: 'crd.json', text: JSON.stringify(crd) })[0]!.manifests[0]!;
  const l = new CrdCatalog([buildCrd(m, DEFAULT_KUBE_VERSION, cel)]).lookup('mygroup.example.com/v1beta1', 'WishIHadChosenNoxu');
  if (!l.ok) throw new Error(l.message);
  return l.served;
}

const create = (s: ReturnType<typeof served>, body: J) =>
  simulateCreate({ apiVersion: 'mygroup.example.com/v1beta1', kind: 'WishIHadChosenNoxu', ...body }, s, { kube: DEFAULT_KUBE_VERSION });

describe('§10.9 embedded validation', () => {
  const emb = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };
  it('V57 TestValidateEmbeddedResource', () => {
    const v = (x: unknown) => validateObjectMeta(new Loc('', []), x, buildStructural(emb), true, 36).map((e) => `${e.type} ${e.field}`);
    expect(v({})).toEqual(['Required apiVersion', 'Required kind']);
    expect(v({ apiVersion: 'foo/v1', kind: 'Foo' })).toEqual([]);
    expect(v({ apiVersion: 'foo/v1', kind: 'foo.bar-com' })).toEqual(['Invalid kind']);
    expect(v({ apiVersion: 'foo/v1', kind: 'Foo', metadata: { namespace: 'kube-system' } })).toEqual([]);
    expect(v({ apiVersion: 'foo/v1', kind: 'Foo', metadata: { name: '..', namespace: '$$$', labels: { '#': '#' }, annotations: { '#': '#' } } }).sort()).toEqual(
      ['Invalid metadata.annotations', 'Invalid metadata.labels', 'Invalid metadata.labels', 'Invalid metadata.name', 'Invalid metadata.namespace'].sort(),
    );
  });
  it('V58 TestValidate: field paths', () => {
    const schema = {
      type: 'object',
      properties: {
        embedded: emb,
        nested: { ...emb, properties: { embedded: emb } },
        items: { type: 'array', items: emb },
        additionalProperties: { type: 'object', additionalProperties: emb },
      },
    };
    const v = (x: unknown) => validateObjectMeta(new Loc('', []), x, buildStructural(schema), false, 36).map((e) => e.field);
    expect(v({ embedded: {} })).toEqual(['embedded.apiVersion', 'embedded.kind']);
    expect(v({ nested: { embedded: {} } })).toEqual(['nested.apiVersion', 'nested.kind', 'nested.embedded.apiVersion', 'nested.embedded.kind']);
    expect(v({ items: [{}] })).toEqual(['items[0].apiVersion', 'items[0].kind']);
    expect(v({ additionalProperties: { foo: {} } })).toEqual(['additionalProperties[foo].apiVersion', 'additionalProperties[foo].kind']);
  });
});

describe('§10.11 end-to-end expectations on create', () => {
  it('V72 defaults of embedded meta fields: unknown metadata fields are pruned from the defaults', () => {
    const tm = { apiVersion: { type: 'string', default: 'foos/v1' }, kind: { type: 'string', default: 'Foo' } };
    const emb = (props: J, extra: J = {}) => ({ type: 'object', 'x-kubernetes-embedded-resource': true, properties: props, ...extra });
    const s = served({
      type: 'object',
      properties: {
        fields: emb({ ...tm, metadata: { type: 'object', properties: { name: { type: 'string', default: 'Bar' }, unknown: { type: 'string', default: 'unknown' } } } }),
        fullMetadata: emb({ ...tm, metadata: { type: 'object', default: { name: 'Bar', unknown: 'unknown' } } }),
        fullObject: emb({ apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } }, { default: { apiVersion: 'foos/v1', kind: 'Foo', metadata: { name: 'Bar', unknown: 'unknown' } } }),
      },
    });
    const r = create(s, { metadata: { name: 'foo' }, fields: { metadata: {} }, fullMetadata: {} });
    const want = { apiVersion: 'foos/v1', kind: 'Foo', metadata: { name: 'Bar' } };
    expect(r.errors).toEqual([]);
    expect(r.value?.['fields']).toEqual(want);
    expect(r.value?.['fullMetadata']).toEqual(want);
    expect(r.value?.['fullObject']).toEqual(want);
  });

  it('V73 embedded resources: metadata normalised, errors reported with embedded paths', () => {
    const emb = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };
    const s = served({
      type: 'object',
      properties: {
        embedded: emb,
        noEmbeddedObject: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        embeddedNested: { ...emb, properties: { embedded: emb } },
        defaults: { ...emb, default: { apiVersion: 'v1', kind: 'Pod', labels: { foo: 'bar' } } },
      },
    });
    const md = () => ({ name: 'foo', unspecified: 'bar' });
    const ok = create(s, {
      metadata: { name: 'foo' },
      embedded: { apiVersion: 'foo/v1', kind: 'Foo', metadata: md() },
      noEmbeddedObject: { apiVersion: 'foo/v1', kind: 'Foo', metadata: md() },
      embeddedNested: { apiVersion: 'foo/v1', kind: 'Foo', metadata: md(), embedded: { apiVersion: 'foo/v1', kind: 'Foo', metadata: md() } },
    });
    expect(ok.errors).toEqual([]);
    expect((ok.value?.['embedded'] as J)['metadata']).toEqual({ name: 'foo' });
    expect((ok.value?.['noEmbeddedObject'] as J)['metadata']).toEqual(md());
    expect(((ok.value?.['embeddedNested'] as J)['embedded'] as J)['metadata']).toEqual({ name: 'foo' });
    expect(ok.value?.['defaults']).toEqual({ apiVersion: 'v1', kind: 'Pod', labels: { foo: 'bar' } });

    expect(create(s, { metadata: { name: 'foo' }, embedded: { apiVersion: 'foo/v1', kind: 'Foo', metadata: { namespace: 42 } } }).decodeError?.message).toContain('embedded.metadata: Invalid value');

    const bad = create(s, {
      metadata: { name: 'foo', labels: { invalid: 'x y' } },
      embedded: { apiVersion: 'foo/v1', kind: '%', metadata: { name: '..' } },
      embeddedNested: { apiVersion: 'foo/v1', kind: '%', metadata: { name: '..' }, embedded: { apiVersion: 'foo/v1', kind: '%', metadata: { name: '..' } } },
    });
    const texts = bad.errors.map(errorText).join('\n');
    for (const want of [
      'metadata.labels: Invalid value: "x y"',
      'embedded.kind: Invalid value: "%"',
      'embedded.metadata.name: Invalid value: ".."',
      'embeddedNested.kind: Invalid value: "%"',
      'embeddedNested.metadata.name: Invalid value: ".."',
      'embeddedNested.embedded.kind: Invalid value: "%"',
      'embeddedNested.embedded.metadata.name: Invalid value: ".."',
    ])
      expect(texts).toContain(want);
  });

  it('V74 TestPostInvalidObjectMeta', () => {
    const s = served({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
    const bad = create(s, { metadata: { name: 'foo', labels: { foo: 42, bar: 'abc' } } });
    expect(bad.decodeError?.message).toContain('cannot be handled');
    const ok = create(s, { metadata: { name: 'foo', labels: { bar: 'abc' }, unknown: 42, generation: null } });
    expect(ok.errors).toEqual([]);
    expect(ok.value?.['metadata']).toEqual({ name: 'foo', labels: { bar: 'abc' } });
    expect(ok.warnings.map((w) => w.text)).toEqual(['unknown field "metadata.unknown"']);
  });

  it('V78 TestValidateCustomResourceName: the DNS rule and the schema pattern both apply', () => {
    const s = served({ type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', pattern: '^[A-Za-z]+$' } } } } }, { scope: 'Cluster' });
    const errs = (md: J) => create(s, { metadata: md }).errors.map(errorText).join('\n');
    expect(errs({ name: 'foo' })).toBe('');
    expect(errs({ name: 'Foo' })).toContain('RFC 1123 subdomain');
    expect(errs({ name: 'foo123' })).toContain('should match');
    expect(errs({ generateName: 'x'.repeat(253) })).not.toContain('generateName');
  });
});

describe('§10.12 scale paths on create (V79-V85)', () => {
  const s = served({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, { subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } } });
  it.each([
    ['V79', { spec: { replicas: -1 } }, ['.spec.replicas: Invalid value: -1: should be a non-negative integer']],
    ['V80', { spec: { replicas: 2147483648 } }, ['.spec.replicas: Invalid value: 2147483648: should be less than or equal to 2147483647']],
    ['V81', { spec: { replicas: '3' } }, ['.spec.replicas: Invalid value: 0: .spec.replicas accessor error: 3 is of the type string, expected int64']],
    ['V83 (no status subresource: status is checked on create)', { spec: {}, status: { replicas: -2 } }, ['.status.replicas: Invalid value: -2: should be a non-negative integer']],
    ['V85', {}, []],
  ])('%s', (_id, body, want) => expect(create(s, { metadata: { name: 'foo' }, ...body }).errors.map(errorText)).toEqual(want));

  it('with the status subresource, status is dropped before validation', () => {
    const st = served({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, { subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } } });
    const r = create(st, { metadata: { name: 'foo' }, status: { replicas: -2 } });
    expect(r.errors).toEqual([]);
    expect(r.value).not.toHaveProperty('status');
  });
});
