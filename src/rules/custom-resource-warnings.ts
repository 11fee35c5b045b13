import { defineRule } from './types.js';

export const customResourceWarnings = defineRule({
  id: 'custom-resource-warnings',
  meta: {
    type: 'suggestion',
    serverFaithful: true,
    defaultSeverity: 'warning',
    docs: {
      description: 'The warnings the API server sends back when a custom resource is created: unknown fields, deprecated versions, finalizer names.',
      details:
        'With --validate=warn, unknown fields are pruned and each gets the server\'s warning (`unknown field "spec.foo"`), root and embedded metadata fields included, in the server\'s order; under kubectl\'s default --validate=strict they fail the request instead (custom-resource), and with --validate=ignore they are pruned silently. A deprecated CRD version gets its deprecation warning, duplicate owner references are deduplicated, and finalizer names that are not domain-qualified get the server\'s advice (1.29+). On an update (the `status` and `scale` simulations), an x-kubernetes-validations rule (one without oldSelf) that fails on a value the update leaves unchanged is ratcheted: the server accepts the update and sends the failure as a warning, `<field>: Invalid value: …`, as it would have been the error.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apiserver/customresource_handler.go: schemaCoercingDecoder.Decode, unstructuredSchemaCoercer.apply, crdHandler.ServeHTTP, defaultDeprecationWarning; k8s.io/apiextensions-apiserver pkg/registry/customresource/strategy.go: customResourceStrategy.WarningsOnCreate; k8s.io/apiextensions-apiserver pkg/registry/customresource/validator.go: validateKubeFinalizerName; k8s.io/apiserver pkg/endpoints/handlers/rest.go: addStrictDecodingWarnings, dedupOwnerReferencesAndAddWarning; k8s.io/apiextensions-apiserver pkg/apiserver/schema/cel/validation.go: validateExpressions (ratchetingOptions.shouldRatchetError)',
    },
    messages: {
      unknownField: '{{text}}',
      deprecated: '{{text}}',
      finalizer: '{{text}}',
      ownerReferences: '{{text}}',
      ratcheted: '{{text}}',
    },
  },
  *check() {},
  *checkResource({ lookup, result }) {
    if (!lookup.ok) return;
    const r = result();
    for (const w of r.warnings) {
      const messageId = w.kind === 'unknown-field' ? 'unknownField' : w.kind === 'owner-references' ? 'ownerReferences' : w.kind;
      // a ratcheted rule's warning points at the value, as its error would (the root: apiVersion)
      if (w.kind === 'ratcheted') {
        yield { messageId, data: { text: w.text }, path: w.path !== undefined && w.path.length > 0 ? w.path : ['apiVersion'], at: 'value' as const };
        continue;
      }
      yield { messageId, data: { text: w.text }, path: w.path ?? ['apiVersion'], at: w.kind === 'unknown-field' ? ('key' as const) : ('value' as const) };
    }
  },
});
