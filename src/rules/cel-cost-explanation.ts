import type { Crd } from '../crd/model.js';
import { STATIC_ESTIMATED_COST_LIMIT, type ExpressionCost } from '../schema/cel/cost-crd.js';
import { explainCost } from '../schema/cel/cost-explain.js';
import { crdCosts } from './cel-cost.js';
import { defineRule, type Report } from './types.js';

/** The share of the per-expression limit, e.g. "0.02%", "94.5%". */
function share(cost: bigint): string {
  const pct = (Number(cost) / Number(STATIC_ESTIMATED_COST_LIMIT)) * 100;
  return `${pct >= 10 ? pct.toFixed(1) : pct >= 0.01 ? pct.toFixed(2) : pct > 0 ? '<0.01' : '0'}%`;
}

/** 12,345,678 */
const num = (n: bigint): string => n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');

function describe(crd: Crd, x: ExpressionCost): Record<string, string> {
  const e = explainCost(x);
  const est = x.estimate.cost.max;
  const card =
    x.kind === 'messageExpression'
      ? ''
      : x.cardinalityBounded
        ? x.cardinality === 1n
          ? ''
          : ` × ${num(x.cardinality)} evaluations (maxItems/maxProperties of the enclosing lists and maps)`
        : ` × ${num(x.cardinality)} evaluations (an enclosing list or map has no maxItems/maxProperties: as many as fit in a 3 MiB request)`;
  const parts = e.dominant.map((d) => {
    const c = d.contribution;
    const over = d.rangePath ? `over ${d.rangePath}` : 'over a computed list';
    return `a comprehension ${over} (up to ${num(c.iterations!.max)} elements × ${num(c.perIteration!.max)} per element = ${num(c.cost.max)})`;
  });
  const line = (at: readonly (string | number)[]): number => crd.manifest.locate(at).line;
  const fixes = e.suggestions.slice(0, 3).map((s) => `${s.keyword}: ${num(s.value)} at ${s.loc.field} (line ${line(s.loc.at)}) brings it to ${num(s.cost)}`);
  return {
    kind: x.kind,
    cost: num(x.cost),
    estimate: `${num(est)} per evaluation${card}`,
    dominant: parts.length > 0 ? `; it is dominated by ${parts.join(', then ')}` : '',
    fix:
      fixes.length > 0
        ? `; ${fixes.join('; or ')}`
        : '; no single maxItems/maxLength/maxProperties brings it under the limit: bound several, or simplify the expression',
  };
}

export const celCostExplanation = defineRule({
  id: 'cel-cost-explanation',
  meta: {
    type: 'suggestion',
    serverFaithful: false,
    defaultSeverity: 'info',
    docs: {
      description: 'Why a CEL rule is over the cost budget, and which bound would bring it under.',
      details:
        'For each rule or messageExpression the server rejects for its estimated cost (see `cel-cost`), and with `lint --explain-cost` for every one, crdx shows, with the estimator of cel-go (checker/cost.go), how the estimate is made up: the cost of one evaluation, how often the rule runs, the comprehensions that dominate with their number of iterations, and the maxItems, maxProperties or maxLength (with the schema path and line) that alone would bring it under 10,000,000, with the estimate that bound gives. Each suggestion is the estimator run again with the bound added, not a guess.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: getExpressionCost (not checked by the server)',
    },
    messages: {
      over: 'the {{kind}} is estimated at {{cost}} (limit 10,000,000): {{estimate}}{{dominant}}{{fix}}',
      estimate: 'the {{kind}} is estimated at {{cost}} ({{share}} of the limit 10,000,000): {{estimate}}{{dominant}}',
    },
  },
  *check(ctx): Iterable<Report<'over' | 'estimate'>> {
    for (const { cost } of crdCosts(ctx))
      for (const x of cost.expressions) {
        if (x.cost > STATIC_ESTIMATED_COST_LIMIT) yield { messageId: 'over', data: describe(ctx.crd, x), path: x.loc.at };
        else if (ctx.explainCost) yield { messageId: 'estimate', data: { ...describe(ctx.crd, x), share: share(x.cost) }, path: x.loc.at };
      }
  },
});

