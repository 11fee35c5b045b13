/**
 * The value validator's schema (src/schema/validation/schema.ts): converted from a typed node once per
 * format context and owned by the node, so a served version's schema is converted once.
 */
import { describe, expect, it } from 'vitest';
import { Loc } from '../../../src/core/path.js';
import { DEFAULT_KUBE_VERSION } from '../../../src/core/kube-version.js';
import { CrdCatalog } from '../../../src/cr/catalog.js';
import { buildCrd, isCrdManifest } from '../../../src/crd/model.js';
import { buildStructural } from '../../../src/crd/structural-schema.js';
import { parseFile } from '../../../src/manifest/parse.js';
import { contextFor, validationSchema } from '../../../src/schema/validation/schema.js';
import { validateSchema } from '../../../src/schema/value-validate.js';
import { cel } from '../../helpers/cel.js';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                short: {type: string, format: k8s-short-name}
                size: {type: integer, maximum: 3}
                choice: {anyOf: [{type: string}, {type: integer}]}
`;

function served() {
  const manifests = parseFile({ path: 'crd.yaml', text: CRD }).flatMap((d) => d.manifests);
  const catalog = new CrdCatalog(manifests.filter(isCrdManifest).map((m) => buildCrd(m, DEFAULT_KUBE_VERSION, cel)));
  const l = catalog.lookup('example.com/v1', 'Widget');
  if (!l.ok) throw new Error(l.message);
  return { catalog, served: l.served };
}

describe('validationSchema', () => {
  it('converts a served version once: the same object on every use, its typed children shared', () => {
    const { catalog, served: sv } = served();
    const root = sv.structural!;
    const ctx = contextFor({ kubeMinor: 36 });
    const first = validationSchema(root, ctx);
    expect(validationSchema(root, contextFor({ kubeMinor: 36 }))).toBe(first);
    // a second lookup serves the same typed schema, so the same converted one
    const again = catalog.lookup('example.com/v1', 'Widget');
    expect(again.ok && validationSchema(again.served.structural!, ctx)).toBe(first);
    // a validation does not convert again
    expect(validateSchema({ spec: { size: 4 } }, root, new Loc('', [])).map((e) => e.field)).toEqual(['spec.size']);
    expect(validationSchema(root, ctx)).toBe(first);
    // the typed child's converted form is the one inside its parent's
    const spec = root.properties.get('spec')!;
    expect(first.properties!.get('spec')).toBe(validationSchema(spec, ctx));
    // what Structural does not type (anyOf members) is converted from the record
    expect(validationSchema(spec, ctx).properties!.get('choice')!.anyOf.map((s) => s.type)).toEqual([['string'], ['integer']]);
  });

  it('gives two minors with different format sets different converted schemas', () => {
    const root = buildStructural({ type: 'object', properties: { short: { type: 'string', format: 'k8s-short-name' } } });
    // k8s-short-name is kept from compatibility version 1.34 on (a 1.35 server)
    const old = validationSchema(root, contextFor({ kubeMinor: 34 }));
    const now = validationSchema(root, contextFor({ kubeMinor: 36 }));
    expect(old).not.toBe(now);
    expect(old.properties!.get('short')!.format).toBe('');
    expect(now.properties!.get('short')!.format).toBe('k8s-short-name');
    // and the structural (defaults) context keeps formats whatever the minor
    expect(validationSchema(root, contextFor({ kubeMinor: 34, structural: true })).properties!.get('short')!.format).toBe('k8s-short-name');
    const bad = { short: 'Not_A_Name' };
    expect(validateSchema(bad, root, new Loc('', []), { kubeMinor: 34 })).toEqual([]);
    expect(validateSchema(bad, root, new Loc('', []), { kubeMinor: 36 }).map((e) => e.field)).toEqual(['short']);
  });
});
