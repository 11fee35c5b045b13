/**
 * Static cost of a checked CEL expression, number for number with cel-go v0.26.0
 * `checker.Cost` (checker/cost.go) as Kubernetes runs it: with the Kubernetes library estimator
 * (apiserver pkg/cel/library/cost.go, keyed by function name), the cel-go extension estimators
 * the 1.36 environment loads (ext/sets.go, ext/lists.go version 3, keyed by overload id), and
 * the size estimator of the CRD validation (apiextensions schema/cel/compilation.go
 * sizeEstimator: the declared `maxElements` found by the field path of an expression).
 *
 * Costs and sizes are uint64 in cel-go: they are bigints here, saturating at 2^64-1 as cel-go's
 * add and multiply do. Cost factors are float64 multiplications rounded up, as in cel-go.
 *
 * The estimator reads a checked expression through `CostAst` (the checker's types and overload
 * ids per node id), so it does not depend on how the tree was built.
 */

import { runeCount } from '../../go/strings.js';

export const MAX_U64 = (1n << 64n) - 1n;
const TWO_64 = 2 ** 64;

/** Constants of cel-go common/cost.go. */
export const SELECT_AND_IDENT_COST = 1n;
export const CONST_COST = 0n;
export const LIST_CREATE_BASE_COST = 10n;
export const MAP_CREATE_BASE_COST = 30n;
export const STRUCT_CREATE_BASE_COST = 40n;
export const STRING_TRAVERSAL_COST_FACTOR = 0.1;
export const REGEX_STRING_LENGTH_COST_FACTOR = 0.25;
/** apiserver pkg/cel/limits.go */
const MAX_FORMAT_SIZE = 64n;
const MAX_NAME_FORMAT_REGEX_SIZE = 128;

export interface Range {
  readonly min: bigint;
  readonly max: bigint;
}

export const range = (min: bigint, max: bigint = min): Range => ({ min, max });
const UNKNOWN_SIZE: Range = range(0n, MAX_U64);

export function addU64(x: bigint, y: bigint): bigint {
  const s = x + y;
  return s > MAX_U64 ? MAX_U64 : s;
}

export function mulU64(x: bigint, y: bigint): bigint {
  const p = x * y;
  return p > MAX_U64 ? MAX_U64 : p;
}

/** multiplyByCostFactor: float64 product rounded up, saturating. */
export function mulFactor(x: bigint, y: number): bigint {
  const xf = Number(x);
  if (xf > 0 && y > 0 && xf > TWO_64 / y) return MAX_U64;
  const c = Math.ceil(xf * y);
  if (c >= TWO_64) return MAX_U64;
  return BigInt(c);
}

export const add = (a: Range, b: Range): Range => range(addU64(a.min, b.min), addU64(a.max, b.max));
export const mul = (a: Range, b: Range): Range => range(mulU64(a.min, b.min), mulU64(a.max, b.max));
export const mulF = (a: Range, f: number): Range => range(mulFactor(a.min, f), mulFactor(a.max, f));
export const union = (a: Range, b: Range): Range => range(a.min < b.min ? a.min : b.min, a.max > b.max ? a.max : b.max);

// ---------------------------------------------------------------------------------------------
// The checked expression as the estimator reads it (cel-go common/ast shapes).

export type CostLiteral =
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'bytes'; readonly value: { readonly length: number } }
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'int'; readonly value: bigint }
  | { readonly type: 'uint' | 'double' | 'null' | 'duration' | 'timestamp'; readonly value?: unknown };

export type CostExpr =
  | { readonly kind: 'literal'; readonly id: number; readonly value: CostLiteral }
  | { readonly kind: 'ident'; readonly id: number; readonly name: string }
  | { readonly kind: 'select'; readonly id: number; readonly operand: CostExpr; readonly field: string; readonly testOnly: boolean }
  | { readonly kind: 'call'; readonly id: number; readonly fn: string; readonly target: CostExpr | undefined; readonly args: readonly CostExpr[] }
  | { readonly kind: 'list'; readonly id: number; readonly elements: readonly CostExpr[] }
  | { readonly kind: 'map'; readonly id: number; readonly entries: readonly { readonly key: CostExpr; readonly value: CostExpr }[] }
  | { readonly kind: 'struct'; readonly id: number; readonly fields: readonly { readonly value: CostExpr }[] }
  | {
      readonly kind: 'comprehension';
      readonly id: number;
      readonly iterRange: CostExpr;
      readonly iterVar: string;
      readonly iterVar2: string | undefined;
      readonly accuVar: string;
      readonly accuInit: CostExpr;
      readonly loopCondition: CostExpr;
      readonly loopStep: CostExpr;
      readonly result: CostExpr;
    };

/** cel-go types.Kind names, the parts of a type the estimator reads. */
export type CostTypeKind =
  | 'any' | 'bool' | 'bytes' | 'double' | 'duration' | 'dyn' | 'error' | 'int' | 'list' | 'map' | 'null'
  | 'opaque' | 'string' | 'struct' | 'timestamp' | 'type' | 'typeParam' | 'uint' | 'unknown';

