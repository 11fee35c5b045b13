/**
 * The OpenAPI-subset walk of the API server (validation.go ValidateCustomResourceDefinitionOpenAPISchema
 * with specStandardValidatorV3): forbidden keywords, defaults in resource meta, list/map types,
 * and the shape of x-kubernetes-validations rules.
 */
import { since } from '../core/version-gates.js';
import { OMIT, RenderedValue, forbidden, invalid, notSupported, required, type FieldError } from '../core/field-error.js';
import { goStructSharpV } from '../go/print.js';
import { structOrdered } from '../go/json.js';
import type { JsonPath } from '../core/types.js';
import { buildStructural, type Structural } from '../crd/structural-schema.js';
import { compileExpression, GO_LITERAL_CHECKS, syntaxErrorDetail, type ExprVerdict } from './cel/compile.js';
import { schemaDeclType, type DeclType } from './cel/decl.js';
import { escapeProperty } from './cel/escape.js';
import type { Loc } from '../core/path.js';
import { isRecord } from '../core/types.js';
import { validFieldPath } from './field-path.js';
import { celMissing, type CelEngine } from '../core/cel-engine.js';
import { META_FIELDS } from '../crd/structural-schema.js';
import { newStructuralError } from './structural.js';
import type { StoredExpressions } from './update-options.js';
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

type WalkCat = 'openapi' | 'defaults' | 'list-map' | 'cel' | 'cel-compile';

/**
 * Where the server panics on the CRD's rules. `literal`: compiling a rule or messageExpression
 * (compile.ts, kind 'panic'). `type`: building the CEL type of a node's rules, which it reaches
 * from an ancestor's type through a node that has none (CELSchemaContext.TypeInfo: the accessor
 * of the child reads a field of a nil DeclType).
 */
export type CelPanic =
  | {
      readonly kind: 'literal';
      /** Path of the rule's field (…x-kubernetes-validations[i].rule or .messageExpression) in the manifest. */
      readonly at: JsonPath;
      readonly field: string;
      readonly text: string;
      /** The element the validator fails on, and where it is in the text (1-based). */
      readonly what: string;
      readonly line: number;
      readonly column: number;
    }
  | {
      readonly kind: 'type';
      /** Path of the node's x-kubernetes-validations. */
      readonly at: JsonPath;
      readonly field: string;
      /** The node with no CEL type (items or additionalProperties of a node whose type has no element type), field path. */
      readonly untyped: string;
      /** The accessor that reads it: properties, items or additionalProperties. */
      readonly through: 'properties' | 'items' | 'additionalProperties';
    };

/** A rule (or messageExpression) whose compilation crdx cannot reproduce: the server may reject it. */

export interface CelUnchecked {
  /** Path of the rule's field (…x-kubernetes-validations[i].rule or .messageExpression) in the manifest. */
  readonly at: JsonPath;
  readonly field: string;
  readonly rule: string;
  readonly why: string;
  /** Set when the rule was not evaluated on a default (where that default is in the manifest), not compiled. */
  readonly onDefault?: JsonPath;
}
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
  /** Minor of the simulated server (new rules compile with compatibility version minor − 1). */
  readonly kubeMinor: number;
  /**
   * Expressions (rule and messageExpression texts) already stored in the CRD being updated: the
   * server compiles those in the stored-expressions environment (every library of the simulated
   * server). Absent on create.
   */
  readonly storedExpressions?: StoredExpressions;
  /** Counts of the rules compiled here: type-checked clean, rejected with cel-go's text, left unchecked. */
  readonly celStats?: { compiled: number; rejected: number; unchecked: number };
  /** The root's typed schema (built from `root`), when the caller has it. */
  readonly rootStructural?: Structural;
  /** Where rules crdx cannot compile faithfully are collected (reported as warnings). */
  readonly celUnchecked?: CelUnchecked[];
  /** Rules and messageExpressions the server panics compiling. */
  readonly celPanics?: CelPanic[];
  /** The field paths of the nodes whose rules are compiled (no schema error at or below them). */
  readonly celCompiledAt?: Set<string>;
}

/** The type information of a node for its rules (apiextensions CELSchemaContext). */
interface CelCtx {
  readonly parent: CelCtx | undefined;
  readonly access: Access | undefined;
  readonly raw: Schema;
  /** The node's field path (what a panic report names). */
  readonly field: string;
  readonly inScope: boolean;
  /** Minor of the simulated server (the declared types differ by version). */
  readonly kubeMinor: number;
  /** The node's typed schema when the caller has it (the root's). */
  readonly structural?: Structural | undefined;
  info?: TypeInfo | { error: string } | TypePanic | undefined;
}

/** The server panics reading the type of the parent (nil): which node has none, and which accessor reads it. */
interface TypePanic {
  readonly panic: { readonly untyped: string; readonly through: 'properties' | 'items' | 'additionalProperties' };
}

