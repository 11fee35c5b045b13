import { notSupported, required } from '../core/field-error.js';
import { Loc } from '../core/path.js';
import { immutable, serverMeta } from './helpers.js';
import { defineRule, serverReport } from './types.js';

const SCOPE = new Loc('spec.scope', ['spec', 'scope']);

export const scope = defineRule({
  id: 'scope',
  meta: serverMeta({
    docs: {
      description: 'spec.scope is required and must be Cluster or Namespaced.',
      details: 'apiextensions.k8s.io/v1 has no default for scope; the value is case-sensitive. On an update (lint --old) the scope of an Established CRD can no longer change.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: validateCustomResourceDefinitionSpec, validateEnumStrings, validateCustomResourceDefinitionSpecUpdate',
    },
  }),
  *check({ crd, update }) {
    const at = 'scope' in crd.spec ? SCOPE : SCOPE.withAt(['spec']);
    if (crd.scope === '') yield serverReport(required(at, ''));
    else if (crd.scope !== 'Cluster' && crd.scope !== 'Namespaced') yield serverReport(notSupported(SCOPE, crd.scope, ['Cluster', 'Namespaced']));
    if (update?.old.established) yield* immutable(at, crd.scope, update.old.crd.scope, update.old.crd, ['spec', 'scope']);
  },
});
