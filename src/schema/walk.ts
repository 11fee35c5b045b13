/**
 * The OpenAPI-subset walk of the API server (validation.go ValidateCustomResourceDefinitionOpenAPISchema
 * with specStandardValidatorV3): forbidden keywords, defaults in resource meta, list/map types,
 * and the shape of x-kubernetes-validations rules.
 */
import { forbidden, invalid, notSupported, required, type FieldError } from '../core/field-error.js';
import type { Loc } from '../core/path.js';
import { isRecord } from '../core/types.js';
import { validFieldPath } from './field-path.js';
import { celMissing, type CelEngine } from '../core/cel-engine.js';
import { META_FIELDS, buildStructural } from '../crd/structural-schema.js';
import { newStructuralError } from './structural.js';
import {
  addl,
  flag,
  itemsArray,
  itemsSchema,
  notSchema,
  present,
  props,
  schemaList,
  sType,
  strList,
  type Schema,
} from './raw.js';

type WalkCat = 'openapi' | 'defaults' | 'list-map' | 'cel';
type WalkError = FieldError & { readonly cat: WalkCat };

interface WalkOptions {
  readonly requireValidPropertyType: boolean;
  readonly allowDefaults: boolean;
  readonly disallowDefaultsReason: string;
  readonly requireAtomicSetType: boolean;
  readonly requireMapListKeysMapSetValidation: boolean;
  /** CEL checks need a schema that passed the structural and default checks. */
  readonly celEnabled: boolean;
  /** message texts dropped their "message "/"fieldPath " prefix in 1.34 */
  readonly shortCelMessages: boolean;
  /** The CEL engine (syntax of rules); undefined: the schema must hold no rule. */
  readonly cel: CelEngine | undefined;
}

interface Ssv {
  readonly allowDefaults: boolean;
  readonly disallowDefaultsReason: string;
  readonly insideResourceMeta: boolean;
  readonly uncorrelatablePath: string | undefined;
}

const OPENAPI_TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

export function walkSchema(root: Schema, loc: Loc, opts: WalkOptions): WalkError[] {
  const ssv: Ssv = {
    allowDefaults: opts.allowDefaults,
    disallowDefaultsReason: opts.disallowDefaultsReason,
    insideResourceMeta: false,
    uncorrelatablePath: undefined,
  };
  const out: WalkError[] = [];
  walk(root, loc, ssv, true, opts, out, opts.celEnabled);
  return out;
}

function add(out: WalkError[], e: FieldError, cat: WalkCat): void {
  out.push({ ...e, cat });
}

function withForbiddenDefaults(ssv: Ssv, reason: string): Ssv {
  return { ...ssv, allowDefaults: false, disallowDefaultsReason: reason };
}

function withForbidOldSelf(ssv: Ssv, path: Loc): Ssv {
  return ssv.uncorrelatablePath !== undefined ? ssv : { ...ssv, uncorrelatablePath: path.field };
}

function mapIsCorrelatable(s: Schema): boolean {
  const mt = s['x-kubernetes-map-type'];
  return mt === undefined || mt === null || mt === 'granular' || mt === 'atomic';
}

