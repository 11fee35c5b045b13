/**
 * The Kubernetes lists library (apiserver pkg/cel/library/lists.go): isSorted, sum, min, max,
 * indexOf, lastIndexOf. Comparison, addition and equality are CEL's own (ops.ts, values.ts).
 */
import { celAdd, celEqual, keepMapOrder, numericItemsOf, positional } from '../values.js';
import { CelGoError, CelUnsupported, type CelOps } from './ops.js';
import type { LibEnv } from './types.js';
import { runtime, type SumKind } from './runtime.js';
import { isDuration, isUint, kindName } from './classes.js';

export function registerLists(env: LibEnv, ops: CelOps): void {
  const cmp = (a: unknown, b: unknown): number => (ops.lt(a, b) === true ? -1 : ops.lt(b, a) === true ? 1 : 0);
  env.registerFunction('list<dyn>.isSorted(): bool', (l: unknown[]) => {
    positional(l, 'isSorted()');
    for (let i = 1; i < l.length; i++) if (cmp(l[i - 1], l[i]) === 1) return false;
    return true;
  });
  const zeroOf = (k: Exclude<SumKind, 'dyn'>): unknown => (k === 'int' ? 0n : k === 'double' ? 0 : k === 'uint' ? ops.uint(0n) : ops.duration('0s'));
  /** The overload the dispatcher takes for a dyn list: the first whose list type the first element fits (lists.go: int, uint, double, duration). */
  const dispatched = (l: unknown[]): Exclude<SumKind, 'dyn'> => {
    if (l.length === 0) return 'int';
    const x = l[0];
    if (typeof x === 'bigint') return 'int';
    if (isUint(x)) return 'uint';
    if (typeof x === 'number') return 'double';
    if (isDuration(x)) return 'duration';
    // no overload takes it (decls.MaybeNoSuchOverload: the function and the argument's type name)
    throw new CelGoError('no such overload: sum(list)');
  };
  env.registerFunction('list<dyn>.sum(): dyn', (l: unknown[]) => {
    // the overload cel-go's checker resolved (set by __crdx_lister, env.ts): the sum starts from its
    // type's zero (lists.go sum); unknown, the zero is known here only for a list of integers or
    // numbers bound from the schema
    const pending = runtime.pendingSum;
    runtime.pendingSum = undefined;
    if (pending === undefined || pending === 'unknown') {
      if (l.length === 0) {
        const k = numericItemsOf(l);
        if (k === 'int') return 0n;
        if (k === 'double') return 0;
        throw new CelUnsupported('sum() of an empty list (its element type is not known at run time)');
      }
      let acc = l[0];
      for (let i = 1; i < l.length; i++) acc = celAdd(acc, l[i], ops.add);
      return acc;
    }
    let acc = zeroOf(pending === 'dyn' ? dispatched(l) : pending);
    for (const x of l) {
      try {
        acc = celAdd(acc, x, ops.add);
      } catch (e) {
        // Int.Add(Double) and the like: MaybeNoSuchOverloadErr
        if (e instanceof Error && e.name === 'EvaluationError' && /^no such overload/.test(e.message)) throw new CelGoError('no such overload');
        throw e;
      }
    }
    return acc;
  });
  const pick = (name: string, prefer: number) => (l: unknown[]) => {
    if (l.length === 0) throw new CelGoError(`${name} called on empty list`);
    let r = l[0];
    for (let i = 1; i < l.length; i++) if (cmp(r, l[i]) === prefer) r = l[i];
    return r;
  };
  env.registerFunction('list<dyn>.min(): dyn', pick('min', 1));
  env.registerFunction('list<dyn>.max(): dyn', pick('max', -1));
  env.registerFunction('list<dyn>.indexOf(dyn): int', (l: unknown[], x: unknown) => (positional(l, 'indexOf()'), BigInt(l.findIndex((e) => celEqual(e, x, ops.eq)))));
  env.registerFunction('list<dyn>.lastIndexOf(dyn): int', (l: unknown[], x: unknown) => {
    positional(l, 'lastIndexOf()');
    for (let i = l.length - 1; i >= 0; i--) if (celEqual(l[i], x, ops.eq)) return BigInt(i);
    return -1n;
  });
}

/** A type name for sort()'s "same type" check. */
const kindOf = kindName;

/**
 * cel-go's lists extension, version 3 (ext/lists.go): slice, flatten, distinct, reverse, sort and
 * lists.range (rewritten to `__crdx_lists_range`); sortBy (a macro) is in comprehensions.ts.
 */
export function registerListsExt(env: LibEnv, ops: CelOps): void {
  env.registerFunction('list<dyn>.slice(int, int): list<dyn>', (l: unknown[], start: bigint, end: bigint) => {
    if (start < 0n || end < 0n) throw new CelGoError(`cannot slice(${start}, ${end}), negative indexes not supported`);
    if (start > end) throw new CelGoError(`cannot slice(${start}, ${end}), start index must be less than or equal to end index`);
    if (BigInt(l.length) < end) throw new CelGoError(`cannot slice(${start}, ${end}), list is length ${l.length}`);
    positional(l, 'slice()');
    return l.slice(Number(start), Number(end));
  });
  const flatten = (l: unknown[], depth: bigint): unknown[] => {
    if (depth < 0n) throw new CelGoError('level must be non-negative');
    const out: unknown[] = [];
    for (const v of l) {
      if (!Array.isArray(v) || depth === 0n) out.push(v);
      else out.push(...flatten(v, depth - 1n));
    }
    return out;
  };
  env.registerFunction('list<dyn>.flatten(): list<dyn>', (l: unknown[]) => flatten(l, 1n));
  env.registerFunction('list<dyn>.flatten(int): list<dyn>', flatten);
  env.registerFunction('list<dyn>.distinct(): list<dyn>', (l: unknown[]) => {
    const out: unknown[] = [];
    for (const v of l) if (!out.some((o) => celEqual(v, o, ops.eq))) out.push(v);
    return keepMapOrder(l, out);
  });
  env.registerFunction('list<dyn>.reverse(): list<dyn>', (l: unknown[]) => keepMapOrder(l, [...l].reverse()));
  env.registerFunction('list<dyn>.sort(): list<dyn>', (l: unknown[]) => {
    if (l.length === 0) return l;
    const k = kindOf(l[0]);
    if (!['bigint', 'number', 'string', 'boolean', 'UnsignedInt', 'Duration', 'Date', 'Uint8Array'].includes(k)) throw new CelGoError('list elements must be comparable');
    if (l.some((v) => kindOf(v) !== k)) throw new CelGoError('list elements must have the same type');
    // elements that compare equal are indistinguishable here, so Go's unstable sort gives the same list
    return [...l].sort((a, b) => (ops.lt(a, b) === true ? -1 : ops.lt(b, a) === true ? 1 : 0));
  });
  env.registerFunction('__crdx_lists_range(int): list<int>', (n: bigint) => {
    // cel-go 0.29 (1.37): a negative size and one over 1,000,000 are errors (0.26: [] and the list)
    if (runtime.v137 && n < 0n) throw new CelGoError(`lists.range: size must be non-negative, got ${n}`);
    if (runtime.v137 && n > 1_000_000n) throw new CelGoError(`lists.range: size ${n} exceeds maximum allowed (1000000)`);
    if (n > 100_000n) throw new CelUnsupported('lists.range() of a long list');
    const out: bigint[] = [];
    for (let i = 0n; i < n; i++) out.push(i);
    return out;
  });
}