export interface CostType {
  readonly kind: CostTypeKind;
  /** struct and opaque type names (e.g. kubernetes.Quantity, net.IP, optional_type) */
  readonly name?: string;
  readonly params?: readonly CostType[];
}

export interface CostAst {
  readonly root: CostExpr;
  /** the estimator options of the environment the tree was checked in (default: Kubernetes 1.36) */
  readonly options?: CostOptions;
  typeOf(id: number): CostType | undefined;
  overloadIds(id: number): readonly string[];
}

/**
 * The size estimator (checker.CostEstimator.EstimateSize): the size of a node from its field path
 * (first element the variable; empty when the node has none) and its type, or undefined.
 */
export type SizeAtPath = (path: readonly string[], type: CostType | undefined) => Range | undefined;

export interface CostOptions {
  /** PresenceTestHasCost: Kubernetes sets false (has() adds nothing of its own). */
  readonly presenceTestHasCost?: boolean;
  /** The ext.Lists version loaded (3 from Kubernetes 1.34): its estimators exist from 3. */
  readonly listsVersion?: number;
  /** ext.Sets loaded (Kubernetes 1.29+). */
  readonly sets?: boolean;
  /** cel-go 0.29 (Kubernetes 1.37): the global `matches(s, re)` costs as `s.matches(re)`; before, 1 + its arguments. */
  readonly globalMatchesCost?: boolean;
  /**
   * cel-go 0.23+ (Kubernetes 1.33): list and map literals carry entry sizes (index results, iteration
   * variables, concatenations, conditionals read them), the accumulator and cel.bind variables carry
   * sizes, cel.bind and dyn() are costed apart, an optional scalar is a scalar. False: cel-go before
   * 0.23, where sizes come from computed call results and field paths only, a bind is a plain
   * comprehension (its size that of its empty range) and a comprehension's size is its range's.
   */
  readonly entrySizes?: boolean;
  /**
   * Kubernetes 1.32's library estimator: `==` of two Kubernetes values (Quantity, URL, IP, CIDR,
   * …) has its own estimate and `url()` a result size. False: before 1.32, such an `==` is costed
   * as cel-go's equality of two values of unknown size.
   */
  readonly k8sEqualityCost?: boolean;
}

/** One node's share of the estimate, for explanations. */
export interface CostContribution {
  readonly id: number;
  /** cost of this node including its children */
  readonly cost: Range;
  /** for comprehensions: the size of the iteration range and the cost of one iteration */
  readonly iterations?: Range;
  readonly perIteration?: Range;
  /** the field path of the iteration range, when it is a declared field */
  readonly rangePath?: readonly string[];
}

export interface CostResult {
  readonly cost: Range;
  /** per node id, in evaluation order */
  readonly contributions: ReadonlyMap<number, CostContribution>;
}

interface EntrySize {
  readonly container: CostTypeKind;
  readonly key: Range;
  readonly val: Range;
}

/**
 * A field path as cel-go 0.23+ keeps it: a Go []string. getPath hands out the slice itself
 * (`v.path[:]`) and costSelect, an index and an iteration variable `append` to it, so an append
 * into a slice's spare capacity writes the shared backing array: `b.name` after `b.f0` (b's path
 * [self f0 @items] of capacity 4) turns b.f0's path into [self f0 @items name], and a size read
 * later through b.f0 (the range of a nested comprehension, sized after its body) reads that field's.
 * Go's growth for one appended string: capacity 0 → 1, then doubled (size classes of 16-byte
 * elements are the powers of two up to 4 KiB). `fresh`: every append copies (cel-go before 0.23).
 */
class GoPath {
  private constructor(
    private readonly arr: string[],
    readonly length: number,
    private readonly cap: number,
    private readonly fresh: boolean,
  ) {}
  static of(fresh: boolean, ...xs: string[]): GoPath {
    return new GoPath([...xs], xs.length, xs.length, fresh);
  }
  append(x: string): GoPath {
    if (!this.fresh && this.length < this.cap) {
      this.arr[this.length] = x;
      return new GoPath(this.arr, this.length + 1, this.cap, false);
    }
    const arr = this.arr.slice(0, this.length);
    arr.push(x);
    const cap = this.fresh ? arr.length : this.cap === 0 ? 1 : this.cap < 256 ? this.cap * 2 : this.cap + Math.floor((this.cap + 768) / 4);
    return new GoPath(arr, arr.length, cap, this.fresh);
  }
  /** The elements it reads now. */
  get items(): string[] {
    return this.arr.slice(0, this.length);
  }
}

interface LocalVar {
  readonly path: GoPath;
  readonly size: Range | undefined;
  readonly entrySize: EntrySize | undefined;
}

/** A node as the call estimators see it (checker.AstNode). */
interface AstNode {
  readonly path: readonly string[] | undefined;
  readonly type: CostType | undefined;
  readonly expr: CostExpr | undefined;
  readonly computedSize: Range | undefined;
}

interface CallEstimate {
  readonly cost: Range;
  readonly resultSize?: Range | undefined;
}

const ACCU = '__result__';
const HIDDEN_ACCU = '@result';

