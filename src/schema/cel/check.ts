/**
 * cel-go's type checker (checker/checker.go, checker/types.go) over our AST (ast.ts), with the
 * declarations of the environment the apiserver compiles CRD rules in (functions.ts), and the
 * AST validators that environment runs after a clean check (homogeneous aggregate literals;
 * from compat 1.29 the duration, timestamp and regex literal validators, and on cel-go 0.18+ the
 * literal format() call validator of format-check.ts).
 *
 * How the cost estimator reads a checked expression (`CheckResult`):
 * - `typeOf(id)`: the type of node `id` after the final substitution (type parameters bound or
 *   dyn), as cel-go's checked AST TypeMap holds it (types.ts CelType; `formatType` prints it).
 * - `refOf(id)`: for a call, `{ overloadIds }` — every overload id that matched, in declaration
 *   order (cel-go's ReferenceInfo.OverloadIDs; e.g. `['size_string']`, `['add_list']`,
 *   `['list_int_sum_int']`, `['string_to_quantity']`; `_?._` has `['select_optional_field']`);
 *   for an identifier that resolved, `{ name }` (`self`, `oldSelf`, comprehension variables such
 *   as `@result` and the iteration variables, type identifiers like `int`), as in cel-go.
 * - `errors`: cel-go issues (message + offset); `formatIssues(source, errors)` renders them as
 *   cel-go's Issues.String() does (`ERROR: <input>:L:C: msg` + the line + the caret line).
 * - comprehension nodes keep cel-go's accumulator name `@result`; `has()` is a select with
 *   testOnly.
 *
 * Environment: `envFor({ compat })` — compat is the minor of the compatibility version (35 for new
 * expressions on a 1.36 server); `compat: Infinity` is the stored-expressions environment (every
 * library), which the server uses for rules unchanged from the stored CRD.
 */
import { since } from '../../core/version-gates.js';
import { allNodes, parseCel, type CallExpr, type ComprehensionExpr, type Expr, type ListExpr, type MapExpr, type ParsedExpr, type SelectExpr, locate } from './ast.js';
import { functionLookup, overloadIdsFor, type FunctionDecl, type OverloadDecl } from './functions.js';
import { isCelReserved } from './escape.js';
import { inTimestampRange } from './lib/time.js';
import { checkFormatCalls, inFormatCall } from './format-check.js';
import {
  BOOL,
  BYTES,
  DOUBLE,
  DURATION,
  DYN,
  ERROR,
  INT,
  NULL,
  STRING,
  TIMESTAMP,
  TYPE,
  UINT,
  formatType,
  isAssignableType,
  isExactType,
  listOf,
  mapOf,
  optionalOf,
  typeOf as typeTypeOf,
  typeParam,
  type CelType,
} from './types.js';

export interface CheckIssue {
  readonly offset: number;
  readonly message: string;
}

export interface Reference {
  readonly name?: string;
  readonly overloadIds: readonly string[];
}

export interface CheckResult {
  /** The type of the whole expression (ast.OutputType()). */
  readonly type: CelType;
  typeOf(id: number): CelType | undefined;
  refOf(id: number): Reference | undefined;
  readonly errors: readonly CheckIssue[];
}

export interface CheckEnv {
  /** Minor of the compatibility version (1.x); Infinity for the stored-expressions environment. */
  readonly compat: number;
  /**
   * Minor of the server (1.x): its cel-go decides the language (from 1.37, cel-go 0.29: no
   * duration(int), backtick-escaped field names, leading-dot identifiers resolve to the globals).
   */
  readonly server: number;
  /** Declared variables (self, oldSelf). */
  readonly variables: ReadonlyMap<string, CelType>;
}

/** Type identifiers of the standard environment (stdlib TypeVariable: name → type(T)). */
const TYPE_IDENTS: ReadonlyMap<string, CelType> = new Map<string, CelType>([
  ['bool', typeTypeOf(BOOL)],
  ['bytes', typeTypeOf(BYTES)],
  ['double', typeTypeOf(DOUBLE)],
  ['google.protobuf.Duration', typeTypeOf(DURATION)],
  ['int', typeTypeOf(INT)],
  ['list', typeTypeOf(listOf(typeParam('A')))],
  ['map', typeTypeOf(mapOf(typeParam('A'), typeParam('B')))],
  ['null_type', typeTypeOf(NULL)],
  ['string', typeTypeOf(STRING)],
  ['google.protobuf.Timestamp', typeTypeOf(TIMESTAMP)],
  ['type', typeTypeOf(TYPE)],
  ['uint', typeTypeOf(UINT)],
]);

