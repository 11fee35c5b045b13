import { describe, expect, it } from 'vitest';
import { compileCel, type CheckEnv } from '../../../src/schema/cel/check.js';
import { compileExpression, GO_LITERAL_CHECKS } from '../../../src/schema/cel/compile.js';
import { schemaDeclType } from '../../../src/schema/cel/decl.js';
import { programVerdict } from '../../../src/schema/cel/fold.js';
import { buildStructural } from '../../../src/crd/structural-schema.js';
import { BYTES, INT, STRING, listOf, struct } from '../../../src/schema/cel/types.js';

const self = struct('selfType0', new Map([['n', INT], ['s', STRING], ['b', BYTES], ['items', listOf(INT)]]));
const env: CheckEnv = { compat: 36, server: 37, variables: new Map([['self', self], ['oldSelf', self]]) };

/** What Program() says of a rule that type-checks: 'ok', the error text, or 'unchecked'. */
function program(rule: string): string {
  const o = compileCel(rule, env, GO_LITERAL_CHECKS);
  expect(o.issues).toEqual([]);
  const v = programVerdict(o.parsed!.expr, o.checked!);
  return v.kind === 'ok' ? 'ok' : v.kind === 'error' ? v.error : 'unchecked';
}

describe('constant folding at program instantiation (cel-go decOptimize)', () => {
  it('fails on a constant conversion that errors, with cel-go texts', () => {
    expect(program("string(b'\\xff') == 'a'")).toBe('invalid UTF-8 in bytes, cannot convert to string');
    expect(program("int('abc') == 1")).toBe("type conversion error from 'string' to 'int'");
    expect(program("int('9223372036854775808') == 1")).toBe("type conversion error from 'string' to 'int'");
    expect(program("uint('+1') == 1u")).toBe("type conversion error from 'string' to 'uint'");
    expect(program("double('x') > 1.0")).toBe("type conversion error from 'string' to 'double'");
    expect(program("double('1e400') > 1.0")).toBe("type conversion error from 'string' to 'double'");
    expect(program("bool('yes')")).toBe("type conversion error from 'string' to 'bool'");
    expect(program('int(1e20) > 0')).toBe('integer overflow');
    expect(program('int(-9223372036854775808.0) < 0')).toBe('integer overflow');
    expect(program('uint(-1) == 1u')).toBe('unsigned integer overflow');
    expect(program('uint(-0.5) == 0u')).toBe('unsigned integer overflow');
    expect(program('int(18446744073709551615u) > 0')).toBe('integer overflow');
    expect(program("duration(string(1)) > duration('1s')")).toBe("type conversion error from 'string' to 'google.protobuf.Duration'");
    expect(program("timestamp(string(1)) > timestamp('2020-01-01T00:00:00Z')")).toBe("type conversion error from 'string' to 'google.protobuf.Timestamp'");
    expect(program("timestamp(int(253402300800u)) > timestamp('2020-01-01T00:00:00Z')")).toBe('timestamp overflow');
  });
  it('makes a qualifier of a constant index, and fails on one of a type no qualifier takes', () => {
    expect(program("self.items[dyn({'a': 1})] == 1")).toBe('invalid qualifier type: *types.baseMap');
    expect(program("{'a': 1}[dyn([1])] == 1")).toBe('invalid qualifier type: *types.baseList');
    expect(program('self.items[dyn(null)] == 1')).toBe('invalid qualifier type: types.Null');
    expect(program("self.items[dyn(b'a')] == 1")).toBe('invalid qualifier type: types.Bytes');
    expect(program("self.items[dyn(duration('1s'))] == 1")).toBe('invalid qualifier type: types.Duration');
    expect(program('self.items[dyn(int)] == 1')).toBe('invalid qualifier type: *types.Type');
    // not constants: a list of a field, an operator
    expect(program('self.items[dyn([self.n])] == 1')).toBe('ok');
    expect(program('self.items[dyn(1 + 1)] == 1')).toBe('ok');
    expect(program("self.items[dyn(int('1'))] == 1")).toBe('ok');
  });
  it('folds bottom-up: nested calls, list and map literals, every node in planning order', () => {
    expect(program('int(string(1.5)) == 1')).toBe("type conversion error from 'string' to 'int'");
    expect(program('int(string(100000.0)) == 100000')).toBe('ok');
    // Go's %g: 1e+06
    expect(program('int(string(1000000.0)) == 1000000')).toBe("type conversion error from 'string' to 'int'");
    expect(program("self.n in [1, int('x')]")).toBe("type conversion error from 'string' to 'int'");
    expect(program("{'a': uint(-2)}['a'] == 1u")).toBe('unsigned integer overflow');
    expect(program("self.n > 0 ? true : int('x') == 1")).toBe("type conversion error from 'string' to 'int'");
    expect(program("self.items.all(i, i != int('q'))")).toBe("type conversion error from 'string' to 'int'");
    expect(program("int(dyn('abc')) == 1")).toBe("type conversion error from 'string' to 'int'");
    expect(program("int('a') == 1 || uint(-1) == 1u")).toBe("type conversion error from 'string' to 'int'");
  });
  it('leaves non-constant arguments alone', () => {
    expect(program("int(self.s) == 1 && string(self.b) != ''")).toBe('ok');
    // unary minus is a call, not a constant
    expect(program('int(-(1e20)) > 0')).toBe('ok');
    expect(program("int('-42') == -42 && bool('T') && double('-Inf') < 0.0 && double('1e-400') == 0.0")).toBe('ok');
  });
  it('parses a constant string as Go\'s strconv does (src/go/strconv.ts)', () => {
    expect(program("double('0x1p-2') > 0.0 && double('1_0.5') == 10.5")).toBe('ok');
    expect(program("double('0x10') > 0.0")).toBe("type conversion error from 'string' to 'double'");
    expect(program("double('1e400') > 0.0")).toBe("type conversion error from 'string' to 'double'");
    expect(program("int('') == 0")).toBe("type conversion error from 'string' to 'int'");
    expect(program("uint('+1') == 1u")).toBe("type conversion error from 'string' to 'uint'");
  });
  it('reports what it cannot model as unchecked', () => {
    expect(program('bool(dyn(1))')).toBe('unchecked');
  });
});

