import { gated } from '../core/version-gates.js';
import { formatKubeVersion } from '../core/kube-version.js';
import { defineRule } from './types.js';

export const v1beta1Crd = defineRule({
  id: 'v1beta1-crd',
  meta: {
    type: 'problem',
    serverFaithful: true,
    defaultSeverity: 'error',
    docs: {
      description: 'apiextensions.k8s.io/v1beta1 CRDs are not served since Kubernetes 1.22.',
      details:
        'From 1.22 the API server no longer serves apiextensions.k8s.io/v1beta1: kubectl answers `no matches for kind "CustomResourceDefinition" in version "apiextensions.k8s.io/v1beta1"`. Convert the CRD to apiextensions.k8s.io/v1 (schemas per version, no preserveUnknownFields: true). With --kube-version 1.16-1.21 the v1beta1 rules apply instead.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apiserver/apiserver.go: completedConfig.New; k8s.io/apimachinery pkg/api/meta/errors.go: NoKindMatchError.Error',
    },
    messages: {
      notServed:
        'apiextensions.k8s.io/v1beta1 CustomResourceDefinitions are not served by Kubernetes {{kube}}: no matches for kind "CustomResourceDefinition" in version "apiextensions.k8s.io/v1beta1" (use apiextensions.k8s.io/v1)',
    },
  },
  *check({ crd }) {
    if (crd.requestVersion === 'v1beta1' && gated(crd.kube, 'crd.v1beta1-not-served'))
      yield { messageId: 'notServed', data: { kube: formatKubeVersion(crd.kube) }, path: ['apiVersion'] };
  },
});