/** The optional types library (cel.OptionalTypes) declares its type as a type identifier too. */
const OPTIONAL_TYPE_IDENT = typeTypeOf(optionalOf(typeParam('V')));

type Mapping = Map<string, CelType>;

function isDyn(t: CelType): boolean {
  return t.kind === 'dyn' || t.kind === 'any';
}
function isDynOrError(t: CelType): boolean {
  return isDyn(t) || t.kind === 'error';
}
function isOptional(t: CelType): boolean {
  return t.kind === 'opaque' && t.name === 'optional_type';
}
function unwrapOptional(t: CelType): [CelType, boolean] {
  return isOptional(t) ? [t.params[0]!, true] : [t, false];
}

function isEqualOrLessSpecific(t1: CelType, t2: CelType): boolean {
  if (isDyn(t1) || t1.kind === 'typeParam') return true;
  if (isDyn(t2) || t2.kind === 'typeParam') return false;
  if (t1.kind !== t2.kind) return false;
  switch (t1.kind) {
    case 'opaque':
      if (t1.name !== t2.name || t1.params.length !== t2.params.length) return false;
      return t1.params.every((p, i) => isEqualOrLessSpecific(p, t2.params[i]!));
    case 'list':
      return isEqualOrLessSpecific(t1.params[0]!, t2.params[0]!);
    case 'map':
      return isEqualOrLessSpecific(t1.params[0]!, t2.params[0]!) && isEqualOrLessSpecific(t1.params[1]!, t2.params[1]!);
    case 'type':
      return true;
    default:
      return isExactType(t1, t2);
  }
}

function mostGeneral(t1: CelType, t2: CelType): CelType {
  return isEqualOrLessSpecific(t1, t2) ? t1 : t2;
}

function isLegacyNullable(t: CelType): boolean {
  return t.kind === 'opaque' || t.kind === 'struct' || t.kind === 'any' || t.kind === 'duration' || t.kind === 'timestamp';
}

function assignableNull(t: CelType): boolean {
  return isLegacyNullable(t) || isAssignableType(t, NULL);
}

function notReferencedIn(m: Mapping, t: CelType, within: CelType): boolean {
  if (isExactType(t, within)) return false;
  switch (within.kind) {
    case 'typeParam': {
      const sub = m.get(within.name);
      if (!sub) return true;
      return notReferencedIn(m, t, sub);
    }
    case 'opaque':
    case 'list':
    case 'map':
    case 'type':
      return within.params.every((p) => notReferencedIn(m, t, p));
    default:
      return true;
  }
}

function validSubstitution(m: Mapping, t1: CelType, t2: CelType): [boolean, boolean] {
  if (t1.kind === t2.kind && isExactType(t1, t2)) return [true, true];
  const t2Sub = m.get(t2.name);
  if (t2Sub) {
    if (t1.kind === t2Sub.kind && isExactType(t1, t2Sub)) return [true, true];
    if (internalAssignable(m, t1, t2Sub)) {
      const t2New = mostGeneral(t1, t2Sub);
      if (notReferencedIn(m, t2, t2New)) m.set(t2.name, t2New);
      return [true, true];
    }
    return [false, true];
  }
  if (notReferencedIn(m, t2, t1)) {
    m.set(t2.name, t1);
    return [true, false];
  }
  return [false, false];
}

function internalAssignable(m: Mapping, t1: CelType, t2: CelType): boolean {
  if (t2.kind === 'typeParam') {
    const [valid, hasSub] = validSubstitution(m, t1, t2);
    if (valid) return true;
    if (hasSub) return false;
  }
  if (t1.kind === 'typeParam') return validSubstitution(m, t2, t1)[0];
  if (isDynOrError(t1) || isDynOrError(t2)) return true;
  if (t1.kind === 'null') return assignableNull(t2);
  if (t2.kind === 'null') return assignableNull(t1);
  switch (t1.kind) {
    case 'bool':
    case 'bytes':
    case 'double':
    case 'int':
    case 'string':
    case 'uint':
    case 'any':
    case 'duration':
    case 'timestamp':
    case 'struct':
      return isAssignableType(t1, t2);
    case 'type':
      return t2.kind === 'type';
    case 'opaque':
    case 'list':
    case 'map':
      return t1.kind === t2.kind && t1.name === t2.name && assignableList(m, t1.params, t2.params);
    default:
      return false;
  }
}

function assignableList(m: Mapping, l1: readonly CelType[], l2: readonly CelType[]): boolean {
  if (l1.length !== l2.length) return false;
  return l1.every((t, i) => internalAssignable(m, t, l2[i]!));
}

