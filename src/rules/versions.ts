import { invalid } from '../core/field-error.js';
import { Loc } from '../core/path.js';
import { dns1035LabelErrors } from '../crd/dns.js';
import { serverMeta } from './helpers.js';
import { defineRule, serverReport } from './types.js';

const VERSIONS = new Loc('spec.versions', ['spec', 'versions']);

export const versions = defineRule({
  id: 'versions',
  meta: serverMeta({
    docs: {
      description: 'Versions need unique DNS-1035 names and exactly one storage version.',
      details:
        'Each version name is a DNS-1035 label (the first one is reported twice, as spec.versions[0].name and spec.version); names are unique; exactly one version has storage: true, which also becomes status.storedVersions on create (a storage version that repeats the name of an earlier version is missing from it).',
      reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: validateCustomResourceDefinitionSpec, ValidateCustomResourceDefinitionStoredVersions; k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1/conversion.go: Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec; k8s.io/apiextensions-apiserver pkg/registry/customresourcedefinition/strategy.go: strategy.PrepareForCreate',
    },
  }),
  *check({ crd }) {
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
    const internalValue = vs.map((v) => ({ Name: v.name, Served: v.served, Storage: v.storage }));
    if (!unique) yield serverReport(invalid(listAt, internalValue, 'must contain unique version names'));
    const storage = vs.filter((v) => v.storage);
    if (storage.length !== 1) yield serverReport(invalid(listAt, internalValue, 'must have exactly one version marked as storage version'));
    // PrepareForCreate sets storedVersions to the first storage version; the stored-versions check
    // then walks spec.versions, taking each stored name off at its first version of that name: a
    // storage version whose name is no longer there (a second storage version, or a storage
    // version that repeats the name of an earlier one) is missing from storedVersions
    const stored = new Loc('status.storedVersions', listAt.at);
    if (storage.length === 0) yield serverReport(invalid(stored, [], 'must have at least one stored version'));
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
