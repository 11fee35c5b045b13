/**
 * Beyond the server: why an expression costs what it costs, and which bound would bring it under
 * the limit. Every "what if" is the estimator run again with the bound added to the schema node
 * (cost-decl.ts `Bounds`), never a guess.
 */
import type { Loc } from '../../core/path.js';
import type { Structural } from '../../crd/structural-schema.js';
import type { CostContribution } from './cost.js';
import { STATIC_ESTIMATED_COST_LIMIT, expressionCostWith, nodeMaxElements, type ExpressionCost } from './cost-crd.js';
import { sizeDecl } from './cost-decl.js';

export interface Dominant {
  readonly contribution: CostContribution;
  /** the field path of the iteration range (self.spec.items, …) */
  readonly rangePath: string | undefined;
}

export interface BoundSuggestion {
  readonly node: Structural;
  readonly loc: Loc;
  readonly keyword: 'maxItems' | 'maxProperties' | 'maxLength';
  /** the largest value that keeps the expression within the limit */
  readonly value: bigint;
  /** the expression's cost with that bound */
  readonly cost: bigint;
  /** the node encloses the rule (the bound lowers the rule's cardinality) */
  readonly enclosing: boolean;
}

export interface CostExplanation {
  readonly dominant: readonly Dominant[];
  readonly suggestions: readonly BoundSuggestion[];
}

/** `self.spec.items` from a size path (self, spec, @items, …). */
export function formatSizePath(path: readonly string[]): string {
  let out = '';
  for (const p of path) {
    if (p === '@items' || p === '@values') out += '[*]';
    else if (p === '@keys') out += '{keys}';
    else if (p === '@indices') out += '{indices}';
    else out += out === '' ? p : `.${p}`;
  }
  return out;
}

function keywordOf(s: Structural): BoundSuggestion['keyword'] | undefined {
  if (s.extensions.intOrString) return s.valueValidation.maxLength === undefined ? 'maxLength' : undefined;
  switch (s.generic.type) {
    case 'array':
      return s.valueValidation.maxItems === undefined ? 'maxItems' : undefined;
    case 'object':
      return s.additionalProperties !== undefined && s.valueValidation.maxProperties === undefined ? 'maxProperties' : undefined;
    case 'string': {
      const f = s.valueValidation.format;
      // the estimator's sizes of duration/date/date-time strings do not read maxLength
      if (f === 'duration' || f === 'date' || f === 'date-time') return undefined;
      if (s.valueValidation.maxLength !== undefined) return undefined;
      if (f !== 'byte' && s.valueValidation.enum && s.valueValidation.enum.length > 0) return undefined;
      return 'maxLength';
    }
    default:
      return undefined;
  }
}

/** The unbounded nodes below `s` (with their locations), the node itself included. */
function below(s: Structural, loc: Loc, out: { node: Structural; loc: Loc }[]): void {
  out.push({ node: s, loc });
  const ap = s.additionalProperties?.schema;
  if (ap) below(ap, loc.child('additionalProperties'), out);
  for (const [k, p] of s.properties) below(p, loc.child('properties').key(k), out);
  if (s.items) below(s.items, loc.child('items'), out);
}

/** The current upper size of a node as declared or estimated (the search space of a bound). */
function currentMax(x: ExpressionCost, node: Structural, keyword: BoundSuggestion['keyword']): bigint {
  const d = sizeDecl(node, node.extensions.embeddedResource, x.kubeMinor);
  if (!d) return 0n;
  // a string's declared size is 4 bytes per character of maxLength
  return keyword === 'maxLength' && node.valueValidation.format !== 'byte' ? d.maxElements / 4n + 1n : d.maxElements;
}

export function explainCost(x: ExpressionCost, limit: bigint = STATIC_ESTIMATED_COST_LIMIT, maxSuggestions = 5): CostExplanation {
  const dominant: Dominant[] = [...x.estimate.contributions.values()]
    .filter((c) => c.iterations !== undefined)
    .sort((a, b) => (a.cost.max === b.cost.max ? 0 : a.cost.max > b.cost.max ? -1 : 1))
    .slice(0, 3)
    .map((c) => ({ contribution: c, rangePath: c.rangePath ? formatSizePath(c.rangePath) : undefined }));

  const candidates: { node: Structural; loc: Loc; enclosing: boolean }[] = [];
  const sub: { node: Structural; loc: Loc }[] = [];
  below(x.node, x.nodeLoc, sub);
  for (const n of sub) candidates.push({ ...n, enclosing: false });
  if (x.kind === 'rule' && !x.cardinalityBounded)
    for (const a of x.ancestors.slice(0, -1)) if (nodeMaxElements(a.node) === undefined) candidates.push({ ...a, enclosing: true });

  const suggestions: BoundSuggestion[] = [];
  for (const c of candidates) {
    const keyword = keywordOf(c.node);
    if (!keyword) continue;
    const costWith = (n: bigint): bigint | undefined => expressionCostWith(x, new Map([[c.node, n]]))?.cost;
    const atZero = costWith(0n);
    if (atZero === undefined || atZero > limit) continue;
    let lo = 0n;
    let hi = currentMax(x, c.node, keyword);
    const atHi = costWith(hi);
    if (atHi !== undefined && atHi <= limit) continue; // not the node that makes it expensive
    // largest n with cost(n) <= limit: cost is monotone in n
    while (lo < hi) {
      const mid = (lo + hi + 1n) / 2n;
      const cm = costWith(mid);
      if (cm !== undefined && cm <= limit) lo = mid;
      else hi = mid - 1n;
    }
    // a bound of 0 (an always-empty field) is no advice
    if (lo > 0n) suggestions.push({ node: c.node, loc: c.loc, keyword, value: lo, cost: costWith(lo)!, enclosing: c.enclosing });
  }
  suggestions.sort((a, b) => (a.value === b.value ? 0 : a.value > b.value ? -1 : 1));
  return { dominant, suggestions: suggestions.slice(0, maxSuggestions) };
}
