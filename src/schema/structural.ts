/**
 * The structural-schema rules of the API server (apiextensions pkg/apiserver/schema:
 * convert.go NewStructural, validation.go ValidateStructural, complete.go), over raw schemas.
 */
import { regexError } from '../go/regexp.js';
import { forbidden, invalid, required, type FieldError } from '../core/field-error.js';
import type { Loc } from '../core/path.js';
import { isRecord } from '../core/types.js';
import {
  addl,
  flag,
  hasProps,
  itemsArray,
  itemsSchema,
  notSchema,
  isGoZero,
  present,
  prop,
  props,
  schemaList,
  sType,
  strList,
  type Schema,
} from './raw.js';

type Tagged = FieldError & { readonly cat: 'structural' | 'pattern' };

type Level = 'root' | 'item' | 'field';

/**
 * NewStructural's unsupported-field check. The server holds this error back and reports it
 * (at the schema root) only when nothing else was found for the schema.
 */
export function newStructuralError(s: Schema): string | undefined {
  return convertError(s);
}

/** convert.go validateUnsupportedFields, in the server's order. */
function unsupported(n: Schema): string | undefined {
  if (typeof n['id'] === 'string' && n['id'] !== '') return `OpenAPIV3Schema 'id' is not supported`;
  if (typeof n['$schema'] === 'string' && n['$schema'] !== '') return `OpenAPIV3Schema 'schema' is not supported`;
  if (typeof n['$ref'] === 'string' && n['$ref'] !== '') return `OpenAPIV3Schema '$ref' is not supported`;
  if (isRecord(n['patternProperties']) && Object.keys(n['patternProperties']).length > 0) return `OpenAPIV3Schema 'patternProperties' is not supported`;
  if (isRecord(n['dependencies']) && Object.keys(n['dependencies']).length > 0) return `OpenAPIV3Schema 'dependencies' is not supported`;
  if (present(n, 'additionalItems')) return `OpenAPIV3Schema 'additionalItems' is not supported`;
  if (isRecord(n['definitions']) && Object.keys(n['definitions']).length > 0) return `OpenAPIV3Schema 'definitions' is not supported`;
  return undefined;
}

/** NewStructural / newNestedValueValidation: the first conversion error, depth first. */
function convertError(n: Schema): string | undefined {
  const u = unsupported(n);
  if (u) return u;
  const not = notSchema(n);
  if (not) {
    const e = convertError(not);
    if (e) return e;
  }
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const)
    for (const x of schemaList(n, k)) {
      const e = convertError(x);
      if (e) return e;
    }
  if (n['x-kubernetes-preserve-unknown-fields'] === false)
    return `internal error: 'x-kubernetes-preserve-unknown-fields' must be true or undefined`;
  if (Array.isArray(n['items']) && n['items'].length > 0) return `OpenAPIV3Schema 'items' must be a schema, but is an array`;
  const it = itemsSchema(n);
  if (it) {
    const e = convertError(it);
    if (e) return e;
  }
  for (const [, p] of props(n)) {
    const e = convertError(p);
    if (e) return e;
  }
  const ap = addl(n);
  if (isRecord(ap)) return convertError(ap);
  return undefined;
}

/** ValidateStructural: invariants on the structural tree plus completeness of root junctors. */
export function validateStructural(root: Schema, loc: Loc): Tagged[] {
  const errs: Tagged[] = [];
  invariants(root, 'root', loc, errs);
  completeness(root, loc, errs);
  return errs;
}

const INT_OR_STRING = (list: Schema[]): boolean =>
  list.length === 2 &&
  isOnlyType(list[0]!, 'integer') &&
  isOnlyType(list[1]!, 'string');

function isOnlyType(s: Schema, t: string): boolean {
  // as NestedValueValidation sees it: additionalProperties: false leaves no trace
  const keys = Object.keys(s).filter((k) => s[k] !== null && s[k] !== undefined && !isZero(s, k) && !(k === 'additionalProperties' && s[k] === false));
  return keys.length === 1 && keys[0] === 'type' && s['type'] === t;
}

/** Zero in the structural form (enum and junctor lists are rebuilt: empty becomes nil). */
function isZero(s: Schema, k: string): boolean {
  return isGoZero(s, k, true);
}

function push(errs: Tagged[], e: FieldError, cat: Tagged['cat'] = 'structural'): void {
  errs.push({ ...e, cat });
}

