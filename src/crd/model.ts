import { Loc } from '../core/path.js';
import type { JsonPath } from '../core/types.js';
import type { CelEngine } from '../core/cel-engine.js';
import type { KubeVersion } from '../core/kube-version.js';
import type { Manifest } from '../manifest/parse.js';
import { arr, bool, has, rec, semanticEqual, str, type Rec } from './json.js';
import { decodeProblems, VERSION, withoutUnknownFields, type DecodeProblem } from './decode.js';
import { buildStructural, type Structural } from './structural-schema.js';

const CRD_GROUP = 'apiextensions.k8s.io';

export function isCrdManifest(m: Manifest): boolean {
  return (
    m.kind === 'CustomResourceDefinition' &&
    (m.apiVersion === `${CRD_GROUP}/v1` || m.apiVersion === `${CRD_GROUP}/v1beta1`)
  );
}

interface CrdNames {
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly listKind: string;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
}

export interface CrdVersion {
  readonly index: number;
  readonly raw: Rec;
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  /** The openAPIV3Schema of this version (raw JSONSchemaProps), if any. */
  readonly schema: Rec | undefined;
  readonly loc: Loc;
}

/** One schema the server validates: top-level (hoisted) or per version. */
export interface SchemaTarget {
  /** Server path and manifest path of the openAPIV3Schema node. */
  readonly loc: Loc;
  readonly schema: Rec;
  /** The typed structural schema of `schema`: built once, on first use, and shared by every version it serves. */
  readonly structural: Structural;
  /** Status subresource applies to this schema (switches on the root allow-list). */
  readonly statusEnabled: boolean;
  /** The versions this schema serves. */
  readonly versions: readonly CrdVersion[];
}

/** A per-version or hoisted field (subresources, printer columns, selectable fields). */
export interface Target<T> {
  readonly loc: Loc;
  readonly value: T;
  readonly versions: readonly CrdVersion[];
  readonly hoisted: boolean;
}

/**
 * A CRD as the server sees it after decoding, defaulting and the v1 → internal conversion:
 * schemas, subresources, printer columns and selectable fields that are identical in every
 * version are hoisted to the top level, and errors about them are reported there.
 */
export interface Crd {
  readonly manifest: Manifest;
  readonly requestVersion: 'v1' | 'v1beta1';
  readonly kube: KubeVersion;
  /** The CEL engine its rules are checked and evaluated with; undefined: it must hold none. */
  readonly cel: CelEngine | undefined;
  readonly name: string;
  readonly generateName: string;
  readonly spec: Rec;
  readonly group: string;
  readonly scope: string;
  readonly names: CrdNames;
  /** The names as written, before defaulting (positions of missing names point at spec.names). */
  readonly versions: readonly CrdVersion[];
  readonly preserveUnknownFields: boolean;
  readonly schemas: readonly SchemaTarget[];
  readonly subresources: readonly Target<Rec>[];
  readonly columns: readonly Target<readonly unknown[]>[];
  readonly selectableFields: readonly Target<readonly unknown[]>[];
  /** Hoisted selectableFields without a top-level schema, or per-version ones next to a hoisted schema. */
  readonly hoisted: { readonly schema: boolean; readonly subresources: boolean; readonly columns: boolean; readonly selectableFields: boolean };
  readonly conversion: Rec | undefined;
  /** What the JSON decoder finds in the whole CRD (wrong types, unknown fields): walked on first use, once. */
  readonly decodeProblems: readonly DecodeProblem[];
}

/**
 * Where version v's own copy of a block sits: the server hoists a block that is the same in every
 * version (and reports its errors once, at the first version's), but the user wrote one per
 * version, so a finding about one version points at that version's block when it has one.
 */
export function blockOf(t: { readonly loc: Loc; readonly hoisted: boolean }, v: CrdVersion, key: string): JsonPath {
  return t.hoisted && Object.hasOwn(v.raw, key) ? [...v.loc.at, key] : t.loc.at;
}

/** Effective subresources of a version: the top-level (hoisted) ones win. */
export function subresourcesFor(crd: Crd, v: CrdVersion): Rec | undefined {
  for (const t of crd.subresources) if (t.versions.includes(v)) return t.value;
  return undefined;
}

