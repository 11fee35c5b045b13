/**
 * Calls on dyn arguments of a type no overload takes, against cel-go itself: test/unit/
 * cel-go-dyn-calls.json holds 276 such expressions and the API server's CEL's answer for each
 * (recorded by `node celeval/record.mjs dyn-calls` in test/apiserver). cel-go words them by how the
 * function is bound (guarded overloads: `no such overload: f(int, string)`; singletons with an
 * operand trait: `no such overload: size`; no type guards, or a constant pattern: `no such
 * overload`; flatten(), distinct() and sortBy() texts of their own), and crdx must give that text,
 * none left unevaluated. Also: where a bool is wanted and a dyn value is none (`no such overload`),
 * unary operators on the wrong operand, lists indexed by what types.IndexOrError refuses, and
 * Kubernetes library values where no overload takes them (their TypeNames, Go types, no operator
 * trait, Equal of another type an error). Some cases are values: a uint index, relations chained as
 * CEL's grammar groups them (one level, left to right: cel-js binds `<` tighter than `==`, so crdx
 * groups them before cel-js parses, ast.ts relationsGrouped), equalities with library values.
 */
import { describe, expect, it } from 'vitest';
import { evaluateExpression } from '../../src/schema/cel-eval.js';
import { cel } from '../helpers/cel.js';
import { celGoCases, celGoVars } from '../helpers/cel-go-cases.js';

const cases = celGoCases(new URL('./cel-go-dyn-calls.json', import.meta.url));

describe('calls on dyn arguments no overload takes, against cel-go', () => {
  it('has the recorded cases, evaluation errors but for the last ones', () => {
    expect(cases.length).toBe(276);
    expect(cases.filter((c) => c.go.err !== undefined).length).toBe(241);
  });

  it("gives cel-go's error text", () => {
    const wrong: string[] = [];
    for (const c of cases) {
      const r = evaluateExpression(c.expr, celGoVars(c), cel, { major: 1, minor: 37 });
      if (c.go.err === undefined) {
        // a value: its type and fmt's %v (ints and bools here)
        const t = typeof (r.kind === 'value' ? r.value : undefined);
        if (r.kind !== 'value' || (t === 'bigint' ? 'int' : t === 'boolean' ? 'bool' : t) !== c.go.type || String(r.value) !== c.go.value) wrong.push(`${c.expr}: ${r.kind === 'value' ? `${t} ${String(r.value)}` : r.kind}; cel-go: ${c.go.type} ${c.go.value}`);
      } else if (r.kind !== 'error' || r.text !== c.go.err) wrong.push(`${c.expr}: ${r.kind === 'error' ? `error ${r.text ?? `(no cel-go text: ${r.message})`}` : r.kind === 'abstain' ? `not evaluated (${r.why})` : `value ${String(r.value)}`}; cel-go: ${c.go.err}`);
    }
    expect(wrong).toEqual([]);
  });
});