function isScalar(t: CostType | undefined, optionalScalar = true): boolean {
  if (!t) return false;
  switch (t.kind) {
    case 'bool':
    case 'double':
    case 'duration':
    case 'int':
    case 'timestamp':
    case 'uint':
      return true;
    case 'opaque':
      return optionalScalar && t.name === 'optional_type' && isScalar(t.params?.[0]);
    default:
      return false;
  }
}

function literalSize(e: CostExpr): Range | undefined {
  switch (e.kind) {
    case 'literal': {
      const v = e.value;
      if (v.type === 'string') return range(BigInt(runeCount(v.value)));
      if (v.type === 'bytes') return range(BigInt(v.value.length));
      return range(1n);
    }
    case 'list':
      return range(BigInt(e.elements.length));
    case 'map':
      return range(BigInt(e.entries.length));
    default:
      return undefined;
  }
}

function typeEqual(a: CostType | undefined, b: CostType | undefined): boolean {
  if (!a || !b) return false;
  if (a.kind !== b.kind || a.name !== b.name) return false;
  const ap = a.params ?? [];
  const bp = b.params ?? [];
  return ap.length === bp.length && ap.every((p, i) => typeEqual(p, bp[i]));
}

const ONE: Range = range(1n);

/** `cel-go checker.Cost` with the Kubernetes estimators. */
export function estimateCost(ast: CostAst, sizeAt: SizeAtPath, opts: CostOptions = {}): CostResult {
  return new Coster(ast, sizeAt, opts).run();
}

class Coster {
  private readonly exprPaths = new Map<number, GoPath>();
  private readonly nilPath: GoPath;
  private readonly locals = new Map<string, LocalVar[]>();
  private readonly sizes = new Map<number, Range>();
  private readonly entrySizes = new Map<number, EntrySize>();
  private readonly contributions = new Map<number, CostContribution>();
  private readonly presenceCost: Range;
  /** cel-go before 0.23 (see CostOptions.entrySizes) */
  private readonly legacy: boolean;

  constructor(
    private readonly ast: CostAst,
    private readonly sizeAt: SizeAtPath,
    private readonly opts: CostOptions,
  ) {
    this.presenceCost = opts.presenceTestHasCost === false ? range(0n) : range(1n);
    this.legacy = opts.entrySizes === false;
    this.nilPath = GoPath.of(this.legacy);
  }

  run(): CostResult {
    const cost = this.cost(this.ast.root);
    return { cost, contributions: this.contributions };
  }

  private typeOf(e: CostExpr): CostType | undefined {
    return this.ast.typeOf(e.id);
  }

  private push(name: string, v: LocalVar): void {
    const s = this.locals.get(name);
    if (s) s.push(v);
    else this.locals.set(name, [v]);
  }
  private pop(name: string): void {
    this.locals.get(name)?.pop();
  }
  private peek(name: string): LocalVar | undefined {
    const s = this.locals.get(name);
    return s && s.length > 0 ? s[s.length - 1] : undefined;
  }

  private getPath(e: CostExpr): GoPath {
    if (e.kind === 'ident') {
      const v = this.peek(e.name);
      if (v) return v.path;
    }
    return this.exprPaths.get(e.id) ?? this.nilPath;
  }

  private containerKind(rangeExpr: CostExpr, es: EntrySize | undefined): CostTypeKind {
    return es ? es.container : (this.typeOf(rangeExpr)?.kind ?? 'unknown');
  }

  private pushIterKey(name: string, r: CostExpr): void {
    const es = this.entrySize(r);
    const sub = this.containerKind(r, es) === 'list' ? '@indices' : '@keys';
    this.push(name, { path: this.getPath(r).append(sub), size: es?.key, entrySize: undefined });
  }
  private pushIterValue(name: string, r: CostExpr): void {
    const es = this.entrySize(r);
    const sub = this.containerKind(r, es) === 'list' ? '@items' : '@values';
    this.push(name, { path: this.getPath(r).append(sub), size: es?.val, entrySize: undefined });
  }
  private pushIterSingle(name: string, r: CostExpr): void {
    const es = this.entrySize(r);
    const kind = this.containerKind(r, es);
    const isList = kind === 'list';
    // before 0.23 an iteration variable over neither a list nor a map (dyn) has no path
    const path = this.legacy && !isList && kind !== 'map' ? this.nilPath : this.getPath(r).append(isList ? '@items' : '@keys');
    this.push(name, { path, size: isList ? es?.val : es?.key, entrySize: undefined });
  }
  private pushLocal(name: string, e: CostExpr): void {
    this.push(name, { path: this.getPath(e), size: this.computeSize(e), entrySize: this.entrySize(e) });
  }

  private cost(e: CostExpr): Range {
    let c: Range;
    switch (e.kind) {
      case 'literal':
        c = range(CONST_COST);
        break;
      case 'ident': {
        const v = this.peek(e.name);
        this.exprPaths.set(e.id, v ? v.path : GoPath.of(this.legacy, e.name));
        c = range(SELECT_AND_IDENT_COST);
        break;
      }
      case 'select':
        c = this.costSelect(e);
        break;
      case 'call':
        c = this.costCall(e);
        break;
      case 'list':
        c = this.costList(e);
        break;
      case 'map':
        c = this.costMap(e);
        break;
      case 'struct': {
        let sum = range(0n);
        for (const f of e.fields) sum = add(sum, this.cost(f.value));
        c = add(sum, range(STRUCT_CREATE_BASE_COST));
        break;
      }
      case 'comprehension':
        c = this.isBind(e) ? this.costBind(e) : this.costComprehension(e);
        break;
    }
    if (!this.contributions.has(e.id)) this.contributions.set(e.id, { id: e.id, cost: c });
    return c;
  }

