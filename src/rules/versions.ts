import { invalid } from '../core/field-error.js';
import { structOrdered } from '../go/json.js';
import { Loc } from '../core/path.js';
import { dns1035LabelErrors } from '../crd/dns.js';
import { serverMeta } from './helpers.js';
import type { InstalledCrd } from '../crd/installed.js';
import { rec, str } from '../crd/json.js';
import type { Crd, CrdVersion } from '../crd/model.js';
import { defineRule, serverReport, type Report } from './types.js';

const VERSIONS = new Loc('spec.versions', ['spec', 'versions']);

export const versions = defineRule({
  id: 'versions',
  meta: serverMeta({
    docs: {
      description: 'Versions need unique DNS-1035 names and exactly one storage version.',
      details:
        'Each version name is a DNS-1035 label (the first one is reported twice, as spec.versions[0].name and spec.version); names are unique; exactly one version has storage: true, which also becomes status.storedVersions on create (a storage version that repeats the name of an earlier version is missing from it). On an update (lint --old) the installed status.storedVersions are kept, the new storage version is added to them, and every stored version must stay in spec.versions until a storage migration removes it from status.storedVersions.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: validateCustomResourceDefinitionSpec, ValidateCustomResourceDefinitionStoredVersions; k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1/conversion.go: Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec; k8s.io/apiextensions-apiserver pkg/registry/customresourcedefinition/strategy.go: strategy.PrepareForCreate, strategy.PrepareForUpdate',
    },
  }),
  *check({ crd, update }) {
    const vs = crd.versions;
    const listAt = 'versions' in crd.spec ? VERSIONS : VERSIONS.withAt(['spec']);
    const seen = new Set<string>();
    let unique = true;
    for (const v of vs) {
      if (seen.has(v.name)) unique = false;
      seen.add(v.name);
      const errs = dns1035LabelErrors(v.name);
      if (errs.length > 0) yield serverReport(invalid(v.loc.child('name'), v.name, errs.join(',')));
    }
    const first = vs[0];
    if (first && first.name !== '' && crd.requestVersion === 'v1') {
      const errs = dns1035LabelErrors(first.name);
      if (errs.length > 0) yield serverReport(invalid(new Loc('spec.version', first.loc.child('name').at), first.name, errs.join(',')));
    }
    // the internal CustomResourceDefinitionVersion structs: fields in declaration order (a Map each)
    const internalValue = structOrdered(vs.map((v) => internalVersion(crd, v)));
    if (!unique) yield serverReport(invalid(listAt, internalValue, 'must contain unique version names'));
    const storage = vs.filter((v) => v.storage);
    if (storage.length !== 1) yield serverReport(invalid(listAt, internalValue, 'must have exactly one version marked as storage version'));
    if (update) {
      yield* storedOnUpdate(vs, update.old, listAt);
      return;
    }
    // PrepareForCreate sets storedVersions to the first storage version; the stored-versions check
    // then walks spec.versions, taking each stored name off at its first version of that name: a
    // storage version whose name is no longer there (a second storage version, or a storage
    // version that repeats the name of an earlier one) is missing from storedVersions
    const stored = new Loc('status.storedVersions', listAt.at);
    // no storage version: PrepareForCreate leaves storedVersions a nil slice, printed as null
    if (storage.length === 0) yield serverReport(invalid(stored, null, 'must have at least one stored version'));
    else {
      const storedVersions = [storage[0]!.name];
      const pending = new Set(storedVersions);
      for (const v of vs) {
        const ok = pending.has(v.name);
        if (v.storage && !ok) yield serverReport(invalid(new Loc('status.storedVersions', v.loc.child('storage').at), storedVersions, `must have the storage version ${v.name}`));
        if (ok) pending.delete(v.name);
      }
    }
  },
});

/**
 * An update keeps the stored object's status (PrepareForUpdate) and appends the new storage version
 * to storedVersions when it is not there yet; every stored version must still be in spec.versions.
 */
function* storedOnUpdate(vs: readonly CrdVersion[], old: InstalledCrd, listAt: Loc): Iterable<Report<'server'>> {
  const stored = [...old.storedVersions];
  const storage = vs.find((v) => v.storage);
  if (storage && !stored.includes(storage.name)) stored.push(storage.name);
  if (stored.length === 0) {
    yield serverReport(invalid(new Loc('status.storedVersions', listAt.at), [], 'must have at least one stored version'));
    return;
  }
  // a name listed twice is remembered at its last index, as the server's map does
  const pending = new Map<string, number>();
  stored.forEach((v, i) => pending.set(v, i));
  for (const v of vs) {
    const ok = pending.has(v.name);
    if (v.storage && !ok) yield serverReport(invalid(new Loc('status.storedVersions', v.loc.child('storage').at), stored, `must have the storage version ${v.name}`));
    if (ok) pending.delete(v.name);
  }
  for (const [v, i] of pending) {
    const e = invalid(
      new Loc(`status.storedVersions[${i}]`, listAt.at),
      v,
      `missing from spec.versions; ${v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in ${v} and removes ${v} from status.storedVersions`,
    );
    const at = old.storedAt[i];
    yield { ...serverReport(e), ...(at ? { old: { manifest: old.crd.manifest, path: at } } : {}) };
  }
}

/**
 * A version as the server prints it in an error (the internal CustomResourceDefinitionVersion,
 * JSON with Go field names): blocks hoisted to the top level are null at the version.
 * Known gap: a schema of its own is printed as written, not as the internal JSONSchemaProps struct.
 */
function internalVersion(crd: Crd, v: CrdVersion): Record<string, unknown> {
  const raw = v.raw;
  const dw = raw['deprecationWarning'];
  const sub = rec(raw['subresources']);
  const scale = rec(sub?.['scale']);
  const cols = raw['additionalPrinterColumns'];
  const sel = raw['selectableFields'];
  return {
    Name: v.name,
    Served: v.served,
    Storage: v.storage,
    Deprecated: raw['deprecated'] === true,
    DeprecationWarning: typeof dw === 'string' ? dw : null,
    Schema: crd.hoisted.schema || !v.schema ? null : { OpenAPIV3Schema: v.schema },
    Subresources:
      crd.hoisted.subresources || !sub
        ? null
        : {
            Status: rec(sub['status']) ? {} : null,
            Scale: scale
              ? {
                  SpecReplicasPath: str(scale['specReplicasPath']),
                  StatusReplicasPath: str(scale['statusReplicasPath']),
                  LabelSelectorPath: typeof scale['labelSelectorPath'] === 'string' ? scale['labelSelectorPath'] : null,
                }
              : null,
          },
    AdditionalPrinterColumns:
      crd.hoisted.columns || !Array.isArray(cols)
        ? null
        : cols.map((c) => {
            const r = rec(c) ?? {};
            return {
              Name: str(r['name']),
              Type: str(r['type']),
              Format: str(r['format']),
              Description: str(r['description']),
              Priority: typeof r['priority'] === 'number' ? r['priority'] : 0,
              JSONPath: str(r['jsonPath']),
            };
          }),
    SelectableFields: crd.hoisted.selectableFields || !Array.isArray(sel) ? null : sel.map((f) => ({ JSONPath: str(rec(f)?.['jsonPath']) })),
  };
}
