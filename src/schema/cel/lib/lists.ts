/**
 * The Kubernetes lists library (apiserver pkg/cel/library/lists.go): isSorted, sum, min, max,
 * indexOf, lastIndexOf. Comparison, addition and equality are CEL's own (ops.ts, values.ts).
 */
import { celAdd, celEqual } from '../values.js';
import { CelGoError, CelUnsupported, type CelOps } from './ops.js';
import type { LibEnv } from './types.js';

export function registerLists(env: LibEnv, ops: CelOps): void {
  const cmp = (a: unknown, b: unknown): number => (ops.lt(a, b) === true ? -1 : ops.lt(b, a) === true ? 1 : 0);
  env.registerFunction('list<dyn>.isSorted(): bool', (l: unknown[]) => {
    for (let i = 1; i < l.length; i++) if (cmp(l[i - 1], l[i]) === 1) return false;
    return true;
  });
  env.registerFunction('list<dyn>.sum(): dyn', (l: unknown[]) => {
    // the zero of an empty list's element type is known to cel-go's checker, not at run time here
    if (l.length === 0) throw new CelUnsupported('sum() of an empty list (its element type is not known at run time)');
    let acc = l[0];
    for (let i = 1; i < l.length; i++) acc = celAdd(acc, l[i], ops.add);
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
  env.registerFunction('list<dyn>.indexOf(dyn): int', (l: unknown[], x: unknown) => BigInt(l.findIndex((e) => celEqual(e, x, ops.eq))));
  env.registerFunction('list<dyn>.lastIndexOf(dyn): int', (l: unknown[], x: unknown) => {
    for (let i = l.length - 1; i >= 0; i--) if (celEqual(l[i], x, ops.eq)) return BigInt(i);
    return -1n;
  });
}
