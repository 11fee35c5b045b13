import { gated } from '../core/version-gates.js';
import type { JsonPath } from '../core/types.js';
import type { Crd } from '../crd/model.js';
import { itemsSchema, sType } from '../schema/raw.js';
import { visitSchema } from '../schema/visit.js';
import { defineRule } from './types.js';

type ItemType = 'array' | 'object';

export const listSetNonScalar = defineRule({
  id: 'list-set-non-scalar',
  meta: {
    type: 'suggestion',
    serverFaithful: true,
    defaultSeverity: 'warning',
    docs: {
      description: 'From 1.37 the server warns about `x-kubernetes-list-type: set` on lists whose items are objects or arrays.',
      details:
        'A set of objects (the items must then be `x-kubernetes-map-type: atomic`) or of arrays (atomic lists) is accepted, but server-side apply cannot merge it and CEL rules cannot compare or join such sets. From 1.37 the server answers a CRD create with `x-kubernetes-list-type: set for items of type "object" is not supported by server-side apply or CEL validation rules` (or `"array"`), after the unrecognized-format warnings: one warning per item type whatever the number of fields, the two sorted ("array" first). crdx reports each warning once, at the first field (in the order the server walks the schemas) that causes it. On an update (lint --old) a warning the installed CRD already causes is not repeated, like the server, which compares the texts: a new set of objects goes unreported when the installed CRD had one elsewhere. Use `x-kubernetes-list-type: map` with keys, or `atomic`, instead.',
      reference: 'k8s.io/apiextensions-apiserver pkg/registry/customresourcedefinition/strategy.go: strategy.WarningsOnCreate, strategy.WarningsOnUpdate, getNonScalarListTypeSetWarnings; k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: SchemaHas',
    },
    messages: { nonScalar: 'x-kubernetes-list-type: set for items of type "{{type}}" is not supported by server-side apply or CEL validation rules' },
  },
  *check({ crd, update }) {
    if (!gated(crd.kube, 'crd.list-set-warning')) return;
    // WarningsOnUpdate: a text the installed CRD already produces is not sent again
    const old = update ? new Set(nonScalarSets(update.old.crd).keys()) : new Set<ItemType>();
    // sets.List: sorted texts, "array" before "object"
    for (const [type, at] of [...nonScalarSets(crd)].sort((a, b) => (a[0] < b[0] ? -1 : 1)))
      if (!old.has(type)) yield { messageId: 'nonScalar', data: { type }, path: at };
  },
});

/** getNonScalarListTypeSetWarnings: each offending item type, with the first field where it occurs. */
function nonScalarSets(crd: Crd): Map<ItemType, JsonPath> {
  const out = new Map<ItemType, JsonPath>();
  for (const t of crd.schemas)
    for (const [s, loc] of visitSchema(t.schema, t.loc)) {
      if (s['x-kubernetes-list-type'] !== 'set') continue;
      const items = itemsSchema(s);
      const type = items === undefined ? '' : sType(items);
      if ((type === 'object' || type === 'array') && !out.has(type)) out.set(type, [...loc.at, 'x-kubernetes-list-type']);
    }
  return out;
}
