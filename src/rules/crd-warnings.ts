import { crdDecodeProblems, crdUnknownFieldText } from './crd-decode.js';
import { defineRule } from './types.js';

export const crdWarnings = defineRule({
  id: 'crd-warnings',
  meta: {
    type: 'suggestion',
    serverFaithful: true,
    defaultSeverity: 'warning',
    docs: {
      description: 'The warnings the API server sends back for a CRD under --validate=warn: its unknown fields, which it drops.',
      details:
        'With --validate=warn (fieldValidation=Warn, also the server\'s default for a client that sends none) an unknown field of the CRD (a typo such as storge, or readOnly, const, examples in a schema) is dropped and the server answers with one warning per field, `unknown field "spec.versions[0].storge"` (map keys joined with a dot: `…openAPIV3Schema.properties.spec.readOnly`), in document order; the CRD is created without it. Under kubectl\'s default --validate=strict the same field fails the request (crd-decode); with --validate=ignore it is dropped silently. Below the object form of items, additionalProperties, additionalItems and a dependencies value the server sends no warning (schema-dropped-fields).',
      reference: 'k8s.io/apiserver pkg/endpoints/handlers/create.go: createHandler; k8s.io/apiserver pkg/endpoints/handlers/rest.go: fieldValidation, addStrictDecodingWarnings; k8s.io/apimachinery pkg/runtime/serializer/json/json.go: Serializer.Decode',
    },
    messages: {
      unknownField: '{{text}}',
    },
  },
  *check({ crd, fieldValidation }) {
    if (fieldValidation !== 'Warn') return;
    const { types, unknown } = crdDecodeProblems(crd);
    // a type error fails the request (crd-decode): no warnings come back
    if (types.length > 0) return;
    for (const p of unknown) yield { messageId: 'unknownField' as const, data: { text: crdUnknownFieldText(p.path) }, path: p.path, at: 'key' as const };
  },
});
