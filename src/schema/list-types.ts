/**
 * The uniqueness checks of `x-kubernetes-list-type: set|map`
 * (apiextensions-apiserver pkg/apiserver/schema/listtype `ValidateListSetsAndMaps`).
 */
import type { FieldError } from '../core/field-error.js';
import type { Loc } from '../core/path.js';
import { goJSON } from '../go/json.js';
import { asBig, asFloat, isMap, kindOf, normalizedView, sortedCopy } from '../go/value.js';
import type { Structural } from '../crd/structural-schema.js';
import { goSortedKeys } from '../go/strings.js';

/**
 * ValidateListSetsAndMaps: Duplicate errors for repeated items of `set` lists and repeated keys of `map` lists,
 * and Invalid for non-object items of `map` lists. Walks the structural schema (properties,
 * additionalProperties, items) only. Paths use `loc` (the server passes a nil path: `spec.list[1]`).
 */
/** Update: the list-type checks of the new object are reported only if the old object passed them. */
export function validateListTypesUpdate(value: unknown, old: unknown, schema: Structural, loc: Loc): FieldError[] {
  if (validateListTypes(old, schema, loc).length > 0) return [];
  return validateListTypes(value, schema, loc);
}

export function validateListTypes(value: unknown, schema: Structural, loc: Loc): FieldError[] {
  if (!schema.facts.listTypesBelow) return [];
  return listWalk(loc, schema, normalizedView(value));
}

/** Below a node where no set or map list type sits (facts.listTypesBelow), the walk finds nothing. */
function listWalk(loc: Loc, s: Structural, obj: unknown): FieldError[] {
  if (!s.facts.listTypesBelow) return [];
  if (Array.isArray(obj)) return listArray(loc, s, obj);
  if (isMap(obj)) return listObject(loc, s, obj);
  return [];
}

function listObject(loc: Loc, s: Structural, obj: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const keys = goSortedKeys(obj);
  const ap = s.additionalProperties?.schema;
  if (ap !== undefined) {
    for (const k of keys) errs.push(...listWalk(loc.key(k), ap, obj[k]));
  }
  if (s.properties.size > 0) {
    for (const k of keys) {
      const sub = s.properties.get(k);
      if (sub !== undefined) errs.push(...listWalk(loc.child(k), sub, obj[k]));
    }
  }
  return errs;
}

function listArray(loc: Loc, s: Structural, obj: unknown[]): FieldError[] {
  const errs: FieldError[] = [];
  const listType = s.extensions.listType;
  if (listType === 'set') {
    for (const i of nonUniqueIndices(obj)) errs.push(dup(loc.index(i), obj[i]));
  } else if (listType === 'map') {
    errs.push(...listMap(loc, s.extensions.listMapKeys ?? [], obj));
  }
  if (s.items !== undefined) {
    for (let i = 0; i < obj.length; i++) errs.push(...listWalk(loc.index(i), s.items, obj[i]));
  }
  return errs;
}

function dup(loc: Loc, value: unknown): FieldError {
  return { type: 'Duplicate', field: loc.field, value: sortedCopy(value), detail: '', at: loc.at };
}

const UNSPECIFIED = Symbol('unspecifiedKeyValue');

/** The identity validateListSet gives an item: Go map keys for scalars (typed), json.Marshal for compounds. */
function setKey(x: unknown): string {
  if (x === UNSPECIFIED) return 'u';
  switch (kindOf(x)) {
    case 'null':
      return 'n';
    case 'bool':
      return `b:${String(x)}`;
    case 'string':
      return `s:${x as string}`;
    case 'int':
      return `i:${asBig(x)}`;
    case 'float': {
      const f = asFloat(x);
      return `f:${f === 0 ? 0 : f}`;
    }
    default:
      return `c:${goJSON(x)}`;
  }
}

/** validateListSet: the index of the second occurrence of every repeated item. */
function nonUniqueIndices(items: readonly unknown[]): number[] {
  if (items.length <= 1) return [];
  const seen = new Map<string, number>();
  const out: number[] = [];
  items.forEach((x, i) => {
    const k = setKey(x);
    const times = seen.get(k);
    if (times === undefined) seen.set(k, 1);
    else {
      seen.set(k, times + 1);
      if (times === 1) out.push(i);
    }
  });
  return out;
}

function listMap(loc: Loc, mapKeys: readonly string[], obj: unknown[]): FieldError[] {
  for (let i = 0; i < obj.length; i++) {
    const x = obj[i];
    if (x !== null && x !== undefined && !isMap(x)) {
      const l = loc.index(i);
      return [{ type: 'Invalid', field: l.field, value: sortedCopy(x), detail: 'must be an object for an array of list-type map', at: l.at }];
    }
  }
  if (obj.length <= 1) return [];

  if (mapKeys.length === 1) {
    const keyField = mapKeys[0]!;
    const keys = obj.map((x) => (isMap(x) && Object.prototype.hasOwnProperty.call(x, keyField) ? x[keyField] : UNSPECIFIED));
    return nonUniqueIndices(keys).map((i) => {
      const k = keys[i];
      return dup(loc.index(i), k === UNSPECIFIED ? {} : { [keyField]: k });
    });
  }

  const keys = obj.map((x) => {
    const key: Record<string, unknown> = {};
    if (isMap(x)) {
      for (const f of mapKeys) if (Object.prototype.hasOwnProperty.call(x, f)) key[f] = x[f];
    }
    return key;
  });
  return nonUniqueIndices(keys).map((i) => dup(loc.index(i), keys[i]));
}