  private costSelect(e: Extract<CostExpr, { kind: 'select' }>): Range {
    if (e.testOnly) return add(this.presenceCost, this.cost(e.operand));
    let sum = this.cost(e.operand);
    const k = this.typeOf(e.operand)?.kind;
    if (k === 'map' || k === 'struct' || k === 'typeParam') sum = add(sum, range(SELECT_AND_IDENT_COST));
    this.exprPaths.set(e.id, this.getPath(e.operand).append(e.field));
    return sum;
  }

  private node(e: CostExpr): AstNode {
    let path: readonly string[] | undefined = this.getPath(e).items;
    if (path.length > 0 && (path[0] === ACCU || path[0] === HIDDEN_ACCU)) path = undefined;
    return { path, type: this.typeOf(e), expr: e, computedSize: this.computeSize(e) };
  }

  private costCall(e: Extract<CostExpr, { kind: 'call' }>): Range {
    if (e.fn === 'dyn' && e.args.length > 0 && !this.legacy) {
      const arg = e.args[0]!;
      const ac = this.cost(arg);
      this.copySizes(e, arg);
      return add(range(1n), ac);
    }
    const argNodes: AstNode[] = [];
    const argCosts: Range[] = [];
    for (const a of e.args) {
      argCosts.push(this.cost(a));
      argNodes.push(this.node(a));
    }
    const ids = this.ast.overloadIds(e.id);
    if (ids.length === 0) return range(0n);
    let sum = range(0n);
    let target: AstNode | undefined;
    if (e.target) {
      sum = add(sum, this.cost(e.target));
      target = this.node(e.target);
    }
    let fnCost: Range = range(MAX_U64, 0n);
    let resultSize: Range | undefined;
    for (const id of ids) {
      const oc = this.functionCost(e, e.fn, id, target, argNodes, argCosts);
      fnCost = union(fnCost, oc.cost);
      if (oc.resultSize) resultSize = resultSize ? union(resultSize, oc.resultSize) : oc.resultSize;
      if ((id === 'index_list' || id === 'index_map') && e.args.length > 0) {
        resultSize = this.entrySize(e.args[0]!)?.val;
        this.exprPaths.set(e.id, this.getPath(e.args[0]!).append(id === 'index_list' ? '@items' : '@values'));
      }
      if (!resultSize) resultSize = this.computeSize(e);
    }
    if (resultSize) this.sizes.set(e.id, resultSize);
    return add(sum, fnCost);
  }

  private costList(e: Extract<CostExpr, { kind: 'list' }>): Range {
    let sum = range(0n);
    let item: Range = range(e.elements.length === 0 ? 0n : MAX_U64, 0n);
    for (const x of e.elements) {
      sum = add(sum, this.cost(x));
      item = union(item, this.sizeOrUnknown(x));
    }
    this.entrySizes.set(e.id, { container: 'list', key: range(1n), val: item });
    return add(sum, range(LIST_CREATE_BASE_COST));
  }

  private costMap(e: Extract<CostExpr, { kind: 'map' }>): Range {
    let sum = range(0n);
    const empty = e.entries.length === 0;
    let key: Range = range(empty ? 0n : MAX_U64, 0n);
    let val: Range = range(empty ? 0n : MAX_U64, 0n);
    for (const ent of e.entries) {
      sum = add(sum, this.cost(ent.key));
      sum = add(sum, this.cost(ent.value));
      key = union(key, this.sizeOrUnknown(ent.key));
      val = union(val, this.sizeOrUnknown(ent.value));
    }
    this.entrySizes.set(e.id, { container: 'map', key, val });
    return add(sum, range(MAP_CREATE_BASE_COST));
  }

  private isBind(e: Extract<CostExpr, { kind: 'comprehension' }>): boolean {
    if (this.legacy) return false;
    const r = e.iterRange;
    const c = e.loopCondition;
    return r.kind === 'list' && r.elements.length === 0 && c.kind === 'literal' && c.value.type === 'bool' && c.value.value === false && e.accuVar !== ACCU;
  }

  private costBind(e: Extract<CostExpr, { kind: 'comprehension' }>): Range {
    let sum = this.cost(e.iterRange);
    sum = add(sum, this.cost(e.accuInit));
    this.pushLocal(e.accuVar, e.accuInit);
    sum = add(sum, this.cost(e.result));
    this.pop(e.accuVar);
    this.copySizes(e, e.result);
    return sum;
  }