export function buildCrd(manifest: Manifest, kube: KubeVersion, cel: CelEngine | undefined): Crd {
  const obj = manifest.value;
  const requestVersion = manifest.apiVersion?.endsWith('/v1beta1') ? 'v1beta1' : 'v1';
  const meta = rec(obj['metadata']) ?? {};
  const spec = rec(obj['spec']) ?? {};
  const rawNames = rec(spec['names']) ?? {};
  const kind = str(rawNames['kind']);
  // v1 (and v1beta1) defaulting: singular from kind, listKind from kind
  const names: CrdNames = {
    plural: str(rawNames['plural']),
    singular: str(rawNames['singular']) || kind.toLowerCase(),
    kind,
    listKind: str(rawNames['listKind']) || (kind ? `${kind}List` : ''),
    shortNames: arr(rawNames['shortNames']).map(str),
    categories: arr(rawNames['categories']).map(str),
  };
  const specLoc = new Loc('spec', ['spec']);
  const versionsLoc = specLoc.child('versions');
  let versions: CrdVersion[] = arr(spec['versions']).map((rv, index) => {
    const raw = rec(rv) ?? {};
    const schemaWrap = rec(raw['schema']);
    return {
      index,
      raw,
      name: str(raw['name']),
      served: bool(raw['served']),
      storage: bool(raw['storage']),
      schema: schemaWrap ? rec(schemaWrap['openAPIV3Schema']) : undefined,
      loc: versionsLoc.index(index),
    };
  });
  let scope = str(spec['scope']);
  let preserveUnknownFields = spec['preserveUnknownFields'] === true;
  if (requestVersion === 'v1beta1') {
    if (scope === '') scope = 'Namespaced';
    if (spec['preserveUnknownFields'] === undefined || spec['preserveUnknownFields'] === null) preserveUnknownFields = true;
    if (versions.length === 0 && str(spec['version']) !== '') {
      versions = [
        { index: 0, raw: {}, name: str(spec['version']), served: true, storage: true, schema: undefined, loc: versionsLoc.index(0) },
      ];
    }
  }

  const schemas: SchemaTarget[] = [];
  const subresources: Target<Rec>[] = [];
  const columns: Target<readonly unknown[]>[] = [];
  const selectableFields: Target<readonly unknown[]>[] = [];
  const hoisted = { schema: false, subresources: false, columns: false, selectableFields: false };

  if (requestVersion === 'v1') {
    // Conversion v1 -> internal: each of the four fields is hoisted on its own when it is
    // semantically equal in every version, as decoded: fields unknown to the v1 types are gone by
    // then (warn/ignore field validation), so a version whose schema differs only by one (a
    // `readOnly`) still shares it
    let decoded: Map<CrdVersion, Rec> | undefined;
    const asDecoded = (v: CrdVersion): Rec => {
      decoded ??= new Map(versions.map((x) => [x, withoutUnknownFields(x.raw, VERSION) as Rec]));
      return decoded.get(v)!;
    };
    // walked only when versions differ as written (most CRDs never get here)
    let hasUnknown: boolean | undefined;
    // fields the decoder drops (unknown, or dropped silently below items and the like)
    const unknownIn = (): boolean => (hasUnknown ??= versions.some((v) => decodeProblems(v.raw, VERSION).some((p) => p.kind !== 'type')));
    const same = (get: (v: Rec) => unknown): boolean =>
      versions.length > 0 &&
      (versions.every((v) => semanticEqual(get(v.raw), get(versions[0]!.raw))) ||
        (unknownIn() && versions.every((v) => semanticEqual(get(asDecoded(v)), get(asDecoded(versions[0]!))))));
    hoisted.schema = same((v) => v['schema']);
    hoisted.subresources = same((v) => v['subresources']);
    hoisted.columns = same((v) => v['additionalPrinterColumns']);
    hoisted.selectableFields = same((v) => v['selectableFields']);
    const v0 = versions[0];
    if (v0) {
      const anyStatus = versions.some((v) => has(rec(v.raw['subresources']), 'status'));
      if (hoisted.subresources) {
        const sub = rec(v0.raw['subresources']);
        if (has(v0.raw, 'subresources') && sub)
          subresources.push({ loc: new Loc('spec.subresources', [...v0.loc.at, 'subresources']), value: sub, versions, hoisted: true });
      } else {
        for (const v of versions) {
          const sub = rec(v.raw['subresources']);
          if (sub) subresources.push({ loc: v.loc.child('subresources'), value: sub, versions: [v], hoisted: false });
        }
      }
      if (hoisted.schema) {
        const wrap = rec(v0.raw['schema']);
        if (wrap && v0.schema)
          schemas.push(schemaTarget(new Loc('spec.validation.openAPIV3Schema', [...v0.loc.at, 'schema', 'openAPIV3Schema']), v0.schema, anyStatus, versions));
      } else {
        schemas.push(...perVersionSchemas(versions, subresources));
      }
      const perVersionList = (key: string, hoist: boolean, out: Target<readonly unknown[]>[], serverName: string): void => {
        if (hoist) {
          const list = arr(v0.raw[key]);
          if (list.length > 0) out.push({ loc: new Loc(`spec.${serverName}`, [...v0.loc.at, key]), value: list, versions, hoisted: true });
        } else {
          for (const v of versions) {
            const list = arr(v.raw[key]);
            if (list.length > 0) out.push({ loc: v.loc.child(serverName, key), value: list, versions: [v], hoisted: false });
          }
        }
      };
      perVersionList('additionalPrinterColumns', hoisted.columns, columns, 'additionalPrinterColumns');
      perVersionList('selectableFields', hoisted.selectableFields, selectableFields, 'selectableFields');
    }
  } else {
    // v1beta1: the internal shape; top-level fields stay where they are
    const top = rec(spec['validation']);
    const topSub = rec(spec['subresources']);
    if (topSub) subresources.push({ loc: specLoc.child('subresources'), value: topSub, versions, hoisted: true });
    for (const v of versions) {
      const sub = rec(v.raw['subresources']);
      if (sub && !topSub) subresources.push({ loc: v.loc.child('subresources'), value: sub, versions: [v], hoisted: false });
    }
    const topSchema = top ? rec(top['openAPIV3Schema']) : undefined;
    if (topSchema)
      schemas.push(
        schemaTarget(
          specLoc.child('validation').child('openAPIV3Schema'),
          topSchema,
          versions.some((v) => has(subresourcesForRaw(subresources, v), 'status')) || has(topSub, 'status'),
          versions,
        ),
      );
    schemas.push(...perVersionSchemas(versions, subresources));
    const topCols = arr(spec['additionalPrinterColumns']);
    if (topCols.length > 0) columns.push({ loc: specLoc.child('additionalPrinterColumns'), value: topCols, versions, hoisted: true });
    for (const v of versions) {
      const list = arr(v.raw['additionalPrinterColumns']);
      if (list.length > 0) columns.push({ loc: v.loc.child('additionalPrinterColumns'), value: list, versions: [v], hoisted: false });
    }
    const topSel = arr(spec['selectableFields']);
    if (topSel.length > 0) selectableFields.push({ loc: specLoc.child('selectableFields'), value: topSel, versions, hoisted: true });
    for (const v of versions) {
      const list = arr(v.raw['selectableFields']);
      if (list.length > 0) selectableFields.push({ loc: v.loc.child('selectableFields'), value: list, versions: [v], hoisted: false });
    }
    hoisted.schema = topSchema !== undefined;
    hoisted.subresources = topSub !== undefined;
  }

  let problems: readonly DecodeProblem[] | undefined;
  return {
    manifest,
    requestVersion,
    kube,
    cel,
    name: str(meta['name']),
    generateName: str(meta['generateName']),
    spec,
    group: str(spec['group']),
    scope,
    names,
    versions,
    preserveUnknownFields,
    schemas,
    subresources,
    columns,
    selectableFields,
    hoisted,
    conversion: rec(spec['conversion']),
    get decodeProblems(): readonly DecodeProblem[] {
      return (problems ??= decodeProblems(obj));
    },
  };
}

