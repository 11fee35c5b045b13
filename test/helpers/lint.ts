import { DEFAULT_KUBE_VERSION, parseKubeVersion } from '../../src/core/kube-version.js';
import type { Finding } from '../../src/core/types.js';
import { lintSources } from '../../src/engine/lint.js';
import { cel } from './cel.js';

/** Lints inline YAML (one or more documents) and returns the findings. */
export function lintYaml(text: string, kubeVersion = '1.36', path = 'test.yaml'): readonly Finding[] {
  return lintSources([{ path, text }], { kubeVersion: parseKubeVersion(kubeVersion) ?? DEFAULT_KUBE_VERSION, cel }).findings;
}

/** The server causes of the findings, as "Reason field" strings, sorted (what a 422 would list). */
export function serverCauses(findings: readonly Finding[]): string[] {
  return findings
    .filter((f) => f.server)
    .map((f) => `${f.server!.reason} ${f.server!.field}`)
    .sort();
}

/** The BASE CRD of crd-validation.md §21. */
export const BASE = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: plural.group.com}
spec:
  group: group.com
  scope: Namespaced
  names: {plural: plural, singular: singular, kind: Plural, listKind: PluralList}
  versions:
  - name: version
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object}
`;
