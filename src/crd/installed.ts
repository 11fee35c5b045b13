/**
 * The installed state a CRD update is checked against (lint --old): the stored object's spec (as a
 * Crd), its status.storedVersions and whether it is Established. Only what the server's update
 * strategy and validation read from the old object.
 */
import type { JsonPath } from '../core/types.js';
import type { Manifest } from '../manifest/parse.js';
import { arr, rec, str } from './json.js';
import type { Crd } from './model.js';

export interface InstalledCrd {
  readonly crd: Crd;
  /** status.storedVersions of the stored object (the server keeps them across an update). */
  readonly storedVersions: readonly string[];
  /**
   * Where each stored version comes from in the OLD manifest: status.storedVersions[i] when the
   * file has it, else the storage version's name (taken as the only stored version).
   */
  readonly storedAt: readonly JsonPath[];
  /** The Established condition is True: group, plural, kind and scope can no longer change. */
  readonly established: boolean;
  /** Whether `established` was read from status.conditions (else it is inferred). */
  readonly establishedFromStatus: boolean;
}

/** The update a NEW CRD makes: the installed object it replaces. */
export interface CrdUpdate {
  readonly old: InstalledCrd;
  /** lint --old --objects: the given objects of this CRD (files, or live ones); absent without --objects. */
  readonly objects?: readonly Manifest[];
}

/**
 * Reads the installed state of an OLD CRD. Without status.storedVersions, the storage version the
 * server would have recorded on create (the first one marked storage) is taken as stored. Without
 * an Established condition, `inferredEstablished` decides (the caller knows the naming conflicts).
 */
export function installedCrd(crd: Crd, inferredEstablished: boolean): InstalledCrd {
  const status = rec(crd.manifest.value['status']);
  const listed = arr(status?.['storedVersions']).map(str);
  let storedVersions: string[];
  let storedAt: JsonPath[];
  if (listed.length > 0) {
    storedVersions = listed;
    storedAt = listed.map((_, i) => ['status', 'storedVersions', i]);
  } else {
    const storage = crd.versions.find((v) => v.storage);
    storedVersions = storage ? [storage.name] : [];
    storedAt = storage ? [[...storage.loc.at, 'name']] : [];
  }
  const cond = arr(status?.['conditions'])
    .map((c) => rec(c))
    .find((c) => c !== undefined && str(c['type']) === 'Established');
  const established = cond ? str(cond['status']) === 'True' : inferredEstablished;
  return { crd, storedVersions, storedAt, established, establishedFromStatus: cond !== undefined };
}