  private costComprehension(e: Extract<CostExpr, { kind: 'comprehension' }>): Range {
    let sum = this.cost(e.iterRange);
    sum = add(sum, this.cost(e.accuInit));
    if (!this.legacy) this.pushLocal(e.accuVar, e.accuInit);
    if (e.iterVar2 !== undefined) {
      this.pushIterKey(e.iterVar, e.iterRange);
      this.pushIterValue(e.iterVar2, e.iterRange);
    } else this.pushIterSingle(e.iterVar, e.iterRange);
    const loop = this.cost(e.loopCondition);
    const step = this.cost(e.loopStep);
    this.pop(e.iterVar);
    if (e.iterVar2 !== undefined) this.pop(e.iterVar2);
    sum = add(sum, this.cost(e.result));
    if (!this.legacy) this.pop(e.accuVar);
    const cnt = this.sizeOrUnknown(e.iterRange);
    const per = add(step, loop);
    sum = add(sum, mul(cnt, per));
    const ik = e.accuInit.kind;
    if (this.legacy) this.sizes.set(e.id, cnt);
    else if (ik === 'literal') {
      const s = this.computeSize(e.accuInit);
      if (s) this.sizes.set(e.id, s);
    } else if (ik === 'list' || ik === 'map') {
      this.sizes.set(e.id, cnt);
      const es = this.entrySize(e.loopStep);
      if (es) this.entrySizes.set(e.id, es);
    }
    const rp = this.getPath(e.iterRange).items;
    this.contributions.set(e.id, {
      id: e.id,
      cost: sum,
      iterations: cnt,
      perIteration: per,
      ...(rp.length > 0 && rp[0] !== ACCU && rp[0] !== HIDDEN_ACCU ? { rangePath: rp } : {}),
    });
    return sum;
  }

  private copySizes(dst: CostExpr, src: CostExpr): void {
    const s = this.computeSize(src);
    if (s) this.sizes.set(dst.id, s);
    const es = this.entrySize(src);
    if (es) this.entrySizes.set(dst.id, es);
  }

  private sizeOrUnknown(e: CostExpr): Range {
    return this.computeSize(e) ?? UNKNOWN_SIZE;
  }

  private computeSize(e: CostExpr): Range | undefined {
    const known = this.sizes.get(e.id);
    if (known) return known;
    const lit = literalSize(e);
    if (lit) return lit;
    let path = this.getPath(e).items;
    // before 0.23 the estimator sees no path for the accumulator
    if (this.legacy && path.length > 0 && (path[0] === ACCU || path[0] === HIDDEN_ACCU)) path = [];
    const est = this.sizeAt(path, this.typeOf(e));
    if (est) {
      this.sizes.set(e.id, est);
      return est;
    }
    if (isScalar(this.typeOf(e), !this.legacy)) return range(1n);
    if (e.kind === 'ident' && !this.legacy) {
      const v = this.peek(e.name);
      if (v?.size) return v.size;
    }
    return undefined;
  }

  private entrySize(e: CostExpr): EntrySize | undefined {
    if (this.legacy) return undefined;
    const s = this.entrySizes.get(e.id);
    if (s) return s;
    if (e.kind === 'ident') return this.peek(e.name)?.entrySize;
    return undefined;
  }

  /** library sizeEstimate: computed size, else the declared size by path, else unknown */
  private libSize(n: AstNode): Range {
    return n.computedSize ?? this.sizeAt(n.path ?? [], n.type) ?? UNKNOWN_SIZE;
  }

  private listElement(list: AstNode): AstNode | undefined {
    const p = list.type?.params;
    if (!p || p.length === 0) return undefined;
    // a node without a path (nil in cel-go) gives an element without one: its size is unknown
    return { path: list.path && list.path.length > 0 ? [...list.path, '@items'] : undefined, type: p[0], expr: undefined, computedSize: undefined };
  }

