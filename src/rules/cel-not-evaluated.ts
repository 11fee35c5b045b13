import type { JsonPath } from '../core/types.js';
import type { ServedVersion } from '../cr/catalog.js';
import { schemaTargetFor } from '../crd/model.js';
import type { CelSkip } from '../schema/cel-eval.js';
import { crdCosts } from './cel-cost.js';
import { defineRule, type Report } from './types.js';

/** The rule's text as a message shows it: quoted, on one line, at most 100 characters. */
export function ruleText(rule: string): string {
  const one = rule.replace(/\s+/g, ' ').trim();
  return JSON.stringify(one.length > 100 ? `${one.slice(0, 97)}...` : one);
}

/** file:line:column of a place inside the version's openAPIV3Schema. */
function where(served: ServedVersion, schemaAt: JsonPath): string {
  const m = served.crd.manifest;
  const target = schemaTargetFor(served.crd, served.version);
  const p = m.locate([...(target?.loc.at ?? []), ...schemaAt]);
  return `${m.file.path}:${p.line}:${p.column}`;
}

export const celNotEvaluated = defineRule({
  id: 'cel-not-evaluated',
  meta: {
    type: 'suggestion',
    serverFaithful: false,
    defaultSeverity: 'warning',
    docs: {
      description: 'A CEL rule the server evaluates on a custom resource that crdx could not evaluate: the verdict may be incomplete.',
      details:
        'The server compiles every x-kubernetes-validations rule when a CRD is written, and evaluates every rule that applies to an object. crdx checks a rule\'s compilation where it can reproduce cel-go\'s verdict, and evaluates a rule only where it knows the result equals cel-go\'s (the functions, macros and value types it supports); for any other rule it says so here, with the rule, its place in the CRD and why, rather than answer "no problems" for an object the server may reject. The same finding appears in `default`, `status` and `scale`. On a CRD it also names the rules and messageExpressions whose static cost crdx could not estimate (the server rejects a CRD whose rules are over the cost budget, see `cel-cost`). It goes away as crdx evaluates more of CEL; meanwhile `--rule cel-not-evaluated=error` makes a run fail on it, `=off` silences it.',
      reference: 'k8s.io/apiextensions-apiserver pkg/apiserver/schema/cel/validation.go: Validator.Validate, Validator.validateExpressions (not checked by the server)',
    },
    messages: {
      rule: 'CEL rule {{rule}} ({{where}}) was not evaluated: {{why}}; the server evaluates it and may reject this object',
      part: 'CEL rules ({{where}}) were not evaluated: {{why}}; the server evaluates them and may reject this object',
      compile: 'CEL {{what}} {{rule}} was not compiled as the server compiles it: {{why}}; the server may reject this CRD',
      default: 'CEL rule {{rule}} was not evaluated on the default at {{where}}: {{why}}; the server evaluates it there and may reject this CRD',
      defaultPart: 'CEL rules were not evaluated on the default at {{where}}: {{why}}; the server evaluates them there and may reject this CRD',
      cost: 'the cost of CEL {{kind}} {{rule}} was not estimated: {{why}}; the server estimates it and rejects the CRD when it is over budget',
    },
  },
  *check(ctx) {
    for (const a of ctx.schemaAnalysis())
      for (const u of a.celUnchecked) {
        if (u.onDefault) {
          const p = ctx.crd.manifest.locate(u.onDefault);
          const where = `${ctx.crd.manifest.file.path}:${p.line}:${p.column}`;
          if (u.rule === '') yield { messageId: 'defaultPart' as const, data: { where, why: u.why }, path: u.at };
          else yield { messageId: 'default' as const, data: { rule: ruleText(u.rule), where, why: u.why }, path: u.at };
          continue;
        }
        const what = u.field.endsWith('.messageExpression') ? 'messageExpression' : 'rule';
        yield { messageId: 'compile' as const, data: { what, rule: ruleText(u.rule), why: u.why }, path: u.at };
      }
    for (const { cost } of crdCosts(ctx))
      for (const s of cost.skipped) yield { messageId: 'cost' as const, data: { kind: s.kind, rule: ruleText(s.expr), why: s.why }, path: s.loc.at };
  },
  *checkResource({ lookup, result }) {
    if (lookup.ok) yield* celSkipReports(lookup.served, result().celSkipped ?? []);
  },
});

/** The reports for the rules a create or update of an object of `served` did not evaluate (also for status and scale). */
export function celSkipReports(served: ServedVersion, skipped: readonly CelSkip[]): Report<'rule' | 'part' | 'cost'>[] {
  return skipped.map((s) => ({
    messageId: s.rule === '' ? ('part' as const) : ('rule' as const),
    data: { rule: ruleText(s.rule), where: where(served, s.schemaAt), why: s.why },
    path: s.at,
  }));
}
