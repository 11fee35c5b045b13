import type { JsonPath } from '../core/types.js';
import { arr, rec, semanticEqual, str } from '../crd/json.js';
import { schemaTargetFor, type Crd, type CrdVersion, type Target } from '../crd/model.js';
import type { Rec } from '../crd/json.js';
import { defineRule, type Report } from './types.js';

/**
 * Advisory checks for a CRD update (lint --old): changes the server accepts but that strand stored
 * objects or clients. Each check has its own messageId; the docs name the matching checks of
 * crdify and crd-schema-checker.
 */
type M =
  | 'servedVersionRemoved'
  | 'storageChangedWithoutConversion'
  | 'fieldRemoved'
  | 'typeChanged'
  | 'enumValueRemoved'
  | 'enumAdded'
  | 'requiredAdded'
  | 'boundTightened'
  | 'patternChanged'
  | 'formatChanged'
  | 'defaultChanged'
  | 'ruleChanged'
  | 'ruleRemoved'
  | 'listTypeChanged'
  | 'preserveUnknownRemoved'
  | 'nullableChanged'
  | 'combinatorChanged'
  | 'printerColumnChanged'
  | 'selectableFieldChanged';

const INCREASE = ['minLength', 'minItems', 'minProperties', 'minimum'] as const;
const DECREASE = ['maxLength', 'maxItems', 'maxProperties', 'maximum'] as const;
const RULE_PARTS = ['messageExpression', 'reason', 'optionalOldSelf'] as const;
const TOPOLOGY = ['x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type'] as const;
const COMBINATORS = ['allOf', 'anyOf', 'oneOf', 'not'] as const;
/** What a value-validation subschema says besides its checks (crdify ignores these too). */
const DOC_ONLY = ['description', 'title', 'example', 'externalDocs'] as const;