function walk(s: Schema, loc: Loc, ssv: Ssv, isRoot: boolean, opts: WalkOptions, out: WalkError[], cel: boolean): void {
  const start = out.length;
  standard(s, loc, ssv, opts, out);
  if (s['uniqueItems'] === true)
    add(out, forbidden(loc.child('uniqueItems'), 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'), 'openapi');

  const ap = s['additionalProperties'];
  if (ap !== undefined && ap !== null) {
    const hasProperties = isRecord(s['properties']) && Object.keys(s['properties']).length > 0;
    if (hasProperties && (ap === false || isRecord(ap)))
      add(out, forbidden(loc.child('additionalProperties'), 'additionalProperties and properties are mutual exclusive'), 'openapi');
    let sub = ssv;
    if (ssv.insideResourceMeta) sub = withForbiddenDefaults(ssv, 'inside additionalProperties applying to object metadata');
    if (isRecord(ap)) walk(ap, loc.child('additionalProperties'), sub, false, opts, out, cel);
  }

  for (const [k, p] of props(s)) {
    let sub = ssv;
    if (!mapIsCorrelatable(s)) sub = withForbidOldSelf(sub, loc);
    if ((isRoot || flag(s, 'x-kubernetes-embedded-resource')) && META_FIELDS.has(k)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = withForbiddenDefaults(sub, `in top-level ${k}`);
    }
    walk(p, loc.child('properties').key(k), sub, false, opts, out, cel);
  }

  for (const k of ['allOf', 'oneOf', 'anyOf'] as const)
    schemaList(s, k).forEach((x, i) => walk(x, loc.child(k).index(i), ssv, false, opts, out, false));
  const not = notSchema(s);
  if (not) walk(not, loc.child('not'), ssv, false, opts, out, false);
  const defs = s['definitions'];
  if (isRecord(defs))
    for (const k of Object.keys(defs).sort()) {
      const d = defs[k];
      if (isRecord(d)) walk(d, loc.child('definitions').key(k), ssv, false, opts, out, false);
    }

  if (present(s, 'items')) {
    let sub = ssv;
    if (s['x-kubernetes-list-type'] !== 'map') sub = withForbidOldSelf(sub, loc);
    const it = itemsSchema(s);
    if (it) walk(it, loc.child('items'), sub, false, opts, out, cel);
    const arr = itemsArray(s);
    if (arr) arr.forEach((x, i) => walk(x, loc.child('items').index(i), sub, false, opts, out, cel));
  }

  const deps = s['dependencies'];
  if (isRecord(deps))
    for (const k of Object.keys(deps).sort()) {
      const d = deps[k];
      if (isRecord(d)) walk(d, loc.child('dependencies').key(k), ssv, false, opts, out, false);
    }

  if (s['x-kubernetes-preserve-unknown-fields'] === false)
    add(out, invalid(loc.child('x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'), 'openapi');

  listAndMapTypes(s, loc, opts, out);
  celShape(s, loc, opts, out);
  if (cel && out.slice(start).length === 0) celCompiled(s, loc, ssv, out, opts.cel);
}

function standard(s: Schema, loc: Loc, ssv: Ssv, opts: WalkOptions, out: WalkError[]): void {
  const t = sType(s);
  if (opts.requireValidPropertyType && t !== '' && !OPENAPI_TYPES.includes(t))
    add(out, notSupported(loc.child('type'), t, OPENAPI_TYPES), 'openapi');
  if (present(s, 'default') && !ssv.allowDefaults) {
    const detail = ssv.disallowDefaultsReason ? `must not be set ${ssv.disallowDefaultsReason}` : 'must not be set';
    add(out, forbidden(loc.child('default'), detail), 'defaults');
  }
  if (typeof s['id'] === 'string' && s['id'] !== '') add(out, forbidden(loc.child('id'), 'id is not supported'), 'openapi');
  if (present(s, 'additionalItems')) add(out, forbidden(loc.child('additionalItems'), 'additionalItems is not supported'), 'openapi');
  if (isRecord(s['patternProperties']) && Object.keys(s['patternProperties']).length > 0)
    add(out, forbidden(loc.child('patternProperties'), 'patternProperties is not supported'), 'openapi');
  if (isRecord(s['definitions']) && Object.keys(s['definitions']).length > 0)
    add(out, forbidden(loc.child('definitions'), 'definitions is not supported'), 'openapi');
  if (present(s, 'dependencies')) add(out, forbidden(loc.child('dependencies'), 'dependencies is not supported'), 'openapi');
  if (present(s, '$ref')) add(out, forbidden(loc.child('$ref'), '$ref is not supported'), 'openapi');
  if (t === 'null') add(out, forbidden(loc.child('type'), 'type cannot be set to null, use nullable as an alternative'), 'openapi');
  const arr = itemsArray(s);
  if (arr && arr.length > 0) add(out, forbidden(loc.child('items'), 'items must be a schema object and not an array'), 'openapi');
  if (ssv.insideResourceMeta && flag(s, 'x-kubernetes-embedded-resource'))
    add(out, forbidden(loc.child('x-kubernetes-embedded-resource'), 'must not be used inside of resource meta'), 'openapi');
}

function listAndMapTypes(s: Schema, loc: Loc, opts: WalkOptions, out: WalkError[]): void {
  const t = sType(s);
  const mapType = present(s, 'x-kubernetes-map-type') ? String(s['x-kubernetes-map-type']) : undefined;
  const listType = present(s, 'x-kubernetes-list-type') ? String(s['x-kubernetes-list-type']) : undefined;
  const keys = strList(s, 'x-kubernetes-list-map-keys');
  if (mapType !== undefined && t !== 'object') {
    if (t === '') add(out, required(loc.child('type'), 'must be object if x-kubernetes-map-type is specified'), 'list-map');
    else add(out, invalid(loc.child('type'), t, 'must be object if x-kubernetes-map-type is specified'), 'list-map');
  }
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular')
    add(out, notSupported(loc.child('x-kubernetes-map-type'), mapType, ['atomic', 'granular']), 'list-map');

  const items = itemsSchema(s);
  if (listType !== undefined && t !== 'array') {
    if (t === '') add(out, required(loc.child('type'), 'must be array if x-kubernetes-list-type is specified'), 'list-map');
    else add(out, invalid(loc.child('type'), t, 'must be array if x-kubernetes-list-type is specified'), 'list-map');
  } else if (opts.requireAtomicSetType && listType === 'set' && items) {
    const it = sType(items);
    const itemList = present(items, 'x-kubernetes-list-type') ? String(items['x-kubernetes-list-type']) : undefined;
    if (it === 'array' && itemList !== undefined && itemList !== 'atomic')
      add(out, invalid(loc.child('items').child('x-kubernetes-list-type'), itemList, 'must be atomic as item of a list with x-kubernetes-list-type=set'), 'list-map');
    if (it === 'object' && items['x-kubernetes-map-type'] !== 'atomic')
      add(out, invalid(loc.child('items').child('x-kubernetes-map-type'), itemList ?? null, 'must be atomic as item of a list with x-kubernetes-list-type=set'), 'list-map');
  }
  if (listType !== undefined && listType !== 'atomic' && listType !== 'set' && listType !== 'map')
    add(out, notSupported(loc.child('x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']), 'list-map');
  if (keys.length > 0) {
    if (listType === undefined)
      add(out, required(loc.child('x-kubernetes-list-type'), 'must be map if x-kubernetes-list-map-keys is non-empty'), 'list-map');
    else if (listType !== 'map')
      add(out, invalid(loc.child('x-kubernetes-list-type'), listType, 'must be map if x-kubernetes-list-map-keys is non-empty'), 'list-map');
  }
  if (listType === 'map') {
    if (keys.length === 0) add(out, required(loc.child('x-kubernetes-list-map-keys'), 'must not be empty if x-kubernetes-list-type is map'), 'list-map');
    if (!present(s, 'items')) add(out, required(loc.child('items'), 'must have a schema if x-kubernetes-list-type is map'), 'list-map');
    if (present(s, 'items') && !items)
      add(out, invalid(loc.child('items'), s['items'], 'must only have a single schema if x-kubernetes-list-type is map'), 'list-map');
    if (items && sType(items) !== 'object')
      add(out, invalid(loc.child('items').child('type'), sType(items), "must be object if parent array's x-kubernetes-list-type is map"), 'list-map');
    if (items && sType(items) === 'object') {
      const seen = new Set<string>();
      const itemProps = isRecord(items['properties']) ? items['properties'] : {};
      for (const k of keys) {
        const p = itemProps[k];
        if (isRecord(p)) {
          const pt = sType(p);
          if (pt === 'array' || pt === 'object')
            add(out, invalid(loc.child('items').child('properties').key(k).child('type'), sType(items), "must be a scalar type if parent array's x-kubernetes-list-type is map"), 'list-map');
        } else {
          add(out, invalid(loc.child('x-kubernetes-list-map-keys'), keys, 'entries must all be names of item properties'), 'list-map');
          break;
        }
        if (seen.has(k)) add(out, invalid(loc.child('x-kubernetes-list-map-keys'), keys, 'must not contain duplicate entries'), 'list-map');
        else seen.add(k);
      }
    }
  }
  if (opts.requireMapListKeysMapSetValidation && items && (listType === 'set' || listType === 'map')) {
    if (flag(items, 'nullable'))
      add(out, forbidden(loc.child('items').child('nullable'), `cannot be nullable when x-kubernetes-list-type is ${listType}`), 'list-map');
    if (listType === 'map') {
      const req = new Set(strList(items, 'required'));
      const itemProps = isRecord(items['properties']) ? items['properties'] : {};
      for (const k of keys) {
        const p = itemProps[k];
        if (!isRecord(p)) continue;
        if (!req.has(k) && !present(p, 'default'))
          add(out, required(loc.child('items').child('properties').key(k).child('default'), 'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property'), 'list-map');
        if (flag(p, 'nullable'))
          add(out, forbidden(loc.child('items').child('properties').key(k).child('nullable'), 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable'), 'list-map');
      }
    }
  }
}

function rules(s: Schema): Record<string, unknown>[] {
  const v = s['x-kubernetes-validations'];
  return Array.isArray(v) ? v.map((x) => (isRecord(x) ? x : {})) : [];
}

const hasNewlines = (x: string): boolean => /[\n\r]/.test(x);
const strOf = (v: unknown): string => (typeof v === 'string' ? v : '');

function celShape(s: Schema, loc: Loc, opts: WalkOptions, out: WalkError[]): void {
  rules(s).forEach((rule, i) => {
    const rl = loc.child('x-kubernetes-validations').index(i);
    const r = strOf(rule['rule']);
    const msg = strOf(rule['message']);
    const msgExpr = strOf(rule['messageExpression']);
    const tr = r.trim();
    const tm = msg.trim();
    const mp = opts.shortCelMessages ? '' : 'message ';
    const fp = opts.shortCelMessages ? '' : 'fieldPath ';
    if (tr.length === 0) add(out, required(rl.child('rule'), 'rule is not specified'), 'cel');
    else if (msg.length > 0 && tm.length === 0) add(out, invalid(rl.child('message'), msg, `${mp}must be non-empty if specified`), 'cel');
    else if (hasNewlines(tm)) add(out, invalid(rl.child('message'), msg, `${mp}must not contain line breaks`), 'cel');
    else if (hasNewlines(tr) && tm.length === 0) add(out, required(rl.child('message'), 'message must be specified if rule contains line breaks'), 'cel');
    if (msgExpr.length > 0 && msgExpr.trim().length === 0)
      add(out, required(rl.child('messageExpression'), 'messageExpression must be non-empty if specified'), 'cel');
    if (present(rule, 'reason') && !REASONS.includes(String(rule['reason'])))
      add(out, notSupported(rl.child('reason'), String(rule['reason']), REASONS), 'cel');
    const fieldPath = strOf(rule['fieldPath']);
    if (fieldPath.length > 0 && fieldPath.trim().length === 0)
      add(out, invalid(rl.child('fieldPath'), fieldPath, `${fp}must be non-empty if specified`), 'cel');
    if (hasNewlines(fieldPath)) add(out, invalid(rl.child('fieldPath'), fieldPath, `${fp}must not contain line breaks`), 'cel');
    // pathValid: a node whose schema does not convert to a structural schema accepts any path
    // (a rule's fieldPath is rare: the node's typed schema is built for it here)
    if (fieldPath.length > 0 && newStructuralError(s) === undefined && validFieldPath(fieldPath, buildStructural(s)).error !== undefined)
      add(out, invalid(rl.child('fieldPath'), fieldPath, `${fp}must be a valid path`), 'cel');
  });
}

/** A CEL expression mentions oldSelf (identifier outside string literals). */
export function usesOldSelf(expr: string): boolean {
  const noStrings = expr.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, '""');
  return /(^|[^\w.])oldSelf\b/.test(noStrings);
}

/** The rule as the server prints it in field errors: the internal Go struct, with Go field names. */
function ruleValue(rule: Record<string, unknown>): Record<string, unknown> {
  return {
    Rule: strOf(rule['rule']),
    Message: strOf(rule['message']),
    MessageExpression: strOf(rule['messageExpression']),
    Reason: present(rule, 'reason') ? rule['reason'] : null,
    FieldPath: strOf(rule['fieldPath']),
    OptionalOldSelf: present(rule, 'optionalOldSelf') ? rule['optionalOldSelf'] : null,
  };
}

/**
 * The parts of CEL compilation we reproduce without a full CEL compiler: syntax errors of rules
 * and message expressions, transition rules on uncorrelatable parts of the schema, and
 * optionalOldSelf without oldSelf.
 */
function celCompiled(s: Schema, loc: Loc, ssv: Ssv, out: WalkError[], cel: CelEngine | undefined): void {
  rules(s).forEach((rule, i) => {
    const r = strOf(rule['rule']);
    if (r.trim().length === 0) return;
    if (!cel) throw celMissing('CRD schema check');
    const rl = loc.child('x-kubernetes-validations').index(i);
    const syntax = cel.syntaxError(r);
    if (syntax !== undefined) {
      add(out, invalid(rl.child('rule'), ruleValue(rule), `compilation failed: ERROR: <input>: Syntax error: ${syntax}`), 'cel');
    }
    if (syntax === undefined && usesOldSelf(r)) {
      if (ssv.uncorrelatablePath !== undefined)
        add(out, invalid(rl.child('rule'), r, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ssv.uncorrelatablePath}`), 'cel');
    } else if (present(rule, 'optionalOldSelf')) {
      add(out, invalid(rl.child('optionalOldSelf'), rule['optionalOldSelf'], 'may not be set if oldSelf is not used in rule'), 'cel');
    }
    const me = strOf(rule['messageExpression']);
    if (me.trim().length > 0) {
      const mErr = cel.syntaxError(me);
      if (mErr !== undefined)
        add(out, invalid(rl.child('messageExpression'), ruleValue(rule), `messageExpression compilation failed: ERROR: <input>: Syntax error: ${mErr}`), 'cel');
    }
  });
}
