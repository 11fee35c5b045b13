/**
 * Optional list elements and map entries (`[a, ?b]`, `{?k: v}`), which cel-js does not parse: crdx
 * writes them as calls of its own (ast.ts optionalEntriesPlain) that build the literal as cel-go's
 * evalList and evalMap do. The texts cel-go gives are from cel-go 0.26/0.29 (interpreter.go
 * invalidOptionalElementInit, invalidOptionalEntryInit); the same rules run against a real server in
 * test/conformance/cel-libs.cases.ts ("optentries").
 */
import { describe, expect, it } from 'vitest';
import { optionalEntriesPlain } from '../../../src/schema/cel/ast.js';
import { evaluateExpression } from '../../../src/schema/cel-eval.js';
import { cel } from '../../helpers/cel.js';

describe('optionalEntriesPlain', () => {
  it.each([
    ['[?x]', '__crdx_pushopt([], x)'],
    ['[1, ?x, [?y]]', '__crdx_push(__crdx_pushopt(__crdx_push([], 1), x), __crdx_pushopt([], y))'],
    ["{?'a': x, 'b': 1}", "__crdx_put(__crdx_putopt({}, 'a', x), 'b', 1)"],
    // a conditional key: its own `:` is not the entry's
    ["{?c ? 'a' : 'b': v}", "__crdx_putopt({}, c ? 'a' : 'b', v)"],
    // an optional index and selection stay; a trailing comma is dropped
    ['a[?0] == [?a.?b, 2,]', 'a[?0] == __crdx_push(__crdx_pushopt([], a.?b), 2)'],
    ['x in [?y]', 'x in __crdx_pushopt([], y)'],
    // a comment at the end of an element does not swallow the call's parenthesis
    ['[a // c\n, ?b]', '__crdx_pushopt(__crdx_push([], a // c\n), b)'],
  ])('%j → %j', (text, want) => expect(optionalEntriesPlain(text)).toBe(want));

  it.each(['[a, b]', "'[?x]'", 'a[?0]', 'x.?y', 'm{?f: 1}', '[?x'])('%j: nothing to write', (text) => expect(optionalEntriesPlain(text)).toBeUndefined());
});

describe('optional entries evaluate as cel-go builds them', () => {
  const run = (text: string, vars: Record<string, unknown> = {}) => evaluateExpression(text, vars, cel);
  it.each([
    ['[?optional.of(1), ?optional.none(), 2] == [1, 2]', true],
    ['size([?optional.none()]) == 0', true],
    // an empty optional entry removes an earlier entry of its key; a later entry wins
    ["{'k': 1, ?'k': optional.none()} == {}", true],
    ["{'k': 1, ?'k': optional.of(2)}['k'] == 2", true],
    ["{?'k': optional.none(), 'k': 3}['k'] == 3", true],
  ])('%s', (text, want) => expect(run(text)).toEqual({ kind: 'value', value: want }));

  it('a value that is not optional where an optional belongs: cel-go\'s error, with the value', () => {
    expect(run('[?x].size() == 1', { x: 7n })).toMatchObject({ kind: 'error', text: 'cannot initialize optional list element from non-optional value 7' });
    expect(run("{?'k': x}.size() == 1", { x: 'abc' })).toMatchObject({ kind: 'error', text: "cannot initialize optional entry 'k' from non-optional value abc" });
  });

  it('a missing key of a map built with optional entries is the server\'s "no such key"', () => {
    expect(run("{'y': 'c', ?'y': optional.none()}.y == 'c'")).toMatchObject({ kind: 'error', text: 'no such key: y' });
  });
});
