import type { ServerResponse } from '../core/types.js';
import { serverReport, defineRule, type Report } from './types.js';

const badRequest = (message: string): ServerResponse => ({ code: 400, reason: 'BadRequest', message });

export const customResource = defineRule({
  id: 'custom-resource',
  meta: {
    type: 'problem',
    serverFaithful: true,
    defaultSeverity: 'error',
    docs: {
      description: 'A custom resource must pass the API server\'s create validation against its CRD.',
      details:
        'Every object of the input whose apiVersion and kind belong to a CRD of the input (or of --crd) is created the way the server creates it, with the field validation kubectl asks for (--validate, default strict): an unknown field fails the request with the server\'s 400 BadRequest (`<Kind> in version "<v>" cannot be handled as a <Kind>: strict decoding error: unknown field "spec.foo", …`; one finding per field, at its key, the whole answer in the JSON `response`), and nothing else is validated; with --validate=warn the fields are pruned with a warning (custom-resource-warnings) and validation goes on; with --validate=ignore they are pruned silently. The object is then decoded in its version (pruned, nulls dropped, metadata normalised, defaulted), then validated in the server\'s order: root metadata (name a DNS-1123 subdomain, namespace, labels, annotations, finalizers, owner references), the version\'s schema (types, formats, patterns, enums, bounds, required), the scale subresource paths, embedded resources and list-type uniqueness. Each error carries the cause of the 422 the server would answer. Wrongly typed metadata or embedded apiVersion/kind fail earlier, with a 400 "cannot be handled as a <Kind>". A version the CRD does not serve is a 404. A CRD (of the input or of --crd) that the server would refuse to create never serves its kind: the object gets one finding, kubectl\'s `no matches for kind "<Kind>" in version "<group>/<version>"`, naming the CRD\'s first cause (in source order) and how many more there are, and nothing else of it is checked; with lint --old, a refused update leaves the installed CRD in place, and the object is checked against that one. CEL rules (x-kubernetes-validations) are evaluated where every function and value type they use is known to behave as on the server; an object whose rules could not all be evaluated can still be rejected by them.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apiserver/customresource_handler.go: crdHandler.ServeHTTP, schemaCoercingDecoder.Decode, unstructuredSchemaCoercer.apply, unstructuredDefaulter.Default; k8s.io/apiextensions-apiserver pkg/registry/customresource/strategy.go: customResourceStrategy.Validate; k8s.io/apiextensions-apiserver pkg/registry/customresource/validator.go: customResourceValidator.Validate; k8s.io/apiextensions-apiserver pkg/apiserver/validation/validation.go: ValidateCustomResource; k8s.io/apiserver pkg/endpoints/handlers/create.go: createHandler',
    },
    messages: {
      server: '{{text}}',
      decode: '{{text}} (the server answers 400 BadRequest)',
      strict: '{{text}} (fieldValidation=Strict: the server answers 400 BadRequest)',
      notServed: '{{text}}: the server answers 404 NotFound',
      crdRejected: '{{text}}',
    },
  },
  *check() {},
  *checkResource({ lookup, result }) {
    if (!lookup.ok) {
      if (lookup.code === 'version-not-served') yield { messageId: 'notServed' as const, data: { text: lookup.message }, path: ['apiVersion'] };
      if (lookup.code === 'crd-rejected') yield { messageId: 'crdRejected' as const, data: { text: lookup.message }, path: ['kind'] };
      return;
    }
    const r = result();
    if (r.decodeError) {
      yield { messageId: 'decode' as const, data: { text: r.decodeError.message }, path: r.decodeError.at ?? [], response: badRequest(r.decodeError.message) };
      return;
    }
    if (r.strictError) {
      const response = badRequest(r.strictError.message);
      for (const f of r.strictError.fields) yield { messageId: 'strict' as const, data: { text: f.text }, path: f.path, at: 'key' as const, response };
      return;
    }
    for (const e of r.errors) yield serverReport(e) as Report<'server'>;
  },
});
