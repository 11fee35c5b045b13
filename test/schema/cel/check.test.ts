import { describe, expect, it } from 'vitest';
import { parseCel, walkExpr, ACCU_VAR } from '../../../src/schema/cel/ast.js';
import { compileCel, compileIdentity, formatIssues, type CheckEnv } from '../../../src/schema/cel/check.js';
import { celTypeOf, schemaDeclType } from '../../../src/schema/cel/decl.js';
import { escapeProperty } from '../../../src/schema/cel/escape.js';
import { compileExpression } from '../../../src/schema/cel/compile.js';
import { functionLookup, functionsFor, overloadIdsFor } from '../../../src/schema/cel/functions.js';
import { buildStructural } from '../../../src/crd/structural-schema.js';
import { INT, STRING, formatType, listOf, struct } from '../../../src/schema/cel/types.js';

const self = struct('selfType0', new Map([['replicas', INT], ['name', STRING], ['items', listOf(INT)], ['__namespace__', STRING]]));
const env: CheckEnv = { compat: 35, server: 36, variables: new Map([['self', self], ['oldSelf', self]]) };

function compile(rule: string, e: CheckEnv = env): string {
  const o = compileCel(rule, e, undefined);
  if (o.syntaxError) return `syntax: ${o.syntaxError.message}`;
  return o.issues.length ? formatIssues(o.parsed!.source, o.issues) : `ok: ${formatType(o.checked!.type)}`;
}

describe('CEL checker (cel-go semantics)', () => {
  it('reports cel-go texts with location and caret', () => {
    expect(compile("self.replicas == 'three'")).toBe(
      "ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(int, string)'\n | self.replicas == 'three'\n | ..............^",
    );
    expect(compile('self.nosuch > 1')).toBe("ERROR: <input>:1:5: undefined field 'nosuch'\n | self.nosuch > 1\n | ....^");
    expect(compile('nope == 1')).toBe("ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope == 1\n | ^");
    expect(compile("self.name.foo('x')")).toBe("ERROR: <input>:1:14: undeclared reference to 'foo' (in container '')\n | self.name.foo('x')\n | .............^");
    expect(compile('self.name.startsWith(1)')).toBe(
      "ERROR: <input>:1:21: found no matching overload for 'startsWith' applied to 'string.(int)'\n | self.name.startsWith(1)\n | ....................^",
    );
  });
  it('types macros, optionals and library calls', () => {
    expect(compile('self.items.all(x, x > 0)')).toBe('ok: bool');
    expect(compile('self.items.map(x, x * 2)')).toBe('ok: list(int)');
    expect(compile("self.?name.orValue('')")).toBe('ok: string');
    expect(compile("quantity('1Gi').isGreaterThan(quantity('1'))")).toBe('ok: bool');
    expect(compile('self.namespace')).toBe('ok: string');
    expect(compile('self.namespace', { ...env, compat: 30 })).toContain("undefined field 'namespace'");
    expect(compile("isIP('1.2.3.4')", { ...env, compat: 29 })).toContain("undeclared reference to 'isIP'");
    expect(compile('self.items.exists(i, v, v > i)', { ...env, compat: 31 })).toContain("ERROR: <input>:1:18: undeclared reference to 'exists' (in container '')");
  });
  it('checks aggregate literals as the homogeneous-literal validator does', () => {
    expect(compile("[1, 'a'].size() > 0")).toContain("ERROR: <input>:1:5: expected type 'int' but found 'string'");
    expect(compile("[1, dyn('a')].size() > 0")).toContain("expected type 'int' but found 'dyn'");
  });
  it('records overload ids for the cost estimator', () => {
    const o = compileCel('size(self.items) + self.items.sum()', env, undefined);
    const call = o.parsed!.expr;
    expect(call.kind).toBe('call');
    expect(o.checked!.refOf(call.id)?.overloadIds).toEqual(['add_int64']);
    const ids = [...walkExpr(call)].map((n) => o.checked!.refOf(n.id)?.overloadIds ?? []).flat();
    expect(ids).toEqual(['add_int64', 'size_list', 'list_int_sum_int']);
  });
  it('expands macros into comprehensions as cel-go does', () => {
    const p = parseCel('self.items.exists(x, x > 1)');
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    const c = p.parsed.expr;
    expect(c.kind).toBe('comprehension');
    if (c.kind !== 'comprehension') return;
    expect(c.accuVar).toBe(ACCU_VAR);
    expect(c.iterVar).toBe('x');
    expect(c.loopCondition.kind === 'call' && c.loopCondition.fn).toBe('@not_strictly_false');
    expect(c.loopStep.kind === 'call' && c.loopStep.fn).toBe('_||_');
  });
});

