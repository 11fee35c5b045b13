import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
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
