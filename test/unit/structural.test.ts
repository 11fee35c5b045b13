import { describe, expect, it } from 'vitest';
import { serverCauses, lintYaml } from '../helpers/lint.js';

const crd = (schema: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: ${schema}}}
`;

/** Behaviours found by the differential mutants against the real server (test/conformance/mutants). */
describe('structural schema: what the nested conversion drops', () => {
  it('additionalProperties: false inside a junctor leaves no trace', () => {
    expect(serverCauses(lintYaml(crd('{type: object, properties: {a: {type: string}}, not: {additionalProperties: false}}')))).toEqual([]);
  });
  it('additionalProperties: true or a schema inside a junctor is forbidden', () => {
    expect(serverCauses(lintYaml(crd('{type: object, properties: {a: {type: string}}, not: {additionalProperties: true}}')))).toEqual([
      'FieldValueForbidden spec.validation.openAPIV3Schema.not.additionalProperties',
    ]);
  });
  it('the int-or-string anyOf pattern survives an additionalProperties: false in an entry', () => {
    const s = '{type: object, properties: {p: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string, additionalProperties: false}]}}}';
    expect(serverCauses(lintYaml(crd(s)))).toEqual([]);
  });
  it('but not an extra keyword in an entry', () => {
    const s = '{type: object, properties: {p: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string, maxLength: 3}]}}}';
    expect(serverCauses(lintYaml(crd(s)))).toEqual([
      'FieldValueForbidden spec.validation.openAPIV3Schema.properties[p].anyOf[0].type',
      'FieldValueForbidden spec.validation.openAPIV3Schema.properties[p].anyOf[1].type',
    ]);
  });
});

describe('own keys only: a property named __proto__ in a value validation', () => {
  // checked against a real v1.36.6 server: it creates both (kubectl create --dry-run=server)
  it('is treated like any other name', async () => {
    const { lintYaml, serverCauses, BASE } = await import('../helpers/lint.js');
    const crd = (name: string) =>
      BASE.replace(
        'openAPIV3Schema: {type: object}',
        `openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties: {x: {type: string}}\n            allOf:\n            - properties:\n                ${name}: {minLength: 1}`,
      );
    expect(serverCauses(lintYaml(crd('other')))).toEqual([]);
    expect(serverCauses(lintYaml(crd('__proto__')))).toEqual([]);
    expect(serverCauses(lintYaml(crd('other').replace('minLength: 1', 'type: string')))).toEqual(serverCauses(lintYaml(crd('__proto__').replace('minLength: 1', 'type: string'))).map((c) => c.replace('__proto__', 'other')));
  });
});
