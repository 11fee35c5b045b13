import { gated } from '../core/version-gates.js';
import { invalid } from '../core/field-error.js';
import { Loc } from '../core/path.js';
import { serverMeta } from './helpers.js';
import { defineRule, serverReport } from './types.js';
import { jsonText } from '../core/json-text.js';

const PUF = new Loc('spec.preserveUnknownFields', ['spec', 'preserveUnknownFields']);

export const preserveUnknownFields = defineRule({
  id: 'preserve-unknown-fields',
  meta: serverMeta({
    docs: {
      description: 'spec.preserveUnknownFields: true is not allowed in apiextensions.k8s.io/v1.',
      details:
        'Use x-kubernetes-preserve-unknown-fields: true inside the schema instead; defaults anywhere in a schema also require pruning to be on.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: validatePreserveUnknownFields, validateCustomResourceDefinitionSpec',
    },
  }),
  *check({ crd, update }) {
    if (!crd.preserveUnknownFields) return;
    if (crd.spec['preserveUnknownFields'] !== true) return;
    if (crd.schemas.some((t) => (jsonText(t.schema) ?? '').includes('"default":')))
      yield serverReport(invalid(PUF, true, 'must be false in order to use defaults in the schema'));
    // an installed CRD that already prunes nothing may keep it (validatePreserveUnknownFields)
    if (crd.requestVersion === 'v1' && update?.old.crd.spec['preserveUnknownFields'] !== true) {
      const ext = gated(crd.kube, 'crd.preserve-unknown-fields-name') ? 'x-kubernetes-preserve-unknown-fields' : 'x-preserve-unknown-fields';
      yield serverReport(invalid(PUF, true, `cannot set to true, set ${ext} to true in spec.versions[*].schema instead`));
    }
  },
});