/**
 * A child's type from its parent's (CELSchemaContext's typeInfoAccessor); `nil`: where the server
 * dereferences the parent's nil type (its schema has the properties, items or additionalProperties
 * the accessor looks for, and no DeclType).
 */
type Access = ((p: TypeInfo) => TypeInfo | undefined | 'nil') & { readonly through: TypePanic['panic']['through'] };
interface TypeInfo {
  readonly structural: Structural | undefined;
  readonly decl: DeclType | undefined;
}

function hasRules(raw: Schema): boolean {
  const v = raw['x-kubernetes-validations'];
  return Array.isArray(v) && v.length > 0;
}

function childCtx(parent: CelCtx, raw: Schema, access: CelCtx['access'], loc: Loc): CelCtx {
  return { parent, access, raw, field: loc.field, inScope: parent.inScope || hasRules(raw), kubeMinor: parent.kubeMinor };
}

/** CELSchemaContext.TypeInfo: from the parent's type where it can be reached, else converted from the node. */
function typeInfo(c: CelCtx): TypeInfo | { error: string } | TypePanic | undefined {
  if (!c.inScope) return undefined;
  if (c.info !== undefined) return c.info;
  if (c.parent) {
    const p = typeInfo(c.parent);
    if (p && ('error' in p || 'panic' in p)) return (c.info = p);
    if (p && c.access) {
      const got = c.access(p);
      if (got === 'nil') return (c.info = { panic: { untyped: c.parent.field, through: c.access.through } });
      if (got) return (c.info = got);
    }
  }
  const isRoot = c.parent === undefined || c.raw['x-kubernetes-embedded-resource'] === true;
  if (newStructuralError(c.raw) !== undefined) return (c.info = { error: 'the node is not a structural schema' });
  const st = c.structural ?? buildStructural(c.raw);
  const decl = schemaDeclType(st, isRoot, c.kubeMinor);
  if (!decl) return (c.info = { error: 'unable to convert structural schema to CEL declarations' });
  return (c.info = { structural: st, decl });
}

const access = (through: Access['through'], f: (p: TypeInfo) => TypeInfo | undefined | 'nil'): Access => Object.assign(f, { through });
const propertyAccess = (k: string): Access =>
  access('properties', (p) => {
    if (!p.structural?.declaresProperties) return undefined;
    // the parent's type is nil (items of a node whose type has no element type): Fields of nil
    if (p.decl === undefined) return 'nil';
    // a name that cannot be escaped, or a field the parent's type omits: converted on its own
    const escaped = escapeProperty(k);
    const f = escaped === undefined ? undefined : p.decl.fields?.get(escaped);
    return f ? { structural: p.structural.properties.get(k), decl: f.type } : undefined;
  });
// a parent type without an element type gives the child no type (cel.Compile then refuses the
// child's own rules); a nil parent type is dereferenced
const itemsAccess = access('items', (p) => (p.structural?.items ? (p.decl === undefined ? 'nil' : { structural: p.structural.items, decl: p.decl.elem }) : undefined));
const additionalAccess = access('additionalProperties', (p) =>
  p.structural?.additionalProperties ? (p.decl === undefined ? 'nil' : { structural: p.structural.additionalProperties.schema, decl: p.decl.elem }) : undefined,
);

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
  const cel: CelCtx | undefined = opts.celEnabled
    ? { parent: undefined, access: undefined, raw: root, field: loc.field, inScope: hasRules(root), kubeMinor: opts.kubeMinor, structural: opts.rootStructural }
    : undefined;
  walk(root, loc, ssv, true, opts, out, cel);
  return out;
}

/** The errors of CEL compilation (the server's CELErrors, as opposed to its SchemaErrors). */
const CEL_ERRORS = new WeakSet<WalkError>();

