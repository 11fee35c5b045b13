import { schemaCategoryRule } from './helpers.js';

export const listMapTypes = schemaCategoryRule('list-map-types', 'list-map', {
  docs: {
    description: 'x-kubernetes-list-type, x-kubernetes-list-map-keys and x-kubernetes-map-type must be consistent.',
    details:
      'list-type needs type array and one of atomic/set/map; map lists need keys that are scalar, required-or-defaulted, non-nullable item properties; set items must be atomic; map-type needs type object and atomic/granular.',
    reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: ValidateCustomResourceDefinitionOpenAPISchema, validateMapListKeysMapSet',
  },
});