  private functionCost(e: CostExpr, fn: string, id: string, target: AstNode | undefined, args: AstNode[], argCosts: Range[]): CallEstimate {
    const argSum = (): Range => argCosts.reduce((s, a) => add(s, a), range(0n));
    const ext = this.extEstimate(id, target, args);
    if (ext) return { cost: add(ext.cost, argSum()), resultSize: ext.resultSize };
    const k8s = this.k8sEstimate(fn, id, target, args);
    if (k8s) return { cost: add(k8s.cost, argSum()), resultSize: k8s.resultSize };
    const sz = (n: AstNode): Range => n.computedSize ?? UNKNOWN_SIZE;
    switch (id) {
      case 'string_format':
        if (target) return { cost: add(mulF(sz(target), STRING_TRAVERSAL_COST_FACTOR), argSum()) };
        break;
      case 'string_to_bytes':
        if (args.length === 1) {
          const s = sz(args[0]!);
          return { cost: add(mulF(s, STRING_TRAVERSAL_COST_FACTOR), argSum()), resultSize: range(s.min, mulU64Wrap(s.max, 4n)) };
        }
        break;
      case 'bytes_to_string':
        if (args.length === 1) {
          const s = sz(args[0]!);
          return { cost: add(mulF(s, STRING_TRAVERSAL_COST_FACTOR), argSum()), resultSize: range(s.min / 4n, s.max) };
        }
        break;
      case 'strings_quote':
        if (args.length === 1) {
          const s = sz(args[0]!);
          return {
            cost: add(mulF(s, STRING_TRAVERSAL_COST_FACTOR), argSum()),
            resultSize: range(addWrap(s.min, 2n), addWrap(mulU64Wrap(s.max, 2n), 2n)),
          };
        }
        break;
      case 'starts_with_string':
      case 'ends_with_string':
        if (args.length === 1) return { cost: add(mulF(sz(args[0]!), STRING_TRAVERSAL_COST_FACTOR), argSum()) };
        break;
      case 'in_list':
        if (args.length === 2) return { cost: add(mulF(sz(args[1]!), 1), argSum()) };
        break;
      case 'matches_string':
      case 'matches': {
        const [strNode, reNode] =
          id === 'matches_string' && target && args.length === 1 ? [target, args[0]!] : id === 'matches' && this.opts.globalMatchesCost && !target && args.length === 2 ? [args[0]!, args[1]!] : [];
        if (strNode && reNode) {
          const str = mulF(add(sz(strNode), ONE), STRING_TRAVERSAL_COST_FACTOR);
          const re = mulF(sz(reNode), REGEX_STRING_LENGTH_COST_FACTOR);
          return { cost: add(mul(str, re), argSum()) };
        }
        break;
      }
      case 'contains_string':
        if (target && args.length === 1) {
          const str = mulF(sz(target), STRING_TRAVERSAL_COST_FACTOR);
          const sub = mulF(sz(args[0]!), STRING_TRAVERSAL_COST_FACTOR);
          return { cost: add(mul(str, sub), argSum()) };
        }
        break;
      case 'logical_or':
      case 'logical_and': {
        const l = argCosts[0]!;
        const r = argCosts[1]!;
        return { cost: range(l.min, add(l, r).max) };
      }
      case 'conditional': {
        const size = union(sz(args[1]!), sz(args[2]!));
        const a = this.entrySize(args[1]!.expr!);
        const b = this.entrySize(args[2]!.expr!);
        if (a && b) this.entrySizes.set(e.id, { container: a.container, key: union(a.key, b.key), val: union(a.val, b.val) });
        return { cost: add(argCosts[0]!, union(argCosts[1]!, argCosts[2]!)), resultSize: size };
      }
      case 'add_string':
      case 'add_bytes':
      case 'add_list':
        if (args.length === 2) {
          const rs = add(sz(args[0]!), sz(args[1]!));
          const a = this.entrySize(args[0]!.expr!);
          const b = this.entrySize(args[1]!.expr!);
          if (a && b) this.entrySizes.set(e.id, { container: a.container, key: union(a.key, b.key), val: union(a.val, b.val) });
          if (id === 'add_list') return { cost: add(ONE, argSum()), resultSize: rs };
          return { cost: add(mulF(rs, STRING_TRAVERSAL_COST_FACTOR), argSum()), resultSize: rs };
        }
        break;
      case 'less_string':
      case 'greater_string':
      case 'less_equals_string':
      case 'greater_equals_string':
      case 'less_bytes':
      case 'greater_bytes':
      case 'less_equals_bytes':
      case 'greater_equals_bytes':
      case 'equals':
      case 'not_equals': {
        const l = sz(args[0]!);
        const r = sz(args[1]!);
        const smallest = r.max < l.max ? r.max : l.max;
        return { cost: add(mulF(range(smallest > 0n ? 1n : 0n, smallest), STRING_TRAVERSAL_COST_FACTOR), argSum()) };
      }
    }
    return { cost: add(ONE, argSum()) };
  }

  /** ext.Sets and ext.Lists(3) overload estimators (by overload id). */
  private extEstimate(id: string, target: AstNode | undefined, args: AstNode[]): CallEstimate | undefined {
    const callCost = ONE;
    if (this.opts.sets !== false) {
      const f = id === 'list_sets_contains_list' || id === 'list_sets_intersects_list' ? 1 : id === 'list_sets_equivalent_list' ? 2 : 0;
      if (f > 0) {
        if (args.length !== 2) return undefined;
        return { cost: add(mulF(mul(this.libSize(args[0]!), this.libSize(args[1]!)), f), callCost) };
      }
    }
    if ((this.opts.listsVersion ?? 3) < 3) return undefined;
    const alloc = (factor: number, size: Range): CallEstimate => ({
      cost: add(add(mulF(size, factor), callCost), range(LIST_CREATE_BASE_COST)),
      resultSize: size,
    });
    switch (id) {
      case 'list_slice': {
        if (!target || args.length !== 2) return undefined;
        const s = this.libSize(target);
        const start = intLiteral(args[0]!, 0n);
        const end = intLiteral(args[1]!, s.max);
        return alloc(1, range(BigInt.asUintN(64, end - start)));
      }
      case 'lists_range':
        if (target || args.length !== 1) return undefined;
        return alloc(1, range(intLiteral(args[0]!, MAX_U64)));
      case 'list_reverse':
        if (!target || args.length !== 0) return undefined;
        return alloc(1, this.libSize(target));
      case 'list_flatten':
      case 'list_flatten_int': {
        if (!target || args.length > 1) return undefined;
        const depth = args.length === 1 ? intLiteral(args[0]!, MAX_U64) : 1n;
        return alloc(Number(depth), this.libSize(target));
      }
      case 'list_distinct': {
        if (!target || args.length !== 0) return undefined;
        const s = this.libSize(target);
        return alloc(2, mul(s, s));
      }
    }
    const sort = /^list_(\w+)_sort$/.exec(id);
    if (sort && SORTABLE.has(sort[1]!)) {
      if (!target || args.length !== 0) return undefined;
      return sortCost(this.libSize(target), sort[1]!, alloc);
    }
    const sortBy = /^list_(\w+)_sortByAssociatedKeys$/.exec(id);
    if (sortBy && SORTABLE.has(sortBy[1]!)) {
      if (!target || args.length !== 1) return undefined;
      return sortCost(this.libSize(args[0]!), sortBy[1]!, alloc);
    }
    return undefined;
  }

