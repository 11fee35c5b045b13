import { kubeMinor } from '../core/kube-version.js';
import type { Loc } from '../core/path.js';
import type { CrdUpdate } from '../crd/installed.js';
import { schemaTargetFor, type SchemaTarget } from '../crd/model.js';
import { deepEqual } from '../go/equal.js';
import type { SchemaAnalysis } from '../schema/analyze.js';
import { schemaCost, type SchemaCost } from '../schema/cel/cost-crd.js';
import { costCompiler } from '../schema/cel/cost-compile.js';
import { storedExpressions } from '../schema/update-options.js';
import { defineRule, serverReport, SERVER_MESSAGES, type Report, type RuleContext } from './types.js';

/** The CEL context exists: the schema is structural and its defaults are valid. */
function celContext(a: SchemaAnalysis): boolean {
  if (!a.structural) return false;
  // ValidateDefaults errors (not the walk's "must not be set") leave the schema without a CEL context
  return !a.errors.some((e) => e.cat === 'defaults' && !(e.type === 'Forbidden' && e.detail.startsWith('must not be set')));
}

const memo = new WeakMap<RuleContext['schemaAnalysis'], readonly { readonly analysis: SchemaAnalysis; readonly cost: SchemaCost }[]>();

/**
 * On update, a schema equal to the stored one for its version (for the top-level schema: the first
 * version's) is exempt from the per-expression limit; its costs still count in the schema's total
 * (apiextensions findVersionsWithUnchangedSchemas, suppressExpressionCostForUnchangedSchema).
 * Equality is of the schemas as written (the server compares its decoded form; they differ only
 * where one side spells out a zero value).
 */
function unchangedFromStored(target: SchemaTarget, update: CrdUpdate | undefined): boolean {
  const v = target.versions[0];
  if (!update || !v) return false;
  const ov = update.old.crd.versions.find((o) => o.name === v.name);
  const old = ov && schemaTargetFor(update.old.crd, ov);
  return old !== undefined && deepEqual(old.schema, target.schema);
}

/** The cost checks of every schema of the CRD, computed once per rule context (a CRD, created or updated). */
export function crdCosts(ctx: Pick<RuleContext, 'crd' | 'schemaAnalysis' | 'update'>): readonly { readonly analysis: SchemaAnalysis; readonly cost: SchemaCost }[] {
  const known = memo.get(ctx.schemaAnalysis);
  if (known) return known;
  const crd = ctx.crd;
  const analyses = ctx.schemaAnalysis();
  const out = analyses
    .filter((a) => celContext(a) && a.target.structural.facts.celBelow)
    .map((a) => {
      // the server costs the rules of the nodes whose rules it compiles (the walk's decision)
      const celAllowed = (loc: Loc): boolean => a.celCompiledAt.has(loc.field);
      const suppressPerExpressionCost = unchangedFromStored(a.target, ctx.update);
      return { analysis: a, cost: schemaCost(a.target.structural, a.target.loc, { compiler: costCompiler(crd, ctx.update ? storedExpressions(ctx.update.old.crd) : undefined), celAllowed, suppressPerExpressionCost, kubeMinor: kubeMinor(crd.kube) }) };
    });
  memo.set(ctx.schemaAnalysis, out);
  return out;
}

export const celCost = defineRule({
  id: 'cel-cost',
  meta: {
    type: 'problem',
    serverFaithful: true,
    defaultSeverity: 'error',
    messages: SERVER_MESSAGES,
    docs: {
      description: 'The estimated cost of x-kubernetes-validations rules must stay within the per-rule and per-CRD budgets.',
      details:
        'The server estimates the worst-case cost of each rule from the declared sizes (maxItems, maxProperties, maxLength; without them, as many elements as fit in a 3 MiB request), multiplies it by how often the rule can run (the maxItems/maxProperties of the enclosing lists and maps), and rejects the CRD when one rule exceeds 10,000,000 units or all rules and messageExpressions of a schema together exceed 100,000,000 (naming the largest contributors). crdx reproduces cel-go\'s estimator and the Kubernetes library cost functions number for number; `cel-cost-explanation` says which part of the rule dominates and which bound would fix it.',
      reference:
        'k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go: ValidateCustomResourceDefinitionOpenAPISchema, getExpressionCost, getCostErrorMessage; k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/cel_validation.go: CELSchemaContext, TotalCost.ObserveExpressionCost; k8s.io/apiserver pkg/cel/library/cost.go: CostEstimator.EstimateCallCost',
    },
  },
  *check(ctx): Iterable<Report<'server'>> {
    for (const { cost } of crdCosts(ctx)) for (const e of cost.errors) yield serverReport(e);
  },
});
