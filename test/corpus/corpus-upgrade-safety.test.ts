import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { lintSources } from '../../src/engine/lint.js';
import { corpusFiles, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';
import { cel } from '../helpers/cel.js';

if (!HAVE_CORPUS) console.warn(NO_CORPUS_REASON);

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined);

/** upgrade-safety on real CRDs: an unchanged CRD gives no advice; a seeded revision gives exactly its change. */
describe.skipIf(!HAVE_CORPUS)('upgrade-safety on the corpus CRDs', { timeout: 120_000 }, () => {
  const files = corpusFiles('crds');

  it('every CRD against itself: every one is an update, no upgrade-safety finding', () => {
    // file by file: gateway-api's standard and experimental channels hold CRDs of the same names
    let updates = 0;
    const found: string[] = [];
    for (const f of files) {
      const source = { path: f.path, text: f.text };
      const r = lintSources([source], { kubeVersion: DEFAULT_KUBE_VERSION, cel, old: [source] });
      expect(r.summary.updates?.length, f.path).toBe(r.crds.length);
      updates += r.crds.length;
      found.push(...r.findings.filter((x) => x.ruleId === 'upgrade-safety').map((x) => `${x.file}:${x.line} ${x.message}`));
    }
    expect(updates).toBeGreaterThanOrEqual(213);
    expect(found).toEqual([]);
  });

  it('a field removed from spec of one served version: exactly that one finding, at NEW and OLD', () => {
    let seeded = 0;
    for (const f of files) {
      for (const doc of parseAllDocuments(f.text)) {
        const value = rec(doc.toJS());
        if (value?.['kind'] !== 'CustomResourceDefinition') continue;
        const versions = (rec(value['spec'])?.['versions'] ?? []) as unknown[];
        const i = versions.findIndex((v) => rec(v)?.['served'] === true && rec(rec(rec(rec(rec(rec(v)?.['schema'])?.['openAPIV3Schema'])?.['properties'])?.['spec'])?.['properties']));
        if (i < 0) continue;
        const version = rec(versions[i])!;
        const spec = rec(rec(rec(rec(version['schema'])?.['openAPIV3Schema'])?.['properties'])?.['spec'])!;
        if (spec['x-kubernetes-preserve-unknown-fields'] === true) continue;
        const field = Object.keys(rec(spec['properties'])!)[0]!;
        const oldText = doc.toString();
        doc.deleteIn(['spec', 'versions', i, 'schema', 'openAPIV3Schema', 'properties', 'spec', 'properties', field]);
        const r = lintSources([{ path: 'new.yaml', text: doc.toString() }], { kubeVersion: DEFAULT_KUBE_VERSION, cel, old: [{ path: 'old.yaml', text: oldText }] });
        const got = r.findings.filter((x) => x.ruleId === 'upgrade-safety');
        const where = `${f.path} ${String(rec(value['metadata'])?.['name'])}`;
        expect(got.map((x) => [x.messageId, x.path, x.old?.file]), where).toEqual([
          ['fieldRemoved', `spec.versions[${i}].schema.openAPIV3Schema.properties[spec].properties`, 'old.yaml'],
        ]);
        expect(got[0]!.message, where).toBe(`version ${String(version['name'])}: field spec.${field} is removed: stored values are pruned on the next write`);
        seeded++;
      }
    }
    expect(seeded).toBeGreaterThan(150);
    console.log(`upgrade-safety: ${seeded} seeded field removals, each found exactly once`);
  });
});