function substitute(m: Mapping, t: CelType, typeParamToDyn: boolean): CelType {
  if (t.kind === 'typeParam') {
    const sub = m.get(t.name);
    if (sub) return substitute(m, sub, typeParamToDyn);
    return typeParamToDyn ? DYN : t;
  }
  switch (t.kind) {
    case 'opaque':
      return { kind: 'opaque', name: t.name, params: t.params.map((p) => substitute(m, p, typeParamToDyn)) };
    case 'list':
      return listOf(substitute(m, t.params[0]!, typeParamToDyn));
    case 'map':
      return mapOf(substitute(m, t.params[0]!, typeParamToDyn), substitute(m, t.params[1]!, typeParamToDyn));
    case 'type':
      return t.params.length > 0 ? typeTypeOf(substitute(m, t.params[0]!, typeParamToDyn)) : t;
    default:
      return t;
  }
}

function renameParams(t: CelType, subs: ReadonlyMap<string, CelType>): CelType {
  if (t.kind === 'typeParam') return subs.get(t.name) ?? t;
  if (t.params.length === 0) return t;
  return { ...t, params: t.params.map((p) => renameParams(p, subs)) };
}

/** The signature of a call as the no-matching-overload message prints it. */
function formatCallSignature(args: readonly CelType[], isInstance: boolean): string {
  let out = '';
  let rest = args;
  if (isInstance) {
    out += formatType(args[0]!) + '.';
    rest = args.slice(1);
  }
  return `${out}(${rest.map(formatType).join(', ')})`;
}

/** The dotted name of a select chain over an identifier (containers.ToQualifiedName). */
function qualifiedName(e: Expr): string | undefined {
  if (e.kind === 'ident') return e.name;
  if (e.kind === 'select' && !e.testOnly) {
    const q = qualifiedName(e.operand);
    return q === undefined ? undefined : `${q}.${e.field}`;
  }
  return undefined;
}

class Checker {
  private mappings: Mapping = new Map();
  private freeVar = 0;
  private readonly types = new Map<number, CelType>();
  private readonly refs = new Map<number, Reference>();
  readonly errors: CheckIssue[] = [];
  private readonly scopes: Map<string, CelType>[] = [];
  private readonly functions: { get(name: string): FunctionDecl | undefined };

  constructor(private readonly env: CheckEnv) {
    this.functions = functionLookup(env.compat, env.server);
  }

  run(e: Expr): CheckResult {
    this.check(e);
    const final = new Map<number, CelType>();
    for (const [id, t] of this.types) final.set(id, substitute(this.mappings, t, true));
    const rootType = final.get(e.id) ?? ERROR;
    const refs = this.refs;
    return {
      type: rootType,
      typeOf: (id) => final.get(id),
      refOf: (id) => refs.get(id),
      errors: this.errors,
    };
  }

  private error(offset: number, message: string): void {
    this.errors.push({ offset, message });
  }

  private setType(e: Expr, t: CelType): void {
    this.types.set(e.id, t);
  }
  private getType(e: Expr): CelType {
    return this.types.get(e.id) ?? ERROR;
  }

