/**
 * Runtime cost as cel-go's cost tracker counts it (src/schema/cel/cost-runtime.ts), on the cases of
 * upstream's apiextensions-apiserver pkg/apiserver/schema/cel/celcoststability_test.go (v0.36.6:
 * cel-go 0.26; the 1.37 column from v0.37.2: cel-go 0.29). Each rule runs at the root of an object
 * whose properties are the case's values; the expected numbers are upstream's.
 */
import { describe, expect, it } from 'vitest';
import { makeEnvs } from '../../src/schema/cel/env.js';
import { rewriteForEval } from '../../src/schema/cel/rewrite.js';
import { CostLimitExceeded, exactCostReason, runCosted } from '../../src/schema/cel/cost-runtime.js';
import { cel } from '../helpers/cel.js';

const envs = makeEnvs(cel.module);

/** Objects as the binding passes them (Maps). */
const bind = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(bind) : typeof v === 'object' && v !== null ? new Map(Object.entries(v).map(([k, x]) => [k, bind(x)])) : v;

function cost(rule: string, self: unknown, v137 = false, limit = 1_000_000): { cost: number; value: unknown } {
  const ast = envs.plain.parse(rule).ast;
  const fn = envs.libs.parse(rewriteForEval(ast)) as never as ((ctx: Record<string, unknown>) => unknown) & { ast: unknown };
  expect(exactCostReason(fn.ast)).toBeUndefined();
  const r = runCosted(fn, { self: bind(self) }, limit, v137);
  if (!r.ok && !(r.error instanceof CostLimitExceeded)) throw r.error as Error;
  return { cost: r.cost, value: r.ok ? r.value : r.error };
}

const rook = { val1: 'Rook takes 👑', val2: 'Rook takes 👑' };
const ints = { val1: 5n, val4: 10, val5: 10, val6: 10 };
const map = { val: { b: 1n, d: 2n } };
const listMap = { listMap: [{ k: 'a1', v: 'b1' }, { k: 'a2', v: 'b2' }, { k: 'a3', v: 'b3', v2: 'z' }] };
const array = { array: [1n, 1n, 2n, 2n, 3n, 3n, 4n, 5n] };
const set = { set: [1n, 2n, 3n, 4n, 5n] };

