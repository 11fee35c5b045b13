import { invalid, required } from '../core/field-error.js';
import { Loc } from '../core/path.js';
import { dns1035LabelErrors, dns1123SubdomainErrors } from '../crd/dns.js';
import { rec, str } from '../crd/json.js';
import { immutable, serverMeta } from './helpers.js';
import { defineRule, serverReport, type Report } from './types.js';

const SPEC = new Loc('spec', ['spec']);
const NAMES = SPEC.child('names');

export const groupAndNames = defineRule({
  id: 'group-and-names',
  meta: serverMeta({
    docs: {
      description: 'spec.group must be a dotted DNS subdomain; plural, singular, kind, listKind, shortNames and categories must be valid names.',
      details:
        'plural, singular, shortNames and categories are DNS-1035 labels; kind and listKind may have mixed case but must otherwise be DNS-1035 labels; kind and listKind may not be equal. singular and listKind are defaulted from kind. On an update (lint --old) group and plural can never change, and kind only while the installed CRD is not Established (its names were never accepted).',
      reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: validateCustomResourceDefinitionSpec, ValidateCustomResourceDefinitionNames, validateCustomResourceDefinitionSpecUpdate; k8s.io/apiextensions-apiserver pkg/apis/apiextensions/v1/defaults.go: SetDefaults_CustomResourceDefinitionSpec',
    },
  }),
  *check({ crd, update }) {
    const g = crd.group;
    const groupLoc = SPEC.child('group');
    if (g === '') yield serverReport(required(crd.spec['group'] === undefined ? groupLoc.withAt(['spec']) : groupLoc, ''));
    else {
      const errs = dns1123SubdomainErrors(g);
      if (errs.length > 0) yield serverReport(invalid(groupLoc, g, errs.join(',')));
      else if (g.split('.').length < 2) yield serverReport(invalid(groupLoc, g, 'should be a domain with at least one dot'));
    }
    const raw = rec(crd.spec['names']);
    const n = crd.names;
    const at = (k: string): Loc => (raw && k in raw ? NAMES.child(k) : NAMES.child(k).withAt(raw ? ['spec', 'names'] : ['spec']));
    for (const k of ['plural', 'singular', 'kind', 'listKind'] as const) if (n[k] === '') yield serverReport(required(at(k), ''));
    yield* namesErrors(n, at, raw);
    if (update) {
      const old = update.old.crd;
      // kind only while the installed CRD is not Established; group and plural name the resource
      if (update.old.established) yield* immutable(at('kind'), n.kind, old.names.kind, old, ['spec', 'names', 'kind']);
      yield* immutable(crd.spec['group'] === undefined ? groupLoc.withAt(['spec']) : groupLoc, g, old.group, old, ['spec', 'group']);
      yield* immutable(at('plural'), n.plural, old.names.plural, old, ['spec', 'names', 'plural']);
    }
  },
});

function* namesErrors(
  n: { plural: string; singular: string; kind: string; listKind: string; shortNames: readonly string[]; categories: readonly string[] },
  at: (k: string) => Loc,
  raw: Record<string, unknown> | undefined,
): Iterable<Report<'server'>> {
  const label = (v: string) => dns1035LabelErrors(v).join(',');
  if (n.plural !== '' && label(n.plural)) yield serverReport(invalid(at('plural'), n.plural, label(n.plural)));
  // singular defaults to lower(kind): a bad kind is reported at spec.names.singular too
  const singularAt = str(raw?.['singular']) !== '' ? at('singular').at : at('kind').at;
  if (n.singular !== '' && label(n.singular)) yield serverReport(invalid(NAMES.child('singular').withAt(singularAt), n.singular, label(n.singular)));
  const mixed = (v: string) => label(v.toLowerCase());
  if (n.kind !== '' && mixed(n.kind)) yield serverReport(invalid(at('kind'), n.kind, `may have mixed case, but should otherwise match: ${mixed(n.kind)}`));
  if (n.listKind !== '' && mixed(n.listKind))
    yield serverReport(invalid(at('listKind'), n.listKind, `may have mixed case, but should otherwise match: ${mixed(n.listKind)}`));
  if (n.kind !== '' && n.kind === n.listKind) yield serverReport(invalid(at('listKind'), n.listKind, 'kind and listKind may not be the same'));
  for (const [k, list] of [
    ['shortNames', n.shortNames],
    ['categories', n.categories],
  ] as const) {
    for (let i = 0; i < list.length; i++) {
      const v = list[i]!;
      if (label(v)) yield serverReport(invalid(at(k).index(i), v, label(v)));
    }
  }
}
