/** The compiled CEL rules of a schema node (src/schema/cel-eval.ts) are kept on the node. */
import { describe, expect, it } from 'vitest';
import type { CelEngine, CelModule } from '../../src/core/cel-engine.js';
import { buildStructural } from '../../src/crd/structural-schema.js';
import { evaluateCel } from '../../src/schema/cel-eval.js';
import { cel } from '../helpers/cel.js';

describe('evaluateCel', () => {
  it('compiles the rules of a node once, whatever evaluates them later', () => {
    let parses = 0;
    class Counting extends cel.module.Environment {
      override parse(e: string): ReturnType<InstanceType<CelModule['Environment']>['parse']> {
        // the rule as written (the evaluator also parses its rewritten text and a few helpers)
        if (e === 'self.x > 0') parses++;
        return super.parse(e);
      }
    }
    const counting: CelEngine = { module: { ...cel.module, Environment: Counting } as CelModule, syntaxError: (e) => cel.syntaxError(e) };
    const root = buildStructural({
      type: 'object',
      properties: { spec: { type: 'object', properties: { x: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.x > 0', message: 'x must be positive' }] } },
    });
    const bad = { apiVersion: 'v1', kind: 'K', spec: { x: 0 } };
    const first = evaluateCel(bad, undefined, root, counting);
    expect(first.errors.map((e) => e.detail)).toEqual(['x must be positive']);
    expect(parses).toBe(1);
    expect(evaluateCel({ ...bad, spec: { x: 1 } }, undefined, root, counting).errors).toEqual([]);
    expect(evaluateCel(bad, undefined, root, counting).errors.map((e) => e.detail)).toEqual(['x must be positive']);
    expect(parses).toBe(1);
    // a node built again from the same record compiles its own
    evaluateCel(bad, undefined, buildStructural(root.raw), counting);
    expect(parses).toBe(2);
  });
});

describe('evaluateCel: runtime cost', () => {
  const root = buildStructural({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { l: { type: 'array', items: { type: 'integer' } } },
        'x-kubernetes-validations': [{ rule: 'self.l.all(a, self.l.all(b, self.l.all(c, a + b + c >= 0)))', message: 'non-negative' }],
      },
    },
  });
  it('a rule whose cost bound stays under the per-call limit is evaluated', () => {
    const r = evaluateCel({ apiVersion: 'v1', kind: 'K', spec: { l: [1, -5, 2] } }, undefined, root, cel);
    expect(r.complete).toBe(true);
    expect(r.errors.map((e) => e.detail)).toEqual(['non-negative']);
  });
  it('one over the per-call limit is cancelled with the server\'s error, and no further rule runs', () => {
    // 300³ iterations: cel-go cancels the call once its cost passes 1,000,000 (recorded from the server: cel-runtime-cost.conformance)
    const l = Array.from({ length: 300 }, (_, i) => i);
    const r = evaluateCel({ apiVersion: 'v1', kind: 'K', spec: { l } }, undefined, root, cel);
    expect(r.complete).toBe(true);
    expect(r.errors.map((e) => [e.field, e.value, e.detail])).toEqual([
      ['spec', 'object', "'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: non-negative"],
    ]);
  });
  it('a rule whose cost crdx does not count is not evaluated where its bound could exceed the limit, and says why', () => {
    const two = buildStructural({
      type: 'object',
      properties: { spec: { type: 'object', properties: { l: { type: 'array', items: { type: 'integer' } } }, 'x-kubernetes-validations': [{ rule: 'self.l.all(a, self.l.sortBy(b, a + b).size() > 0)' }] } },
    });
    const l = Array.from({ length: 600 }, (_, i) => i);
    const r = evaluateCel({ apiVersion: 'v1', kind: 'K', spec: { l } }, undefined, two, cel);
    expect(r.complete).toBe(false);
    expect(r.skipped.map((s) => s.why)).toEqual(["crdx does not count the runtime cost of sortBy() yet, and this rule could exceed the server's per-call limit here"]);
  });
});

describe('evaluateCel: the value a failed rule prints, per version', () => {
  const root = buildStructural({
    type: 'object',
    properties: { spec: { type: 'object', properties: { s: { type: 'string', 'x-kubernetes-validations': [{ rule: "self != 'x'" }] } } } },
  });
  const obj = { apiVersion: 'v1', kind: 'K', spec: { s: 'x' } };
  // apiextensions-apiserver validation.go: field.Invalid(path, sts.Type, …) up to 1.34, the value itself from 1.35
  it('1.34: the schema type', () => {
    expect(evaluateCel(obj, undefined, root, cel, { major: 1, minor: 34 }).errors.map((e) => e.value)).toEqual(['string']);
  });
  it('1.35 and later: the value', () => {
    expect(evaluateCel(obj, undefined, root, cel, { major: 1, minor: 35 }).errors.map((e) => e.value)).toEqual(['x']);
    expect(evaluateCel(obj, undefined, root, cel).errors.map((e) => e.value)).toEqual(['x']);
  });
});

describe('evaluateCel: 1.37 runtime changes (cel-go 0.29), gated on the version', () => {
  const root = buildStructural({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: { s: { type: 'string' }, n: { type: 'integer' } },
        'x-kubernetes-validations': [
          { rule: "self.s.indexOf('', self.n) == 3", message: 'indexOf is 3' },
          { rule: 'self.n != -1 || lists.range(-1).size() == 0', message: 'range' },
        ],
      },
    },
  });
  const run = (n: number, minor: number) => evaluateCel({ apiVersion: 'v1', kind: 'K', spec: { s: 'abc', n } }, undefined, root, cel, { major: 1, minor }).errors.map((e) => e.detail);
  it('C7: an empty search string past the end is clamped from 1.37', () => {
    expect(run(5, 36)).toEqual(['indexOf is 3']);
    expect(run(5, 37)).toEqual([]);
  });
  it('C7, C8: a negative offset and lists.range(-1) are errors from 1.37', () => {
    expect(run(-1, 36)).toEqual(['indexOf is 3']);
    expect(run(-1, 37)).toEqual(['index out of range: -1 evaluating rule: indexOf is 3', 'lists.range: size must be non-negative, got -1 evaluating rule: range']);
  });
});