  private lookupIdent(full: string): { type: CelType; declared: boolean; name: string } | undefined {
    // `.name` asks for the global: cel-go 0.29 (1.37) skips the comprehension scopes for it (and
    // names the reference `.name` when a local would have shadowed it); 0.26 found locals too
    const dotted = full.startsWith('.');
    const name = dotted ? full.slice(1) : full;
    let shadowed = false;
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const t = this.scopes[i]!.get(name);
      if (!t) continue;
      if (dotted && this.env.server >= since('cel.go-0.29')) {
        shadowed = true;
        break;
      }
      return { type: t, declared: false, name };
    }
    const ref = shadowed ? `.${name}` : name;
    const v = this.env.variables.get(name);
    if (v) return { type: v, declared: true, name: ref };
    const ti = TYPE_IDENTS.get(name) ?? (name === 'optional_type' && this.env.compat >= since('cel.optionals') ? OPTIONAL_TYPE_IDENT : undefined);
    if (ti) return { type: ti, declared: true, name: ref };
    return undefined;
  }

  private isAssignable(t1: CelType, t2: CelType): boolean {
    const m = new Map(this.mappings);
    if (internalAssignable(m, t1, t2)) {
      this.mappings = m;
      return true;
    }
    return false;
  }

  private newTypeVar(): CelType {
    return typeParam(`_var${this.freeVar++}`);
  }

  private check(e: Expr): void {
    switch (e.kind) {
      case 'literal': {
        const v = e.value;
        const t = { int: INT, uint: UINT, double: DOUBLE, string: STRING, bytes: BYTES, bool: BOOL, null: NULL }[v.type];
        this.setType(e, t);
        return;
      }
      case 'ident': {
        const found = this.lookupIdent(e.name);
        if (found) {
          this.setType(e, found.type);
          // cel-go records a reference for every resolved identifier (comprehension variables included)
          this.refs.set(e.id, { name: found.name, overloadIds: [] });
          return;
        }
        this.setType(e, ERROR);
        this.error(e.offset, `undeclared reference to '${e.name}' (in container '')`);
        return;
      }
      case 'select':
        this.checkSelect(e);
        return;
      case 'call':
        this.checkCall(e);
        return;
      case 'list':
        this.checkList(e);
        return;
      case 'map':
        this.checkMap(e);
        return;
      case 'struct':
        for (const f of e.fields) this.check(f.value);
        this.setType(e, ERROR);
        this.error(e.offset, `undeclared reference to '${e.typeName}' (in container '')`);
        return;
      case 'comprehension':
        this.checkComprehension(e);
        return;
    }
  }

  private checkSelect(e: SelectExpr): void {
    const q = qualifiedName(e);
    if (q !== undefined) {
      const found = this.lookupIdent(q);
      if (found) {
        this.setType(e, found.type);
        this.refs.set(e.id, { name: found.name, overloadIds: [] });
        return;
      }
    }
    let t = this.checkSelectField(e, e.operand, e.field, false);
    if (e.testOnly) t = BOOL;
    this.setType(e, substitute(this.mappings, t, false));
  }

  private checkSelectField(e: Expr, operand: Expr, field: string, optional: boolean): CelType {
    this.check(operand);
    const operandType = substitute(this.mappings, this.getType(operand), false);
    const [target, isOpt] = unwrapOptional(operandType);
    let result: CelType = ERROR;
    switch (target.kind) {
      case 'map':
        result = target.params[1]!;
        break;
      case 'struct': {
        const ft = this.lookupFieldType(e, target, field);
        if (ft) result = ft;
        break;
      }
      case 'typeParam':
        this.isAssignable(DYN, target);
        result = DYN;
        break;
      default:
        if (!isDynOrError(target)) this.error(e.offset, `type '${formatType(target)}' does not support field selection`);
        result = DYN;
    }
    return isOpt || optional ? optionalOf(result) : result;
  }

  private lookupFieldType(e: Expr, st: CelType, field: string): CelType | undefined {
    const fields = st.fields;
    if (fields) {
      let f = fields.get(field);
      if (!f && this.env.compat >= since('cel.format-and-escapes') && isCelReserved(field)) f = fields.get(`__${field}__`);
      if (f) return f;
    }
    this.error(e.offset, `undefined field '${field}'`);
    return undefined;
  }

  private checkCall(e: CallExpr): void {
    if (e.fn === '_?._') {
      this.checkOptSelect(e);
      return;
    }
    for (const a of e.args) this.check(a);
    if (!e.target) {
      // `.size(x)`: a leading dot names the global function (containers ResolveCandidateNames)
      const fn = this.functions.get(e.fn.startsWith('.') ? e.fn.slice(1) : e.fn);
      if (!fn) {
        this.error(e.offset, `undeclared reference to '${e.fn}' (in container '')`);
        this.setType(e, ERROR);
        return;
      }
      this.resolveOrError(e, fn, undefined, e.args);
      return;
    }
    const q = qualifiedName(e.target);
    if (q !== undefined) {
      const fn = this.functions.get(`${q}.${e.fn}`);
      if (fn) {
        this.resolveOrError(e, fn, undefined, e.args);
        return;
      }
    }
    this.check(e.target);
    const fn = this.functions.get(e.fn);
    if (fn) {
      this.resolveOrError(e, fn, e.target, e.args);
      return;
    }
    this.setType(e, ERROR);
    this.error(e.offset, `undeclared reference to '${e.fn}' (in container '')`);
  }

  private checkOptSelect(e: CallExpr): void {
    const [operand, field] = e.args as [Expr, Expr];
    if (field.kind !== 'literal' || field.value.type !== 'string') {
      this.error(field.offset, 'unsupported optional field selection');
      return;
    }
    const t = this.checkSelectField(e, operand, field.value.value, true);
    this.setType(e, substitute(this.mappings, t, false));
    this.refs.set(e.id, { overloadIds: ['select_optional_field'] });
  }

  private resolveOrError(e: CallExpr, fn: FunctionDecl, target: Expr | undefined, args: readonly Expr[]): void {
    const r = this.resolve(e, fn, target, args);
    if (!r) {
      this.setType(e, ERROR);
      return;
    }
    this.setType(e, r.type);
    this.refs.set(e.id, { overloadIds: r.ids });
  }

  private resolve(e: CallExpr, fn: FunctionDecl, target: Expr | undefined, args: readonly Expr[]): { type: CelType; ids: string[] } | undefined {
    const argTypes: CelType[] = [];
    if (target) argTypes.push(this.getType(target));
    for (const a of args) argTypes.push(this.getType(a));
    let resultType: CelType | undefined;
    const ids: string[] = [];
    for (const o of fn.overloads) {
      if ((target === undefined && o.member) || (target !== undefined && !o.member)) continue;
      if (fn.name === '_&&_' || fn.name === '_||_') {
        let failed = false;
        argTypes.forEach((t, i) => {
          if (!this.isAssignable(t, BOOL)) {
            this.error(args[i]!.offset, `expected type '${formatType(BOOL)}' but found '${formatType(t)}'`);
            failed = true;
          }
        });
        if (failed) return undefined;
        return { type: BOOL, ids: [o.id] };
      }
      const [candArgs, candResult] = this.instantiate(o);
      const m = new Map(this.mappings);
      if (assignableList(m, argTypes, candArgs)) {
        this.mappings = m;
        ids.push(o.id);
        const r = substitute(this.mappings, candResult, false);
        if (resultType === undefined) resultType = r;
        else if (!isDyn(resultType) && !isExactType(r, resultType)) resultType = DYN;
      }
    }
    if (resultType === undefined) {
      const shown = argTypes.map((t) => substitute(this.mappings, t, true));
      this.error(e.offset, `found no matching overload for '${fn.name}' applied to '${formatCallSignature(shown, target !== undefined)}'`);
      return undefined;
    }
    return { type: resultType, ids };
  }

  private instantiate(o: OverloadDecl): [readonly CelType[], CelType] {
    if (o.typeParams.length === 0) return [o.args, o.result];
    const subs = new Map<string, CelType>();
    for (const p of o.typeParams) subs.set(p, this.newTypeVar());
    return [o.args.map((a) => renameParams(a, subs)), renameParams(o.result, subs)];
  }

  private joinTypes(e: Expr, previous: CelType | undefined, current: CelType): CelType {
    if (previous === undefined) return current;
    if (this.isAssignable(previous, current)) return mostGeneral(previous, current);
    // the CRD environment checks aggregate literals with the validator below, so mixed elements join to dyn here
    void e;
    return DYN;
  }

  private checkList(e: ListExpr): void {
    let elems: CelType | undefined;
    const opt = new Set(e.optionalIndices);
    e.elements.forEach((el, i) => {
      this.check(el);
      let t = this.getType(el);
      if (opt.has(i)) {
        const [inner, isOpt] = unwrapOptional(t);
        t = inner;
        if (!isOpt && !isDyn(t)) this.error(el.offset, `expected type '${formatType(optionalOf(t))}' but found '${formatType(t)}'`);
      }
      elems = this.joinTypes(el, elems, t);
    });
    this.setType(e, listOf(elems ?? this.newTypeVar()));
  }

  private checkMap(e: MapExpr): void {
    let k: CelType | undefined;
    let v: CelType | undefined;
    for (const en of e.entries) {
      this.check(en.key);
      k = this.joinTypes(en.key, k, this.getType(en.key));
      this.check(en.value);
      let vt = this.getType(en.value);
      if (en.optional) {
        const [inner, isOpt] = unwrapOptional(vt);
        vt = inner;
        if (!isOpt && !isDyn(vt)) this.error(en.value.offset, `expected type '${formatType(optionalOf(vt))}' but found '${formatType(vt)}'`);
      }
      v = this.joinTypes(en.value, v, vt);
    }
    if (k === undefined) {
      k = this.newTypeVar();
      v = this.newTypeVar();
    }
    this.setType(e, mapOf(k, v!));
  }

  private checkComprehension(e: ComprehensionExpr): void {
    this.check(e.iterRange);
    this.check(e.accuInit);
    const rangeType = substitute(this.mappings, this.getType(e.iterRange), false);
    const accuType = this.getType(e.accuInit);
    this.scopes.push(new Map([[e.accuVar, accuType]]));
    let varType: CelType;
    let var2Type: CelType | undefined;
    const two = e.iterVar2 !== undefined;
    switch (rangeType.kind) {
      case 'list':
        varType = rangeType.params[0]!;
        if (two) {
          var2Type = varType;
          varType = INT;
        }
        break;
      case 'map':
        varType = rangeType.params[0]!;
        if (two) var2Type = rangeType.params[1]!;
        break;
      case 'dyn':
      case 'any':
      case 'error':
      case 'typeParam':
        this.isAssignable(DYN, rangeType);
        varType = DYN;
        if (two) var2Type = DYN;
        break;
      default:
        this.error(e.iterRange.offset, `expression of type '${formatType(rangeType)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
        varType = ERROR;
        if (two) var2Type = ERROR;
    }
    const loop = new Map<string, CelType>([[e.iterVar, varType]]);
    if (two) loop.set(e.iterVar2!, var2Type!);
    this.scopes.push(loop);
    this.check(e.loopCondition);
    this.assertType(e.loopCondition, BOOL);
    this.check(e.loopStep);
    this.assertType(e.loopStep, accuType);
    this.scopes.pop();
    this.check(e.result);
    this.scopes.pop();
    this.setType(e, substitute(this.mappings, this.getType(e.result), false));
  }

  private assertType(e: Expr, t: CelType): void {
    const actual = this.getType(e);
    if (!this.isAssignable(t, actual)) this.error(e.offset, `expected type '${formatType(t)}' but found '${formatType(actual)}'`);
  }
}

/** cel-go's equivalence of types (type parameter names ignored). */
function isEquivalentType(a: CelType, b: CelType): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || a.params.length !== b.params.length) return false;
  if (a.kind !== 'typeParam' && a.name !== b.name) return false;
  return a.params.every((p, i) => isEquivalentType(p, b.params[i]!));
}

/**
 * The homogeneous aggregate literal validator (cel.ValidateHomogeneousAggregateLiterals). It reads
 * the type parameter of an optional list element or map entry (`[?x]`, `{?k: x}`); when the checker
 * typed that element dyn (an int-or-string value) there is none, and cel-go indexes past the end:
 * the server panics. The first such element, in the validator's order, is returned (and the issues
 * found before it are lost with the request).
 */
function homogeneousLiterals(nodes: readonly Expr[], r: CheckResult, out: CheckIssue[], exempt: ReadonlySet<Expr>): CheckIssue | undefined {
  const typeAt = (x: Expr): CelType => r.typeOf(x.id) ?? ERROR;
  const panic = (x: Expr, what: string): CheckIssue => ({ offset: x.offset, message: `an optional ${what} of type '${formatType(typeAt(x))}'` });
  for (const l of nodes) {
    if (l.kind !== 'list' || exempt.has(l)) continue;
    let elemType: CelType | undefined;
    for (let i = 0; i < l.elements.length; i++) {
      const el = l.elements[i]!;
      let et = typeAt(el);
      if (l.optionalIndices.includes(i)) {
        if (et.params.length === 0) return panic(el, 'list element');
        et = et.params[0]!;
      }
      if (elemType === undefined) {
        elemType = et;
        continue;
      }
      if (!isEquivalentType(elemType, et)) {
        out.push({ offset: el.offset, message: `expected type '${formatType(elemType)}' but found '${formatType(et)}'` });
        break;
      }
    }
  }
  for (const m of nodes) {
    if (m.kind !== 'map' || exempt.has(m)) continue;
    let kt0: CelType | undefined;
    let vt0: CelType | undefined;
    for (const en of m.entries) {
      const kt = typeAt(en.key);
      let vt = typeAt(en.value);
      if (en.optional) {
        if (vt.params.length === 0) return panic(en.value, 'map entry');
        vt = vt.params[0]!;
      }
      if (kt0 === undefined && vt0 === undefined) {
        kt0 = kt;
        vt0 = vt;
        continue;
      }
      if (!isEquivalentType(kt0!, kt)) out.push({ offset: en.key.offset, message: `expected type '${formatType(kt0!)}' but found '${formatType(kt)}'` });
      if (!isEquivalentType(vt0!, vt)) out.push({ offset: en.value.offset, message: `expected type '${formatType(vt0!)}' but found '${formatType(vt)}'` });
    }
  }
  return undefined;
}

/** Literal validators of compat 1.29+: decides whether a literal argument is valid (undefined: cannot tell). */
export interface LiteralChecks {
  duration(s: string): boolean | undefined;
  timestamp(s: string): boolean | undefined;
  regex(s: string): boolean | undefined;
}

export interface CompileOutcome {
  readonly parsed: ParsedExpr | undefined;
  readonly checked: CheckResult | undefined;
  /** cel-go issues (parse or check or validator), empty when it compiled. */
  readonly issues: readonly CheckIssue[];
  /** Set when the parser failed: our parser's message (not cel-go's wording). */
  readonly syntaxError: CheckIssue | undefined;
  /** A literal validator could not decide (the verdict is not faithful). */
  readonly undecided: string | undefined;
  /** The server panics in the homogeneous literal validator, at this element (homogeneousLiterals). */
  readonly panic?: CheckIssue;
}

const PARSED = new Map<string, ReturnType<typeof parseCel>>();

export function macrosOf(compat: number, server: number) {
  return { optionals: compat >= since('cel.optionals'), twoVar: compat >= since('cel.two-var'), sortBy: compat >= since('cel.ext-lists'), identEscapes: server >= since('cel.go-0.29'), escapeTokens: server >= since('cel.go-0.23') };
}

const NAMES = new WeakMap<ParsedExpr, readonly string[]>();

/** The names the checker looks functions up by in a tree (checkCall: the name, and `q.name` for a qualified target). */
function functionNames(p: ParsedExpr): readonly string[] {
  let names = NAMES.get(p);
  if (names) return names;
  const set = new Set<string>();
  for (const n of allNodes(p.expr)) {
    if (n.kind !== 'call') continue;
    set.add(n.fn);
    const q = n.target ? qualifiedName(n.target) : undefined;
    if (q !== undefined) set.add(`${q}.${n.fn}`);
  }
  NAMES.set(p, (names = [...set].sort()));
  return names;
}

function parseFor(text: string, compat: number, server: number): ReturnType<typeof parseCel> {
  return parseCached(text, macrosOf(compat, server));
}

/** parseCel, once per text and options: the tree is never changed (by checking or anything else), so one parse serves every type and environment. */
export function parseCached(text: string, macros: ReturnType<typeof macrosOf>): ReturnType<typeof parseCel> {
  const key = `${Number(macros.optionals)}${Number(macros.twoVar)}${Number(macros.sortBy)}${Number(macros.identEscapes)}${Number(macros.escapeTokens)}\0${text}`;
  let p = PARSED.get(key);
  if (!p) PARSED.set(key, (p = parseCel(text, macros)));
  return p;
}

/**
 * A key that is equal for two environments (compatibility version 1.`compat` on a server of minor
 * 1.`server`) when compileCel gives `text` the same outcome in both, whatever the variables'
 * types: the server, every gate compileCel and the checker compare `compat` with (the macros,
 * escaped reserved field names, the literal validators), and the overloads declared under each
 * function name the text calls. A rule compiled in the new-expressions environment (n−1) then
 * serves the validator's environment (n) unless it calls a function the two declare differently.
 * Whatever else of the checker comes to depend on `compat` must be added here.
 */
export function compileIdentity(text: string, compat: number, server: number): string {
  const m = macrosOf(compat, server);
  const gates = [m.optionals, m.twoVar, m.sortBy, m.identEscapes, m.escapeTokens, compat >= since('cel.format-and-escapes'), compat >= since('cel.strings-v2')];
  let id = `${server}/${gates.map(Number).join('')}`;
  const p = parseFor(text, compat, server);
  if (!p.ok || p.issues.length > 0) return id;
  for (const name of functionNames(p.parsed)) id += `\0${name}:${overloadIdsFor(name, compat, server)}`;
  return id;
}

/** Parse + check + AST validators, as cel.Env.Compile does for the CRD environment. */
export function compileCel(text: string, env: CheckEnv, literals: LiteralChecks | undefined): CompileOutcome {
  const p = parseFor(text, env.compat, env.server);
  if (!p.ok) return { parsed: undefined, checked: undefined, issues: [], syntaxError: p.syntaxError, undecided: undefined };
  if (p.issues.length > 0) return { parsed: p.parsed, checked: undefined, issues: p.issues, syntaxError: undefined, undecided: undefined };
  const checker = new Checker(env);
  const r = checker.run(p.parsed.expr);
  if (r.errors.length > 0) return { parsed: p.parsed, checked: r, issues: typeNamesOf(r.errors, env.server), syntaxError: undefined, undecided: undefined };
  const issues: CheckIssue[] = [];
  const nodes = allNodes(p.parsed.expr);
  // literals inside format() are exempt (cel-go 0.17: by the homogeneous validator itself; later: configured by the strings extension)
  const panic = homogeneousLiterals(nodes, r, issues, inFormatCall(p.parsed.expr));
  // the validator runs first (Kubernetes adds it with the base environment): nothing after it runs
  if (panic !== undefined) return { parsed: p.parsed, checked: r, issues: [], syntaxError: undefined, undecided: undefined, panic };
  // strings v1+ (compat 1.29) on cel-go 0.18+: the format() validator
  const formatValidator = env.compat >= since('cel.strings-v2') && env.server >= since('cel.go-0.20');
  let undecided: string | undefined;
  if (env.compat >= since('cel.strings-v2')) {
    for (const n of nodes) {
      if (n.kind !== 'call') continue;
      if (n.fn !== 'duration' && n.fn !== 'timestamp' && n.fn !== 'matches') continue;
      // cel-go checks argument 0 of the call node: the pattern of s.matches(p), the string of matches(s, p)
      const arg = n.args[0];
      // duration(<int literal>): cel-go 0.26 declares the overload but it always fails when the
      // validator evaluates the call (from 1.37 the overload is gone, and the check fails first)
      if (arg?.kind === 'literal' && arg.value.type === 'int' && n.fn === 'duration' && !n.target) {
        issues.push({ offset: arg.offset, message: 'invalid duration argument' });
        continue;
      }
      // duration(null), timestamp(null): null checks as the well-known message type, and the
      // validator's evaluation of the call fails (no overload takes a null)
      if (arg?.kind === 'literal' && arg.value.type === 'null' && (n.fn === 'duration' || n.fn === 'timestamp') && !n.target) {
        issues.push({ offset: arg.offset, message: `invalid ${n.fn} argument` });
        continue;
      }
      // timestamp(<int literal>): the validator evaluates it; beyond years 1 to 9999 it fails
      if (arg?.kind === 'literal' && arg.value.type === 'int' && n.fn === 'timestamp' && !n.target) {
        if (!inTimestampRange(arg.value.value)) issues.push({ offset: arg.offset, message: 'invalid timestamp argument' });
        continue;
      }
      if (!arg || arg.kind !== 'literal' || arg.value.type !== 'string') continue;
      const check = n.fn === 'duration' ? literals?.duration : n.fn === 'timestamp' ? literals?.timestamp : literals?.regex;
      const ok = check?.(arg.value.value);
      if (ok === undefined) undecided = `the ${n.fn}() literal validator`;
      else if (!ok) issues.push({ offset: arg.offset, message: `invalid ${n.fn} argument` });
    }
  }
  if (formatValidator) {
    const overloadsOf = (id: number) => r.refOf(id)?.overloadIds;
    issues.push(...checkFormatCalls(p.parsed.expr, { typeOf: (id) => r.typeOf(id), overloadsOf, textAsFormat: env.server < since('cel.go-0.23') }));
  }
  return { parsed: p.parsed, checked: r, issues: typeNamesOf(issues, env.server), syntaxError: undefined, undecided };
}

/** Issue texts with the optional type as cel-go names it on a server of minor 1.`server` (`optional(T)` before cel-go 0.18). */
function typeNamesOf(issues: readonly CheckIssue[], server: number): CheckIssue[] {
  if (server >= since('cel.optional-type-name')) return [...issues];
  return issues.map((i) => (i.message.includes('optional_type(') ? { ...i, message: i.message.replace(/\boptional_type\(/g, 'optional(') } : i));
}

/** cel-go's Issues.String(): each issue as `ERROR: <input>:L:C: msg`, the source line and a caret, sorted by position. */
export function formatIssues(source: readonly string[], issues: readonly CheckIssue[]): string {
  const sorted = issues
    .map((i, n) => ({ i, n, loc: locate(source, i.offset) }))
    .sort((a, b) => a.loc.line - b.loc.line || a.loc.column - b.loc.column || a.n - b.n);
  return sorted
    .map(({ i, loc }) => {
      let out = `ERROR: <input>:${loc.line}:${loc.column + 1}: ${i.message}`;
      const snippet = loc.lineText.replace(/\t/g, ' ');
      if (snippet.length <= 16384) {
        const chars = Array.from(snippet);
        let ind = '';
        for (let k = 0; k < loc.column && k < chars.length; k++) ind += new TextEncoder().encode(chars[k]!).length > 1 ? '\uff0e' : '.';
        const at = chars[loc.column];
        ind += at !== undefined && new TextEncoder().encode(at).length > 1 ? '\uff3e' : '^';
        out += `\n | ${snippet}\n | ${ind}`;
      }
      return out;
    })
    .join('\n');
}