function invariants(s: Schema, lvl: Level, loc: Loc, errs: Tagged[]): void {
  const t = sType(s);
  if (t === 'array' && itemsSchema(s) === undefined && !(Array.isArray(s['items']) && s['items'].length > 0))
    push(errs, required(loc.child('items'), 'must be specified'));
  const it = itemsSchema(s);
  if (it) invariants(it, 'item', loc.child('items'), errs);
  for (const [k, p] of props(s)) invariants(p, 'field', loc.child('properties').key(k), errs);
  const ap = addl(s);
  if (ap !== undefined) {
    if (lvl === 'root') push(errs, forbidden(loc.child('additionalProperties'), 'must not be used at the root'));
    if (isRecord(ap)) invariants(ap, 'field', loc.child('additionalProperties'), errs);
  }
  // extensions
  const ios = flag(s, 'x-kubernetes-int-or-string');
  const pres = flag(s, 'x-kubernetes-preserve-unknown-fields');
  const emb = flag(s, 'x-kubernetes-embedded-resource');
  if (ios && pres)
    push(errs, invalid(loc.child('x-kubernetes-preserve-unknown-fields'), true, 'must be false if x-kubernetes-int-or-string is true'));
  if (ios && emb)
    push(errs, invalid(loc.child('x-kubernetes-embedded-resource'), true, 'must be false if x-kubernetes-int-or-string is true'));

  const anyOf = schemaList(s, 'anyOf');
  const allOf = schemaList(s, 'allOf');
  const skipAnyOf = INT_OR_STRING(anyOf);
  const skipFirstAllOfAnyOf = allOf.length >= 1 && INT_OR_STRING(schemaList(allOf[0]!, 'anyOf'));
  valueValidation(s, skipAnyOf, skipFirstAllOfAnyOf, lvl, loc, errs);

  const checkMetadata = lvl === 'root' || emb;
  if (emb && t !== 'object') {
    if (t === '') push(errs, required(loc.child('type'), 'must be object if x-kubernetes-embedded-resource is true'));
    else push(errs, invalid(loc.child('type'), t, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (t === '' && !ios && !pres) {
    const detail =
      lvl === 'root'
        ? 'must not be empty at the root'
        : lvl === 'item'
          ? 'must not be empty for specified array items'
          : 'must not be empty for specified object fields';
    push(errs, required(loc.child('type'), detail));
  }
  if (lvl === 'root' && t !== '' && t !== 'object') push(errs, invalid(loc.child('type'), t, 'must be object at the root'));
  if (checkMetadata) {
    for (const k of ['kind', 'apiVersion']) {
      const p = prop(s, k);
      if (p && sType(p) !== 'string') push(errs, invalid(loc.child('properties').key(k).child('type'), sType(p), 'must be string'));
    }
  }
  const md = prop(s, 'metadata');
  if (md) metadataInvariants(md, checkMetadata, lvl, loc.child('properties').key('metadata'), errs);
  if (emb && ap !== undefined)
    push(errs, forbidden(loc.child('additionalProperties'), 'must not be used if x-kubernetes-embedded-resource is set'));
  if (emb && !pres && !hasProps(s))
    push(errs, required(loc.child('properties'), 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
}

/** Root metadata may only carry type and properties name/generateName. */
const METADATA_IGNORED = new Set(['type', 'default', 'id', '$schema', 'definitions', 'dependencies', 'patternProperties', 'additionalItems', '$ref']);

function metadataInvariants(s: Schema, checkMetadata: boolean, lvl: Level, loc: Loc, errs: Tagged[]): void {
  if (checkMetadata && sType(s) !== 'object') push(errs, invalid(loc.child('type'), sType(s), 'must be object'));
  if (lvl !== 'root') return;
  let extra = false;
  for (const k of Object.keys(s)) {
    if (METADATA_IGNORED.has(k)) continue;
    const v = s[k];
    if (v === null || v === undefined) continue;
    if (k === 'properties') {
      if (!isRecord(v)) continue;
      const keys = Object.keys(v);
      const onlyNames = keys.length > 0 && keys.length <= 2 && keys.every((x) => x === 'name' || x === 'generateName');
      // NewStructural keeps no map for properties: {}, and drops name/generateName here
      if (onlyNames || keys.length === 0) continue;
      extra = true;
      continue;
    }
    if (isZero(s, k)) continue;
    extra = true;
  }
  if (extra) push(errs, forbidden(loc, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
}

function valueValidation(s: Schema, skipAnyOf: boolean, skipFirstAllOfAnyOf: boolean, lvl: Level, loc: Loc, errs: Tagged[]): void {
  if (!skipAnyOf) schemaList(s, 'anyOf').forEach((x, i) => nested(x, false, lvl, loc.child('anyOf').index(i), errs));
  schemaList(s, 'allOf').forEach((x, i) => nested(x, skipFirstAllOfAnyOf && i === 0, lvl, loc.child('allOf').index(i), errs));
  schemaList(s, 'oneOf').forEach((x, i) => nested(x, false, lvl, loc.child('oneOf').index(i), errs));
  const not = notSchema(s);
  if (not) nested(not, false, lvl, loc.child('not'), errs);
  const pattern = s['pattern'];
  if (typeof pattern === 'string' && pattern.length > 0) {
    const err = checkPattern(pattern);
    if (err !== undefined) push(errs, invalid(loc.child('pattern'), pattern, `must be a valid regular expression, but isn't: ${err}`), 'pattern');
  }
}

/** Go's regexp.Compile verdict (RE2 syntax), with Go's error text. */
function checkPattern(p: string): string | undefined {
  // the verdict only: the pattern is compiled when a value is matched against it (validation/scalar.ts)
  return regexError(p);
}

function nested(s: Schema, skipAnyOf: boolean, lvl: Level, loc: Loc, errs: Tagged[]): void {
  const skipAll = false;
  valueValidation(s, skipAnyOf, skipAll, lvl, loc, errs);
  const it = itemsSchema(s);
  if (it) nested(it, false, lvl, loc.child('items'), errs);
  for (const [k, p] of props(s)) nested(p, false, 'field', loc.child('properties').key(k), errs);
  if (sType(s) !== '') push(errs, forbidden(loc.child('type'), 'must be empty to be structural'));
  // nested additionalProperties: false is dropped by the conversion; true or a schema is forbidden
  const nap = addl(s);
  if (nap !== undefined && nap !== false) push(errs, forbidden(loc.child('additionalProperties'), 'must be undefined to be structural'));
  if (present(s, 'default')) push(errs, forbidden(loc.child('default'), 'must be undefined to be structural'));
  if (typeof s['title'] === 'string' && s['title'] !== '') push(errs, forbidden(loc.child('title'), 'must be empty to be structural'));
  if (typeof s['description'] === 'string' && s['description'] !== '')
    push(errs, forbidden(loc.child('description'), 'must be empty to be structural'));
  if (flag(s, 'nullable')) push(errs, forbidden(loc.child('nullable'), 'must be false to be structural'));
  if (flag(s, 'x-kubernetes-preserve-unknown-fields'))
    push(errs, forbidden(loc.child('x-kubernetes-preserve-unknown-fields'), 'must be false to be structural'));
  if (flag(s, 'x-kubernetes-embedded-resource'))
    push(errs, forbidden(loc.child('x-kubernetes-embedded-resource'), 'must be false to be structural'));
  if (flag(s, 'x-kubernetes-int-or-string'))
    push(errs, forbidden(loc.child('x-kubernetes-int-or-string'), 'must be false to be structural'));
  if (strList(s, 'x-kubernetes-list-map-keys').length > 0)
    push(errs, forbidden(loc.child('x-kubernetes-list-map-keys'), 'must be empty to be structural'));
  if (present(s, 'x-kubernetes-list-type'))
    push(errs, forbidden(loc.child('x-kubernetes-list-type'), 'must be undefined to be structural'));
  if (present(s, 'x-kubernetes-map-type'))
    push(errs, forbidden(loc.child('x-kubernetes-map-type'), 'must be undefined to be structural'));
  if (Array.isArray(s['x-kubernetes-validations']) && s['x-kubernetes-validations'].length > 0)
    push(errs, forbidden(loc.child('x-kubernetes-validations'), 'must be empty to be structural'));
  if (prop(s, 'metadata')) push(errs, forbidden(loc.child('properties').key('metadata'), 'must not be specified in a nested context'));
}

/** Completeness: what root junctors mention must exist in the structural part. */
function completeness(root: Schema, loc: Loc, errs: Tagged[]): void {
  vvCompleteness(root, root, loc, loc, errs);
}

function vvCompleteness(v: Schema, s: Schema | undefined, sLoc: Loc, vLoc: Loc, errs: Tagged[]): void {
  if (s === undefined) {
    push(errs, required(sLoc.withAt(vLoc.at), `because it is defined in ${vLoc.field}`));
    return;
  }
  const not = notSchema(v);
  if (not) nestedCompleteness(not, s, sLoc, vLoc.child('not'), errs);
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const)
    schemaList(v, k).forEach((x, i) => nestedCompleteness(x, s, sLoc, vLoc.child(k).index(i), errs));
}

function nestedCompleteness(v: Schema, s: Schema | undefined, sLoc: Loc, vLoc: Loc, errs: Tagged[]): void {
  if (s === undefined) {
    push(errs, required(sLoc.withAt(vLoc.at), `because it is defined in ${vLoc.field}`));
    return;
  }
  vvCompleteness(v, s, sLoc, vLoc, errs);
  const vi = itemsSchema(v);
  if (vi) nestedCompleteness(vi, itemsSchema(s), sLoc.child('items'), vLoc.child('items'), errs);
  for (const [k, vp] of props(v)) {
    const sp = prop(s, k);
    const vk = vLoc.child('properties').key(k);
    if (!sp) push(errs, required(sLoc.child('properties').key(k).withAt(vk.at), `because it is defined in ${vk.field}`));
    else nestedCompleteness(vp, sp, sLoc.child('properties').key(k), vLoc.child('properties').key(k), errs);
  }
}
