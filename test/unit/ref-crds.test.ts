/**
 * Reference CRDs (--crd) are read only where the input may need them (src/engine/ref-crds.ts): every
 * CRD whose kind an object of the input has must still be there, in the same order; the others may go.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { lintSources } from '../../src/engine/lint.js';
import { referenceCrds } from '../../src/engine/ref-crds.js';
import { isCrdManifest } from '../../src/crd/model.js';
import { parseFile, type Manifest, type SourceFile } from '../../src/manifest/parse.js';
import { corpusFiles, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';
import { cel } from '../helpers/cel.js';

const crd = (kind: string, extra = '') =>
  `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: ${kind.toLowerCase()}s.example.com\nspec:\n  group: example.com\n  names:\n    kind: ${kind}\n    plural: ${kind.toLowerCase()}s\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n              size: {type: integer, maximum: 3}${extra}\n`;
const cr = (kind: string, size = 1) => `apiVersion: example.com/v1\nkind: ${kind}\nmetadata:\n  name: a\nspec:\n  size: ${size}\n`;
const kinds = (ms: readonly Manifest[]) => ms.map((m) => (m.value['spec'] as { names: { kind: string } }).names.kind);
const inputs = (...texts: string[]) => texts.map((text, i) => parseFile({ path: `in${i}.yaml`, text }));

describe('reference CRDs read for the input', () => {
  const refs: SourceFile = {
    path: 'crds.yaml',
    text: [crd('Widget'), crd('WidgetSet'), crd('Gadget'), crd('Widget', '\n        description: a second Widget'), crd('Thing')].join('---\n'),
  };

  it('keeps the CRDs of the kinds of the input, in their order, and not those of longer names', () => {
    expect(kinds(referenceCrds([refs], inputs(cr('Widget'))))).toEqual(['Widget', 'Widget']);
    expect(kinds(referenceCrds([refs], inputs(cr('Thing'), cr('Gadget'))))).toEqual(['Gadget', 'Thing']);
  });

  it('reads nothing when the input has no objects to check, and everything when a kind is not a plain name', () => {
    expect(referenceCrds([refs], inputs(crd('Other')))).toEqual([]);
    expect(kinds(referenceCrds([refs], inputs(cr('Odd-Kind'))))).toEqual(['Widget', 'WidgetSet', 'Gadget', 'Widget', 'Thing']);
  });

  it('keeps a part whose kind is written in any form YAML or JSON gives it, or may come from an alias', () => {
    const forms = [
      'kind: "Widget"',
      "kind: 'Widget' # c",
      'kind:\n      Widget',
      'kind: |-\n      Widget',
      'kind: !!str Widget',
      'kind: &k Widget',
      '"kind": "Widget"',
      'kind : Widget',
    ];
    for (const form of forms) {
      const text = crd('Gadget').replace('kind: Gadget', form);
      expect(referenceCrds([{ path: 'f.yaml', text }], inputs(cr('Widget'))).length, form).toBe(1);
    }
    for (const form of ['names: {kind: Widget, plural: widgets}', '"names": {"plural":"widgets","kind":"Widget"}']) {
      const text = crd('Gadget').replace('names:\n    kind: Gadget\n    plural: gadgets', form);
      expect(referenceCrds([{ path: 'f.yaml', text }], inputs(cr('Widget'))).length, form).toBe(1);
    }
    // an alias: the value comes from an anchor elsewhere in the part
    const alias = crd('Gadget').replace('kind: Gadget', 'kind: *k').replace('name: gadgets.example.com', 'name: gadgets.example.com\n  labels: {a: &k Widget}');
    expect(kinds(referenceCrds([{ path: 'f.yaml', text: alias }], inputs(cr('Widget'))))).toEqual(['Widget']);
    // the word alone, as a scope or in a description, does not make a part needed
    const mention = crd('Gadget').replace('scope: Namespaced', 'scope: Widget');
    expect(referenceCrds([{ path: 'f.yaml', text: mention }], inputs(cr('Widget')))).toEqual([]);
  });

  it('keeps a part that could spell a kind with escapes', () => {
    const escaped = crd('Gadget').replace('kind: Gadget', 'kind: "\\x57idget"');
    const broken = crd('Gadget').replace('kind: Gadget', 'kind: "Wid\\\n      get"');
    expect(kinds(referenceCrds([{ path: 'e.yaml', text: [crd('Gadget'), escaped, broken].join('---\n') }], inputs(cr('Widget'))))).toEqual(['Widget', 'Widget']);
  });

  it('gives the findings of a lint that reads every reference CRD', () => {
    const files = [{ path: 'cr.yaml', text: [cr('Widget', 5), cr('Gadget', 9), cr('Nothing')].join('---\n') }];
    const r = lintSources(files, { crdFiles: [refs], kubeVersion: DEFAULT_KUBE_VERSION, cel });
    expect(r.findings.map((f) => `${f.object?.kind} ${f.path} ${f.message}`)).toEqual([
      expect.stringMatching(/^Widget spec\.size .*5.*3/),
      expect.stringMatching(/^Gadget spec\.size .*9.*3/),
    ]);
  });

  it.skipIf(!HAVE_CORPUS)(`on the corpus: every CRD of a kind the samples have is kept, in order${HAVE_CORPUS ? '' : ` (${NO_CORPUS_REASON})`}`, () => {
    const crdFiles = corpusFiles('crds').map((f) => ({ path: f.path, text: f.text }));
    const samples = corpusFiles('samples').map((f) => parseFile({ path: f.path, text: f.text }));
    const wanted = new Set(samples.flat().flatMap((d) => d.manifests.map((m) => m.kind)));
    const all = crdFiles.flatMap((f) => parseFile(f).flatMap((d) => d.manifests)).filter(isCrdManifest);
    const kept = referenceCrds(crdFiles, samples);
    const need = (ms: readonly Manifest[]) => ms.filter((m) => wanted.has((m.value['spec'] as { names?: { kind?: string } }).names?.kind)).map((m) => JSON.stringify(m.value));
    expect(need(kept)).toEqual(need(all));
    expect(need(all).length).toBeGreaterThan(20);
    // and it is worth something: many CRDs are not read
    expect(kept.length).toBeLessThan(all.length * 0.6);
  });
});
