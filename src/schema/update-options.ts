/**
 * The schema validation options the server derives from the stored CRD on update
 * (ValidateCustomResourceDefinitionUpdate, apiextensions validation.go): a check that the stored
 * object already fails is not tightened on it. A create uses CREATE_SCHEMA_OPTIONS (all required).
 */
import { Loc } from '../core/path.js';
import { isRecord } from '../core/types.js';
import type { Crd } from '../crd/model.js';
import { pruneDefaults } from './behaviours/prune-defaults.js';
import { flag, itemsSchema, present, strList, type Schema } from './raw.js';
import { newStructuralError, validateStructural } from './structural.js';
import { visitSchema } from './visit.js';
import { buildStructural } from '../crd/structural-schema.js';

export interface SchemaValidationOptions {
  /** Every version needs a schema (else only served versions, and only when pruning). */
  readonly requireOpenAPISchema: boolean;
  readonly requireValidPropertyType: boolean;
  readonly requireStructuralSchema: boolean;
  readonly requirePrunedDefaults: boolean;
  readonly requireAtomicSetType: boolean;
  readonly requireMapListKeysMapSetValidation: boolean;
  /**
   * The CEL expressions of the stored CRD (every version's schema): on update the server compiles
   * a rule, or a messageExpression, whose text is among the stored ones of its kind in the
   * stored-expressions environment (every library of the server), others with compatibility
   * version minor − 1. Absent on create.
   */
  readonly storedExpressions?: StoredExpressions;
}

export interface StoredExpressions {
  readonly rules: ReadonlySet<string>;
  readonly messageExpressions: ReadonlySet<string>;
}

export const CREATE_SCHEMA_OPTIONS: SchemaValidationOptions = {
  requireOpenAPISchema: true,
  requireValidPropertyType: true,
  requireStructuralSchema: true,
  requirePrunedDefaults: true,
  requireAtomicSetType: true,
  requireMapListKeysMapSetValidation: true,
};

const OPENAPI_V3_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/** Whether any node of any schema of the old CRD satisfies `pred` (SchemaHas over each schema). */
function anyNode(old: Crd, pred: (s: Schema) => boolean): boolean {
  for (const t of old.schemas) for (const [s] of visitSchema(t.schema, t.loc)) if (pred(s)) return true;
  return false;
}

function hasNonAtomicSetType(s: Schema): boolean {
  const items = itemsSchema(s);
  if (s['x-kubernetes-list-type'] !== 'set' || !items) return false;
  const t = items['type'];
  if (t === 'array') return items['x-kubernetes-list-type'] !== undefined && items['x-kubernetes-list-type'] !== 'atomic';
  if (t === 'object') return items['x-kubernetes-map-type'] !== 'atomic';
  return false;
}

function hasInvalidMapListKeysMapSet(s: Schema): boolean {
  const items = itemsSchema(s);
  const lt = s['x-kubernetes-list-type'];
  if (!items || (lt !== 'set' && lt !== 'map')) return false;
  if (flag(items, 'nullable')) return true;
  if (lt !== 'map') return false;
  const req = new Set(strList(items, 'required'));
  const itemProps = isRecord(items['properties']) ? items['properties'] : {};
  for (const k of strList(s, 'x-kubernetes-list-map-keys')) {
    const p = itemProps[k];
    if (!isRecord(p)) continue;
    if ((!req.has(k) && !present(p, 'default')) || flag(p, 'nullable')) return true;
  }
  return false;
}

function isNonStructural(s: Schema): boolean {
  return newStructuralError(s) !== undefined || validateStructural(s, new Loc('', [])).length > 0;
}

/** A schema with defaults that PruneDefaults would change (only for structural schemas). */
function hasUnprunedDefaults(s: Schema): boolean {
  if (!anyDefault(s) || isNonStructural(s)) return false;
  const st = buildStructural(s);
  return pruneDefaults(st) !== st;
}

function anyDefault(s: Schema): boolean {
  for (const [n] of visitSchema(s, new Loc('', []))) if (present(n, 'default')) return true;
  return false;
}

/** Every version of the stored CRD has a schema (a top-level one or its own). */
export function requireOpenAPISchema(old: Crd): boolean {
  return (old.hoisted.schema && old.schemas.length > 0) || old.versions.every((v) => v.schema !== undefined);
}

/** The options of an update of `old` (the stored object). */
export function updateSchemaOptions(old: Crd): SchemaValidationOptions {
  return {
    requireOpenAPISchema: requireOpenAPISchema(old),
    requireValidPropertyType: !anyNode(old, (s) => typeof s['type'] === 'string' && s['type'] !== '' && !OPENAPI_V3_TYPES.has(s['type'])),
    requireStructuralSchema: !old.schemas.some((t) => isNonStructural(t.schema)),
    requirePrunedDefaults: !old.schemas.some((t) => hasUnprunedDefaults(t.schema)),
    requireAtomicSetType: !anyNode(old, hasNonAtomicSetType),
    requireMapListKeysMapSetValidation: !anyNode(old, hasInvalidMapListKeysMapSet),
    storedExpressions: storedExpressions(old),
  };
}

/** Every rule and messageExpression text in the stored CRD's schemas (apiextensions findPreexistingExpressions). */
export function storedExpressions(old: Crd): StoredExpressions {
  const rules = new Set<string>();
  const messageExpressions = new Set<string>();
  anyNode(old, (s) => {
    const list = s['x-kubernetes-validations'];
    if (Array.isArray(list))
      for (const v of list) {
        if (!isRecord(v)) continue;
        rules.add(typeof v['rule'] === 'string' ? v['rule'] : '');
        if (typeof v['messageExpression'] === 'string' && v['messageExpression'].length > 0) messageExpressions.add(v['messageExpression']);
      }
    return false;
  });
  return { rules, messageExpressions };
}
