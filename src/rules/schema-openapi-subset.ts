import { schemaCategoryRule } from './helpers.js';

export const schemaOpenapiSubset = schemaCategoryRule('schema-openapi-subset', 'openapi', {
  docs: {
    description: 'Only the OpenAPI v3 subset Kubernetes supports may be used.',
    details:
      'Unknown types, type null, id, $ref, definitions, dependencies, patternProperties, additionalItems, items arrays, uniqueItems: true, additionalProperties next to properties (unless true), x-kubernetes-preserve-unknown-fields: false and x-kubernetes-embedded-resource inside resource meta are rejected.',
    reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: ValidateCustomResourceDefinitionOpenAPISchema, specStandardValidatorV3.validate',
  },
});