describe('evaluateCel: lastIndexOf on an empty receiver, gated on the version (cel-go 0.26, 1.34)', () => {
  // cel-go before 0.26 (ext/strings.go lastIndexOf) reads an empty receiver at the offset len-1 = -1
  const root = buildStructural({
    type: 'object',
    properties: { spec: { type: 'object', properties: { s: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: "self.s.lastIndexOf('x') == -1", message: 'not found' }] } },
  });
  const run = (s: string, minor: number) => evaluateCel({ apiVersion: 'v1', kind: 'K', spec: { s } }, undefined, root, cel, { major: 1, minor }).errors.map((e) => e.detail);
  it('fails before 1.34, is -1 from 1.34', () => {
    expect(run('', 30)).toEqual(['index out of range: -1 evaluating rule: not found']);
    expect(run('', 33)).toEqual(['index out of range: -1 evaluating rule: not found']);
    expect(run('', 34)).toEqual([]);
    expect(run('', 37)).toEqual([]);
  });
  it('a shorter receiver that is not empty is -1 at every version', () => {
    expect(run('a', 30)).toEqual([]);
    expect(run('a', 37)).toEqual([]);
  });
});

describe('evaluateCel: a reserved word as a property name (1.36 server texts)', () => {
  // the server unescapes the field name it is asked for (unstructuredMap.Find): self.package and
  // self.__package__ both reach the property `package`; an additionalProperties map takes the key as written
  const rules = [
    '!has(self.package)',
    "self.package != 'abc'",
    "self.__package__ != 'abc'",
    '!has(self.__package__)',
    "self.m.package != 'abc'",
    '!has(self.m.package)',
    "self.o.namespace == 'q'",
  ];
  const root = buildStructural({
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        'x-kubernetes-validations': rules.map((rule) => ({ rule })),
        properties: {
          package: { type: 'string' },
          m: { type: 'object', additionalProperties: { type: 'string' } },
          o: { type: 'object', properties: { namespace: { type: 'string' } } },
        },
      },
    },
  });
  it('every rule fails on the property as the server says', () => {
    const r = evaluateCel({ apiVersion: 'v1', kind: 'K', spec: { package: 'abc', m: { package: 'abc' }, o: {} } }, undefined, root, cel);
    expect(r.complete).toBe(true);
    expect(r.errors.map((e) => e.detail).sort()).toEqual(
      [...rules.slice(0, 6).map((x) => `failed rule: ${x}`), "no such key: namespace evaluating rule: self.o.namespace == 'q'"].sort(),
    );
  });
  it('and passes where the property is absent', () => {
    const r = evaluateCel({ apiVersion: 'v1', kind: 'K', spec: { m: {}, o: { namespace: 'q' } } }, undefined, root, cel);
    expect(r.errors.map((e) => e.detail).sort()).toEqual(
      ["no such key: package evaluating rule: self.package != 'abc'", "no such key: __package__ evaluating rule: self.__package__ != 'abc'", "no such key: package evaluating rule: self.m.package != 'abc'"].sort(),
    );
  });
});
