/**
 * The small CRD many tests build: widgets.example.com (group example.com, kind Widget, Namespaced)
 * with one version v1, served and stored, as YAML text (positions in it are stable: the same
 * options give the same text).
 */
export interface WidgetsCrd {
  /** The openAPIV3Schema, as YAML written from column 0 (indented into place here). */
  readonly schema: string;
  /** More keys of the version (e.g. subresources, selectableFields), as YAML from column 0. */
  readonly version?: string;
}

const indent = (text: string, n: number): string =>
  text
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => (l === '' ? l : ' '.repeat(n) + l))
    .join('\n');

export function widgetsCrd(o: WidgetsCrd): string {
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
  - name: v1
    served: true
    storage: true
${o.version !== undefined ? `${indent(o.version, 4)}\n` : ''}    schema:
      openAPIV3Schema:
${indent(o.schema, 8)}
`;
}

type Obj = Record<string, unknown>;

/**
 * A CRD as an object, for tests that send it as JSON (to lint, or to a real server): `<plural>.<group>`,
 * Namespaced, one version v1 served and stored, with the given openAPIV3Schema. The singular is the
 * plural without its s, the kind the singular capitalised (things: thing, Thing), unless given.
 */
export function crdObject(o: { readonly group: string; readonly plural?: string; readonly singular?: string; readonly kind?: string; readonly schema: Obj }): Obj {
  const plural = o.plural ?? 'things';
  const singular = o.singular ?? plural.replace(/s$/, '');
  const kind = o.kind ?? singular[0]!.toUpperCase() + singular.slice(1);
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${o.group}` },
    spec: {
      group: o.group,
      scope: 'Namespaced',
      names: { plural, singular, kind, listKind: `${kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: o.schema } }],
    },
  };
}