export const upgradeSafety = defineRule<M>({
  id: 'upgrade-safety',
  meta: {
    type: 'suggestion',
    serverFaithful: false,
    defaultSeverity: 'warning',
    docs: {
      description: 'An update (lint --old) that the server accepts but that breaks stored objects or clients.',
      details:
        'Only for a CRD of NEW whose name is in OLD. Each served version present in both is compared schema to schema (a hoisted schema applies to every version; a schema shared by several versions is compared once). ' +
        'Checks (crdify name / crd-schema-checker name): ' +
        'servedVersionRemoved: a served version is gone or no longer served; a stored version gone from spec.versions is the server\'s own error (rule versions; crdify storedVersionRemoval) and is not repeated (- / -); ' +
        'storageChangedWithoutConversion: the storage version changes while spec.conversion.strategy is not Webhook, so objects stored in the old version are read through None conversion (- / -); ' +
        'fieldRemoved: a property of OLD is missing in NEW (crdify existingFieldRemoval / NoFieldRemoval); ' +
        'typeChanged: type differs (crdify type / NoDataTypeChange, NoFieldTypeChange); ' +
        'enumValueRemoved, enumAdded: an allowed value is gone, or an enum appears on a field that had none (crdify enum / NoEnumRemoval); ' +
        'requiredAdded: a property becomes required (crdify required / NoNewRequiredFields); ' +
        'boundTightened: maxLength/maxItems/maxProperties/maximum lowered or added, minLength/minItems/minProperties/minimum raised or added, exclusiveMinimum/exclusiveMaximum turned on (crdify maxLength, maxItems, maxProperties, maximum, minLength, minItems, minProperties, minimum, exclusiveMaximum / -); ' +
        'patternChanged, formatChanged: pattern or format added or changed (crdify pattern, format / -); ' +
        'defaultChanged: default added, changed or removed (crdify default / -); ' +
        'ruleChanged: an x-kubernetes-validations rule is new, or its messageExpression, reason or optionalOldSelf changed (crdify xvalidations / -); ' +
        'ruleRemoved: a rule of OLD is gone from the same schema node in NEW (a rule whose text changed is both removed and new): the server stops enforcing it, and clients or controllers that relied on it see values it used to refuse (crdify xvalidations, removal / -); ' +
        'listTypeChanged: x-kubernetes-list-type, x-kubernetes-list-map-keys or x-kubernetes-map-type changed (- / -); ' +
        'preserveUnknownRemoved: x-kubernetes-preserve-unknown-fields turned off (- / -); ' +
        'nullableChanged: nullable turned off (stored nulls are dropped when read, or replaced by the default) or on (clients now read nulls) (crdify nullable / -); ' +
        'combinatorChanged: an allOf/anyOf/oneOf/not value validation added where there was none, or a subschema of it added or removed, descriptions, titles and examples aside (crdify allOf, anyOf, oneOf, not / -); ' +
        'printerColumnChanged, selectableFieldChanged: a printer column or selectable field of a served version is changed or removed (- / -). ' +
        'Version removal while still stored, and scope/plural/kind changes, are the server\'s own errors (rules versions and group-and-names) and are not repeated here. ' +
        'Field paths in messages use the server\'s notation; [*] stands for any list item or map value. ' +
        'Each finding points at NEW and carries the place in OLD; a removed field points at its parent\'s properties in NEW. ' +
        'The server accepts all of these: existing objects stay stored, but may fail on their next write (ratcheting keeps unchanged invalid values only for some checks) or are read differently by clients.',
      reference:
        'k8s.io/apiextensions-apiserver pkg/registry/customresourcedefinition/strategy.go: strategy.ValidateUpdate; k8s.io/apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go: PruneWithOptions (not checked by the server; the peers: sigs.k8s.io/crdify pkg/validations, github.com/openshift/crd-schema-checker pkg/manifestcomparators)',
    },
    messages: {
      servedVersionRemoved: 'version {{version}} is served in OLD but not in NEW: clients using it break',
      storageChangedWithoutConversion:
        'storage version changes from {{old}} to {{new}} without a Webhook conversion: objects stored as {{old}} are served as {{new}} unchanged',
      fieldRemoved: 'version {{version}}: field {{field}} is removed: stored values are pruned on the next write',
      typeChanged: 'version {{version}}: {{field}} changes type from {{old}} to {{new}}',
      enumValueRemoved: 'version {{version}}: {{field}} no longer allows enum value {{value}}',
      enumAdded: 'version {{version}}: {{field}} gets an enum where it had none',
      requiredAdded: 'version {{version}}: {{field}} becomes required',
      boundTightened: 'version {{version}}: {{field}} {{bound}} tightened ({{old}} -> {{new}})',
      patternChanged: 'version {{version}}: {{field}} pattern {{change}}',
      formatChanged: 'version {{version}}: {{field}} format {{change}}',
      defaultChanged: 'version {{version}}: {{field}} default {{change}}',
      ruleChanged: 'version {{version}}: {{field}} has a {{change}} x-kubernetes-validations rule {{rule}}',
      ruleRemoved: 'version {{version}}: {{field}} loses the x-kubernetes-validations rule {{rule}}: values it refused are accepted from now on',
      listTypeChanged: 'version {{version}}: {{field}} {{key}} changes ({{old}} -> {{new}})',
      preserveUnknownRemoved: 'version {{version}}: {{field}} no longer preserves unknown fields: stored ones are pruned on the next write',
      nullableChanged: 'version {{version}}: {{field}} {{change}}',
      combinatorChanged: 'version {{version}}: {{field}} {{keyword}} {{change}}',
      printerColumnChanged: 'version {{version}}: printer column {{name}} is {{change}}',
      selectableFieldChanged: 'version {{version}}: selectable field {{name}} is {{change}}',
    },
  },
  *check({ crd, update }) {
    if (!update) return;
    const old = update.old.crd;
    const oldAt = (path: JsonPath) => ({ old: { manifest: old.manifest, path } });
    const newVersions = new Map(crd.versions.map((v) => [v.name, v]));

    for (const ov of old.versions) {
      if (!ov.served) continue;
      const nv = newVersions.get(ov.name);
      // a stored version gone from spec.versions is the server's own error (rule versions)
      if (!nv && update.old.storedVersions.includes(ov.name)) continue;
      if (!nv || !nv.served) {
        const path = nv ? (Object.hasOwn(nv.raw, 'served') ? [...nv.loc.at, 'served'] : nv.loc.at) : ['spec', 'versions'];
        yield { messageId: 'servedVersionRemoved', data: { version: ov.name }, path, ...oldAt(ov.loc.at) };
      }
    }

    const os = old.versions.find((v) => v.storage);
    const ns = crd.versions.find((v) => v.storage);
    const strategy = str(rec(crd.spec['conversion'])?.['strategy']);
    if (os && ns && os.name !== ns.name && strategy !== 'Webhook') {
      yield {
        messageId: 'storageChangedWithoutConversion',
        data: { old: os.name, new: ns.name },
        path: [...ns.loc.at, 'storage'],
        ...oldAt([...os.loc.at, 'storage']),
      };
    }

    const compared = new Set<string>();
    for (const ov of old.versions) {
      const nv = newVersions.get(ov.name);
      if (!ov.served || !nv || !nv.served) continue;
      const ot = schemaTargetFor(old, ov);
      const nt = schemaTargetFor(crd, nv);
      if (ot && nt) {
        const oPath = ownSchemaPath(ov) ?? ot.loc.at;
        const nPath = ownSchemaPath(nv) ?? nt.loc.at;
        const key = `${oPath.join('/')}|${nPath.join('/')}`;
        if (!compared.has(key)) {
          compared.add(key);
          const sharing = ot.versions.filter((v) => v.served && nt.versions.some((w) => w.name === v.name && w.served)).map((v) => v.name);
          const version = ownSchemaPath(ov) || ownSchemaPath(nv) ? ov.name : sharing.join(', ');
          yield* compareSchema(ot.schema, nt.schema, '', oPath, nPath, { version, oldAt });
        }
      }
      yield* compareList(old.columns, crd.columns, ov, nv, 'additionalPrinterColumns', (c) => str(c['name']), 'printerColumnChanged', oldAt);
      yield* compareList(old.selectableFields, crd.selectableFields, ov, nv, 'selectableFields', (c) => str(c['jsonPath']), 'selectableFieldChanged', oldAt);
    }
  },
});

