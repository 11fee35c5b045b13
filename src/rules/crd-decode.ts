import { formatPath } from '../core/path.js';
import { decodeProblems } from '../crd/decode.js';
import { defineRule } from './types.js';

export const crdDecode = defineRule({
  id: 'crd-decode',
  meta: {
    type: 'problem',
    serverFaithful: true,
    defaultSeverity: 'error',
    docs: {
      description: 'Every field of the CRD must exist in apiextensions.k8s.io/v1 and have the right JSON type.',
      details:
        'A value of the wrong type (served: "true", maxLength: "5", a list where an object belongs) makes the request fail with 400 BadRequest before any validation runs. An unknown field (a typo such as storge, or readOnly, const, examples in a schema) fails under kubectl\'s default strict field validation with `strict decoding error: unknown field`; with --validate=false the server silently drops it.',
      reference: 'crd-validation.md §0.1 step 1',
    },
    messages: {
      type: 'cannot decode {{path}}: a JSON {{got}} where the CustomResourceDefinition field expects {{expected}} (the server answers 400 BadRequest)',
      unknown: 'strict decoding error: unknown field "{{path}}" (kubectl apply/create reject it; with --validate=false it is dropped)',
    },
  },
  *check({ crd }) {
    if (crd.requestVersion !== 'v1') return;
    for (const p of decodeProblems(crd.manifest.value)) {
      if (p.kind === 'type')
        yield { messageId: 'type' as const, data: { path: formatPath(p.path), got: p.got ?? '', expected: p.expected ?? '' }, path: p.path };
      else yield { messageId: 'unknown' as const, data: { path: formatPath(p.path) }, path: p.path, at: 'key' as const };
    }
  },
});
