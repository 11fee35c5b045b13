// crd-validation.md §21 K. Naming controller (TV110–TV120).
// Input: the existing CRD first, then the new one, in one YAML stream (creation order).
// An existing CRD's accepted names are its spec names (a fresh, accepted CRD). Where the vector gives an
// empty accepted kind/listKind (""), a valid CRD needs some value, so a non-conflicting one is used instead.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/types.js';
import { serverCauses } from '../helpers/lint.js';
import { lint, toYaml, version, type Obj } from './util.js';

const NEW_NAMES = {
  plural: 'alfa',
  singular: 'delta-singular',
  kind: 'echo-kind',
  listKind: 'foxtrot-listkind',
  shortNames: ['golf-shortname-1', 'hotel-shortname-2'],
};

function crdDoc(group: string, names: Obj): Obj {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${names['plural']}.${group}` },
    spec: { group, scope: 'Namespaced', names, versions: [version('v1', true)] },
  };
}

const NEW = crdDoc('bravo.com', NEW_NAMES);

/** Lints [existing, new] and returns the naming-conflicts findings of each; both CRDs must be valid. */
function run(existing: Obj): { onExisting: Finding[]; onNew: Finding[] } {
  const findings = lint(toYaml(existing, NEW));
  expect(serverCauses(findings), 'both CRDs of the vector are valid on their own').toEqual([]);
  const naming = findings.filter((f) => f.ruleId === 'naming-conflicts');
  return {
    onExisting: naming.filter((f) => f.object?.name === existing['metadata'].name),
    onNew: naming.filter((f) => f.object?.name === NEW['metadata'].name),
  };
}

function expectAccepted(existing: Obj): void {
  const { onExisting, onNew } = run(existing);
  expect(onExisting).toEqual([]);
  expect(onNew.map((f) => f.message)).toEqual([]);
}

/** Exactly one conflict on the new CRD, naming the condition reason and the conflicting name. */
function expectConflict(existing: Obj, reason: string, name: string): void {
  const { onExisting, onNew } = run(existing);
  expect(onExisting).toEqual([]);
  expect(onNew.map((f) => f.message)).toHaveLength(1);
  const f = onNew[0]!;
  expect(f.server).toBeUndefined();
  expect(f.message).toContain(reason);
  expect(f.message).toContain(`"${name}"`);
}

describe('§21 K. Naming controller', () => {
  it('TV110 same names in another group: all accepted', () => {
    expectAccepted(crdDoc('charlie.com', NEW_NAMES));
  });

  it('TV111 plural already used as a singular', () => {
    // accepted: india, alfa, "", "" (kind/listKind replaced by non-conflicting values)
    expectConflict(crdDoc('bravo.com', { plural: 'india', singular: 'alfa', kind: 'India', listKind: 'IndiaList' }), 'PluralConflict', 'alfa');
  });

  it('TV112 singular already used as a shortName', () => {
    expectConflict(
      crdDoc('bravo.com', { plural: 'india', singular: 'indias', kind: 'India', listKind: 'IndiaList', shortNames: ['delta-singular'] }),
      'SingularConflict',
      'delta-singular',
    );
  });

  it('TV113 shortName already used as a shortName', () => {
    expectConflict(
      crdDoc('bravo.com', { plural: 'india', singular: 'indias', kind: 'India', listKind: 'IndiaList', shortNames: ['hotel-shortname-2'] }),
      'ShortNamesConflict',
      'hotel-shortname-2',
    );
  });

  it('TV114 kind already used as a listKind', () => {
    expectConflict(crdDoc('bravo.com', { plural: 'india', singular: 'indias', kind: 'India', listKind: 'echo-kind' }), 'KindConflict', 'echo-kind');
  });

  it('TV115 listKind already used as a kind', () => {
    expectConflict(
      crdDoc('bravo.com', { plural: 'india', singular: 'indias', kind: 'foxtrot-listkind', listKind: 'IndiaList' }),
      'ListKindConflict',
      'foxtrot-listkind',
    );
  });

  it('TV116 singular equal to our kind does not conflict', () => {
    expectAccepted(crdDoc('bravo.com', { plural: 'india', singular: 'echo-kind', kind: 'India', listKind: 'IndiaList' }));
  });

  // TV117-TV120 (a later conflict overwrites the reason, conflicting shortNames keep the old list,
  // removing a shortName, moving singular to shortNames) are update-only: lint simulates a create
  // and has no accepted names of a CRD being updated, so they are not expressed here.
});
