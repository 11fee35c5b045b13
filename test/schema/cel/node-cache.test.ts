/**
 * cel-js caches a node's evaluation function on the node at its first call, and a compiled rule's
 * nodes are shared by every evaluation of its text: what crdx puts on a node must survive a first
 * call that throws (a missing field), or every later evaluation of the rule loses it.
 */
import { describe, expect, it } from 'vitest';
import { evaluateExpression } from '../../../src/schema/cel-eval.js';
import { cel } from '../../helpers/cel.js';

describe('a rule evaluated again after its first evaluation failed', () => {
  it('a comprehension over a scalar is cel-go\'s error also after its range once had no value', () => {
    const text = 'dyn(self.replicas).all(v, v > 0)';
    expect(evaluateExpression(text, { self: {} }, cel)).toMatchObject({ kind: 'error', text: 'no such key: replicas' });
    expect(evaluateExpression(text, { self: { replicas: 3n } }, cel)).toMatchObject({ kind: 'error', text: "got 'types.Int', expected iterable type" });
    expect(evaluateExpression(text, { self: { replicas: [1n] } }, cel)).toEqual({ kind: 'value', value: true });
  });
});
