import { invalid, required } from '../core/field-error.js';
import { Loc } from '../core/path.js';
import { dns1123SubdomainErrors } from '../crd/dns.js';
import { serverMeta } from './helpers.js';
import { defineRule, serverReport } from './types.js';

const NAME = new Loc('metadata.name', ['metadata', 'name']);
const GEN = new Loc('metadata.generateName', ['metadata', 'generateName']);

export const crdName = defineRule({
  id: 'crd-name',
  meta: serverMeta({
    docs: {
      description: 'metadata.name must be <spec.names.plural>.<spec.group>.',
      details:
        'The name is required, must be a DNS-1123 subdomain and must equal plural + "." + group exactly (generateName can therefore never work for a CRD).',
      reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: ValidateCustomResourceDefinition; k8s.io/apimachinery pkg/api/validation/objectmeta.go: ValidateObjectMetaAccessor; k8s.io/apimachinery pkg/api/validation/generic.go: NameIsDNSSubdomain',
    },
  }),
  *check({ crd, update }) {
    // an update runs no name validation (ValidateObjectMetaUpdate): the name is the installed one's
    if (update) return;
    const wanted = `${crd.names.plural}.${crd.group}`;
    const check = (loc: Loc, v: string) => {
      const errs = dns1123SubdomainErrors(v);
      if (v !== wanted) errs.push('must be spec.names.plural+"."+spec.group');
      return errs.map((d) => serverReport(invalid(loc, v, d)));
    };
    if (crd.name === '' && crd.generateName === '') {
      yield serverReport(required(NAME.withAt(['metadata']), 'name or generateName is required'));
      return;
    }
    if (crd.generateName !== '') yield* check(GEN, crd.generateName);
    if (crd.name !== '') yield* check(NAME, crd.name);
  },
});
