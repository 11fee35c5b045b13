import { cannotBeHandled, strictDecodingText, type FieldValidation } from '../core/field-validation.js';
import { formatPath } from '../core/path.js';
import type { JsonPath, ServerResponse } from '../core/types.js';
import type { DecodeProblem } from '../crd/decode.js';
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
export function crdDecodeProblems(crd: Crd): { readonly types: readonly DecodeProblem[]; readonly unknown: readonly DecodeProblem[] } {
  if (crd.requestVersion !== 'v1') return { types: [], unknown: [] };
  const all = crd.decodeProblems;
  return { types: all.filter((p) => p.kind === 'type'), unknown: all.filter((p) => p.kind === 'unknown-field') };
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
        'A value of the wrong type (served: "true", maxLength: "5", a list where an object belongs) makes the request fail with 400 BadRequest before any validation runs. An unknown field (a typo such as storge, or readOnly, const, examples in a schema) fails the request under kubectl\'s default field validation (--validate=strict) with the server\'s 400, `CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec.versions[0].storge"` (all unknown fields in document order; one finding per field, the whole answer in the JSON `response`); with --validate=warn it is dropped with a warning (crd-warnings), with --validate=ignore silently. A type error hides the unknown fields: the server reports only the type error. A 400 is the whole answer: the server validates nothing else of that CRD, so no other server verdict (no 422 cause, no warning) is reported for it; advisory rules still run.',
      reference: 'k8s.io/apiserver pkg/endpoints/handlers/create.go: createHandler; k8s.io/apiserver pkg/endpoints/handlers/rest.go: fieldValidation, transformDecodeError; k8s.io/apimachinery pkg/runtime/serializer/json/json.go: Serializer.Decode; k8s.io/apimachinery pkg/runtime/error.go: NewStrictDecodingError',
    },
    messages: {
      type: 'cannot decode {{path}}: a JSON {{got}} where the CustomResourceDefinition field expects {{expected}} (the server answers 400 BadRequest)',
      unknown: '{{text}} (fieldValidation=Strict: the server answers 400 BadRequest)',
    },
  },
  *check({ crd, fieldValidation }) {
    const { types, unknown } = crdDecodeProblems(crd);
    for (const p of types) yield { messageId: 'type' as const, data: { path: formatPath(p.path), got: p.got ?? '', expected: p.expected ?? '' }, path: p.path };
    if (types.length > 0 || fieldValidation !== 'Strict' || unknown.length === 0) return;
    const texts = unknown.map((p) => crdUnknownFieldText(p.path));
    const response: ServerResponse = { code: 400, reason: 'BadRequest', message: cannotBeHandled('CustomResourceDefinition', 'v1', strictDecodingText(texts)) };
    for (const [i, p] of unknown.entries()) yield { messageId: 'unknown' as const, data: { text: texts[i]! }, path: p.path, at: 'key' as const, response };
  },
});
