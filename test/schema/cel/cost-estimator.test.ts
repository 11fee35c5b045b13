/**
 * The estimator on hand-built checked trees (the shapes cel-go's parser and checker give), so it
 * is tested apart from the checker. Expected numbers: apiextensions compilation_test.go
 * TestCostEstimation (the cases whose trees are small enough to write by hand).
 */
import { describe, expect, it } from 'vitest';
import { buildStructural } from '../../../src/crd/structural-schema.js';
import { estimateCost, type CostAst, type CostExpr, type CostType } from '../../../src/schema/cel/cost.js';
import { K8S_COST_OPTIONS, costErrorMessage } from '../../../src/schema/cel/cost-crd.js';
import { sizeAtPath, sizeDecl } from '../../../src/schema/cel/cost-decl.js';

const T = (kind: CostType['kind'], ...params: CostType[]): CostType => ({ kind, params });

class B {
  private id = 0;
  readonly types = new Map<number, CostType>();
  readonly overloads = new Map<number, string[]>();
  private t<E extends CostExpr>(e: E, t?: CostType): E {
    if (t) this.types.set(e.id, t);
    return e;
  }
  ident(name: string, t: CostType): CostExpr {
    return this.t({ kind: 'ident', id: ++this.id, name }, t);
  }
  bool(v: boolean): CostExpr {
    return this.t({ kind: 'literal', id: ++this.id, value: { type: 'bool', value: v } }, T('bool'));
  }
  str(v: string): CostExpr {
    return this.t({ kind: 'literal', id: ++this.id, value: { type: 'string', value: v } }, T('string'));
  }
  dbl(): CostExpr {
    return this.t({ kind: 'literal', id: ++this.id, value: { type: 'double' } }, T('double'));
  }
  int(v: bigint): CostExpr {
    return this.t({ kind: 'literal', id: ++this.id, value: { type: 'int', value: v } }, T('int'));
  }
  call(fn: string, overload: string, t: CostType, args: CostExpr[], target?: CostExpr): CostExpr {
    const e: CostExpr = { kind: 'call', id: ++this.id, fn, target, args };
    this.overloads.set(e.id, [overload]);
    return this.t(e, t);
  }
  /** x.all(v, p) as cel-go expands it */
  all(range: CostExpr, v: string, pred: (b: B) => CostExpr): CostExpr {
    const accuInit = this.bool(true);
    const cond = this.call('@not_strictly_false', 'not_strictly_false', T('bool'), [this.ident('@result', T('bool'))]);
    const step = this.call('_&&_', 'logical_and', T('bool'), [this.ident('@result', T('bool')), pred(this)]);
    const result = this.ident('@result', T('bool'));
    return this.t(
      { kind: 'comprehension', id: ++this.id, iterRange: range, iterVar: v, iterVar2: undefined, accuVar: '@result', accuInit, loopCondition: cond, loopStep: step, result },
      T('bool'),
    );
  }
  ast(root: CostExpr): CostAst {
    return { root, typeOf: (id) => this.types.get(id), overloadIds: (id) => this.overloads.get(id) ?? [] };
  }
}

function cost(schema: Record<string, unknown>, build: (b: B) => CostExpr): bigint {
  const b = new B();
  const ast = b.ast(build(b));
  const decl = sizeDecl(buildStructural(schema), false, 36)!;
  return estimateCost(ast, sizeAtPath(decl), K8S_COST_OPTIONS).cost.max;
}

const arr = (items: Record<string, unknown>, maxItems?: number): Record<string, unknown> => ({
  type: 'array',
  items,
  ...(maxItems === undefined ? {} : { maxItems }),
});

