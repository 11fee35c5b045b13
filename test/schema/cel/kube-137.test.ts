/**
 * The CEL changes of Kubernetes 1.37 (cel-go 0.29, apiextensions model.WithTypeAndObjectMeta, the
 * apiserver's list value adapters), each under --kube-version 1.36 and 1.37. The expected texts
 * were recorded from real 1.36.6 and 1.37.2 apiextensions-apiservers (docs/dev/kube-1.37-changes.md).
 */
import { describe, expect, it } from 'vitest';
import { buildStructural } from '../../../src/crd/structural-schema.js';
import { sizeDecl } from '../../../src/schema/cel/cost-decl.js';
import { compileCel } from '../../../src/schema/cel/check.js';
import { globalCalls } from '../../../src/schema/cel/cost-compile.js';
import { costOptionsFor } from '../../../src/schema/cel/cost-crd.js';
import { estimateCost, range } from '../../../src/schema/cel/cost.js';
import { schemaDeclType } from '../../../src/schema/cel/decl.js';
import { defaultSources } from '../../../src/engine/default.js';
import { lintSources } from '../../../src/engine/lint.js';
import { cel } from '../../helpers/cel.js';
import { crdObject } from '../../helpers/crd.js';

type Obj = Record<string, unknown>;

function crd(spec: Obj, root: Obj = {}): Obj {
  return crdObject({ group: 'k137.crdx.test', schema: { type: 'object', ...root, properties: { spec: { type: 'object', ...spec }, ...((root['properties'] as Obj) ?? {}) } } });
}

/** `field: message` of every error finding of `lint` at 1.<minor>. */
function lint(c: Obj, minor: number): string[] {
  const r = lintSources([{ path: 'crd.yaml', text: JSON.stringify(c) }], { kubeVersion: { major: 1, minor }, cel });
  return r.findings.filter((f) => f.severity === 'error').map((f) => (f.server ? `${f.server.field}: ${f.server.message}` : `${f.ruleId}: ${f.message}`));
}

const onSpec = (rule: string, props: Obj): Obj => crd({ properties: props, 'x-kubernetes-validations': [{ rule }] });
const RULE_AT = 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule';
const ruleValue = (rule: string) => JSON.stringify({ Rule: rule, Message: '', MessageExpression: '', Reason: null, FieldPath: '', OptionalOldSelf: null }).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');
const compileError = (rule: string, detail: string) => `${RULE_AT}: Invalid value: ${ruleValue(rule)}: compilation failed: ${detail}`;

describe('A6: metadata.name / generateName capped in the CEL types of 1.37', () => {
  const NAMES = 'self.metadata.name.contains(self.metadata.name) && self.metadata.generateName.contains(self.metadata.generateName)';
  const root = (meta?: Obj, typed = false): Obj =>
    crd({ properties: { s: { type: 'string' } } }, { 'x-kubernetes-validations': [{ rule: NAMES }], properties: { ...(meta ? { metadata: meta } : {}), ...(typed ? { kind: { type: 'string' }, apiVersion: { type: 'string' } } : {}) } });
  const overBudget = (errs: string[]) => errs.some((e) => e.includes('estimated rule cost exceeds budget by factor of more than 100x'));

  it('a root rule on both names: over budget at 1.36, accepted at 1.37', () => {
    expect(overBudget(lint(root(), 36))).toBe(true);
    expect(lint(root(), 37)).toEqual([]);
  });

  it('declared name/generateName without kind and apiVersion are still capped', () => {
    const meta = { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } };
    expect(overBudget(lint(root(meta), 36))).toBe(true);
    expect(lint(root(meta), 37)).toEqual([]);
  });

  it('the quirk: kind, apiVersion, name and generateName all declared as strings keep the schema unbounded at 1.37', () => {
    const meta = { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } };
    expect(overBudget(lint(root(meta, true), 37))).toBe(true);
  });

  it('sizes: 253×4 and 252×4 bytes, or a smaller user maxLength; 3 MiB before 1.37', () => {
    const s = buildStructural({ type: 'object', properties: { metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } } } });
    const at37 = sizeDecl(s, true, 37)!.fields!.get('metadata')!.fields!;
    expect(at37.get('name')!.maxElements).toBe(40n);
    expect(at37.get('generateName')!.maxElements).toBe(1008n);
    expect(sizeDecl(s, true, 36)!.fields!.get('metadata')!.fields!.get('name')!.maxElements).toBe(3n * 1024n * 1024n - 2n);
    const d = schemaDeclType(buildStructural({ type: 'object' }), true, 37)!.fields!.get('metadata')!.type.fields!;
    expect(d.get('name')!.type.maxElements).toBe(1012);
    expect(d.get('generateName')!.type.maxElements).toBe(1008);
  });

  it('every embedded resource node is capped too', () => {
    const c = crd({ properties: { tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, 'x-kubernetes-validations': [{ rule: NAMES }] } } });
    expect(overBudget(lint(c, 36))).toBe(true);
    expect(lint(c, 37)).toEqual([]);
  });
});

