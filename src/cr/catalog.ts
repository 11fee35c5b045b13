/**
 * Which CRD serves a custom resource, and everything the API server derives once per served
 * version when it builds the CRD's serving info (customresource_handler.go getOrCreateServingInfoFor):
 * the structural schema with pruned defaults (structuraldefaulting.PruneDefaults), the validation
 * schema, the status and scale subresources, the storage version. Computed lazily and cached, so
 * each CRD version is prepared once however many objects use it.
 */
import type { Crd, CrdVersion } from '../crd/model.js';
import { schemaTargetFor, subresourcesFor } from '../crd/model.js';
import { rec, str } from '../crd/json.js';
import type { Structural } from '../crd/structural-schema.js';
import { pruneDefaults } from '../schema/behaviours/prune-defaults.js';
import type { ScaleSpec } from './scale.js';
import { jsonText } from '../core/json-text.js';
import { quote } from '../go/quote.js';

export interface ServedVersion {
  readonly crd: Crd;
  readonly version: CrdVersion;
  readonly group: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** The typed openAPIV3Schema (its `raw`: as written): the request validator and CEL read it. */
  readonly structural: Structural | undefined;
  /** The structural schema pruning, defaulting and the strategy use (defaults pruned). */
  readonly decodeStructural: Structural | undefined;
  readonly statusEnabled: boolean;
  readonly scale: ScaleSpec | undefined;
  /** The schema has x-kubernetes-validations somewhere: the server evaluates CEL rules, we do not. */
  readonly hasCel: boolean;
  /** The deprecation warning the server sends with every request for this version, if any. */
  readonly deprecationWarning: string | undefined;
  /** The storage version; undefined when the CRD has none. */
  storage(): ServedVersion | undefined;
  /** Conversion strategy between versions. */
  readonly conversion: 'None' | 'Webhook';
  /**
   * The write and read-back cannot change an object this version decoded and defaulted: it is its
   * own storage version and no default can come back or go away on the way (none holds a null,
   * none sits on status or metadata). Then the read-back passes are skipped; test/cr checks on
   * every fixture and corpus sample that they would change nothing.
   */
  readonly readBackIsIdentity: boolean;
}

export type Lookup =
  | { readonly ok: true; readonly served: ServedVersion }
  | { readonly ok: false; readonly code: LookupFailure; readonly message: string };

/**
 * Why an object has no served version: no CRD of its group and kind, a version the CRD does not
 * serve (404), or a CRD the server refuses to create, so that its kind is never served.
 */
export type LookupFailure = 'no-crd-found' | 'version-not-served' | 'crd-rejected';

/** Why the server refuses to create a CRD (a text naming its first cause), or undefined. */
export type CrdRejected = (crd: Crd) => string | undefined;

/** Splits `group/version`; the core group (no slash) has no CRDs. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

export class CrdCatalog {
  private readonly cache = new Map<string, ServedVersion>();
  /** group, then kind: the first CRD of each in input order (built on first use). */
  private byGroupKind: Map<string, Map<string, Crd>> | undefined;
  private readonly index = new Map<Crd, number>();
  /** `rejected`: the CRDs the server would not create (their objects' kind is never served). */
  constructor(
    readonly crds: readonly Crd[],
    private readonly rejected?: CrdRejected,
  ) {}

  /** The CRD (first in input order, as the server's naming controller keeps the first) of a group and kind. */
  crdFor(group: string, kind: string): Crd | undefined {
    if (this.byGroupKind === undefined) {
      const m = new Map<string, Map<string, Crd>>();
      this.crds.forEach((c, i) => {
        if (!this.index.has(c)) this.index.set(c, i);
        let kinds = m.get(c.group);
        if (kinds === undefined) m.set(c.group, (kinds = new Map()));
        if (!kinds.has(c.names.kind)) kinds.set(c.names.kind, c);
      });
      this.byGroupKind = m;
    }
    return this.byGroupKind.get(group)?.get(kind);
  }

  lookup(apiVersion: string, kind: string): Lookup {
    const { group, version } = splitApiVersion(apiVersion);
    const crd = this.crdFor(group, kind);
    if (!crd) {
      return {
        ok: false,
        code: 'no-crd-found',
        message: `no CustomResourceDefinition for ${kind} in ${group === '' ? `"${apiVersion}"` : `group ${quote(group)}`} among the inputs (give it with --crd)`,
      };
    }
    const why = this.rejected?.(crd);
    if (why !== undefined) return { ok: false, code: 'crd-rejected', message: `no matches for kind ${quote(kind)} in version ${quote(apiVersion)}: ${why}` };
    const v = crd.versions.find((x) => x.name === version);
    if (!v || !v.served) {
      const served = crd.versions.filter((x) => x.served).map((x) => x.name);
      return {
        ok: false,
        code: 'version-not-served',
        message: `${crd.name || `${crd.names.plural}.${crd.group}`} does not serve version ${quote(version)} (${v ? 'served: false' : 'no such version'}; served: ${served.length > 0 ? served.join(', ') : 'none'})`,
      };
    }
    return { ok: true, served: this.served(crd, v) };
  }

  private served(crd: Crd, v: CrdVersion): ServedVersion {
    const key = `${this.index.get(crd) ?? this.crds.indexOf(crd)}/${v.index}`;
    let s = this.cache.get(key);
    if (s) return s;
    const target = schemaTargetFor(crd, v);
    const structural = target?.structural;
    const sub = subresourcesFor(crd, v);
    const scaleRaw = rec(sub?.['scale']);
    const scale: ScaleSpec | undefined = scaleRaw
      ? {
          specReplicasPath: str(scaleRaw['specReplicasPath']),
          statusReplicasPath: str(scaleRaw['statusReplicasPath']),
          ...(typeof scaleRaw['labelSelectorPath'] === 'string' ? { labelSelectorPath: scaleRaw['labelSelectorPath'] } : {}),
        }
      : undefined;
    const decodeStructural = structural && !crd.preserveUnknownFields ? pruneDefaults(structural) : structural;
    const conv = str(rec(crd.spec['conversion'])?.['strategy']);
    const self = this;
    s = {
      crd,
      version: v,
      group: crd.group,
      kind: crd.names.kind,
      namespaced: crd.scope !== 'Cluster',
      structural,
      decodeStructural,
      statusEnabled: sub !== undefined && sub['status'] !== undefined && sub['status'] !== null,
      scale,
      hasCel: structural?.facts.celBelow === true,
      deprecationWarning: deprecationWarning(crd, v),
      storage() {
        const sv = crd.versions.find((x) => x.storage);
        return sv ? (sv === v ? s : self.served(crd, sv)) : undefined;
      },
      conversion: conv === 'Webhook' ? 'Webhook' : 'None',
      readBackIsIdentity: v.storage && (decodeStructural === undefined || readBackSafe(decodeStructural.raw)),
    };
    this.cache.set(key, s);
    return s;
  }
}