describe('schema declared types', () => {
  it('escapes property names as cel.Escape does', () => {
    expect(escapeProperty('namespace')).toBe('__namespace__');
    expect(escapeProperty('a.b-c/d')).toBe('a__dot__b__dash__c__slash__d');
    expect(escapeProperty('a__b')).toBe('a__underscores__b');
    expect(escapeProperty('1a')).toBeUndefined();
    expect(escapeProperty('a b')).toBeUndefined();
  });
  it('computes sizes and the resource-root meta as SchemaDeclType does', () => {
    const s = buildStructural({
      type: 'object',
      properties: {
        spec: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 10 }, list: { type: 'array', items: { type: 'string' } } } },
      },
    });
    const d = schemaDeclType(s, true, 36)!;
    expect([...d.fields!.keys()].sort()).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    const spec = d.fields!.get('spec')!.type;
    expect(spec.minSerializedSize).toBe(2 + 4 + 2 + 4);
    expect(spec.fields!.get('name')!.type.maxElements).toBe(40);
    expect(spec.fields!.get('list')!.type.maxElements).toBe(Math.trunc((3 * 1024 * 1024 - 2) / 3));
    expect(formatType(celTypeOf(spec, 'selfType0.spec').fields!.get('list')!)).toBe('list(string)');
  });
});

describe('compileExpression (upstream TestCelCompilation, optional transition rules)', () => {
  const verdict = (schema: Record<string, unknown>, rule: string) => {
    const decl = schemaDeclType(buildStructural(schema), false, 36)!;
    return compileExpression(rule, decl, { compat: 35, server: 36, optionalOldSelf: true, literals: undefined }, 'bool');
  };
  const ok = (v: ReturnType<typeof verdict>) => v.kind === 'ok' && v.usesOldSelf;
  const err = (v: ReturnType<typeof verdict>, part: string) => v.kind === 'error' && v.detail.includes(part);
  it('optional primitive transition rule type checking', () => {
    const s = { type: 'integer' };
    expect(ok(verdict(s, 'self >= oldSelf.value()'))).toBe(true);
    expect(ok(verdict(s, 'self >= oldSelf.orValue(1)'))).toBe(true);
    expect(ok(verdict(s, 'oldSelf.hasValue() ? self >= oldSelf.value() : true'))).toBe(true);
    expect(err(verdict(s, 'self >= oldSelf'), 'optional')).toBe(true);
    expect(err(verdict(s, "self >= oldSelf.orValue('')"), 'orValue')).toBe(true);
  });
  it('optional complex transition rule type checking', () => {
    const leaf = { i: { type: 'integer' }, b: { type: 'boolean' }, s: { type: 'string' }, a: { type: 'array', items: { type: 'integer' } } };
    const s = { type: 'object', properties: { ...leaf, o: { type: 'object', properties: { ...leaf, o: { type: 'object' } } } } };
    for (const r of [
      'self.i >= oldSelf.i.value()',
      'self.s == oldSelf.s.value()',
      'self.b == oldSelf.b.value()',
      'self.o == oldSelf.o.value()',
      'self.o.i >= oldSelf.o.i.value()',
      'self.o.s == oldSelf.o.s.value()',
      'self.o.b == oldSelf.o.b.value()',
      'self.o.o == oldSelf.o.o.value()',
      'self.o.i >= oldSelf.o.i.orValue(1)',
      'oldSelf.hasValue() ? self.o.i >= oldSelf.o.i.value() : true',
    ])
      expect(ok(verdict(s, r)), r).toBe(true);
    expect(err(verdict(s, 'self.o.i >= oldSelf.o.i'), 'optional')).toBe(true);
    expect(err(verdict(s, 'self.o.i >= oldSelf.o.s.orValue(0)'), 'orValue')).toBe(true);
  });
});