describe('C1: lists v1 includes()', () => {
  const props = { l: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 5 } } };
  it('new rules cannot use it at 1.36 or 1.37 (compatibility version n-1)', () => {
    const rule = "self.l.includes('a')";
    const want = compileError(rule, "ERROR: <input>:1:16: undeclared reference to 'includes' (in container '')\n | self.l.includes('a')\n | ...............^");
    expect(lint(onSpec(rule, props), 36)).toEqual([want]);
    expect(lint(onSpec(rule, props), 37)).toEqual([want]);
  });
  it("is declared in 1.37's stored-expressions environment only, as <dyn>.includes(<dyn>) -> bool", () => {
    const env = (compat: number, server: number) => ({ compat, server, variables: new Map() });
    expect(compileCel("[1, 2].includes(2) && 'a'.includes('a')", env(37, 37), undefined).issues).toEqual([]);
    expect(compileCel('[1].includes(1)', env(36, 36), undefined).issues.map((i) => i.message)).toEqual(["undeclared reference to 'includes' (in container '')"]);
  });
});

describe('C1: includes() cost (apiserver library cost_test.go TestIncludesCost, estimates)', () => {
  const L = {
    int: '[1, 2, 3, 4, 5]',
    uint: '[uint(1), uint(2), uint(3), uint(4), uint(5)]',
    double: '[1.0, 2.0, 3.0, 4.0, 5.0]',
    bool: '[false, true, false, true, false]',
    string: "['012345678901', '012345678901', '012345678901', '012345678901', '012345678901']",
    bytes: "[bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901'), bytes('012345678901')]",
    duration: "[duration('1s'), duration('2s'), duration('3s'), duration('4s'), duration('5s')]",
    timestamp: "[timestamp('2011-01-01T00:00:00.000+01:00'), timestamp('2011-01-02T00:00:00.000+01:00'), timestamp('2011-01-03T00:00:00.000+01:00'), timestamp('2011-01-04T00:00:00.000+01:00'), timestamp('2011-01-05T00:00:00.000+01:00')]",
    str: "'01234567890123456789012345678901234567890123456789'",
  };
  const CASES: [string, string, bigint, bigint][] = [
    [L.int, '3', 15n, 15n],
    [L.uint, 'uint(3)', 21n, 21n],
    [L.double, '3.0', 15n, 15n],
    [L.bool, 'true', 15n, 15n],
    [L.string, "'x'", 15n, 25n],
    [L.bytes, "bytes('x')", 26n, 36n],
    [L.duration, "duration('3s')", 21n, 21n],
    [L.timestamp, "timestamp('2011-01-03T00:00:00.000+01:00')", 21n, 21n],
    [L.str, "'123'", 50n, 50n],
  ];
  for (const [lit, param, min, max] of CASES) {
    const expr = `${lit}.includes(${param})`;
    it(expr, () => {
      const r = compileCel(expr, { compat: 37, server: 37, variables: new Map() }, undefined);
      expect(r.issues).toEqual([]);
      const checked = r.checked!;
      const ast = { root: globalCalls(r.parsed!.expr, (id) => checked.typeOf(id) !== undefined), typeOf: (id: number) => checked.typeOf(id), overloadIds: (id: number) => checked.refOf(id)?.overloadIds ?? [] };
      const sizes = (_p: readonly string[], t: { kind: string } | undefined) => (t?.kind === 'string' || t?.kind === 'bytes' ? range(0n, 12n) : undefined);
      const c = estimateCost(ast, sizes, costOptionsFor(37, 37)).cost;
      expect([c.min, c.max]).toEqual([min, max]);
    });
  }
});

describe('C3: duration(int)', () => {
  const props = { x: { type: 'integer' } };
  it('1.37: no overload (the column of the call)', () => {
    const rule = "duration(self.x) < duration('1h')";
    expect(lint(onSpec(rule, props), 37)).toEqual([compileError(rule, "ERROR: <input>:1:9: found no matching overload for 'duration' applied to '(int)'\n | duration(self.x) < duration('1h')\n | ........^")]);
    expect(lint(onSpec(rule, props), 36)).toEqual([]);
  });
  it('an int literal: the 1.36 literal validator refuses it, 1.37 has no overload', () => {
    const rule = "duration(5) < duration('1h')";
    expect(lint(onSpec(rule, props), 36)).toEqual([compileError(rule, "ERROR: <input>:1:10: invalid duration argument\n | duration(5) < duration('1h')\n | .........^")]);
    expect(lint(onSpec(rule, props), 37)).toEqual([compileError(rule, "ERROR: <input>:1:9: found no matching overload for 'duration' applied to '(int)'\n | duration(5) < duration('1h')\n | ........^")]);
  });
});

