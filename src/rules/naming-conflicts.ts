import { gated } from '../core/version-gates.js';
import type { Crd } from '../crd/model.js';
import { defineRule, type Report } from './types.js';

type Field = 'plural' | 'singular' | 'shortNames' | 'kind' | 'listKind';
const REASON: Record<Field, string> = {
  plural: 'PluralConflict',
  singular: 'SingularConflict',
  shortNames: 'ShortNamesConflict',
  kind: 'KindConflict',
  listKind: 'ListKindConflict',
};

interface Accepted {
  readonly crd: Crd;
  plural: string;
  singular: string;
  shortNames: string[];
  kind: string;
  listKind: string;
}

interface Conflict {
  readonly field: Field;
  readonly name: string;
  readonly other: string;
  readonly index?: number;
}

/**
 * The NamingConditionController, applied to the CRDs of the input in order: each CRD is compared
 * with the names already accepted for the earlier CRDs of its group.
 */
function namingConflicts(crds: readonly Crd[]): Map<Crd, Conflict[]> {
  const byGroup = new Map<string, Accepted[]>();
  const out = new Map<Crd, Conflict[]>();
  const seenNames = new Set<string>();
  for (const crd of crds) {
    if (crd.requestVersion === 'v1beta1' && gated(crd.kube, 'crd.v1beta1-not-served')) continue;
    if (crd.name !== '' && seenNames.has(crd.name)) continue; // a second document with the same name updates, it does not add
    seenNames.add(crd.name);
    const others = byGroup.get(crd.group) ?? [];
    const resources = new Map<string, string>();
    const kinds = new Map<string, string>();
    for (const a of others) {
      for (const r of [a.plural, a.singular, ...a.shortNames]) if (r !== '' && !resources.has(r)) resources.set(r, a.crd.name);
      for (const k of [a.kind, a.listKind]) if (k !== '' && !kinds.has(k)) kinds.set(k, a.crd.name);
    }
    const n = crd.names;
    const conflicts: Conflict[] = [];
    const acc: Accepted = { crd, plural: '', singular: '', shortNames: [], kind: '', listKind: '' };
    const check = (field: 'plural' | 'singular', v: string) => {
      const other = resources.get(v);
      if (other !== undefined) conflicts.push({ field, name: v, other });
      else acc[field] = v;
    };
    check('plural', n.plural);
    check('singular', n.singular);
    const shortConf: Conflict[] = [];
    n.shortNames.forEach((s, i) => {
      const other = resources.get(s);
      if (other !== undefined) shortConf.push({ field: 'shortNames', name: s, other, index: i });
    });
    if (shortConf.length > 0) conflicts.push(...shortConf);
    else acc.shortNames = [...n.shortNames];
    for (const field of ['kind', 'listKind'] as const) {
      const v = n[field];
      const other = kinds.get(v);
      if (other !== undefined) conflicts.push({ field, name: v, other });
      else acc[field] = v;
    }
    others.push(acc);
    byGroup.set(crd.group, others);
    if (conflicts.length > 0) out.set(crd, conflicts);
  }
  return out;
}

/** The CRDs whose names the naming controller would not accept (in this order of creation). */
export function conflictingCrds(crds: readonly Crd[]): Set<Crd> {
  return new Set(namingConflicts(crds).keys());
}

const cache = new WeakMap<readonly Crd[], Map<Crd, Conflict[]>>();

export const namingConflictsRule = defineRule({
  id: 'naming-conflicts',
  meta: {
    type: 'problem',
    serverFaithful: true,
    defaultSeverity: 'error',
    docs: {
      description: 'Two CRDs of one group may not share a plural, singular or shortName, nor a kind or listKind.',
      details:
        'The CRD is created, but the naming controller sets NamesAccepted=False and the conflicting names are never served (a brand-new CRD is never Established). Plural, singular and shortNames share one namespace; kind and listKind another. The condition reason names the last conflicting field in the order plural, singular, shortNames, kind, listKind. Other groups and built-in resources are not considered.',
      reference: 'k8s.io/apiextensions-apiserver pkg/controller/status/naming_controller.go: NamingConditionController.calculateNamesAndConditions, NamingConditionController.getAcceptedNamesForGroup, equalToAcceptedOrFresh',
    },
    messages: {
      conflict:
        '{{field}} "{{name}}" is already in use by CustomResourceDefinition {{other}}: the server sets NamesAccepted=False (reason {{reason}}, message "\\"{{name}}\\" is already in use") and does not serve this CRD',
    },
  },
  *check({ crd, allCrds }) {
    let all = cache.get(allCrds);
    if (!all) {
      all = namingConflicts(allCrds);
      cache.set(allCrds, all);
    }
    const conflicts = all.get(crd);
    if (!conflicts) return;
    const reason = REASON[conflicts[conflicts.length - 1]!.field];
    for (const c of conflicts) {
      const path = c.index !== undefined ? ['spec', 'names', c.field, c.index] : ['spec', 'names', c.field];
      const r: Report<'conflict'> = { messageId: 'conflict', data: { field: c.field, name: c.name, other: c.other, reason }, path };
      yield r;
    }
  },
});