const CASES: [string, unknown, number, number?][] = [
  // [rule, self, cost at 1.36, cost at 1.37 when it differs]
  ["self.val1.startsWith('Rook')", rook, 4, 3],
  ["!self.val1.startsWith('knight')", rook, 5, 4],
  ["self.val1.matches('^[^0-9]*$')", rook, 8],
  ["!self.val1.matches('^[0-9]*$')", rook, 7],
  ['type(self.val1) == string', rook, 4],
  ['size(self.val1) == 12', rook, 4],
  ["self.val1.charAt(3) == 'k'", rook, 4],
  ["self.val1.indexOf('o') == 1", rook, 4],
  ["self.val1.indexOf('o', 2) == 2", rook, 4],
  ["self.val1.replace(' ', 'x') == 'Rookxtakesx👑'", rook, 7],
  ["self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'", rook, 7],
  ["self.val1.split(' ') == ['Rook', 'takes', '👑']", rook, 6],
  ["self.val1.split(' ', 2) == ['Rook', 'takes 👑']", rook, 6],
  ["self.val1.substring(5) == 'takes 👑'", rook, 5],
  ["self.val1.substring(0, 4) == 'Rook'", rook, 5],
  ["self.val1.substring(4, 10).trim() == 'takes'", rook, 6],
  ["self.val1.upperAscii() == 'ROOK TAKES 👑'", rook, 6],
  ["self.val1.lowerAscii() == 'rook takes 👑'", rook, 6],
  ['self.val1.lowerAscii() == self.val1.lowerAscii()', rook, 10],
  ["'%o %o %o'.format([7, 8, 9]) == '7 10 11'", rook, 2],
  ["'%b %b %b'.format([7, 8, 9]) == '111 1000 1001'", rook, 3],
  ["'%e'.format([3.14]) == '3.140000×10⁰⁰'", rook, 3],
  ['double(self.val1) < self.val4', ints, 6],
  ['self.val1 < int(self.val4)', ints, 6],
  ['double(5) < 10.0', ints, 1],
  ['5 < int(10.0)', ints, 1],
  ['double(self.val1) < 10.0', ints, 4],
  ["!('a' in self.val)", map, 4],
  ["'b' in self.val", map, 3],
  ['!has(self.val.a)', map, 3],
  ['has(self.val.b)', map, 2],
  ['self.val.all(k, self.val[k] > 0)', map, 17],
  ['!self.val.exists(k, self.val[k] == 3)', map, 20],
  ['self.val.exists_one(k, self.val[k] == 2)', map, 14],
  ['!self.val.exists_one(k, self.val[k] > 0)', map, 17],
  ['size(self.val) == 2', map, 4],
  ['self.val.all(k, v, v > 0)', map, 13],
  ['!self.val.exists(k, v, v == 3)', map, 16],
  ['self.val.existsOne(k, v, v == 2)', map, 10],
  ['self.val.transformMap(k, v, v > 1, v + 1).size() == 1', map, 14],
  ['self.val.transformMap(k, v, v + 1).size() == 2', map, 15],
  ["self.val.transformMapEntry(k, v, v > 1, {k + '2': v + 1}).size() == 1", map, 45],
  ["self.val.transformMapEntry(k, v, {k + '2': v + 1}).size() == 2", map, 77],
  ['size(self.val.filter(k, self.val[k] > 1)) == 1', map, 26],
  ['has(self.listMap[0].v)', listMap, 3],
  ["self.listMap.all(m, m.k.startsWith('a'))", listMap, 21],
  ["self.listMap.all(m, !has(m.v2) || m.v2 == 'z')", listMap, 21],
  ["self.listMap.exists(m, m.k.endsWith('1'))", listMap, 13],
  ["self.listMap.exists_one(m, m.k == 'a3')", listMap, 15],
  ["!self.listMap.all(m, m.k.endsWith('1'))", listMap, 18],
  ["!self.listMap.exists(m, m.v == 'x')", listMap, 25],
  ["!self.listMap.exists_one(m, m.k.startsWith('a'))", listMap, 20],
  ["size(self.listMap.filter(m, m.k == 'a1')) == 1", listMap, 27],
  ["self.listMap.exists(m, m.k == 'a1' && m.v == 'b1')", listMap, 16],
  ["self.listMap.map(m, m.v).exists(v, v == 'b1')", listMap, 55],
  ["self.listMap.exists(m, has(m.v2) && m.v2 == 'z')", listMap, 21],
  ["!self.listMap.all(m, has(m.v2) && m.v2 != 'z')", listMap, 10],
  ["self.listMap.exists_one(m, has(m.v2) && m.v2 == 'z')", listMap, 12],
  ["self.listMap.filter(m, has(m.v2) && m.v2 == 'z').size() == 1", listMap, 24],
  ["self.listMap.map(m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1", listMap, 25],
  ["self.listMap.filter(m, has(m.v2) && m.v2 == 'z').map(m, m.v2).size() == 1", listMap, 39],
  ["self.listMap.exists(m, m.v2 == 'z')", listMap, 24],
  ["!self.listMap.all(m, m.v2 != 'z')", listMap, 22],
  ["!self.listMap.all(i, m, has(m.v2) && m.v2 != 'z')", listMap, 10],
  ["self.listMap.exists(i, m, has(m.v2) && m.v2 == 'z')", listMap, 21],
  ["self.listMap.existsOne(i, m, has(m.v2) && m.v2 == 'z')", listMap, 12],
  ["self.listMap.transformList(i, m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1", listMap, 25],
  ['self.listMap.transformList(i, m, m.v).size() == 3', listMap, 47],
  ['2 in self.array', array, 10],
  ['self.array.all(e, e > 0)', array, 43],
  ['self.array.exists(e, e > 2)', array, 36],
  ['self.array.exists_one(e, e > 4)', array, 22],
  ['!self.array.all(e, e < 2)', array, 21],
  ['!self.array.exists(e, e < 0)', array, 52],
  ['!self.array.exists_one(e, e == 2)', array, 25],
  ['self.array.all(e, e < 100)', array, 43],
  ['size(self.array.filter(e, e%2 == 0)) == 3', array, 68],
  ['self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)', array, 194],
  ['size(self.array) == 8', array, 4],
  ['self.array.all(i, e, e > 0)', array, 43],
  ['self.array.exists(i, e, e > 2)', array, 36],
  ['self.array.existsOne(i, e, e > 4)', array, 22],
  ['self.array.transformList(i, e, e > 2, e * 2).size() > 0', array, 77],
  ['self.array.transformList(i, e, e * 2).size() > 0', array, 117],
  ['3 in self.set', set, 7],
  ['self.set.all(e, e > 0)', set, 28],
  ['self.set.exists(e, e > 3)', set, 30],
  ['self.set.exists_one(e, e == 3)', set, 16],
  ['!self.set.all(e, e < 3)', set, 21],
  ['!self.set.exists(e, e < 0)', set, 34],
  ['!self.set.exists_one(e, e > 3)', set, 19],
  ['size(self.set.filter(e, e%2 == 0)) == 2', set, 46],
  ['self.set.map(e, e * 20).filter(e, e > 50).exists_one(e, e == 60)', set, 133],
];

describe('runtime cost as cel-go counts it (upstream celcoststability cases)', () => {
  for (const [rule, self, c136, c137] of CASES) {
    it(rule, () => {
      expect(cost(rule, self).cost).toBe(c136);
      expect(cost(rule, self, true).cost).toBe(c137 ?? c136);
    });
  }
});

describe('the per-call limit', () => {
  it('cancels a rule past the limit, without running the whole list', () => {
    const big = { xs: Array.from({ length: 200_000 }, (_, i) => BigInt(i)) };
    const r = cost('self.xs.all(x, self.xs.all(y, x + y >= 0))', big);
    expect(r.value).toBeInstanceOf(CostLimitExceeded);
    expect(r.cost).toBeGreaterThan(1_000_000);
    expect(r.cost).toBeLessThan(1_000_100);
  });
});