function addCel(out: WalkError[], e: FieldError, cat: WalkCat): void {
  const we = { ...e, cat };
  CEL_ERRORS.add(we);
  out.push(we);
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

function walk(s: Schema, loc: Loc, ssv: Ssv, isRoot: boolean, opts: WalkOptions, out: WalkError[], cel: CelCtx | undefined): void {
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
    if (isRecord(ap)) walk(ap, loc.child('additionalProperties'), sub, false, opts, out, cel && childCtx(cel, ap, additionalAccess, loc.child('additionalProperties')));
  }

  for (const [k, p] of props(s)) {
    let sub = ssv;
    if (!mapIsCorrelatable(s)) sub = withForbidOldSelf(sub, loc);
    if ((isRoot || flag(s, 'x-kubernetes-embedded-resource')) && META_FIELDS.has(k)) {
      sub = { ...sub, insideResourceMeta: true };
      if (isRoot) sub = withForbiddenDefaults(sub, `in top-level ${k}`);
    }
    walk(p, loc.child('properties').key(k), sub, false, opts, out, cel && childCtx(cel, p, propertyAccess(k), loc.child('properties').key(k)));
  }

  for (const k of ['allOf', 'oneOf', 'anyOf'] as const)
    schemaList(s, k).forEach((x, i) => walk(x, loc.child(k).index(i), ssv, false, opts, out, undefined));
  const not = notSchema(s);
  if (not) walk(not, loc.child('not'), ssv, false, opts, out, undefined);
  const defs = s['definitions'];
  if (isRecord(defs))
    for (const k of Object.keys(defs).sort()) {
      const d = defs[k];
      if (isRecord(d)) walk(d, loc.child('definitions').key(k), ssv, false, opts, out, undefined);
    }

  if (present(s, 'items')) {
    let sub = ssv;
    if (s['x-kubernetes-list-type'] !== 'map') sub = withForbidOldSelf(sub, loc);
    const it = itemsSchema(s);
    if (it) walk(it, loc.child('items'), sub, false, opts, out, cel && childCtx(cel, it, itemsAccess, loc.child('items')));
    const arr = itemsArray(s);
    if (arr) arr.forEach((x, i) => walk(x, loc.child('items').index(i), sub, false, opts, out, cel && childCtx(cel, x, undefined, loc.child('items').index(i))));
  }

  const deps = s['dependencies'];
  if (isRecord(deps))
    for (const k of Object.keys(deps).sort()) {
      const d = deps[k];
      if (isRecord(d)) walk(d, loc.child('dependencies').key(k), ssv, false, opts, out, undefined);
    }

  if (s['x-kubernetes-preserve-unknown-fields'] === false)
    add(out, invalid(loc.child('x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'), 'openapi');

  listAndMapTypes(s, loc, opts, out);
  celShape(s, loc, opts, out);
  // CEL errors below (OpenAPISchemaErrorList.CELErrors) do not keep this node's rules from compiling
  if (cel && out.slice(start).every((e) => CEL_ERRORS.has(e))) {
    opts.celCompiledAt?.add(loc.field);
    celCompiled(s, loc, ssv, out, opts, cel);
  }
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
/**
 * The rule as field.Invalid prints the internal apiextensions.ValidationRule: as JSON from 1.34
 * (apimachinery marshals non-scalar values), with Go's %#v before.
 */
function ruleValue(rule: Record<string, unknown>, kubeMinor: number): unknown {
  if (kubeMinor < since('crd.short-messages'))
    return new RenderedValue(
      goStructSharpV('apiextensions.ValidationRule', [
        ['Rule', strOf(rule['rule'])],
        ['Message', strOf(rule['message'])],
        ['MessageExpression', strOf(rule['messageExpression'])],
        ['Reason', 'apiextensions.FieldValueErrorReason', present(rule, 'reason') && rule['reason'] !== null],
        ['FieldPath', strOf(rule['fieldPath'])],
        ['OptionalOldSelf', 'bool', present(rule, 'optionalOldSelf') && rule['optionalOldSelf'] !== null],
      ]),
    );
  return structOrdered({
    Rule: strOf(rule['rule']),
    Message: strOf(rule['message']),
    MessageExpression: strOf(rule['messageExpression']),
    Reason: present(rule, 'reason') ? rule['reason'] : null,
    FieldPath: strOf(rule['fieldPath']),
    OptionalOldSelf: present(rule, 'optionalOldSelf') ? rule['optionalOldSelf'] : null,
  });
}

/**
 * CEL compilation of a node's rules as the server runs it on a CRD write (validation.go, after the
 * node and everything below it passed the schema checks; compilation.go compileRule): the rule
 * against the node's declared type, then its messageExpression, then the oldSelf checks. Syntax
 * errors keep the engine's parser text (category `cel`); type errors, non-bool rules and
 * non-string message expressions carry cel-go's text (category `cel-compile`). Where crdx cannot
 * reproduce the verdict, the rule is collected in `opts.celUnchecked` instead of passing silently.
 */
function celCompiled(s: Schema, loc: Loc, ssv: Ssv, out: WalkError[], opts: WalkOptions, ctx: CelCtx): void {
  const list = rules(s);
  if (list.length === 0) return;
  const cel = opts.cel;
  const vl = loc.child('x-kubernetes-validations');
  const info = typeInfo(ctx);
  if (info !== undefined && 'panic' in info) {
    opts.celPanics?.push({ kind: 'type', at: vl.at, field: vl.field, ...info.panic });
    return;
  }
  let decl: DeclType | undefined;
  let noDecl: string | undefined;
  if (info === undefined || 'error' in info) noDecl = info ? info.error : 'no type information';
  else if (info.decl === undefined) noDecl = 'the declared type of the node is not known';
  else decl = info.decl;
  if (decl === undefined && noDecl === 'unable to convert structural schema to CEL declarations') {
    const detail = `internal error: failed to construct type information for x-kubernetes-validations rules: ${noDecl}`;
    addCel(out, { type: 'Internal', field: vl.field, value: OMIT, detail, at: vl.at, atKey: true }, 'cel-compile');
    return;
  }
  // type information reached through the parent without a declared type (items or
  // additionalProperties under a node whose type has no element type): cel.Compile refuses the node
  if (info !== undefined && !('error' in info) && info.decl === undefined) {
    addCel(out, { type: 'Internal', field: vl.field, value: OMIT, detail: 'failed to convert to declType for CEL validation rules', at: vl.at, atKey: true }, 'cel-compile');
    return;
  }
  const unchecked = (at: Loc, rule: string, why: string): void => {
    opts.celUnchecked?.push({ at: at.at, field: at.field, rule, why });
  };
  // the stored-expressions environment has every library of the server; new ones its minor − 1
  const compat = (text: string, stored: ReadonlySet<string> | undefined): number => (stored?.has(text) ? opts.kubeMinor : opts.kubeMinor - 1);
  list.forEach((rule, i) => {
    const r = strOf(rule['rule']);
    if (r.trim().length === 0) return;
    if (!cel) throw celMissing('CRD schema check');
    const rl = vl.index(i);
    const optionalOldSelf = rule['optionalOldSelf'] === true;
    let usesOld = false;
    let compiled = false;
    const syntax = syntaxErrorDetail(r, compat(r, opts.storedExpressions?.rules), opts.kubeMinor, (t) => cel.syntaxError(t));
    if (syntax !== undefined) {
      addCel(out, invalid(rl.child('rule'), ruleValue(rule, opts.kubeMinor), `compilation failed: ${syntax}`), 'cel');
    } else if (decl === undefined) {
      if (opts.celStats) opts.celStats.unchecked++;
      unchecked(rl.child('rule'), r, `crdx cannot build the node's CEL type (${noDecl})`);
      usesOld = usesOldSelf(r);
    } else {
      const v: ExprVerdict = compileExpression(r, decl, { compat: compat(r, opts.storedExpressions?.rules), server: opts.kubeMinor, optionalOldSelf, literals: GO_LITERAL_CHECKS }, 'bool');
      if (opts.celStats) opts.celStats[v.kind === 'ok' ? 'compiled' : v.kind === 'error' || v.kind === 'panic' ? 'rejected' : 'unchecked']++;
      if (v.kind === 'error') {
        addCel(out, invalid(rl.child('rule'), ruleValue(rule, opts.kubeMinor), v.detail), 'cel-compile');
        usesOld = v.usesOldSelf === true;
      } else if (v.kind === 'panic') opts.celPanics?.push({ kind: 'literal', at: rl.child('rule').at, field: rl.child('rule').field, text: r, what: v.what, line: v.line, column: v.column });
      else if (v.kind === 'unchecked') {
        unchecked(rl.child('rule'), r, v.why);
        usesOld = usesOldSelf(r);
      } else {
        compiled = true;
        usesOld = v.usesOldSelf;
      }
    }
    const me = strOf(rule['messageExpression']);
    if (compiled && me.trim().length > 0) {
      const mErr = syntaxErrorDetail(me, compat(me, opts.storedExpressions?.messageExpressions), opts.kubeMinor, (t) => cel.syntaxError(t));
      if (mErr !== undefined) {
        addCel(out, invalid(rl.child('messageExpression'), ruleValue(rule, opts.kubeMinor), `messageExpression compilation failed: ${mErr}`), 'cel');
      } else {
        const v = compileExpression(me, decl!, { compat: compat(me, opts.storedExpressions?.messageExpressions), server: opts.kubeMinor, optionalOldSelf, literals: GO_LITERAL_CHECKS }, 'string');
        if (v.kind === 'error') addCel(out, invalid(rl.child('messageExpression'), ruleValue(rule, opts.kubeMinor), v.detail), 'cel-compile');
        else if (v.kind === 'panic') opts.celPanics?.push({ kind: 'literal', at: rl.child('messageExpression').at, field: rl.child('messageExpression').field, text: me, what: v.what, line: v.line, column: v.column });
        else if (v.kind === 'unchecked') unchecked(rl.child('messageExpression'), me, v.why);
      }
    }
    if (usesOld) {
      if (ssv.uncorrelatablePath !== undefined)
        addCel(out, invalid(rl.child('rule'), r, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ssv.uncorrelatablePath}`), 'cel');
    } else if (present(rule, 'optionalOldSelf')) {
      addCel(out, invalid(rl.child('optionalOldSelf'), rule['optionalOldSelf'], 'may not be set if oldSelf is not used in rule'), 'cel');
    }
  });
}