describe('C4: backtick-escaped field names', () => {
  const props = { x: { type: 'integer' }, 'foo-bar': { type: 'integer' } };
  const unsupported = (rule: string, col: number) => compileError(rule, `ERROR: <input>:1:${col}: unsupported syntax: '\`'\n | ${rule}\n | ${'.'.repeat(col - 1)}^`);
  for (const [rule, col] of [['self.`x` > 0', 6], ['has(self.`x`)', 10], ['self.?`x`.hasValue()', 7]] as const) {
    it(`${rule}: refused at 1.36 (column ${col}), compiles at 1.37`, () => {
      expect(lint(onSpec(rule, props), 36)).toEqual([unsupported(rule, col)]);
      expect(lint(onSpec(rule, props), 37)).toEqual([]);
    });
  }
  it('before cel-go 0.23 (1.32 and older) each backtick is a token recognition error and the rest parses without it (1.30 server texts)', () => {
    const tok = (rule: string, col: number) => `ERROR: <input>:1:${col}: Syntax error: token recognition error at: '\`'\n | ${rule}\n | ${'.'.repeat(col - 1)}^`;
    const r1 = 'self.`x` > 0';
    const detail = (errs: string[]) => errs.map((e) => e.slice(e.indexOf('compilation failed: ') + 'compilation failed: '.length));
    expect(detail(lint(onSpec(r1, props), 32))).toEqual([`${tok(r1, 6)}\n${tok(r1, 8)}`]);
    const r2 = 'has(self.`foo-bar`)';
    expect(detail(lint(onSpec(r2, props), 30))).toEqual([`${tok(r2, 10)}\nERROR: <input>:1:14: invalid argument to has() macro\n | ${r2}\n | .............^\n${tok(r2, 18)}`]);
    expect(detail(lint(onSpec(r1, props), 33))).toEqual([`ERROR: <input>:1:6: unsupported syntax: '\`'\n | ${r1}\n | .....^`]);
  });
  it('an escaped name is the name CEL sees: foo-bar is undefined (its CEL name is foo__dash__bar)', () => {
    const rule = 'self.`foo-bar` > 0';
    expect(lint(onSpec(rule, props), 37)).toEqual([compileError(rule, "ERROR: <input>:1:5: undefined field 'foo-bar'\n | self.`foo-bar` > 0\n | ....^")]);
  });
  it('a custom resource is evaluated with the escaped name (1.37)', () => {
    const c = onSpec('self.`x` > 0', props);
    const run = defaultSources([{ path: 'cr.yaml', text: JSON.stringify({ apiVersion: 'k137.crdx.test/v1', kind: 'Thing', metadata: { name: 'a', namespace: 'default' }, spec: { x: 0 } }) }], [{ path: 'crd.yaml', text: JSON.stringify(c) }], { kubeVersion: { major: 1, minor: 37 }, cel });
    const o = run.objects[0]!;
    expect(o.result.celNotEvaluated).toBe(false);
    expect(o.findings.filter((f) => f.severity === 'error').map((f) => f.server?.message)).toEqual(['Invalid value: failed rule: self.`x` > 0']);
  });
});

describe('C5: the global matches(s, re) is costed at 1.37', () => {
  const c = crd({ properties: { l: { type: 'array', maxItems: 100, items: { type: 'string', 'x-kubernetes-validations': [{ rule: "matches(self, '^[a-z]+$')" }] } } } });
  it('accepted at 1.36 (flat cost), over budget by 6.3x at 1.37 like self.matches()', () => {
    expect(lint(c, 36)).toEqual([]);
    expect(lint(c, 37)).toEqual([
      'spec.validation.openAPIV3Schema.properties[spec].properties[l].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of 6.3x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
    ]);
  });
});

describe('C10: leading-dot identifiers', () => {
  const rule = 'self.l.exists(self, .self.l.size() > 0)';
  const props = { l: { type: 'array', maxItems: 5, items: { type: 'string', maxLength: 5 } } };
  it('1.36 resolves .self to the loop variable, 1.37 to the root', () => {
    expect(lint(onSpec(rule, props), 36)).toEqual([compileError(rule, "ERROR: <input>:1:26: type 'string' does not support field selection\n | self.l.exists(self, .self.l.size() > 0)\n | .........................^")]);
    expect(lint(onSpec(rule, props), 37)).toEqual([]);
  });
  it('without a shadowing variable both resolve to the global', () => {
    expect(lint(onSpec('.self.x > 0', { x: { type: 'integer' } }), 36)).toEqual([]);
    expect(lint(onSpec('.self.x > 0', { x: { type: 'integer' } }), 37)).toEqual([]);
  });
});

