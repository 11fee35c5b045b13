import { schemaCategoryRule } from './helpers.js';

export const schemaRootStatus = schemaCategoryRule('schema-root-status', 'root', {
  docs: {
    description: 'With /status enabled, only 22 fields may sit at the schema root, and nullable never may.',
    details:
      'When the status subresource applies to a schema, the server extracts properties.status as the status schema, so it allows only description, type (object), format, title, bounds, lengths, pattern, item counts, uniqueItems, multipleOf, required, items, properties, externalDocs, example, x-kubernetes-preserve-unknown-fields and x-kubernetes-validations at the root, and reports the first other field. Root oneOf/anyOf/allOf/not are rejected then. nullable is forbidden at the root in every case.',
    reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: validateCustomResourceDefinitionValidation, allowedAtRootSchema',
  },
});