interface Walk {
  readonly version: string;
  readonly oldAt: (path: JsonPath) => { old: NonNullable<Report['old']> };
}

function ownSchemaPath(v: CrdVersion): JsonPath | undefined {
  return rec(rec(v.raw['schema'])?.['openAPIV3Schema']) ? [...v.loc.at, 'schema', 'openAPIV3Schema'] : undefined;
}

function display(v: unknown): string {
  return v === undefined ? '<none>' : JSON.stringify(v);
}

/** Walks OLD and NEW schema nodes together (properties, items, additionalProperties). */
function* compareSchema(o: Rec, n: Rec, field: string, op: JsonPath, np: JsonPath, w: Walk): Iterable<Report<M>> {
  const f = field === '' ? '<root>' : field;
  const base = { version: w.version, field: f };
  const at = (key: string, rep: Omit<Report<M>, 'path'>): Report<M> => ({
    ...rep,
    path: Object.hasOwn(n, key) ? [...np, key] : np,
    ...(Object.hasOwn(o, key) ? w.oldAt([...op, key]) : w.oldAt(op)),
  });

  const ot = str(o['type']);
  const nt = str(n['type']);
  if (ot !== nt && ot !== '') yield at('type', { messageId: 'typeChanged', data: { ...base, old: ot, new: nt === '' ? '<none>' : nt } });

  // enum
  if (Array.isArray(n['enum'])) {
    const ne = arr(n['enum']);
    if (!Array.isArray(o['enum'])) yield at('enum', { messageId: 'enumAdded', data: base });
    else
      for (const [i, v] of arr(o['enum']).entries())
        if (!ne.some((x) => semanticEqual(x, v)))
          yield { messageId: 'enumValueRemoved', data: { ...base, value: display(v) }, path: [...np, 'enum'], ...w.oldAt([...op, 'enum', i]) };
  }

  // required
  const oreq = new Set(arr(o['required']).map(str));
  for (const [i, r] of arr(n['required']).entries()) {
    const name = str(r);
    if (!oreq.has(name)) yield { messageId: 'requiredAdded', data: { ...base, field: join(field, name) }, path: [...np, 'required', i], ...w.oldAt(Object.hasOwn(o, 'required') ? [...op, 'required'] : op) };
  }

  // bounds
  for (const k of INCREASE) {
    const a = o[k];
    const b = n[k];
    if (typeof b === 'number' && (typeof a !== 'number' || b > a)) yield at(k, { messageId: 'boundTightened', data: { ...base, bound: k, old: display(a), new: display(b) } });
  }
  for (const k of DECREASE) {
    const a = o[k];
    const b = n[k];
    if (typeof b === 'number' && (typeof a !== 'number' || b < a)) yield at(k, { messageId: 'boundTightened', data: { ...base, bound: k, old: display(a), new: display(b) } });
  }
  for (const k of ['exclusiveMinimum', 'exclusiveMaximum'] as const)
    if (n[k] === true && o[k] !== true) yield at(k, { messageId: 'boundTightened', data: { ...base, bound: k, old: display(o[k]), new: 'true' } });

  for (const [k, id] of [
    ['pattern', 'patternChanged'],
    ['format', 'formatChanged'],
  ] as const) {
    const a = o[k];
    const b = n[k];
    if (b !== undefined && str(b) !== '' && a !== b) yield at(k, { messageId: id, data: { ...base, change: a === undefined ? `added (${display(b)})` : `changed (${display(a)} -> ${display(b)})` } });
  }

  // default
  if (Object.hasOwn(o, 'default') || Object.hasOwn(n, 'default')) {
    const a = o['default'];
    const b = n['default'];
    let change = '';
    if (!Object.hasOwn(o, 'default')) change = `added (${display(b)})`;
    else if (!Object.hasOwn(n, 'default')) change = `removed (was ${display(a)})`;
    else if (!semanticEqual(a, b)) change = `changed (${display(a)} -> ${display(b)})`;
    if (change !== '') yield at('default', { messageId: 'defaultChanged', data: { ...base, change } });
  }

  // CEL rules: a rule of NEW is new or changed unless OLD has the same rule with the same messageExpression
  const oRules = arr(o['x-kubernetes-validations']).map((r) => rec(r) ?? {});
  for (const [i, r0] of arr(n['x-kubernetes-validations']).entries()) {
    const r = rec(r0) ?? {};
    const same = oRules.findIndex((x) => x['rule'] === r['rule']);
    // what changes a rule's verdict or its message: reason and optionalOldSelf (crdify's xvalidations), messageExpression
    const changed = same < 0 ? [] : RULE_PARTS.filter((k) => !semanticEqual(oRules[same]![k], r[k]));
    if (same >= 0 && changed.length === 0) continue;
    const oldPath = same >= 0 ? [...op, 'x-kubernetes-validations', same] : Object.hasOwn(o, 'x-kubernetes-validations') ? [...op, 'x-kubernetes-validations'] : op;
    yield {
      messageId: 'ruleChanged',
      data: { ...base, change: same >= 0 ? `changed ${changed.join(', ')} of the` : 'new', rule: display(r['rule']) },
      path: [...np, 'x-kubernetes-validations', i, ...(same < 0 ? ['rule'] : Object.hasOwn(r, changed[0]!) ? [changed[0]!] : [])],
      ...w.oldAt(oldPath),
    };
  }

  // CEL rules of OLD that NEW no longer has on this node (by rule text)
  const nRules = arr(n['x-kubernetes-validations']).map((r) => rec(r) ?? {});
  for (const [i, r] of oRules.entries()) {
    if (nRules.some((x) => x['rule'] === r['rule'])) continue;
    yield {
      messageId: 'ruleRemoved',
      data: { ...base, rule: display(r['rule']) },
      path: Object.hasOwn(n, 'x-kubernetes-validations') ? [...np, 'x-kubernetes-validations'] : np,
      ...w.oldAt([...op, 'x-kubernetes-validations', i, ...(Object.hasOwn(r, 'rule') ? ['rule'] : [])]),
    };
  }

  for (const k of TOPOLOGY) {
    if (!semanticEqual(o[k], n[k])) yield at(k, { messageId: 'listTypeChanged', data: { ...base, key: k, old: display(o[k]), new: display(n[k]) } });
  }

  const pu = 'x-kubernetes-preserve-unknown-fields';
  if (o[pu] === true && n[pu] !== true) yield at(pu, { messageId: 'preserveUnknownRemoved', data: base });

  if ((o['nullable'] === true) !== (n['nullable'] === true))
    yield at('nullable', {
      messageId: 'nullableChanged',
      data: { ...base, change: n['nullable'] === true ? 'becomes nullable: clients now read nulls it never held' : 'is no longer nullable: stored nulls are dropped when read (or replaced by its default)' },
    });

  // value validations: a subschema of allOf/anyOf/oneOf (or not) added or removed changes what is accepted
  for (const k of COMBINATORS) {
    const os = subschemas(o[k]);
    const ns = subschemas(n[k]);
    const removed = os.filter((x) => !ns.some((y) => semanticEqual(x, y)));
    const added = ns.filter((y) => !os.some((x) => semanticEqual(x, y)));
    let change = '';
    if (os.length === 0 && ns.length > 0) change = 'added where there was none';
    else if (removed.length > 0 && added.length > 0) change = `changes (${removed.length} subschema${removed.length === 1 ? '' : 's'} removed, ${added.length} added)`;
    else if (removed.length > 0) change = ns.length === 0 ? 'removed' : `loses ${removed.length} subschema${removed.length === 1 ? '' : 's'}`;
    else if (added.length > 0) change = `gains ${added.length} subschema${added.length === 1 ? '' : 's'}`;
    if (change !== '') yield at(k, { messageId: 'combinatorChanged', data: { ...base, keyword: k, change } });
  }

  // children
  const oProps = rec(o['properties']) ?? {};
  const nProps = rec(n['properties']) ?? {};
  for (const [name, os] of Object.entries(oProps)) {
    const oc = rec(os);
    if (!oc) continue;
    const nc = rec(nProps[name]);
    if (!nc) {
      // a field kept only through x-kubernetes-preserve-unknown-fields on NEW is not pruned
      if (n[pu] === true) continue;
      yield {
        messageId: 'fieldRemoved',
        data: { ...base, field: join(field, name) },
        path: Object.hasOwn(n, 'properties') ? [...np, 'properties'] : np,
        ...w.oldAt([...op, 'properties', name]),
      };
      continue;
    }
    yield* compareSchema(oc, nc, join(field, name), [...op, 'properties', name], [...np, 'properties', name], w);
  }
  const oi = rec(o['items']);
  const ni = rec(n['items']);
  if (oi && ni) yield* compareSchema(oi, ni, `${field}[*]`, [...op, 'items'], [...np, 'items'], w);
  const oa = rec(o['additionalProperties']);
  const na = rec(n['additionalProperties']);
  if (oa && na) yield* compareSchema(oa, na, `${field}[*]`, [...op, 'additionalProperties'], [...np, 'additionalProperties'], w);
}