describe('cel-go cost estimator (TestCostEstimation cases)', () => {
  const listOf = (t: string): CostType => T('list', T(t as CostType['kind']));
  const allTrue = (elem: string) => (b: B) => b.all(b.ident('self', listOf(elem)), 'x', (bb) => bb.bool(true));
  const cases: [string, Record<string, unknown>, string, bigint, number, bigint][] = [
    ['number array with all', { type: 'number' }, 'double', 4718591n, 10, 32n],
    ['string array with all', { type: 'string' }, 'string', 3145727n, 20, 62n],
    ['boolean array with all', { type: 'boolean' }, 'bool', 1887437n, 5, 17n],
    ['date-time array with all', { type: 'string', format: 'date-time' }, 'timestamp', 428963n, 25, 77n],
    ['duration array with all', { type: 'string', format: 'duration' }, 'duration', 2359295n, 5, 17n],
    ['date array with all', { type: 'string', format: 'date' }, 'timestamp', 725936n, 15, 47n],
    ['int-or-string array with all', { 'x-kubernetes-int-or-string': true }, 'dyn', 4718591n, 10, 32n],
  ];
  for (const [name, items, elem, calc, max, set] of cases) {
    it(name, () => {
      expect(cost(arr(items), allTrue(elem))).toBe(calc);
      expect(cost(arr(items, max), allTrue(elem))).toBe(set);
    });
  }

  it('O(n^2) loop with numbers: 352 at maxItems 10, over the limit without', () => {
    const nested = (b: B) => b.all(b.ident('self', listOf('double')), 'x', (bb) => bb.all(bb.ident('self', listOf('double')), 'y', (c) => c.bool(true)));
    expect(cost(arr({ type: 'number' }, 10), nested)).toBe(352n);
    expect(cost(arr({ type: 'number' }), nested)).toBeGreaterThan(10_000_000n);
  });

  it('string with contains: 314574, 5 at maxLength 10', () => {
    const contains = (b: B) => b.call('contains', 'contains_string', T('bool'), [b.str('test')], b.ident('self', T('string')));
    expect(cost({ type: 'string' }, contains)).toBe(314574n);
    expect(cost({ type: 'string', maxLength: 10 }, contains)).toBe(5n);
  });

  it('regex matches simple: 314574, 22 at maxLength 50', () => {
    const m = (b: B) => b.call('matches', 'matches_string', T('bool'), [b.str('x')], b.ident('self', T('string')));
    expect(cost({ type: 'string' }, m)).toBe(314574n);
    expect(cost({ type: 'string', maxLength: 50 }, m)).toBe(22n);
  });

  it('index of array with numbers: 2', () => {
    const idx = (b: B) =>
      b.call('_==_', 'equals', T('bool'), [b.call('_[_]', 'index_list', T('double'), [b.ident('self', listOf('double')), b.int(1n)]), b.dbl()]);
    expect(cost(arr({ type: 'number' }), idx)).toBe(2n);
  });

  it('index of array with strings: self[1] == self[1] is 314577 whatever maxItems', () => {
    const idx = (b: B) =>
      b.call('_==_', 'equals', T('bool'), [
        b.call('_[_]', 'index_list', T('string'), [b.ident('self', listOf('string')), b.int(1n)]),
        b.call('_[_]', 'index_list', T('string'), [b.ident('self', listOf('string')), b.int(1n)]),
      ]);
    expect(cost(arr({ type: 'string' }), idx)).toBe(314577n);
    expect(cost(arr({ type: 'string' }, 8), idx)).toBe(314577n);
  });

  it('enum strings are as long as the longest value: 2, 401 at maxLength 1000', () => {
    const contains = (b: B) => b.call('contains', 'contains_string', T('bool'), [b.str('A')], b.ident('self', T('string')));
    expect(cost({ type: 'string', enum: ['A', 'B', 'C', 'LongValue'] }, contains)).toBe(2n);
    expect(cost({ type: 'string', enum: ['A', 'B', 'C', 'LongValue'], maxLength: 1000 }, contains)).toBe(401n);
  });

  it('extended library lowerAscii: 314575, 6 at maxLength 10', () => {
    const lower = (b: B) =>
      b.call('_==_', 'equals', T('bool'), [b.call('lowerAscii', 'string_lower_ascii', T('string'), [], b.ident('self', T('string'))), b.str('lower!')]);
    expect(cost({ type: 'string' }, lower)).toBe(314575n);
    expect(cost({ type: 'string', maxLength: 10 }, lower)).toBe(6n);
  });
});

describe('getCostErrorMessage', () => {
  const msg = (c: bigint) => costErrorMessage('estimated rule cost', c, 10_000_000n);
  it('prints the factor as Go does', () => {
    expect(msg(12_000_000n)).toContain('by factor of 1.200000x (try simplifying');
    expect(msg(10_000_001n)).toContain('by factor of 1.000000x');
    expect(msg(15_000_000n)).toContain('by factor of 1.5x');
    expect(msg(123_456_789n)).toContain('by factor of 12.3x');
    expect(msg(1_000_000_000n)).toContain('by factor of 100.0x');
    expect(msg(1_000_000_001n)).toContain('by factor of more than 100x');
    // an exact half rounds to even, as Go prints it (seen on the server: 62,500,000 → 6.2x)
    expect(msg(62_500_000n)).toContain('by factor of 6.2x');
    expect(msg(63_500_000n)).toContain('by factor of 6.3x'); // 6.35 is stored as 6.3499…
    expect(msg(67_500_000n)).toContain('by factor of 6.8x');
    expect(msg(62_500_001n)).toContain('by factor of 6.3x');
  });
});