  /** Kubernetes library.CostEstimator.EstimateCallCost (by function name). */
  private k8sEstimate(fn: string, id: string, target: AstNode | undefined, args: AstNode[]): CallEstimate | undefined {
    const S = STRING_TRAVERSAL_COST_FACTOR;
    switch (fn) {
      case 'check':
        return { cost: range(350000n) };
      case 'serviceAccount':
      case 'path':
      case 'group':
      case 'resource':
      case 'subresource':
      case 'namespace':
      case 'name':
      case 'allowed':
      case 'reason':
      case 'error':
      case 'errored':
        return { cost: ONE };
      case 'fieldSelector':
      case 'labelSelector':
        if (args.length === 1) {
          const len = this.libSize(args[0]!);
          const parse = mulF(len, S);
          const reqCount = mulF(len, 0.5);
          const reqCost = mulF(reqCount, Number(LIST_CREATE_BASE_COST + STRUCT_CREATE_BASE_COST));
          return { cost: add(add(range(LIST_CREATE_BASE_COST), parse), reqCost) };
        }
        break;
      case 'isSorted':
      case 'sum':
      case 'max':
      case 'min':
      case 'indexOf':
      case 'lastIndexOf':
      case 'includes':
        if (target) {
          let el: Range = ONE;
          const elNode = this.listElement(target);
          if (elNode) {
            const k = elNode.type?.kind;
            if (k === 'string' || k === 'bytes') el = add(el, mulF(this.libSize(elNode), S));
            return { cost: mul(this.libSize(target), el) };
          }
          // lists v1: a dyn receiver may be a list, each comparison costing 1
          if (fn === 'includes') return { cost: mul(this.libSize(target), el) };
          return { cost: mulF(this.libSize(target), S) };
        }
        break;
      case 'url':
      case 'jsonpatch.escapeKey':
        if (args.length === 1) {
          const s = this.libSize(args[0]!);
          return { cost: mulF(s, S), ...(this.opts.k8sEqualityCost === false ? {} : { resultSize: s }) };
        }
        break;
      case 'lowerAscii':
      case 'upperAscii':
      case 'substring':
      case 'trim':
        if (target) {
          const s = this.libSize(target);
          return { cost: mulF(s, S), resultSize: s };
        }
        break;
      case 'replace':
        if (target && args.length >= 2) return replaceEstimate(this.libSize(target), this.libSize(args[0]!), this.libSize(args[1]!));
        break;
      case 'split':
        if (target) {
          const s = this.libSize(target);
          let max = s.max;
          if (args.length > 1) {
            const a = args[1]!.expr;
            if (a && a.kind === 'literal' && a.value.type === 'int') max = BigInt.asUintN(64, a.value.value);
          }
          return { cost: mulF(s, 2 * S), resultSize: range(0n, max) };
        }
        break;
      case 'join':
        if (target) {
          let s = range(0n);
          const listSize = this.libSize(target);
          const elNode = this.listElement(target);
          if (elNode) s = mul(listSize, this.libSize(elNode));
          if (args.length > 0) {
            const sep = this.libSize(args[0]!);
            s = add(s, mul(sep, range(listSize.min > 0n ? listSize.min - 1n : 0n, listSize.max > 0n ? listSize.max - 1n : 0n)));
          }
          return { cost: mulF(s, S), resultSize: s };
        }
        break;
      case 'find':
      case 'findAll':
        if (target && args.length >= 1) {
          const s = this.libSize(target);
          const str = mulF(add(s, ONE), S);
          const re = mulF(this.libSize(args[0]!), REGEX_STRING_LENGTH_COST_FACTOR);
          return { cost: mul(str, re), resultSize: range(0n, s.max) };
        }
        break;
      case 'cidr':
      case 'isIP':
      case 'isCIDR':
        if (args.length >= 1) return { cost: mulF(this.libSize(args[0]!), S) };
        break;
      case 'ip':
        if (id === 'cidr_ip') return { cost: ONE };
        if (args.length >= 1) return { cost: mulF(this.libSize(args[0]!), S) };
        break;
      case 'ip.isCanonical':
        if (args.length >= 1) return { cost: mulF(this.libSize(args[0]!), 2 * S) };
        break;
      case 'masked':
      case 'prefixLength':
      case 'family':
      case 'isUnspecified':
      case 'isLoopback':
      case 'isLinkLocalMulticast':
      case 'isLinkLocalUnicast':
      case 'isGlobalUnicast':
        return { cost: ONE };
      case 'containsIP':
        if (args.length >= 1) {
          const s = range(4n, 16n);
          let c = mulF(add(s, s), S);
          if (id === 'cidr_contains_ip_string') c = add(c, mulF(this.libSize(args[0]!), S));
          return { cost: c };
        }
        break;
      case 'containsCIDR':
        if (args.length >= 1) {
          const s = range(4n, 16n);
          let c = mulF(add(s, s), S);
          c = add(c, mulF(s, S));
          c = add(c, ONE);
          if (id === 'cidr_contains_cidr_string') c = add(c, mulF(this.libSize(args[0]!), S));
          return { cost: c };
        }
        break;
      case 'quantity':
      case 'isQuantity':
      case 'semver':
      case 'isSemver':
        if (args.length >= 1) return { cost: mulF(this.libSize(args[0]!), S) };
        break;
      case 'validate':
        if (args.length >= 1) return { cost: mulF(mulF(this.libSize(args[0]!), S), MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR) };
        break;
      case 'format.named':
        return { cost: ONE };
      case 'sign':
      case 'asInteger':
      case 'isInteger':
      case 'asApproximateFloat':
      case 'isGreaterThan':
      case 'isLessThan':
      case 'compareTo':
      case 'add':
      case 'sub':
      case 'major':
      case 'minor':
      case 'patch':
      case 'getScheme':
      case 'getHostname':
      case 'getHost':
      case 'getPort':
      case 'getEscapedPath':
      case 'getQuery':
        return { cost: ONE };
      case '_==_':
        if (args.length === 2 && this.opts.k8sEqualityCost !== false) {
          const l = args[0]!;
          const r = args[1]!;
          if (typeEqual(l.type, r.type)) {
            const t = l.type!;
            if (t.kind === 'opaque' && (t.name === 'net.IP' || t.name === 'net.CIDR')) return { cost: ONE };
            if (t.kind === 'struct') {
              if (O1_EQUALITY.has(t.name ?? '')) return { cost: ONE };
              if (t.name === 'kubernetes.NamedFormat') return { cost: mulF(range(1n, MAX_FORMAT_SIZE), S) };
              if (t.name === 'kubernetes.URL') {
                // upstream reads the right-hand size twice
                const rs = r.computedSize;
                const size = rs ? union(rs, rs) : ONE;
                return { cost: mulF(range(1n, size.max), S) };
              }
            }
          }
        }
        break;
    }
    return undefined;
  }
}

