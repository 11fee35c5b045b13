/**
 * Every custom resource in ../shared/corpus/samples whose CRD is in ../shared/corpus/crds goes
 * through `default`: it must be accepted, except the objects listed in REJECTED, which the real
 * server rejects too (test/conformance/default.conformance.test.ts replays every one of them):
 *
 *  - cluster-api/clusterctl-metadata.yaml Metadata: has no metadata.name ("metadata.name: Required
 *    value: name or generateName is required"). It is clusterctl's release metadata file, read by
 *    clusterctl from a release, never applied to a cluster.
 *
 * Objects without a CRD in the corpus are not checked (cluster-api's DockerCluster,
 * DockerMachineTemplate and DockerMachinePool: the Docker infrastructure provider's CRDs are not
 * in the corpus).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { buildCrd, isCrdManifest, type Crd } from '../../src/crd/model.js';
import { defaultSources } from '../../src/engine/default.js';
import { parseFile } from '../../src/manifest/parse.js';
import { corpusFiles, HAVE_CORPUS } from '../helpers/corpus.js';
import { cel } from '../helpers/cel.js';

const REJECTED: Record<string, string> = {
  'cluster-api/clusterctl-metadata.yaml Metadata': 'FieldValueRequired metadata.name',
};

describe.skipIf(!HAVE_CORPUS)('corpus samples default without error', () => {
  let crds: Crd[] | undefined;
  const corpusCrds = (): Crd[] =>
    (crds ??= corpusFiles('crds')
      .flatMap((f) => parseFile(f).flatMap((d) => d.manifests))
      .filter(isCrdManifest)
      .map((m) => buildCrd(m, DEFAULT_KUBE_VERSION, cel)));
  for (const f of corpusFiles('samples')) {
    const name = `${f.project}/${f.path.split('/').pop()}`;
    it(name, () => {
      const run = defaultSources([{ path: f.path, text: f.text }], [], { kubeVersion: DEFAULT_KUBE_VERSION, cel, crds: corpusCrds() });
      expect(run.parseFindings).toEqual([]);
      for (const o of run.objects) {
        const errors = o.findings.filter((x) => x.severity === 'error').map((x) => (x.server ? `${x.server.reason} ${x.server.field}` : x.message));
        const expected = REJECTED[`${name} ${o.manifest.kind}`];
        expect(errors, `${o.manifest.kind}/${o.manifest.name}`).toEqual(expected ? [expected] : []);
        expect(o.rejected).toBe(expected !== undefined);
        if (!o.rejected) expect(o.result.value).toBeDefined();
      }
      for (const u of run.unmatched) expect(u.message).toMatch(/^no CustomResourceDefinition for Docker/);
    }, 120_000);
  }
});
