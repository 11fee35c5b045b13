import { isRecord } from '../core/types.js';
import { defineRule } from './types.js';
import { goJSONLength } from '../go/json.js';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** apimachinery's TotalAnnotationSizeLimitB. */
const ANNOTATION_LIMIT = 256 * 1024;


export const clientSideApplySize = defineRule({
  id: 'client-side-apply-size',
  meta: {
    type: 'suggestion',
    serverFaithful: false,
    defaultSeverity: 'warning',
    docs: {
      description: 'A CRD too large for client-side kubectl apply.',
      details:
        'Client-side `kubectl apply` stores the whole object in the kubectl.kubernetes.io/last-applied-configuration annotation, and the server rejects objects whose annotations exceed 262144 bytes (`metadata.annotations: Too long: may not be more than 262144 bytes`). The CRD itself is valid: install it with `kubectl apply --server-side` or `kubectl create`.',
      reference: 'k8s.io/kubectl pkg/cmd/apply/apply.go: ApplyOptions.applyOneObject; k8s.io/kubectl pkg/util/apply.go: CreateApplyAnnotation, GetModifiedConfiguration; k8s.io/apimachinery pkg/api/validation/objectmeta.go: ValidateAnnotations (not checked by the server until kubectl adds the annotation)',
    },
    messages: {
      tooLarge:
        'kubectl apply (client-side) would store {{size}} bytes of annotations (limit 262144) and the server rejects it with "metadata.annotations: Too long": use kubectl apply --server-side or kubectl create',
    },
  },
  *check({ crd }) {
    const obj = crd.manifest.value;
    const meta = isRecord(obj['metadata']) ? obj['metadata'] : {};
    const ann = isRecord(meta['annotations']) ? meta['annotations'] : {};
    let others = 0;
    for (const [k, v] of Object.entries(ann)) if (k !== LAST_APPLIED) others += Buffer.byteLength(k) + Buffer.byteLength(String(v));
    // the annotation holds the object as applied, without itself, plus a trailing newline
    const withoutLast = { ...obj, metadata: { ...meta, annotations: Object.fromEntries(Object.entries(ann).filter(([k]) => k !== LAST_APPLIED)) } };
    if (Object.keys(ann).length === 0) delete (withoutLast.metadata as Record<string, unknown>)['annotations'];
    const size = others + Buffer.byteLength(LAST_APPLIED) + goJSONLength(withoutLast) + 1;
    if (size > ANNOTATION_LIMIT) yield { messageId: 'tooLarge' as const, data: { size }, path: ['metadata'] };
  },
});