const O1_EQUALITY = new Set([
  'kubernetes.Quantity',
  'kubernetes.authorization.Authorizer',
  'kubernetes.authorization.PathCheck',
  'kubernetes.authorization.GroupCheck',
  'kubernetes.authorization.ResourceCheck',
  'kubernetes.authorization.Decision',
  'kubernetes.Semver',
]);

/** ext/lists.go comparableTypes, by type name in the overload id */
const SORTABLE = new Set(['int', 'uint', 'double', 'bool', 'duration', 'timestamp', 'string', 'bytes']);

function sortCost(size: Range, elem: string, alloc: (f: number, s: Range) => CallEstimate): CallEstimate {
  let f = 2.0;
  if (elem === 'string' || elem === 'bytes') f += STRING_TRAVERSAL_COST_FACTOR;
  return alloc(f, mul(size, size));
}

function intLiteral(n: AstNode, dflt: bigint): bigint {
  const e = n.expr;
  if (!e || e.kind !== 'literal' || e.value.type !== 'int') return dflt;
  return e.value.value < 0n ? 0n : e.value.value;
}

/** Go uint64 arithmetic that wraps (used where upstream does not guard) */
function mulU64Wrap(x: bigint, y: bigint): bigint {
  return BigInt.asUintN(64, x * y);
}
function addWrap(x: bigint, y: bigint): bigint {
  return BigInt.asUintN(64, x + y);
}

function replaceEstimate(sz: Range, toReplace: Range, replaceWith: Range): CallEstimate {
  let rcMin = 0n;
  let rcMax = 0n;
  let retMin = 0n;
  let retMax = 0n;
  if (toReplace.min === 0n) {
    rcMax = sz.max < MAX_U64 ? sz.max + 1n : sz.max;
    retMax = sz.max;
  } else if (replaceWith.max <= toReplace.min) {
    rcMax = 0n;
    retMax = sz.max;
  } else {
    rcMax = goFloatToU64(Math.ceil(Number(sz.max) / Number(toReplace.min)));
  }
  if (toReplace.max === 0n) {
    rcMin = sz.min < MAX_U64 ? sz.min + 1n : sz.min;
    retMin = sz.min;
  } else if (toReplace.max <= replaceWith.min) {
    rcMin = 0n;
    retMin = sz.min;
  } else {
    rcMin = goFloatToU64(Math.ceil(Number(sz.min) / Number(toReplace.max)));
  }
  const size = add(mul(range(rcMin, rcMax), replaceWith), range(retMin, retMax));
  return { cost: mulF(sz, 2 * STRING_TRAVERSAL_COST_FACTOR), resultSize: size };
}

/** Go's uint64(f) for a float64 on amd64 (values at or above 2^63 convert through the high bit). */
function goFloatToU64(f: number): bigint {
  if (!Number.isFinite(f)) return 1n << 63n;
  if (f >= TWO_64) return 1n << 63n;
  return BigInt(Math.trunc(f));
}
