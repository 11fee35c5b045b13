import { gated } from '../core/version-gates.js';
import { required } from '../core/field-error.js';
import { requireOpenAPISchema } from '../schema/update-options.js';
import { serverMeta } from './helpers.js';
import { defineRule, serverReport } from './types.js';

export const schemaRequired = defineRule({
  id: 'schema-required',
  meta: serverMeta({
    docs: {
      description: 'Every version needs a schema (apiextensions.k8s.io/v1).',
      details: 'Without a top-level schema, each version must carry schema.openAPIV3Schema; otherwise every field would be pruned.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: validateCustomResourceDefinitionSpec',
    },
  }),
  *check({ crd, update }) {
    if (crd.hoisted.schema && crd.schemas.length > 0) return;
    // an installed CRD with a version without schema relaxes the rule to served versions when pruning
    const requireAll = !update || requireOpenAPISchema(update.old.crd);
    for (const v of crd.versions) {
      if (v.schema) continue;
      const loc = v.loc.child('schema').child('openAPIV3Schema');
      const at = 'schema' in v.raw ? loc : loc.withAt(v.loc.at);
      if (crd.requestVersion === 'v1' && requireAll) yield serverReport(required(at, gated(crd.kube, 'crd.short-messages') ? '' : 'schemas are required'));
      else if (!crd.preserveUnknownFields && v.served) yield serverReport(required(at, 'because otherwise all fields are pruned'));
    }
  },
});
