/**
 * Which sort(), distinct() and sortBy() calls of a checked expression panic on the server when
 * their list argument fails. cel-go's lists extension (v3, Kubernetes 1.34 and later) registers a
 * runtime cost tracker per overload (ext/lists.go trackListSort, trackListDistinct,
 * trackListSortBy); the cost tracker calls it with the evaluated arguments, errors included, and it
 * asserts the list one to be a list. The planner runs an overload's tracker only when the checker
 * resolved the call to that one overload (interpreter/planner.go: one overload id), so:
 * - `l.distinct()` (one overload, list_distinct) always panics on a failing `l`;
 * - `l.sort()` panics when l's element type is concrete (list_int_sort, …), not when it is dyn
 *   (every list_T_sort matches, no tracker runs);
 * - `l.sortBy(e, key)` (expanded to `@sortByAssociatedKeys(l, l.map(e, key))`) panics when the
 *   keys' type is concrete and l or a key fails.
 * The Kubernetes lists library's sum() (no tracker) is listed too, with the overload it resolved
 * to: the sum starts from that type's zero (lists.go sum), and with several (a dyn list) the
 * dispatcher takes the first whose list type the value's first element fits (int when empty).
 */
import type { Expr } from './ast.js';
import type { CheckResult } from './check.js';
import type { ListerCall } from './rewrite.js';
import type { SumKind } from './lib/runtime.js';

export interface ListerSite {
  readonly kind: ListerCall;
  /** The server's cost tracker runs for the call: a failing list argument is a panic. */
  readonly panics: boolean;
  /** sum(): the overload the checker resolved (the Kubernetes lists library's list_T_sum_T), 'dyn' for several. */
  readonly sum?: SumKind;
}

/**
 * The expression's sort-like calls in post-order (an expression's operands, receiver and
 * arguments before it; a comprehension's range, initial value, condition, step and result in that
 * order), as rewrite.ts numbers them on the evaluator's AST.
 */
export function listerSites(expr: Expr, checked: CheckResult): ListerSite[] {
  const out: ListerSite[] = [];
  const single = (id: number) => checked.refOf(id)?.overloadIds.length === 1;
  const walk = (e: Expr): void => {
    switch (e.kind) {
      case 'ident':
      case 'literal':
        return;
      case 'select':
        return walk(e.operand);
      case 'list':
        return e.elements.forEach(walk);
      case 'map':
        for (const en of e.entries) (walk(en.key), walk(en.value));
        return;
      case 'struct':
        for (const f of e.fields) walk(f.value);
        return;
      case 'comprehension':
        for (const x of [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result]) walk(x);
        return;
      case 'call': {
        // `x in []` is the constant false to cel-go's planner, and to the rewrite: x is never run
        const empty = e.args[1];
        if (e.fn === '@in' && empty?.kind === 'list' && empty.elements.length === 0) return;
        if (e.target !== undefined) walk(e.target);
        e.args.forEach(walk);
        if (e.target === undefined) return;
        if ((e.fn === 'sort' || e.fn === 'distinct') && e.args.length === 0) out.push({ kind: e.fn, panics: single(e.id) });
        else if (e.fn === 'sum' && e.args.length === 0) {
          const ids = checked.refOf(e.id)?.overloadIds ?? [];
          const t = ids.length === 1 ? /^list_(int|uint|double|duration)_sum_/.exec(ids[0]!)?.[1] : undefined;
          out.push({ kind: 'sum', panics: false, sum: ids.length > 1 ? 'dyn' : ((t as SumKind | undefined) ?? 'dyn') });
        }
        else if (e.fn === '@sortByAssociatedKeys' && e.args.length === 1) out.push({ kind: 'sortBy', panics: single(e.id) });
        return;
      }
    }
  };
  walk(expr);
  return out;
}
