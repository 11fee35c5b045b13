import { kubeMinor } from '../core/kube-version.js';
import { Loc } from '../core/path.js';
import { validateDecodedObjectMeta } from '../schema/objectmeta.js';
import { getObjectMeta } from '../schema/objectmeta/decode.js';
import { serverMeta } from './helpers.js';
import { defineRule, serverReport } from './types.js';

/** Checked by crd-name (name/generateName) or silently cleared by the server (namespace). */
const OWN = /^metadata\.(name|generateName|namespace)$/;

export const crdMetadata = defineRule({
  id: 'crd-metadata',
  meta: serverMeta({
    docs: {
      description: 'The CRD\'s own labels, annotations, finalizers and owner references must be valid ObjectMeta.',
      details:
        'The server runs the generic ObjectMeta validation on every CRD: label keys must be qualified names and values at most 63 characters of [A-Za-z0-9-_.], annotation keys qualified names with at most 256 KiB of annotations in total, finalizers qualified names, owner references complete. A namespace on a CRD is dropped silently.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: ValidateCustomResourceDefinition; k8s.io/apimachinery pkg/api/validation/objectmeta.go: ValidateObjectMetaAccessor, ValidateAnnotations, ValidateOwnerReferences, ValidateFinalizers; k8s.io/apimachinery pkg/apis/meta/v1/validation/validation.go: ValidateLabels; k8s.io/apiserver pkg/registry/rest/meta.go: EnsureObjectNamespaceMatchesRequestNamespace',
    },
  }),
  *check({ crd }) {
    if (crd.requestVersion !== 'v1') return;
    const root = new Loc('', []);
    const r = getObjectMeta(crd.manifest.value, root, { drop: false, unknown: false });
    if (!r.meta) return; // wrong JSON types are crd-decode's (400 BadRequest)
    // managedFields: the field manager replaces them before validation, on create and update alike
    // (a CRD with operation "Foo" is accepted by 1.36 and 1.37 servers), so they are never checked here
    const { managedFields: _managed, ...rest } = r.meta;
    const meta = { ...rest, namespace: '' };
    for (const e of validateDecodedObjectMeta(meta, root.child('metadata'), crd.manifest.value['metadata'], kubeMinor(crd.kube)))
      if (!OWN.test(e.field)) yield serverReport(e);
  },
});
