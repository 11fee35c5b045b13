/**
 * The CRD validation's cost checks (apiextensions pkg/apis/apiextensions/validation:
 * validation.go getExpressionCost / getCostErrorMessage / the per-CRD total, cel_validation.go
 * CELSchemaContext cardinality and TotalCost), over one schema:
 *
 * - each rule's estimated max cost is multiplied by the cardinality of its node: the product of
 *   maxItems / maxProperties (1 for plain objects and scalars) of the enclosing lists and maps,
 *   or, when one of them is unbounded, the number of times the node's minimum serialized size
 *   fits in a 3 MiB request;
 * - over 10,000,000 the rule is Forbidden; a messageExpression over the limit likewise (its cost
 *   is not multiplied);
 * - every rule and messageExpression cost adds to the schema's total; over 100,000,000 the
 *   schema is Forbidden, and the (at most four) most expensive contributors of at least 1% of
 *   that limit are named.
 *
 * The server walks additionalProperties, then properties (in Go map order, which is random: only
 * the tie order of equal contributors can depend on it), then items, then the node's own rules.
 */
import { since } from '../../core/version-gates.js';
import { forbidden, type FieldError } from '../../core/field-error.js';
import type { Loc } from '../../core/path.js';
import { formatFloatFixed } from '../../go/float.js';
import type { Structural } from '../../crd/structural-schema.js';
import { MAX_U64, estimateCost, type CostAst, type CostOptions, type CostResult } from './cost.js';
import { maxCardinality, sizeAtPath, sizeDecl, type Bounds, type SizeDecl } from './cost-decl.js';

export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000n;
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000n;

/** What the checker gives for one expression: a checked tree, a compile error, or no answer. */
export type CostCompile =
  | { readonly ok: true; readonly ast: CostAst; /** the compilation depends on something crdx cannot decide */ readonly undecided?: string }
  | { readonly ok: false; readonly error: true }
  | { readonly ok: false; readonly error: false; readonly why: string };

export interface CostCompiler {
  /** Check `expr` with `self` (and `oldSelf`) typed as the node `node` (isRoot: the schema root or an embedded resource). */
  compile(expr: string, node: Structural, isRoot: boolean, kind: 'rule' | 'messageExpression', optionalOldSelf: boolean): CostCompile;
}

export interface ExpressionCost {
  /** the server's field path of the expression (…x-kubernetes-validations[i].rule / .messageExpression) */
  readonly loc: Loc;
  readonly kind: 'rule' | 'messageExpression';
  readonly expr: string;
  readonly node: Structural;
  readonly nodeLoc: Loc;
  readonly isRoot: boolean;
  /** cel-go's estimate (min, max) */
  readonly estimate: CostResult;
  /** multiplier of the max cost (1 for messageExpressions) */
  readonly cardinality: bigint;
  readonly cardinalityBounded: boolean;
  /** the cost the server compares with the limit */
  readonly cost: bigint;
  readonly ast: CostAst;
  /** the declared sizes the estimate read */
  readonly decl: SizeDecl;
  /** the chain of enclosing schema nodes with their locations, outermost first (the node last) */
  readonly ancestors: readonly { readonly node: Structural; readonly loc: Loc }[];
  /** minor of the simulated server (its declared types differ by version) */
  readonly kubeMinor: number;
}

export interface SkippedCost {
  readonly loc: Loc;
  readonly kind: 'rule' | 'messageExpression';
  readonly expr: string;
  readonly why: string;
}

export interface SchemaCost {
  readonly errors: readonly FieldError[];
  readonly expressions: readonly ExpressionCost[];
  readonly skipped: readonly SkippedCost[];
  /** expressions the checker rejects: the server reports their compile error and gives them no cost */
  readonly rejected: readonly SkippedCost[];
  readonly total: bigint;
}

export interface SchemaCostOptions {
  readonly compiler: CostCompiler;
  /** The server compiles the rules of a node only when no schema error sits at or below it. */
  readonly celAllowed: (nodeLoc: Loc) => boolean;
  /** An update left this schema unchanged: no per-expression limit (the total still counts). */
  readonly suppressPerExpressionCost?: boolean;
  /** minor of the simulated server */
  readonly kubeMinor: number;
}

/** multiplyWithOverflowGuard */
export function mulGuard(base: bigint, card: bigint): bigint {
  if (base === 0n) return 0n;
  const p = base * card;
  return p > MAX_U64 ? MAX_U64 : p;
}

