import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { CrdCatalog } from '../../src/cr/catalog.js';
import { structuralFor } from '../../src/crd/model.js';
import { lintSources } from '../../src/engine/lint.js';
import { cel } from '../helpers/cel.js';

function crdWith(v1Schema: string, v2Schema: string): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: ${v1Schema}}}
  - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: ${v2Schema}}}
`;
}

const hoisted = (text: string) => lintSources([{ path: 'c.yaml', text }], { kubeVersion: DEFAULT_KUBE_VERSION, cel }).crds[0]!.hoisted.schema;

/** The v1 -> internal conversion hoists a field when it is semantically equal in every version (confirmed by the conformance suite). */
describe('schema hoisting (apiequality.Semantic.DeepEqual)', () => {
  it('identical schemas are hoisted to spec.validation', () => {
    expect(hoisted(crdWith('{type: object}', '{type: object}'))).toBe(true);
  });
  it('an empty list and an absent list are equal', () => {
    expect(hoisted(crdWith('{type: object, required: []}', '{type: object}'))).toBe(true);
  });
  it('default: [] is a value, not an empty slice', () => {
    expect(hoisted(crdWith('{type: object, properties: {a: {type: string, default: []}}}', '{type: object, properties: {a: {type: string}}}'))).toBe(false);
  });
  it('different schemas stay per version', () => {
    expect(hoisted(crdWith('{type: object}', '{type: object, description: x}'))).toBe(false);
  });
});

describe('the typed schema is built once per CRD version', () => {
  const crdOf = (text: string) => lintSources([{ path: 'c.yaml', text }], { kubeVersion: DEFAULT_KUBE_VERSION, cel }).crds[0]!;

  it('a hoisted schema has one typed schema, shared by every version and the served versions', () => {
    const crd = crdOf(crdWith('{type: object, properties: {spec: {type: object}}}', '{type: object, properties: {spec: {type: object}}}'));
    expect(crd.schemas).toHaveLength(1);
    const t = crd.schemas[0]!;
    expect(t.structural).toBe(t.structural);
    expect(t.structural.raw).toBe(t.schema);
    expect(crd.versions.map((v) => structuralFor(crd, v))).toEqual([t.structural, t.structural]);
    const catalog = new CrdCatalog([crd]);
    const served = (v: string) => {
      const r = catalog.lookup(`example.com/${v}`, 'Widget');
      if (!r.ok) throw new Error(r.message);
      return r.served;
    };
    expect(served('v1').structural).toBe(t.structural);
    expect(served('v2').structural).toBe(t.structural);
    // no default to prune: decoding uses the same node
    expect(served('v1').decodeStructural).toBe(t.structural);
  });

  it('per-version schemas have one typed schema each', () => {
    const crd = crdOf(crdWith('{type: object, properties: {a: {type: string}}}', '{type: object, properties: {b: {type: string}}}'));
    expect(crd.schemas).toHaveLength(2);
    const [a, b] = crd.versions.map((v) => structuralFor(crd, v));
    expect([...a!.properties.keys()]).toEqual(['a']);
    expect([...b!.properties.keys()]).toEqual(['b']);
  });
});