describe('compileExpression: program instantiation verdicts', () => {
  const decl = schemaDeclType(buildStructural({ type: 'object', properties: { n: { type: 'integer' } } }), false, 37)!;
  const o = { compat: 36, server: 37, optionalOldSelf: false, literals: GO_LITERAL_CHECKS };
  it('prefixes the rule and messageExpression texts as compilation.go does', () => {
    expect(compileExpression("int('x') == 1", decl, o, 'bool')).toEqual({ kind: 'error', detail: "program instantiation failed: type conversion error from 'string' to 'int'", program: true, usesOldSelf: false });
    expect(compileExpression("string(int('x'))", decl, o, 'string')).toEqual({ kind: 'error', detail: "messageExpression instantiation failed: type conversion error from 'string' to 'int'", program: true, usesOldSelf: false });
    expect(compileExpression("string(int('12'))", decl, o, 'string').kind).toBe('ok');
  });
  it('a program that fails to instantiate still says whether it reads oldSelf (compileRule sets UsesOldSelf first)', () => {
    const v = compileExpression("oldSelf.value().n == int('x')", decl, { ...o, optionalOldSelf: true }, 'bool');
    expect(v).toEqual({ kind: 'error', detail: "program instantiation failed: type conversion error from 'string' to 'int'", program: true, usesOldSelf: true });
  });
  it('the literal validator reports timestamp(<int literal>) out of range at compile time', () => {
    const v = compileExpression('timestamp(253402300800) > timestamp(0)', decl, o, 'bool');
    expect(v.kind === 'error' && v.detail.startsWith('compilation failed: ERROR: <input>:1:11: invalid timestamp argument')).toBe(true);
  });
});