describe('C12: set and map list adapters', () => {
  const rules = ['self.nums == [1.0, 2.0]', 'self.nums == dyn([1, 2])', 'self.ints == [1, 1]', 'self.objs == self.objs', 'self.ml == [self.ml[0], self.ml[0]]', '(self.nums + [1.0]).size() == 2', '(self.ints + [1]).size() == 2', '(self.objs + self.objs).size() == 1'];
  const c = crd({
    properties: {
      nums: { type: 'array', maxItems: 4, items: { type: 'number' }, 'x-kubernetes-list-type': 'set' },
      ints: { type: 'array', maxItems: 4, items: { type: 'integer' }, 'x-kubernetes-list-type': 'set' },
      objs: { type: 'array', maxItems: 4, items: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { a: { type: 'string', maxLength: 5 } } }, 'x-kubernetes-list-type': 'set' },
      ml: { type: 'array', maxItems: 4, items: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 5 } } }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
    },
    'x-kubernetes-validations': rules.map((rule) => ({ rule })),
  });
  const cr = { apiVersion: 'k137.crdx.test/v1', kind: 'Thing', metadata: { name: 'a', namespace: 'default' }, spec: { nums: [1, 2], ints: [1, 2], objs: [{ a: 'x' }], ml: [{ name: 'a' }, { name: 'b' }] } };
  const causes = (minor: number) => {
    const run = defaultSources([{ path: 'cr.yaml', text: JSON.stringify(cr) }], [{ path: 'crd.yaml', text: JSON.stringify(c) }], { kubeVersion: { major: 1, minor }, cel });
    const o = run.objects[0]!;
    expect(o.result.celNotEvaluated).toBe(false);
    return o.findings.filter((f) => f.severity === 'error').map((f) => `${f.server!.field}: ${f.server!.message}`).sort();
  };
  it('1.36: raw keys (an integral number is an int64), size-only equality, a hash panic for objects', () => {
    const hash = 'spec: Invalid value: "object": internal error: runtime error: hash of unhashable type map[string]interface {} evaluating rule: ';
    expect(causes(36)).toEqual([hash + rules[7], hash + rules[3], `spec: Invalid value: failed rule: ${rules[5]}`, `spec: Invalid value: failed rule: ${rules[0]}`].sort());
  });
  it('1.37: keys by CEL value, every element counted, sets of objects refused', () => {
    const scalar = 'spec: Invalid value: "object": listSet operations are only supported on lists of scalar values evaluating rule: ';
    expect(causes(37)).toEqual([scalar + rules[7], scalar + rules[3], `spec: Invalid value: failed rule: ${rules[2]}`, `spec: Invalid value: failed rule: ${rules[4]}`, `spec: Invalid value: failed rule: ${rules[1]}`].sort());
  });
});

describe('C3 and C10 on a stored rule: a 1.37 server no longer compiles it', () => {
  const crOf = (spec: Obj) => JSON.stringify({ apiVersion: 'k137.crdx.test/v1', kind: 'Thing', metadata: { name: 'a', namespace: 'default' }, spec });
  const run = (c: Obj, spec: Obj, minor: number) => {
    const r = defaultSources([{ path: 'cr.yaml', text: crOf(spec) }], [{ path: 'crd.yaml', text: JSON.stringify(c) }], { kubeVersion: { major: 1, minor }, cel });
    return r.objects[0]!.findings.filter((f) => f.severity === 'error').map((f) => `${f.server!.field}: ${f.server!.message}`);
  };
  it('duration(int): a runtime error at 1.36 (server-checked text), rule compile error at 1.37', () => {
    const c = onSpec("duration(self.x) < duration('1h')", { x: { type: 'integer' } });
    expect(run(c, { x: 5 }, 36)).toEqual([`spec: Invalid value: "object": type conversion error from 'int' to 'google.protobuf.Duration' evaluating rule: duration(self.x) < duration('1h')`]);
    expect(run(c, { x: 5 }, 37)).toEqual([
      `spec: Invalid value: "object": rule compile error: compilation failed: ERROR: <input>:1:9: found no matching overload for 'duration' applied to '(int)'\n | duration(self.x) < duration('1h')\n | ........^`,
    ]);
  });
  it('a rule 1.37 compiles too is evaluated as before', () => {
    const c = onSpec('self.x > 0', { x: { type: 'integer' } });
    expect(run(c, { x: 0 }, 37)).toEqual(['spec: Invalid value: failed rule: self.x > 0']);
  });
});
