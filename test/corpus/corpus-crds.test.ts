import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { lintSources } from '../../src/engine/lint.js';
import { corpusFiles, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';
import { cel } from '../helpers/cel.js';

if (!HAVE_CORPUS) console.warn(NO_CORPUS_REASON);

/**
 * Real CRDs that clusters accept: lint must report zero errors on every one of them, and the
 * warnings it raises are listed here so that any new one is reviewed.
 */
const EXPECTED_WARNINGS: Record<string, number> = {
  // /status enabled, no status property: the generators of external-secrets, tekton's Pipeline/Task/StepAction,
  // knative's DomainClaim and cluster-api's ClusterResourceSetBinding really have no status field.
  'status-property': 26,
  // CRDs over 256 KiB as JSON: client-side kubectl apply fails with "metadata.annotations: Too long" (the projects
  // document server-side apply for exactly this reason): argo-cd, crossplane, external-secrets, gateway-api, keda,
  // kyverno, prometheus-operator.
  'client-side-apply-size': 15,
};

describe.skipIf(!HAVE_CORPUS)('corpus CRDs (../shared/corpus/crds)', () => {
  const files = corpusFiles('crds');
  const result = lintSources(
    files.map((f) => ({ path: f.path, text: f.text })),
    { kubeVersion: DEFAULT_KUBE_VERSION, cel },
  );

  it('reads every CRD document', () => {
    expect(result.crds.length).toBeGreaterThanOrEqual(213);
  });

  for (const project of [...new Set(files.map((f) => f.project))]) {
    it(`${project}: zero errors`, () => {
      const errs = result.findings.filter((f) => f.severity === 'error' && f.file.includes(`/crds/${project}/`));
      expect(errs.map((e) => `${e.file}:${e.line}:${e.column} ${e.ruleId} ${e.message}`)).toEqual([]);
    });
  }

  it('raises only the reviewed warnings', () => {
    const counts: Record<string, number> = {};
    for (const f of result.findings.filter((x) => x.severity === 'warning')) counts[f.ruleId] = (counts[f.ruleId] ?? 0) + 1;
    expect(counts).toEqual(EXPECTED_WARNINGS);
  });
});
