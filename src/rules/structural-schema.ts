import { schemaCategoryRule } from './helpers.js';

export const structuralSchema = schemaCategoryRule('structural-schema', 'structural', {
  docs: {
    description: 'Every apiextensions.k8s.io/v1 schema must be structural.',
    details:
      'Types are required everywhere in the structural tree (properties, items, additionalProperties), value validations inside allOf/anyOf/oneOf/not may not carry types, defaults, titles, descriptions, nullable or x-kubernetes-* extensions, root metadata may only restrict name and generateName, apiVersion/kind must be strings, embedded resources must be objects with properties or preserve-unknown-fields, and what root junctors mention must exist structurally.',
    reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: validateCustomResourceDefinitionValidation; k8s.io/apiextensions-apiserver pkg/apiserver/schema/convert.go: NewStructural; k8s.io/apiextensions-apiserver pkg/apiserver/schema/validation.go: ValidateStructural, validateStructuralInvariants, validateStructuralMetadataInvariants, validateNestedValueValidation; k8s.io/apiextensions-apiserver pkg/apiserver/schema/complete.go: validateStructuralCompleteness',
  },
});