/** extractMaxElements of a parent schema: undefined means unbounded. */
export function nodeMaxElements(s: Structural, bounds: Bounds = new Map()): bigint | undefined {
  const o = bounds.get(s);
  const clamp = (v: number | bigint | undefined): bigint | undefined => {
    if (v === undefined) return undefined;
    const b = typeof v === 'bigint' ? v : Number.isFinite(v) ? BigInt(Math.trunc(v)) : undefined;
    return b === undefined ? undefined : b < 0n ? 0n : b;
  };
  switch (s.generic.type) {
    case 'object':
      if (s.additionalProperties !== undefined) return o ?? clamp(s.valueValidation.maxProperties);
      return 1n;
    case 'array':
      return o ?? clamp(s.valueValidation.maxItems);
    default:
      return 1n;
  }
}

/** getCostErrorMessage: the factor as the server prints it. */
export function costErrorMessage(costName: string, cost: bigint, limit: bigint): string {
  const f = Number(cost) / Number(limit);
  const factor = f > 100 ? 'more than 100x' : f < 1.5 ? `${formatFloatFixed(f, 6)}x` : `${formatFloatFixed(f, 1)}x`;
  return `${costName} exceeds budget by factor of ${factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

function rulesOf(s: Structural): Record<string, unknown>[] {
  return s.extensions.validations.map((x) => (x !== null && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : {}));
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The cost of one expression at a node, with optional bound overrides (for explanations). */
export function expressionCostWith(
  x: Pick<ExpressionCost, 'ast' | 'node' | 'isRoot' | 'kind' | 'ancestors' | 'kubeMinor'>,
  bounds: Bounds,
): { readonly estimate: CostResult; readonly cost: bigint; readonly cardinality: bigint; readonly bounded: boolean; readonly decl: SizeDecl } | undefined {
  const decl = sizeDecl(x.node, x.isRoot, x.kubeMinor, bounds);
  if (!decl) return undefined;
  const estimate = estimateCost(x.ast, sizeAtPath(decl), x.ast.options ?? K8S_COST_OPTIONS);
  if (x.kind === 'messageExpression') return { estimate, cost: estimate.cost.max, cardinality: 1n, bounded: true, decl };
  let card: bigint | undefined = 1n;
  for (let i = 0; i + 1 < x.ancestors.length && card !== undefined; i++) {
    const m = nodeMaxElements(x.ancestors[i]!.node, bounds);
    card = m === undefined ? undefined : mulGuard(card, m);
  }
  const bounded = card !== undefined;
  const c = card ?? maxCardinality(decl.minSerializedSize);
  return { estimate, cost: mulGuard(estimate.cost.max, c), cardinality: c, bounded, decl };
}

/** Options of the Kubernetes 1.36 environment for the estimator. */
export const K8S_COST_OPTIONS = { presenceTestHasCost: false, listsVersion: 3, sets: true } as const;

/**
 * The estimator options of the environment of a compatibility version (ext.Sets from 1.29, ext.Lists
 * v3 from 1.34) on a server of minor `server` (from 1.32: `==` of Kubernetes values estimated; cel-go
 * 0.23 from 1.33: entry sizes of literals; cel-go 0.29 from 1.37: the global matches() costed).
 */
export function costOptionsFor(compat: number, server: number): CostOptions {
  return {
    presenceTestHasCost: false,
    listsVersion: compat >= since('cel.ext-lists') ? 3 : 0,
    sets: compat >= since('cel.strings-v2'),
    globalMatchesCost: server >= since('cel.go-0.29'),
    entrySizes: server >= since('cel.go-0.23-cost'),
    k8sEqualityCost: server >= since('cel.k8s-equality-cost'),
  };
}

export function schemaCost(root: Structural, rootLoc: Loc, opts: SchemaCostOptions): SchemaCost {
  const errors: FieldError[] = [];
  const expressions: ExpressionCost[] = [];
  const skipped: SkippedCost[] = [];
  const rejected: SkippedCost[] = [];
  let total = 0n;
  let most: { loc: Loc; cost: bigint }[] = [];
  const observe = (loc: Loc, cost: bigint): void => {
    total = MAX_U64 - total < cost ? MAX_U64 : total + cost;
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100n) return;
    most.push({ loc, cost });
    // sort.Slice on at most five entries is an insertion sort: stable
    most = most.map((m, i) => ({ m, i })).sort((a, b) => (a.m.cost === b.m.cost ? a.i - b.i : a.m.cost > b.m.cost ? -1 : 1)).map((x) => x.m);
    if (most.length > 4) most = most.slice(0, 4);
  };

  type Anc = { node: Structural; loc: Loc }[];
  const visit = (s: Structural, loc: Loc, anc: Anc, isRoot: boolean, inScope: boolean): void => {
    const chain = [...anc, { node: s, loc }];
    const scope = inScope || s.extensions.validations.length > 0;
    const ap = s.additionalProperties?.schema;
    if (ap) visit(ap, loc.child('additionalProperties'), chain, false, scope);
    for (const [k, p] of s.properties) visit(p, loc.child('properties').key(k), chain, false, scope);
    if (s.items) visit(s.items, loc.child('items'), chain, false, scope);
    const rules = rulesOf(s);
    if (rules.length === 0 || !opts.celAllowed(loc)) return;
    const nodeIsRoot = isRoot || s.extensions.embeddedResource;
    rules.forEach((rule, i) => {
      const rl = loc.child('x-kubernetes-validations').index(i);
      const text = str(rule['rule']);
      if (text.trim().length === 0) return;
      const optionalOldSelf = rule['optionalOldSelf'] === true;
      const r = opts.compiler.compile(text, s, nodeIsRoot, 'rule', optionalOldSelf);
      if (!r.ok) {
        (r.error ? rejected : skipped).push({ loc: rl.child('rule'), kind: 'rule', expr: text, why: r.error ? 'compile error' : r.why });
        return;
      }
      const x = expressionCostWith({ ast: r.ast, node: s, isRoot: nodeIsRoot, kind: 'rule', ancestors: chain, kubeMinor: opts.kubeMinor }, new Map());
      if (!x) {
        skipped.push({ loc: rl.child('rule'), kind: 'rule', expr: text, why: 'the node has no CEL type' });
        return;
      }
      const ruleLoc = rl.child('rule');
      if (r.undecided !== undefined && x.cost > STATIC_ESTIMATED_COST_LIMIT) {
        skipped.push({ loc: ruleLoc, kind: 'rule', expr: text, why: `it is over the cost limit but whether the server compiles it depends on ${r.undecided}` });
        return;
      }
      expressions.push({ loc: ruleLoc, kind: 'rule', expr: text, node: s, nodeLoc: loc, isRoot: nodeIsRoot, estimate: x.estimate, cardinality: x.cardinality, cardinalityBounded: x.bounded, cost: x.cost, ast: r.ast, decl: x.decl, ancestors: chain, kubeMinor: opts.kubeMinor });
      if (!opts.suppressPerExpressionCost && x.cost > STATIC_ESTIMATED_COST_LIMIT) errors.push(forbidden(ruleLoc, costErrorMessage('estimated rule cost', x.cost, STATIC_ESTIMATED_COST_LIMIT)));
      observe(ruleLoc, x.cost);
      const me = str(rule['messageExpression']);
      if (me.trim().length === 0) return;
      const mr = opts.compiler.compile(me, s, nodeIsRoot, 'messageExpression', optionalOldSelf);
      const ml = rl.child('messageExpression');
      if (!mr.ok) {
        (mr.error ? rejected : skipped).push({ loc: ml, kind: 'messageExpression', expr: me, why: mr.error ? 'compile error' : mr.why });
        return;
      }
      const mx = expressionCostWith({ ast: mr.ast, node: s, isRoot: nodeIsRoot, kind: 'messageExpression', ancestors: chain, kubeMinor: opts.kubeMinor }, new Map());
      if (!mx) return;
      expressions.push({ loc: ml, kind: 'messageExpression', expr: me, node: s, nodeLoc: loc, isRoot: nodeIsRoot, estimate: mx.estimate, cardinality: 1n, cardinalityBounded: true, cost: mx.cost, ast: mr.ast, decl: mx.decl, ancestors: chain, kubeMinor: opts.kubeMinor });
      if (!opts.suppressPerExpressionCost && mx.cost > STATIC_ESTIMATED_COST_LIMIT) errors.push(forbidden(ml, costErrorMessage('estimated messageExpression cost', mx.cost, STATIC_ESTIMATED_COST_LIMIT)));
      observe(ml, mx.cost);
    });
  };
  visit(root, rootLoc, [], true, false);
  if (total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    for (const m of most) errors.push(forbidden(m.loc, 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'));
    errors.push(forbidden(rootLoc, costErrorMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', total, STATIC_ESTIMATED_CRD_COST_LIMIT)));
  }
  return { errors, expressions, skipped, rejected, total };
}