describe('compileIdentity (verdicts shared between compatibility versions)', () => {
  const texts = [
    'self.replicas > 1',
    "self.name.startsWith('a')",
    'self.items.includes(1)',
    "isIP('1.2.3.4')",
    'self.items.exists(i, v, v > i)',
    "self.?name.orValue('')",
    'self.items.sortBy(x, x).size() > 0',
    "quantity('1Gi').isGreaterThan(quantity('1'))",
    'self.namespace == "x"',
    "duration('1x') > duration('1s')",
    "'%s'.format(['a'])",
    "self.name.matches('[')",
    'self.replicas == ',
  ];
  const envs = [36, 37].flatMap((server) => [28, 29, 30, 31, 32, 33, 34, 35, 36, 37, Infinity].filter((c) => c <= server || c === Infinity).map((compat) => ({ compat, server })));
  const literals = { duration: () => false, timestamp: () => true, regex: () => false };
  const outcome = (text: string, e: { compat: number; server: number }) => {
    const o = compileCel(text, { ...env, ...e }, literals);
    if (o.syntaxError) return `syntax: ${o.syntaxError.message}`;
    return `${o.undecided}|${formatIssues(o.parsed!.source, o.issues)}|${o.checked ? formatType(o.checked.type) : ''}`;
  };
  it('is equal only where the compile outcome is equal', () => {
    let shared = 0;
    for (const text of texts)
      for (const a of envs)
        for (const b of envs) {
          if (compileIdentity(text, a.compat, a.server) !== compileIdentity(text, b.compat, b.server)) continue;
          if (a !== b) shared++;
          expect(outcome(text, b), `${text} at ${a.compat}/${a.server} and ${b.compat}/${b.server}`).toBe(outcome(text, a));
        }
    expect(shared).toBeGreaterThan(texts.length * 10);
  });
  it("reads each name's overloads as functionsFor declares them", () => {
    for (const { compat, server } of envs) {
      const table = functionsFor(compat, server);
      for (const name of new Set([...functionsFor(Infinity, 37).keys(), 'nosuch']))
        expect(overloadIdsFor(name, compat, server), `${name} at ${compat}/${server}`).toBe(table.get(name)?.overloads.map((o) => o.id).join(',') ?? '');
    }
  });
  it('looks up by name the declarations functionsFor declares', () => {
    for (const { compat, server } of envs) {
      const lookup = functionLookup(compat, server);
      const table = functionsFor(compat, server);
      for (const name of new Set([...functionsFor(Infinity, 37).keys(), 'nosuch'])) expect(lookup.get(name), `${name} at ${compat}/${server}`).toEqual(table.get(name));
    }
  });
  it('shares n−1 and n on a 1.37 server unless the text calls what only one declares', () => {
    expect(compileIdentity('self.replicas > 1', 36, 37)).toBe(compileIdentity('self.replicas > 1', 37, 37));
    expect(compileIdentity('self.items.includes(1)', 36, 37)).not.toBe(compileIdentity('self.items.includes(1)', 37, 37));
    expect(outcome('self.items.includes(1)', { compat: 36, server: 37 })).not.toBe(outcome('self.items.includes(1)', { compat: 37, server: 37 }));
    expect(compileIdentity('self.replicas > 1', 36, 36)).not.toBe(compileIdentity('self.replicas > 1', 36, 37));
  });
});