/** The schemas that stay with their version, each with the status switch of that version. */
function perVersionSchemas(versions: readonly CrdVersion[], subresources: readonly Target<Rec>[]): SchemaTarget[] {
  return versions.flatMap((v) =>
    v.schema
      ? [schemaTarget(v.loc.child('schema').child('openAPIV3Schema'), v.schema, has(subresourcesForRaw(subresources, v), 'status'), [v])]
      : [],
  );
}

function subresourcesForRaw(targets: readonly Target<Rec>[], v: CrdVersion): Rec | undefined {
  for (const t of targets) if (t.versions.includes(v)) return t.value;
  return undefined;
}

/** A schema target whose typed schema is built on first use (lint reads it for few rules). */
function schemaTarget(loc: Loc, schema: Rec, statusEnabled: boolean, versions: readonly CrdVersion[]): SchemaTarget {
  let built: Structural | undefined;
  return {
    loc,
    schema,
    get structural(): Structural {
      return (built ??= buildStructural(schema));
    },
    statusEnabled,
    versions,
  };
}

/** The schema that applies to version v (hoisted or its own), if it has one. */
export function schemaTargetFor(crd: Crd, v: CrdVersion): SchemaTarget | undefined {
  return crd.schemas.find((t) => t.versions.includes(v));
}

/** The typed schema that applies to version v (hoisted or its own), if it has one. */
export function structuralFor(crd: Crd, v: CrdVersion): Structural | undefined {
  return schemaTargetFor(crd, v)?.structural;
}
