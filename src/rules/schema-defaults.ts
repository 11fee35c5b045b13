import { schemaCategoryRule } from './helpers.js';

export const schemaDefaults = schemaCategoryRule('schema-defaults', 'defaults', {
  docs: {
    description: 'Defaults must be allowed where they sit, survive pruning and validate against their schema.',
    details:
      'Defaults are forbidden under root metadata, apiVersion and kind and inside additionalProperties of metadata; each default is pruned against its own node schema (an ancestor preserve-unknown-fields does not help), must produce valid metadata inside embedded resources, and must pass the node value validations.',
    reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: ValidateCustomResourceDefinitionOpenAPISchema, specStandardValidatorV3.validate; k8s.io/apiextensions-apiserver pkg/apiserver/schema/defaulting/validation.go: ValidateDefaults, validate',
  },
});
