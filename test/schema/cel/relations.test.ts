/**
 * Chained relations as CEL's grammar groups them (one precedence level, left to right), written
 * for cel-js, whose grammar binds `<`, `<=`, `>`, `>=`, `in` tighter than `==` and `!=`
 * (ast.ts relationsGrouped; cel-go's values of such chains are in test/unit/cel-go-dyn-calls.json).
 */
import { describe, expect, it } from 'vitest';
import { relationsGrouped } from '../../../src/schema/cel/ast.js';

describe('relationsGrouped', () => {
  it.each([
    ['a == b < c', '(a == b) < c'],
    ['0.0 == double(self.x) <= false', '(0.0 == double(self.x)) <= false'],
    ['a < b == c', '(a < b) == c'],
    ['a == b != c == d', '((a == b) != c) == d'],
    ['x in l == true', '(x in l) == true'],
    ['f(a == b <= c)', 'f((a == b) <= c)'],
  ])('%s → %s', (text, want) => {
    expect(relationsGrouped(text)).toBe(want);
  });

  it.each([
    'a == b',
    'a == b && c < d',
    'f(a == b, c < d)',
    'a == b ? c < d : e > f',
    "s == 'a == b < c'",
    'self.items.all(i, i.x == 1) && self.y < 2',
    "self.name in ['a', 'b']",
  ])('leaves %s as it is (no chain)', (text) => {
    expect(relationsGrouped(text)).toBeUndefined();
  });
});