/**
 * No default holds a null (null dropping on the write could remove it and defaulting bring it
 * back), `status` has no default of its own (PrepareForCreate removes status; its own default
 * would return on the read-back, nested ones cannot), and nothing in metadata has a default.
 */
function readBackSafe(schema: Record<string, unknown>): boolean {
  const props = rec(schema['properties']);
  const status = rec(props?.['status']);
  if (status && status['default'] !== undefined && status['default'] !== null) return false;
  const metadata = props?.['metadata'];
  if (metadata !== undefined && (jsonText(metadata) ?? '').includes('"default":')) return false;
  return !defaultMayHoldNull(schema);
}

/** Whether some `default` key at any depth holds a value whose JSON text has `null` in it. */
function defaultMayHoldNull(x: unknown): boolean {
  if (Array.isArray(x)) return x.some(defaultMayHoldNull);
  if (x === null || typeof x !== 'object') return false;
  const o = x as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (k === 'default' && v !== null && v !== undefined && jsonText(v)?.includes('null') === true) return true;
    if (defaultMayHoldNull(v)) return true;
  }
  return false;
}

/** customresource_handler.go: the version's deprecationWarning, else defaultDeprecationWarning. */
function deprecationWarning(crd: Crd, v: CrdVersion): string | undefined {
  if (v.raw['deprecated'] !== true) return undefined;
  if (typeof v.raw['deprecationWarning'] === 'string') return v.raw['deprecationWarning'];
  let msg = `${crd.group}/${v.name} ${crd.names.kind} is deprecated`;
  const newer = crd.versions
    .filter((x) => x.served && x.raw['deprecated'] !== true && compareKubeAwareVersions(v.name, x.name) < 0)
    .map((x) => x.name)
    .sort((a, b) => compareKubeAwareVersions(b, a));
  if (newer.length > 0) msg += `; use ${crd.group}/${newer[0]} ${crd.names.kind}`;
  return msg;
}

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

/** apimachinery version.CompareKubeAwareVersionStrings */
export function compareKubeAwareVersions(a: string, b: string): number {
  if (a === b) return 0;
  const pa = parse(a);
  const pb = parse(b);
  if (!pa && !pb) return b < a ? -1 : b > a ? 1 : 0;
  if (!pa) return -1;
  if (!pb) return 1;
  if (pa.type !== pb.type) return pa.type - pb.type;
  if (pa.major !== pb.major) return pa.major - pb.major;
  return pa.minor - pb.minor;
}

function parse(v: string): { major: number; type: number; minor: number } | undefined {
  const m = KUBE_VERSION.exec(v);
  if (!m) return undefined;
  const type = m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2;
  return { major: Number(m[1]), type, minor: type === 2 ? 0 : Number(m[3]) };
}