/** The subschemas of allOf/anyOf/oneOf (a list) or not (one schema), without their documentation-only keys. */
function subschemas(v: unknown): Rec[] {
  const list = Array.isArray(v) ? v : rec(v) ? [v] : [];
  return list.map((x) => {
    const r = { ...(rec(x) ?? {}) };
    for (const d of DOC_ONLY) delete r[d];
    return r;
  });
}

function join(field: string, name: string): string {
  return field === '' ? name : `${field}.${name}`;
}

function targetOf<T>(ts: readonly Target<T>[], v: CrdVersion): Target<T> | undefined {
  return ts.find((t) => t.versions.includes(v));
}

/** Printer columns / selectable fields of a version: each entry of OLD must be in NEW unchanged. */
function* compareList(
  olds: readonly Target<readonly unknown[]>[],
  news: readonly Target<readonly unknown[]>[],
  ov: CrdVersion,
  nv: CrdVersion,
  key: string,
  nameOf: (r: Rec) => string,
  messageId: 'printerColumnChanged' | 'selectableFieldChanged',
  oldAt: Walk['oldAt'],
): Iterable<Report<M>> {
  const ot = targetOf(olds, ov);
  if (!ot) return;
  const nt = targetOf(news, nv);
  const oPath = Object.hasOwn(ov.raw, key) ? [...ov.loc.at, key] : ot.loc.at;
  const nPath = nt ? (Object.hasOwn(nv.raw, key) ? [...nv.loc.at, key] : nt.loc.at) : nv.loc.at;
  const nList = (nt?.value ?? []).map((x) => v1Spelling(rec(x) ?? {}));
  for (const [i, x] of ot.value.entries()) {
    const o = v1Spelling(rec(x) ?? {});
    // the same entry anywhere in NEW is kept (names may repeat: two columns called the same)
    if (nList.some((y) => semanticEqual(o, y))) continue;
    const name = nameOf(o);
    const j = nList.findIndex((y) => nameOf(y) === name);
    if (j < 0) yield { messageId, data: { version: ov.name, name: JSON.stringify(name), change: 'removed' }, path: nPath, ...oldAt([...oPath, i]) };
    else if (!semanticEqual(o, nList[j])) yield { messageId, data: { version: ov.name, name: JSON.stringify(name), change: 'changed' }, path: [...nPath, j], ...oldAt([...oPath, i]) };
  }
}

/** A v1beta1 printer column spells jsonPath JSONPath; the server stores it as v1's jsonPath. */
function v1Spelling(r: Rec): Rec {
  if (!Object.hasOwn(r, 'JSONPath') || Object.hasOwn(r, 'jsonPath')) return r;
  const { JSONPath, ...rest } = r;
  return { ...rest, jsonPath: JSONPath };
}
