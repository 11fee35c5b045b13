/**
 * lint --old --objects: what the server does with an object stored under the installed CRD (OLD)
 * once the CRD is replaced by NEW, on the object's next write. Three questions, in the order a
 * client meets them:
 *
 *  1. can the object still be addressed at its apiVersion (NEW serves that version)?
 *  2. the next update, even one that changes nothing: the client reads the object (storage decoding
 *     under NEW: pruning, defaults) and PUTs it back; the strategy validates it with itself as the
 *     old object, so validation ratcheting keeps unchanged invalid values and CEL transition rules
 *     see oldSelf;
 *  3. a fresh create of the same object (re-applied after a delete, or in another cluster): no
 *     ratcheting.
 *
 * The stored form of an object from a file is what OLD's create made of it (pruned, defaulted);
 * an object OLD itself rejects is taken as written. Live objects are taken as the server returned
 * them. Conversion between the stored and the requested version is the None strategy (apiVersion
 * rewritten); a Webhook conversion cannot be run offline and is said so.
 */
import type { FieldValidation } from '../core/field-validation.js';
import type { KubeVersion } from '../core/kube-version.js';
import { isRecord } from '../core/types.js';
import { splitApiVersion, type CrdCatalog } from './catalog.js';
import { simulateCreate, type CreateResult } from './create.js';
import { readStored, simulateUpdate, type UpdateResult } from './update.js';

export interface NextWrite {
  /** NEW does not serve the object's apiVersion (or no longer has its kind): the server's 404 text. */
  readonly notServed?: string;
  /** The object has no metadata.name: it cannot be updated at all (only created). */
  readonly unnamed?: boolean;
  /** OLD itself rejects the object (a file that was never stored as written): taken as given. */
  readonly oldRejected?: boolean;
  /** NEW converts through a webhook between the stored version and the object's: not simulated. */
  readonly webhookConversion?: { readonly stored: string; readonly requested: string };
  /** The next update (a PUT of the object as read, unchanged). */
  readonly update?: UpdateResult;
  /** A fresh create of the object as read. */
  readonly create?: CreateResult;
}

export interface NextWriteOptions {
  readonly kube: KubeVersion;
  readonly fieldValidation?: FieldValidation;
  /** The object comes from the cluster (its stored form already) rather than from a file. */
  readonly live?: boolean;
}

/** Server-generated metadata a create body does not carry (a client re-applying the object strips them). */
const GENERATED = ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink'] as const;

function metaOf(o: Record<string, unknown>): Record<string, unknown> {
  if (!isRecord(o['metadata'])) o['metadata'] = {};
  return o['metadata'] as Record<string, unknown>;
}

export function simulateNextWrite(input: Record<string, unknown>, oldCatalog: CrdCatalog, newCatalog: CrdCatalog, opts: NextWriteOptions): NextWrite {
  const apiVersion = typeof input['apiVersion'] === 'string' ? input['apiVersion'] : '';
  const kind = typeof input['kind'] === 'string' ? input['kind'] : '';
  const lookup = newCatalog.lookup(apiVersion, kind);
  if (!lookup.ok) return { notServed: lookup.message };
  const served = lookup.served;

  // the stored object: what OLD's create made of it (files), or the object as read (live)
  let stored: Record<string, unknown> = structuredClone(input);
  let oldRejected = false;
  const oldLookup = oldCatalog.lookup(apiVersion, kind);
  if (!opts.live && oldLookup.ok) {
    const c = simulateCreate(input, oldLookup.served, { kube: opts.kube, skipStorage: true, ...(opts.fieldValidation ? { fieldValidation: opts.fieldValidation } : {}) });
    if (c.value && c.errors.length === 0 && !c.decodeError && !c.strictError) stored = structuredClone(c.value);
    else oldRejected = true;
  }
  const md = metaOf(stored);
  const name = typeof md['name'] === 'string' ? md['name'] : '';
  if (served.namespaced && (typeof md['namespace'] !== 'string' || md['namespace'] === '')) md['namespace'] = 'default';
  if (typeof md['resourceVersion'] !== 'string' || md['resourceVersion'] === '') md['resourceVersion'] = '1';
  if (typeof md['generation'] !== 'number') md['generation'] = 1;
  stored['apiVersion'] = apiVersion;

  const storedVersion = oldLookup.ok ? (oldLookup.served.storage()?.version.name ?? served.version.name) : served.version.name;
  const conv = served.conversion === 'Webhook' && storedVersion !== served.version.name ? { webhookConversion: { stored: storedVersion, requested: served.version.name } } : {};
  const base = { ...(oldRejected ? { oldRejected } : {}), ...conv };

  // what a GET returns under NEW: the body of the next PUT, and of a re-create
  const read = readStored(structuredClone(stored), served);
  const body = read.error === undefined ? read.value : stored;
  const createBody = structuredClone(body);
  const cmd = metaOf(createBody);
  for (const k of GENERATED) delete cmd[k];
  const create = simulateCreate(createBody, served, { kube: opts.kube, skipStorage: true, ...(opts.fieldValidation ? { fieldValidation: opts.fieldValidation } : {}) });
  if (name === '') return { ...base, unnamed: true, create };
  const update = simulateUpdate(stored, structuredClone(body), served, { kube: opts.kube, via: 'main', skipStorage: true, ...(opts.fieldValidation ? { fieldValidation: opts.fieldValidation } : {}) });
  return { ...base, update, create };
}

/** The group and kind an object belongs to. */
export function groupKindOf(o: Record<string, unknown>): { group: string; kind: string } | undefined {
  if (typeof o['apiVersion'] !== 'string' || typeof o['kind'] !== 'string') return undefined;
  return { group: splitApiVersion(o['apiVersion']).group, kind: o['kind'] };
}
