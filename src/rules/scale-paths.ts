import { rec, str } from '../crd/json.js';
import { blockOf, structuralFor } from '../crd/model.js';
import { resolveDotted } from '../schema/resolve.js';
import { defineRule, type Report } from './types.js';

type M = 'arrayNotation' | 'missing' | 'notInteger' | 'selectorNotString';

export const scalePaths = defineRule({
  id: 'scale-paths',
  meta: {
    type: 'suggestion',
    serverFaithful: false,
    defaultSeverity: 'warning',
    docs: {
      description: '/scale paths should exist in the schema with the right types.',
      details:
        'The server only checks the leading ".spec."/".status." of scale paths. A path with array notation, a path that is not in the schema (and so is pruned away), or a replicas field that is not an integer is accepted, but GET/PUT /scale then fail or report 0 replicas, and an HPA pointed at the resource cannot work. labelSelectorPath must hold a string (the serialized selector).',
      reference: 'k8s.io/apiextensions-apiserver pkg/registry/customresource/etcd.go: ScaleREST.Get, ScaleREST.Update, scaleFromCustomResource, scaleUpdatedObjectInfo.UpdatedObject; k8s.io/apiextensions-apiserver pkg/registry/customresource/validator.go: customResourceValidator.ValidateScaleSpec, customResourceValidator.ValidateScaleStatus; k8s.io/apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go: PruneWithOptions (not checked by the server)',
    },
    messages: {
      arrayNotation: '{{field}} {{path}} uses array notation: the server accepts it, but /scale cannot read or write it',
      missing: '{{field}} {{path}} is not in the schema of version {{version}} ("{{at}}" is unknown and is pruned): /scale will not find it',
      notInteger: '{{field}} {{path}} has type "{{type}}" in version {{version}}: replicas must be an integer for /scale',
      selectorNotString: 'labelSelectorPath {{path}} has type "{{type}}" in version {{version}}: it must be a string (a serialized label selector) for /scale',
    },
  },
  *check({ crd }): Iterable<Report<M>> {
    for (const t of crd.subresources) {
      const scale = rec(t.value['scale']);
      if (!scale) continue;
      const at = [...t.loc.at, 'scale'];
      for (const field of ['specReplicasPath', 'statusReplicasPath', 'labelSelectorPath'] as const) {
        const path = str(scale[field]);
        if (path === '' || !path.startsWith('.')) continue;
        if (path.includes('[')) {
          yield { messageId: 'arrayNotation', data: { field, path }, path: [...at, field] };
          continue;
        }
        for (const v of t.versions) {
          const own = [...blockOf(t, v, 'subresources'), 'scale', field];
          const schema = structuralFor(crd, v);
          if (!schema) continue;
          const r = resolveDotted(schema, path);
          if (r.kind === 'missing') yield { messageId: 'missing', data: { field, path, version: v.name, at: r.at }, path: own };
          else if (r.kind === 'found') {
            const type = r.schema.generic.type;
            const ios = r.schema.extensions.intOrString;
            if (field === 'labelSelectorPath') {
              if (type !== 'string' && !ios)
                yield { messageId: 'selectorNotString', data: { path, type, version: v.name }, path: own };
            } else if (type !== 'integer' && !ios) yield { messageId: 'notInteger', data: { field, path, type, version: v.name }, path: own };
          }
        }
      }
    }
  },
});
