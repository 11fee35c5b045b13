/**
 * Kubernetes 1.37 metadata validation (A2, A4 of docs/dev/kube-1.37-changes.md): owner reference errors
 * are indexed, empty fields Required, a malformed apiVersion has its own text; managedFields operations
 * are Required / NotSupported. The expected texts were recorded from the real servers of
 * test/apiserver (v1.37.2 and v1.36.6) with `kubectl create --dry-run=server`; the same cases run
 * against the servers in test/conformance/minors.conformance.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { KubeVersion } from '../../src/core/kube-version.js';
import { defaultSources } from '../../src/engine/default.js';
import { lintSources } from '../../src/engine/lint.js';
import { cel } from '../helpers/cel.js';

const v = (minor: number): KubeVersion => ({ major: 1, minor });

const CRD_HEAD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: things.a.example.com
`;
const CRD_SPEC = `spec:
  group: a.example.com
  scope: Namespaced
  names: {plural: things, singular: thing, kind: Thing, listKind: ThingList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              e:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
`;
const CRD_OWNERS = `  ownerReferences:
  - {apiVersion: "", kind: "", name: "", uid: ""}
  - {apiVersion: "a/b/c", kind: K, name: nn, uid: uu}
  - {apiVersion: "apps/", kind: K, name: nn, uid: uu}
  managedFields:
  - {manager: m, operation: Foo}
`;
const CRD_DEFAULT = `                default: {apiVersion: v1, kind: K, metadata: {ownerReferences: [{apiVersion: v1, kind: K, name: x}]}}
`;

function crdMessages(minor: number): string[] {
  const text = CRD_HEAD + CRD_OWNERS + CRD_SPEC + CRD_DEFAULT;
  return lintSources([{ path: 'crd.yaml', text }], { kubeVersion: v(minor), cel })
    .findings.filter((f) => f.severity === 'error')
    .map((f) => f.message);
}

const CR = `apiVersion: a.example.com/v1
kind: Thing
metadata:
  name: x
  namespace: default
  ownerReferences:
  - {apiVersion: "", kind: "", name: "", uid: ""}
  - {apiVersion: "a/b/c", kind: K, name: nn, uid: uu, controller: true}
  - {apiVersion: "v1", kind: K, name: nn2, uid: uu2, controller: true}
spec:
  e:
    apiVersion: v1
    kind: K
    metadata:
      ownerReferences: [{apiVersion: v1, kind: K, name: x}]
      managedFields: [{manager: m, operation: Foo}, {manager: m}]
`;

function crMessages(minor: number): string[] {
  const run = defaultSources([{ path: 'cr.yaml', text: CR }], [{ path: 'crd.yaml', text: CRD_HEAD + CRD_SPEC }], { kubeVersion: v(minor), cel });
  return run.objects[0]!.findings.filter((f) => f.severity === 'error').map((f) => f.message);
}

const CONTROLLER =
  'metadata.ownerReferences: Invalid value: [{"apiVersion":"","kind":"","name":"","uid":""},{"apiVersion":"a/b/c","kind":"K","name":"nn","uid":"uu","controller":true},{"apiVersion":"v1","kind":"K","name":"nn2","uid":"uu2","controller":true}]: Only one reference can have Controller set to true. Found "true" in references for K/nn and K/nn2';

describe('owner references and managedFields, 1.37 against 1.36', () => {
  // the CRD's own managedFields are replaced by the field manager before validation: never reported
  it('CRD metadata and embedded-resource defaults (server texts)', () => {
    expect(crdMessages(37).sort()).toEqual(
      [
        'metadata.ownerReferences[0].apiVersion: Required value: must not be empty',
        'metadata.ownerReferences[0].kind: Required value: must not be empty',
        'metadata.ownerReferences[0].name: Required value: must not be empty',
        'metadata.ownerReferences[0].uid: Required value: must not be empty',
        'metadata.ownerReferences[1].apiVersion: Invalid value: "a/b/c": must be <group>/<version> or <version>',
        'metadata.ownerReferences[2].apiVersion: Invalid value: "apps/": must be <group>/<version> or <version>',
        'spec.validation.openAPIV3Schema.properties[spec].properties[e].default.metadata.ownerReferences[0].uid: Required value: must not be empty',
      ].sort(),
    );
    expect(crdMessages(36).sort()).toEqual(
      [
        'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
        'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
        'metadata.ownerReferences.name: Invalid value: "": must not be empty',
        'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
        'metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty',
        'metadata.ownerReferences.apiVersion: Invalid value: "apps/": version must not be empty',
        'spec.validation.openAPIV3Schema.properties[spec].properties[e].default.metadata.ownerReferences.uid: Invalid value: "": must not be empty',
      ].sort(),
    );
  });

  it('before 1.34 the empty-field texts name the field (server texts of 1.30 and 1.33)', () => {
    expect(crdMessages(33).filter((m) => m.startsWith('metadata.ownerReferences.') && !m.includes('apiVersion')).sort()).toEqual([
      'metadata.ownerReferences.kind: Invalid value: "": kind must not be empty',
      'metadata.ownerReferences.name: Invalid value: "": name must not be empty',
      'metadata.ownerReferences.uid: Invalid value: "": uid must not be empty',
    ]);
  });

  it('custom resource root metadata and embedded resources (server texts)', () => {
    expect(crMessages(37).sort()).toEqual(
      [
        'metadata.ownerReferences[0].apiVersion: Required value: must not be empty',
        'metadata.ownerReferences[0].kind: Required value: must not be empty',
        'metadata.ownerReferences[0].name: Required value: must not be empty',
        'metadata.ownerReferences[0].uid: Required value: must not be empty',
        'metadata.ownerReferences[1].apiVersion: Invalid value: "a/b/c": must be <group>/<version> or <version>',
        CONTROLLER,
        'spec.e.metadata.ownerReferences[0].uid: Required value: must not be empty',
        'spec.e.metadata.managedFields[0].operation: Unsupported value: "Foo": supported values: "Apply", "Update"',
        'spec.e.metadata.managedFields[1].operation: Required value: must not be empty',
      ].sort(),
    );
    expect(crMessages(36).sort()).toEqual(
      [
        'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
        'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
        'metadata.ownerReferences.name: Invalid value: "": must not be empty',
        'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
        'metadata.ownerReferences.apiVersion: Invalid value: "a/b/c": version must not be empty',
        CONTROLLER,
        'spec.e.metadata.ownerReferences.uid: Invalid value: "": must not be empty',
        'spec.e.metadata.managedFields[0].operation: Invalid value: "Foo": must be `Apply` or `Update`',
        'spec.e.metadata.managedFields[1].operation: Invalid value: "": must be `Apply` or `Update`',
      ].sort(),
    );
  });
});
