// crd-validation.md §21 A. Metadata, names, scope, versions (TV01–TV12).
import { describe, expect, it } from 'vitest';
import { crd, expectExactly, expectNoErrors, lint, toYaml, version, withVersions, type Obj } from './util.js';

const DNS1035 = 'a DNS-1035 label must consist of lower case alphanumeric characters';
const MIXED = 'may have mixed case, but should otherwise match: a DNS-1035 label';
const ONE_STORAGE = 'must have exactly one version marked as storage version';
const NO_STORED = 'must have at least one stored version';

describe('§21 A. Metadata, names, scope, versions', () => {
  it('TV01 name does not match plural.group', () => {
    const doc: Obj = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'plural.not.group.com' },
      spec: { group: 'group.com', names: { plural: 'plural' }, versions: [] },
    };
    expectExactly(lint(toYaml(doc)), [
      ['Invalid', 'metadata.name', 'must be spec.names.plural+"."+spec.group'],
      ['Required', 'spec.scope'],
      ['Required', 'spec.names.singular'],
      ['Required', 'spec.names.kind'],
      ['Required', 'spec.names.listKind'],
      ['Invalid', 'spec.versions', ONE_STORAGE],
      ['Invalid', 'status.storedVersions', NO_STORED],
    ]);
  });

  it('TV02 missing values', () => {
    const doc: Obj = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'plural.group.com' },
      spec: { versions: [] },
    };
    expectExactly(lint(toYaml(doc)), [
      ['Invalid', 'metadata.name', 'must be spec.names.plural+"."+spec.group'],
      ['Required', 'spec.group'],
      ['Required', 'spec.scope'],
      ['Required', 'spec.names.plural'],
      ['Required', 'spec.names.singular'],
      ['Required', 'spec.names.kind'],
      ['Required', 'spec.names.listKind'],
      ['Invalid', 'spec.versions'],
      ['Invalid', 'status.storedVersions'],
    ]);
  });

  it('TV03 bad names 01', () => {
    const doc: Obj = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'plural.group' },
      spec: {
        group: 'group',
        scope: 'foo',
        names: { plural: 'pl()*ural', singular: 'value()*a', kind: 'value()*a', listKind: 'value()*a' },
        versions: [version('ve()*rsion', true)],
      },
    };
    // listKind is expected twice with two different details, so two distinct causes.
    expectExactly(lint(toYaml(doc)), [
      ['Invalid', 'metadata.name', 'must be spec.names.plural+"."+spec.group'],
      ['Invalid', 'spec.group', 'should be a domain with at least one dot'],
      ['NotSupported', 'spec.scope', 'supported values: "Cluster", "Namespaced"'],
      ['Invalid', 'spec.names.plural', DNS1035],
      ['Invalid', 'spec.names.singular', DNS1035],
      ['Invalid', 'spec.names.kind', MIXED],
      ['Invalid', 'spec.names.listKind', MIXED],
      ['Invalid', 'spec.names.listKind', 'kind and listKind may not be the same'],
      ['Invalid', 'spec.versions[0].name', DNS1035],
      ['Invalid', 'spec.version', DNS1035],
    ]);
  });

  it('TV04 bad names 02', () => {
    const yaml = crd((c) => {
      c.metadata.name = 'plural.group';
      c.spec.group = 'group.c(*&om';
      c.spec.names = { plural: 'plural', singular: 'singular', kind: 'matching', listKind: 'matching' };
      delete c.spec.scope;
    });
    expectExactly(lint(yaml), [
      ['Invalid', 'metadata.name', 'must be spec.names.plural+"."+spec.group'],
      ['Invalid', 'spec.group', 'a lowercase RFC 1123 subdomain must consist of'],
      ['Required', 'spec.scope'],
      ['Invalid', 'spec.names.listKind', 'kind and listKind may not be the same'],
    ]);
  });

  it('TV05 no storage version', () => {
    const yaml = withVersions([version('version', false), version('version2', false)]);
    expectExactly(lint(yaml), [
      ['Invalid', 'spec.versions', ONE_STORAGE],
      ['Invalid', 'status.storedVersions', NO_STORED],
    ]);
  });

  it('TV06 two storage versions', () => {
    const yaml = withVersions([version('version', true), version('version2', true)]);
    expectExactly(lint(yaml), [
      ['Invalid', 'spec.versions', ONE_STORAGE],
      ['Invalid', 'status.storedVersions', 'must have the storage version version2'],
    ]);
  });

  it('TV07 duplicate version names', () => {
    const yaml = withVersions([version('v1', true), version('v1', false)]);
    expectExactly(lint(yaml), [['Invalid', 'spec.versions', 'must contain unique version names']]);
  });

  it('TV08 deprecationWarning', () => {
    const yaml = withVersions([
      version('version', true, undefined, { deprecationWarning: 'foo' }),
      version('version2', false, undefined, { deprecated: true, deprecationWarning: 'Test message\nfoo' }),
    ]);
    expectExactly(lint(yaml), [
      ['Invalid', 'spec.versions[0].deprecationWarning', 'can only be set for deprecated versions'],
      [
        'Invalid',
        'spec.versions[1].deprecationWarning',
        'must only contain printable UTF-8 characters; non-printable character found at index 12',
      ],
    ]);
  });

  it('TV08 variant: 257-character deprecationWarning', () => {
    const yaml = withVersions([version('version', true, undefined, { deprecated: true, deprecationWarning: 'x'.repeat(257) })]);
    expectExactly(lint(yaml), [['Invalid', 'spec.versions[0].deprecationWarning', 'must be <= 256 characters long']]);
  });

  it('TV08 variant: 256-character deprecationWarning is fine', () => {
    const yaml = withVersions([version('version', true, undefined, { deprecated: true, deprecationWarning: 'x'.repeat(256) })]);
    expectNoErrors(lint(yaml));
  });

  it('TV09 no schema anywhere', () => {
    const findings = lint(withVersions([version('version', true, null), version('version2', false, null)]));
    expectExactly(findings, [
      ['Required', 'spec.versions[0].schema.openAPIV3Schema'],
      ['Required', 'spec.versions[1].schema.openAPIV3Schema'],
    ]);
    // The detail is "" on 1.34+.
    for (const f of findings.filter((x) => x.server)) expect(f.server!.message).toBe('Required value');
  });

  it('TV10 schema missing in one version', () => {
    const yaml = withVersions([version('version', true), version('version2', false, null)]);
    expectExactly(lint(yaml), [['Required', 'spec.versions[1].schema.openAPIV3Schema']]);
  });

  it('TV11 preserveUnknownFields true', () => {
    const yaml = crd((c) => {
      c.spec.preserveUnknownFields = true;
    });
    expectExactly(lint(yaml), [
      [
        'Invalid',
        'spec.preserveUnknownFields',
        'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
      ],
    ]);
  });

  const approval = (annotation?: string) =>
    crd((c) => {
      c.metadata.name = 'foos.example.k8s.io';
      c.spec.group = 'example.k8s.io';
      c.spec.names.plural = 'foos';
      if (annotation !== undefined) c.metadata.annotations = { 'api-approved.kubernetes.io': annotation };
    });

  it('TV12 API approval: annotation missing', () => {
    expectExactly(lint(approval()), [
      [
        'Required',
        'metadata.annotations[api-approved.kubernetes.io]',
        'protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
      ],
    ]);
  });

  it('TV12 variant: annotation "yes" is invalid', () => {
    expectExactly(lint(approval('yes')), [
      [
        'Invalid',
        'metadata.annotations[api-approved.kubernetes.io]',
        'protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
      ],
    ]);
  });

  it('TV12 variant: "unapproved, experimental" is accepted', () => {
    expectNoErrors(lint(approval('unapproved, experimental')));
  });

  it('TV12 variant: a URL is accepted', () => {
    expectNoErrors(lint(approval('https://github.com/kubernetes/kubernetes/pull/1')));
  });
});
