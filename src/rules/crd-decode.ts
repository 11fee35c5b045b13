import { cannotBeHandled, strictDecodingText, type FieldValidation } from '../core/field-validation.js';
import { formatPath } from '../core/path.js';
import { gated } from '../core/version-gates.js';
import type { JsonPath, ServerResponse } from '../core/types.js';
import { serverDecodeError, type DecodeProblem } from '../crd/decode.js';
import { formatUnknownFieldPath } from '../schema/behaviours/prune.js';
import type { Crd } from '../crd/model.js';
import { defineRule } from './types.js';
import { quote } from '../go/quote.js';

/**
 * The JSON decoder's entry for an unknown field of the CRD: every key joined with `.` (map keys
 * such as a property name included: `properties.spec.foo`, not the field.Path `properties[spec]`),
 * list indexes as `[i]`, the whole path Go-quoted (`unknown field "spec.q\"z"`). Checked against
 * the real server, which differs here from the field.Path form (`properties[spec].foo`).
 */
export function crdUnknownFieldText(path: JsonPath): string {
  // the same dotted form as pruning's unknown-field paths, but quoted as the JSON decoder quotes it
  return `unknown field ${quote(formatUnknownFieldPath(path))}`;
}

/** What decoding the CRD finds: type problems end the request; unknown fields depend on the field validation. */
export function crdDecodeProblems(crd: Crd): { readonly types: readonly DecodeProblem[]; readonly unknown: readonly DecodeProblem[]; readonly dropped: readonly DecodeProblem[] } {
  if (crd.requestVersion !== 'v1') return { types: [], unknown: [], dropped: [] };
  const all = crd.decodeProblems;
  return { types: all.filter((p) => p.kind === 'type'), unknown: all.filter((p) => p.kind === 'unknown-field'), dropped: all.filter((p) => p.kind === 'dropped-field' || p.kind === 'dropped-value') };
}

/** The server's decoder fails the CRD's request (400 BadRequest) before any validation runs. */
export function decodeFails(crd: Crd, fieldValidation: FieldValidation): boolean {
  const { types, unknown } = crdDecodeProblems(crd);
  return types.length > 0 || (fieldValidation === 'Strict' && unknown.length > 0);
}

export const crdDecode = defineRule({
  id: 'crd-decode',
  meta: {
    type: 'problem',
    serverFaithful: true,
    defaultSeverity: 'error',
    docs: {
      description: 'Every field of the CRD must exist in apiextensions.k8s.io/v1 and have the right JSON type.',
      details:
        'A value of the wrong type (served: "true", maxLength: "5", a list where an object belongs) makes the request fail with 400 BadRequest before any validation runs, in encoding/json\'s words: `json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.maxLength of type int64` (the Go struct that holds the field, the JSON field names without map keys or list indexes, the Go type; `number 1.5` for a fraction where an integer belongs), `illegal base64 data at input byte N` for a caBundle, `boolean or JSON schema expected` for additionalProperties or additionalItems. The server names one error: the first in document order, unless an error below items, additionalProperties, additionalItems or a dependencies value (or one of those two) comes later, which ends the decoding at once; every type error is reported, each with that one answer in the JSON `response`. Up to 1.34 an error below those fields is named by the field it is below (`…properties.items of type int64`), from 1.35 by the field where it is (`…items.maxLength of type int64`). Items or a dependencies value that is neither an object nor a list is dropped without an error (schema-dropped-fields). An unknown field (a typo such as storge, or readOnly, const, examples in a schema) fails the request under kubectl\'s default field validation (--validate=strict) with the server\'s 400, `CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec.versions[0].storge"` (all unknown fields in document order; one finding per field, the whole answer in the JSON `response`); with --validate=warn it is dropped with a warning (crd-warnings), with --validate=ignore silently. Below the object form of items, additionalProperties, additionalItems and a dependencies value the server decodes without strictness: an unknown field there is dropped silently under every --validate (schema-dropped-fields). A type error hides the unknown fields: the server reports only the type error. A 400 is the whole answer: the server validates nothing else of that CRD, so no other server verdict (no 422 cause, no warning) is reported for it; advisory rules still run.',
      reference: 'k8s.io/apiserver pkg/endpoints/handlers/create.go: createHandler; k8s.io/apiserver pkg/endpoints/handlers/rest.go: fieldValidation, transformDecodeError; k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1/marshal.go: JSONSchemaPropsOrBool.UnmarshalJSON; k8s.io/apimachinery pkg/util/json/json.go: Unmarshal; k8s.io/apimachinery pkg/runtime/serializer/json/json.go: Serializer.Decode; k8s.io/apimachinery pkg/runtime/error.go: NewStrictDecodingError',
    },
    messages: {
      type: '{{text}} (at {{path}}: the server answers 400 BadRequest)',
      unknown: '{{text}} (fieldValidation=Strict: the server answers 400 BadRequest)',
    },
  },
  *check({ crd, fieldValidation }) {
    const { types, unknown } = crdDecodeProblems(crd);
    if (types.length > 0) {
      // one error is the server's answer; every type problem is reported, each in the decoder's words
      const text = (p: DecodeProblem): string => (gated(crd.kube, 'crd.decode-inner-field') ? p.text : (p.textBefore135 ?? p.text)) ?? '';
      const response: ServerResponse = { code: 400, reason: 'BadRequest', message: cannotBeHandled('CustomResourceDefinition', 'v1', text(serverDecodeError(types)!)) };
      for (const p of types) yield { messageId: 'type' as const, data: { path: formatPath(p.path), text: text(p) }, path: p.path, response };
      return;
    }
    if (fieldValidation !== 'Strict' || unknown.length === 0) return;
    const texts = unknown.map((p) => crdUnknownFieldText(p.path));
    const response: ServerResponse = { code: 400, reason: 'BadRequest', message: cannotBeHandled('CustomResourceDefinition', 'v1', strictDecodingText(texts)) };
    for (const [i, p] of unknown.entries()) yield { messageId: 'unknown' as const, data: { text: texts[i]! }, path: p.path, at: 'key' as const, response };
  },
});
