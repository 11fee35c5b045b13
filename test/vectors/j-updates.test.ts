// crd-validation.md §21 J. Updates (TV107–TV109).
// The linter only simulates a create (it has no old object), so update vectors cannot be expressed.
import { describe, it } from 'vitest';

describe('§21 J. Updates', () => {
  it.skip('TV107 immutable fields before Established: update-only, lint simulates create (needs the old CRD and its Established condition)', () => {});
  it.skip('TV108 immutable fields after Established: update-only, lint simulates create (needs the old CRD and its Established condition)', () => {});
  it.skip('TV109 removing a stored version: update-only, lint simulates create (needs the old status.storedVersions)', () => {});
});
