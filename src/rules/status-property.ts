import { has } from '../crd/json.js';
import { blockOf, structuralFor } from '../crd/model.js';
import { defineRule } from './types.js';

export const statusProperty = defineRule({
  id: 'status-property',
  meta: {
    type: 'suggestion',
    serverFaithful: false,
    defaultSeverity: 'warning',
    docs: {
      description: 'With /status enabled the schema should declare a status property.',
      details:
        'The server does not check it, but without properties.status (or root x-kubernetes-preserve-unknown-fields) every status a controller writes through /status is pruned: the subresource is useless.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apiserver/customresource_handler.go: unstructuredSchemaCoercer.apply; k8s.io/apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go: PruneWithOptions; k8s.io/apiextensions-apiserver pkg/registry/customresource/status_strategy.go: statusStrategy.PrepareForUpdate (not checked by the server)',
    },
    messages: { missing: '/status is enabled for version {{version}}, but its schema has no status property: everything written to status is pruned' },
  },
  *check({ crd }) {
    for (const t of crd.subresources) {
      if (!has(t.value, 'status')) continue;
      for (const v of t.versions) {
        const schema = structuralFor(crd, v);
        if (!schema || schema.properties.has('status') || schema.extensions.preserveUnknownFields) continue;
        yield { messageId: 'missing' as const, data: { version: v.name }, path: [...blockOf(t, v, 'subresources'), 'status'] };
      }
    }
  },
});
