/**
 * The evaluation environment: cel-js with the Kubernetes and cel-go extension libraries crdx
 * reproduces (lib/*), plus the functions the rewritten rule text calls (rewrite.ts, values.ts).
 * One environment per engine; rules are compiled once per schema node (cel-eval.ts).
 */
import type { CelModule } from '../../core/cel-engine.js';
import { parseDuration } from '../../go/duration.js';
import { formatFloat } from '../../go/float.js';
import { utf8Text } from '../../go/strings.js';
import { parseBool, parseFloat64, parseInt10, parseUint10 } from '../../go/strconv.js';
import { parseTimeRFC3339 } from '../../go/time.js';
import { celAdd, celEqual, celIn, EqualError, equalFails, crossNumericCompare, doubleFitsInt, doubleFitsUint, isAdapterList, isBound, keepMapOrder, NullField, positional, RawValue, UnknownField } from './values.js';
import { CelGoError, CelGoPanic, CelUnsupported, isCelErrorValue, LISTER_PANIC, makeOps, noOverload, type CelOps } from './lib/ops.js';
import { registerLists, registerListsExt } from './lib/lists.js';
import { registerQuantity } from './lib/quantity.js';
import { registerRegex } from './lib/regex.js';
import { registerComprehensions, registerOptMap, registerSortBy } from './lib/comprehensions.js';
import { registerIP } from './lib/ip.js';
import { registerCIDR } from './lib/cidr.js';
import { registerSemver } from './lib/semver.js';
import { registerFormat } from './lib/format.js';
import { durationText, registerStrings, timestampText } from './lib/strings.js';
import { goTypeName, goValueType, isDuration, isPlainObject, isUint, mayBeNonStringKey, registerCelClasses } from './lib/classes.js';
import { adoptTimestamp, inTimestampRange, makeTimestamp, msOf, nanosOf, subMillisecondNanos, patchTimestampArithmetic, registerTime, timestampOfText } from './lib/time.js';
import { registerURL } from './lib/url.js';
import type { LibEnv } from './lib/types.js';
import { runtime } from './lib/runtime.js';
import { BoundError, boundFieldKey, type Makers } from './bind.js';

export type Program = (ctx: Record<string, unknown>) => unknown;
export interface EvalEnv {
  parse(e: string): Program & { ast?: unknown };
}

export interface CelEnvs {
  /** Plain cel-js (the rule text as written: parsing, sub-expressions for error texts). */
  readonly plain: EvalEnv;
  /** With the libraries and the rewrite functions (rewritten rule texts). */
  readonly libs: EvalEnv;
  readonly ops: CelOps;
  readonly makers: Makers;
}

const OPTIONS = { enableOptionalTypes: true, unlistedVariablesAreDyn: true };
/** The server type-checked the rule (homogeneous literals included); here values are dyn, so cel-js must not refuse `[self.l, [1]]`. */
const LIB_OPTIONS = { ...OPTIONS, homogeneousAggregateLiterals: false };

interface EvalNode {
  readonly op: string;
  readonly args: unknown;
  readonly receiverWithArgs?: readonly EvalNode[];
  readonly meta: { readonly alternate?: unknown; readonly macro?: unknown };
  handle(...a: unknown[]): unknown;
  evaluate(ev: Evaluator, ast: EvalNode, ctx: unknown): unknown;
}
interface Evaluator {
  run(ast: EvalNode, ctx: unknown): unknown;
}

/**
 * Each node in order, as cel-go evaluates a call's receiver and arguments (`call`) and a list's
 * elements: a list stops at its first failing element, a binary call runs its second operand too.
 */
function inOrder(ev: Evaluator, nodes: readonly EvalNode[], ctx: unknown, call = true): unknown {
  const out = new Array<unknown>(nodes.length);
  let pending = false;
  for (let i = 0; i < nodes.length; i++) {
    try {
      if ((out[i] = ev.run(nodes[i]!, ctx)) instanceof Promise) pending = true;
    } catch (e) {
      // cel-go's evalBinary evaluates both operands before it looks at either (evalVarArgs and
      // lists stop at the first error): the second still runs, costed, and a panic there (a cost
      // tracker's) or the cost limit wins over the first operand's error
      if (call && i === 0 && nodes.length === 2 && isCelErrorValue(e)) {
        try {
          ev.run(nodes[1]!, ctx);
        } catch (e2) {
          if (!isCelErrorValue(e2) && !(e2 instanceof CelUnsupported)) throw e2;
        }
      }
      throw e;
    }
  }
  return pending ? Promise.all(out) : out;
}

/** The iterable of a comprehension: runtime.mapIterated when it is a map of several entries. */
function watchIterable(node: EvalNode, first: (this: EvalNode, ev: Evaluator, ast: EvalNode, ctx: unknown) => unknown): void {
  const own = node as { evaluate: EvalNode['evaluate']; watched?: true };
  if (own.watched) return;
  own.watched = true;
  const watch: EvalNode['evaluate'] = function (this: EvalNode, ev, ast, ctx) {
    // cel-js's node caches its evaluation function on itself at the first call, also when that
    // call throws (a missing field): keep this one in either case
    let r: unknown;
    try {
      r = first.call(node, ev, ast, ctx);
    } finally {
      own.evaluate = watch;
    }
    // cel-go's fold (interpreter evalFold): a range that is no list or map is an error by its Go
    // type, where cel-js would range over bytes, or fail as no CEL error
    const t = goValueType(r);
    if (t !== undefined) throw new CelGoError(`got '${t}', expected iterable type`);
    const n = r instanceof Map ? r.size : r !== null && typeof r === 'object' && !Array.isArray(r) && !(r instanceof Promise) ? Object.keys(r).length : 0;
    if (n > 1) runtime.mapIterated = true;
    return r;
  };
  own.evaluate = watch;
}

let tryEvalPatched = false;
/**
 * cel-js's comprehensions (all, exists) evaluate each step with the evaluator's tryEval, which turns
 * any exception into an error value the loop may absorb; a panic (CelGoPanic) is none: it is
 * thrown on, as cel-go's evaluation ends at it.
 */
function patchTryEval(ev: Evaluator): void {
  tryEvalPatched = true;
  patchIndexText(ev);
  const proto = Object.getPrototypeOf(ev) as { tryEval?: (ast: unknown, ctx: unknown) => unknown };
  const first = proto.tryEval;
  if (typeof first !== 'function') throw new Error('cel-js: no tryEval on its evaluator');
  proto.tryEval = function (this: unknown, ast: unknown, ctx: unknown) {
    const r = first.call(this, ast, ctx);
    if (r instanceof CelGoPanic) throw r;
    if (r instanceof Error) runtime.elementErrors.add(r.message);
    return r;
  };
}

/**
 * cel-js words an index past a list's end with the index as a double (`index 9223372036854775808`
 * for 9223372036854775807); cel-go prints the int64. The type declarations' `field` (which every
 * `l[i]` goes through) gets the index as written: the text is corrected with it.
 */
function patchIndexText(ev: Evaluator): void {
  const list = (ev as unknown as { listType?: object }).listType;
  const proto = list === undefined ? undefined : (Object.getPrototypeOf(list) as { field?: (obj: unknown, key: unknown, ast: unknown, ev: unknown) => unknown });
  const first = proto?.field;
  if (proto === undefined || typeof first !== 'function') throw new Error('cel-js: no field on its type declarations');
  const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
  proto.field = function (this: unknown, obj, key, ast, e) {
    // a uint within the list: its element (cel-js takes no uint index)
    if (Array.isArray(obj) && typeof key !== 'bigint' && listIndexCheck(obj, key)) {
      positional(obj, 'an index');
      return obj[Number((key as { valueOf(): bigint }).valueOf())];
    }
    let r: unknown;
    try {
      r = first.call(this, obj, key, ast, e);
    } catch (err) {
      if (typeof key === 'bigint' && (key > SAFE || key < -SAFE) && err instanceof Error && err.message.startsWith('No such key: index out of bounds, index '))
        err.message = err.message.replace(/^(No such key: index out of bounds, index )-?[\d.e+]+/, `$1${key}`);
      throw err;
    }
    // (an index out of bounds is so in any order)
    positional(obj, 'an index');
    return r;
  };
}

/**
 * A list indexed by a dyn value that is no int, as cel-go's refQualify answers it: what
 * types.IndexOrError refuses (`unsupported index type 'string' in list`, `unsupported index value
 * 1.5 in list`); a double or uint it takes, within the list, is then refused by the apiserver's
 * list of the resource's data (unstructuredList.Get: `unsupported index: 1`, an int or nothing)
 * and taken by a list CEL made. Other cases are cel-js's. True for a uint index cel-js would not
 * take and cel-go does: within a list CEL made.
 */
function listIndexCheck(list: unknown[], key: unknown): boolean {
  let n: number | bigint | undefined;
  if (typeof key === 'number') {
    // doubleToInt64Lossless
    if (!Number.isInteger(key) || key >= 2 ** 63 || key < -(2 ** 63)) throw new CelGoError(`unsupported index value ${formatFloat(key, 'g')} in list`);
    n = key;
  } else if (isUint(key)) {
    const u = key.valueOf();
    if (u >= 1n << 63n) throw new CelGoError(`unsupported index value ${u} in list`);
    n = u;
  } else {
    // a string or a bool (other values are no qualifier: qualifierError)
    const q = qualifierError(key);
    if (q !== undefined) throw q;
    const t = goTypeName(key);
    if (t === undefined) throw new CelUnsupported('a list indexed by a value of this type');
    throw new CelGoError(`unsupported index type '${t}' in list`);
  }
  if (n >= 0 && n < list.length) {
    if (isAdapterList(list)) throw new CelGoError(`unsupported index: ${typeof key === 'number' ? formatFloat(key, 'g') : String(n)}`);
    return typeof n === 'bigint';
  }
  // refQualify's missingIndex (a double past the end cel-js words itself)
  if (typeof n === 'bigint') throw new CelGoError(`index out of bounds: ${n}`);
  return false;
}

/**
 * cel-go's newQualifier of an index value that is no string, int, uint, bool or double: `invalid
 * qualifier type: %T` (its Go type); undefined for the others, and a CelUnsupported where crdx
 * does not know the Go type (lists, CEL's own maps, library values).
 */
function qualifierError(k: unknown): Error | undefined {
  if (typeof k === 'string' || typeof k === 'bigint' || typeof k === 'number' || typeof k === 'boolean' || isUint(k) || k instanceof Promise) return undefined;
  // null, bytes, durations, timestamps, types by their Go types; the resource's maps and objects are the apiserver's
  const t = goValueType(k) ?? (k instanceof Map && isBound(k) ? '*common.unstructuredMap' : undefined);
  return t === undefined ? new CelUnsupported('an index of a value of this type') : new CelGoError(`invalid qualifier type: ${t}`);
}

let argumentOrderPatched = false;
/**
 * cel-js evaluates a call's arguments (a method's receiver too) and a list literal's elements from
 * the last to the first, so of two failing arguments it reports the right one; cel-go evaluates
 * them from the first and answers the first error (interpreter evalVarArgs / evalBinary). Every
 * operator crdx routes to a function of its own (rewrite.ts) is such a call. The evaluation of
 * those nodes is replaced on cel-js's AST node class (`node`: any parsed node) by one in order.
 */
function patchArgumentOrder(node: unknown): void {
  if (argumentOrderPatched) return;
  const proto = Object.getPrototypeOf(node) as { evaluate(this: EvalNode, ev: Evaluator, ast: EvalNode, ctx: unknown): unknown };
  const first = proto.evaluate;
  if (typeof first !== 'function') throw new Error('cel-js: no evaluate on its AST nodes');
  argumentOrderPatched = true;
  proto.evaluate = function (this: EvalNode, ev, ast, ctx) {
    if (!tryEvalPatched) patchTryEval(ev);
    const m = this.meta;
    const own = m.alternate === undefined && m.macro === undefined ? inOrderEvaluation(this) : undefined;
    if (own === undefined) return first.call(this, ev, ast, ctx);
    // cached on the node, as cel-js caches its own
    (this as { evaluate: EvalNode['evaluate'] }).evaluate = own;
    return own(ev, ast, ctx);
  };
  /** The node's evaluation in cel-go's order, where cel-js's own differs (undefined: cel-js's). */
  function inOrderEvaluation(n: EvalNode): EvalNode['evaluate'] | undefined {
    if (n.op === 'comprehension') {
      const f = n.args as Partial<FoldArgs>;
      if (f.iterable !== undefined) watchIterable(f.iterable, proto.evaluate);
      return f.errorsAreFatal === true && f.condition === undefined ? foldLikeCelGo : undefined;
    }
    // the apiserver's map of the resource's data finds string keys only (unstructuredMap.Find:
    // MaybeNoSuchOverloadErr of any other key); cel-js indexes Maps itself (fieldAccess)
    if (n.op === '[]')
      return (e, a, c) => {
        const b = a as unknown as { left: EvalNode; right: EvalNode; handle(l: unknown, r: unknown, ast: unknown, ev: unknown): unknown };
        const l = e.run(b.left, c);
        const r = e.run(b.right, c);
        // attrQualify makes a qualifier of the index first (newQualifier): of a string, int, uint,
        // bool or double only
        const q = qualifierError(r);
        if (q !== undefined) throw q;
        if (l instanceof Map && typeof r !== 'string' && !(r instanceof Promise) && isBound(l)) throw new CelGoError('no such overload');
        return b.handle(l, r, a, e);
      };
    if (!Array.isArray(n.args)) return undefined;
    if (n.op === 'call') return (e, a, c) => a.handle(inOrder(e, (a.args as EvalNode[][])[1]!, c), a, e);
    if (n.op === 'list') return (e, a, c) => inOrder(e, a.args as EvalNode[], c, false);
    if (n.op === 'rcall' && n.receiverWithArgs !== undefined) return (e, a, c) => a.handle(inOrder(e, a.receiverWithArgs!, c), e, a);
    return undefined;
  }
}

/** A comprehension node's arguments (cel-js operators.js `comprehension`, made by macros.js). */
interface FoldArgs {
  readonly iterable: EvalNode;
  readonly init: EvalNode;
  readonly step: EvalNode;
  readonly condition?: (accu: unknown) => boolean;
  readonly result: (accu: unknown) => unknown;
  readonly errorsAreFatal?: boolean;
  readonly iterCtx: { reuse(parent: unknown): FoldCtx };
}
interface FoldCtx {
  accuValue: unknown;
  setIterValue(v: unknown, ev: Evaluator): unknown;
}

/**
 * cel-js's map, filter and exists_one (one variable) as cel-go runs their expansions. cel-js ends
 * them at the first error; cel-go's loops (condition `true`) run every element, and the step
 * `p ? accu + … : accu` makes the accumulator the error of each failing predicate: of several, the
 * last is reported. A failing transform (`accu + [f(x)]`) makes it an error only when it is none
 * yet (`_+_` answers its first failing operand). A predicate that is no bool is cel-go's
 * conditional's `no such overload`. The rest of the loop still runs, costed as it runs.
 */
function foldLikeCelGo(this: EvalNode, ev: Evaluator, a: EvalNode, cx: unknown): unknown {
  const f = a.args as FoldArgs;
  const coll = ev.run(f.iterable, cx);
  // a map literal (cel-js's plain object): its keys, unless one may have been an int or a bool
  const literalKeys = isPlainObject(coll) ? Object.keys(coll) : undefined;
  const items = Array.isArray(coll) ? coll : coll instanceof Map ? [...coll.keys()] : literalKeys !== undefined && !literalKeys.some(mayBeNonStringKey) ? literalKeys : undefined;
  // anything else (a set, an object, a promise): cel-js's own loop and errors
  if (items === undefined) return keepMapOrder(coll, a.handle(coll, f, ev, cx));
  const ctx = f.iterCtx.reuse(cx);
  ctx.accuValue = ev.run(f.init, ctx);
  const step = f.step;
  const [predicate, push] = step.op === '?:' ? (step.args as EvalNode[]) : [undefined, step];
  let err: Error | undefined;
  for (const item of items) {
    const c = ctx.setIterValue(item, ev);
    if (predicate !== undefined) {
      let p: unknown;
      try {
        p = ev.run(predicate, c);
      } catch (e) {
        if (!isCelErrorValue(e)) throw e;
        runtime.elementErrors.add(e.message);
        err = e;
        continue;
      }
      if (typeof p !== 'boolean') {
        err = new CelGoError('no such overload');
        continue;
      }
      if (!p) continue;
    }
    try {
      ev.run(push!, c);
    } catch (e) {
      if (!isCelErrorValue(e)) throw e;
      runtime.elementErrors.add(e.message);
      err ??= e;
    }
  }
  if (err !== undefined) throw err;
  return keepMapOrder(coll, f.result(ctx.accuValue));
}

/**
 * What a failing list argument of the call numbered `k` (runtime.panicking) raises: the panic of
 * cel-go's cost tracker where the server runs one for the call, else the error itself. Only CEL
 * errors (cel-js's and crdx's own with cel-go's text) fail the call; what crdx does not reproduce
 * (CelUnsupported, the cost limit) stays what it is.
 */
function listerError(e: unknown, k: number): unknown {
  if (!isCelErrorValue(e)) return e;
  const p = runtime.panicking;
  if (p === undefined) return e;
  if (p === 'unknown') return new CelUnsupported("a failing list given to sort(), distinct() or sortBy(), where the server's cost tracker panics or not by the list's type, which crdx could not tell here");
  return p.panics.has(k) ? new CelGoPanic(LISTER_PANIC) : e;
}

/** cel-go's error for a string its conversion cannot parse (types.String.ConvertToType). */
function conversionError(to: 'int' | 'uint' | 'double' | 'bool'): never {
  throw new CelGoError(`type conversion error from 'string' to '${to}'`);
}

export function makeEnvs(m: CelModule): CelEnvs {
  const plainEnv = new m.Environment(OPTIONS);
  // the macros must parse in both (the plain environment parses the rule as written)
  registerComprehensions(plainEnv as unknown as LibEnv);
  registerOptionalEntries(plainEnv as unknown as LibEnv, m.Optional);
  registerOptionalLists(plainEnv as unknown as LibEnv, m.Optional);
  const plain = plainEnv as unknown as EvalEnv;
  const ops = makeOps((e) => plain.parse(e));
  // cel-js does not export its Duration class from the package entry: take it from a value
  const Duration = (plain.parse('duration("0s")')({}) as { constructor: new (s: bigint, n: number) => unknown }).constructor;
  // the classes of cel-js's values, known by what they are (their names do not survive bundling)
  registerCelClasses({ duration: plain.parse('duration("0s")')({}) as object, uint: plain.parse('1u')({}) as object, type: plain.parse('type(1)')({}) as object });
  patchTimestampArithmetic(Duration as unknown as { prototype: object });
  patchArgumentOrder(plain.parse('1').ast);
  const makers: Makers = { duration: (sec, nanos) => new Duration(sec, nanos) };
  const env = new m.Environment(LIB_OPTIONS);
  // the classes of field values bind.ts makes, as types cel-js knows: a map holding one (cel-js types
  // a map by its first entry) can then be passed to a function. BoundError: a field the server binds
  // as an error (reading it fails with the server's error); NullField: a null field (unreachable by
  // name, counted by equality); RawValue, UnknownField: fields bound for equality only (values.ts)
  for (const [name, ctor] of [['BoundError', BoundError], ['NullField', NullField], ['RawValue', RawValue], ['UnknownField', UnknownField]] as const)
    (env as unknown as { registerType(n: string, c: unknown): void }).registerType(`crdx.${name}`, ctor);
  const lib = env as unknown as LibEnv;
  lib.registerFunction('__crdx_dyn(dyn): dyn', (x: unknown) => x);
  // type() of an optional (cel-js declares none): cel-go's optional_type, equal to no other type
  const TypeCtor = (plain.parse('type(1)')({}) as { constructor: new (name: string) => unknown }).constructor;
  const OPTIONAL_TYPE = new TypeCtor('optional_type');
  lib.registerFunction('type(optional<dyn>): type', () => OPTIONAL_TYPE);
  lib.registerFunction('__crdx_eq(dyn, dyn): bool', (a: unknown, b: unknown) => {
    // the apiserver's list and map adapters (cel/common/values.go) answer Equal with a value of
    // another kind by MaybeNoSuchOverloadErr; cel-go's Equal settles null first, and `!=` takes any
    // error for unequal
    if (equalFails(a, b)) throw new CelGoError('no such overload');
    // (lists of different sizes differ in any order)
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) (positional(a, '=='), positional(b, '=='));
    return celEqual(a, b, ops.eq);
  });
  lib.registerFunction('__crdx_ne(dyn, dyn): bool', (a: unknown, b: unknown) => {
    if (equalFails(a, b)) return true;
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) (positional(a, '!='), positional(b, '!='));
    try {
      return !celEqual(a, b, ops.eq);
    } catch (e) {
      // `!=` is `Equal != True`: an error of Equal is unequal
      if (e instanceof EqualError) return true;
      throw e;
    }
  });
  lib.registerFunction('__crdx_add(dyn, dyn): dyn', (a: unknown, b: unknown) => celAdd(a, b, ops.add));
  lib.registerFunction('__crdx_in(dyn, dyn): bool', (a: unknown, b: unknown) => celIn(a, b, ops.inOp, ops.eq));
  lib.registerFunction('__crdx_has(dyn, string): bool', (x: unknown, f: string) => {
    // objects and maps bound from the data are Maps; a map literal is a Map too
    if (x instanceof Map) {
      const k = boundFieldKey(x, f);
      return k !== undefined && x.has(k) && x.get(k) !== undefined;
    }
    throw new CelUnsupported('has() on a value that is not an object or a map');
  });
  // a reserved word as a field name (`self.package`): cel-js looks the key up as written, the server
  // unescapes it first (rewrite.ts routes such selections here)
  lib.registerFunction('__crdx_sel(dyn, string): dyn', (x: unknown, f: string) => {
    if (!(x instanceof Map)) throw new CelUnsupported(`.${f} on a value that is not an object or a map`);
    const k = boundFieldKey(x, f);
    if (k === undefined || !x.has(k) || x.get(k) === undefined) throw new CelGoError(`no such key: ${f}`);
    return x.get(k);
  });
  // int(double), uint(double) with cel-go's range checks (doubleToInt64Checked, doubleToUint64Checked);
  // int(string), uint(string) with Go's strconv.ParseInt / ParseUint (cel-js takes '' as 0, and 0b101)
  lib.registerFunction('__crdx_int(dyn): int', (x: unknown) => {
    if (typeof x === 'number' && !doubleFitsInt(x)) throw new CelGoError('integer overflow');
    if (typeof x === 'string') return parseInt10(x) ?? conversionError('int');
    // a timestamp's Unix seconds (Time.Unix), a duration's nanoseconds (cel-js has neither)
    if (x instanceof Date) {
      const ns = nanosOf(adoptTimestamp(x));
      return ns / 1_000_000_000n - (ns % 1_000_000_000n < 0n ? 1n : 0n);
    }
    if (isDuration(x)) return x.seconds * 1_000_000_000n + BigInt(x.nanos);
    // int(uint): Uint.ConvertToType's range check
    if (isUint(x)) {
      if (x.valueOf() >= 1n << 63n) throw new CelGoError('integer overflow');
      return x.valueOf();
    }
    return ops.int(x);
  });
  lib.registerFunction('__crdx_uint(dyn): uint', (x: unknown) => {
    if (typeof x === 'number' && !doubleFitsUint(x)) throw new CelGoError('unsigned integer overflow');
    // uint(int) of a negative int: Int.ConvertToType's range check
    if (typeof x === 'bigint' && x < 0n) throw new CelGoError('unsigned integer overflow');
    if (typeof x === 'string') {
      const n = parseUint10(x);
      return n === undefined ? conversionError('uint') : ops.uint(n);
    }
    return ops.uint(x);
  });
  // double(string), bool(string): the argument parsed as Go's strconv.ParseFloat / ParseBool do
  // (cel-js takes '1e400' as +Inf and '0x10' as 16, and refuses 'T'); the conversion stays the engine's
  lib.registerFunction('__crdx_dblarg(dyn): dyn', (x: unknown) => (typeof x === 'string' ? (parseFloat64(x) ?? conversionError('double')) : x));
  lib.registerFunction('__crdx_boolarg(dyn): dyn', (x: unknown) => (typeof x === 'string' ? (parseBool(x) ?? conversionError('bool')) : x));
  // <, <=, >, >=: an int or uint against a double as cel-go orders them (values.ts crossNumericCompare)
  for (const [name, op, test] of [
    ['lt', ops.lt, (c: number) => c < 0],
    ['le', ops.le, (c: number) => c <= 0],
    ['gt', ops.gt, (c: number) => c > 0],
    ['ge', ops.ge, (c: number) => c >= 0],
  ] as const) {
    lib.registerFunction(`__crdx_${name}(dyn, dyn): bool`, (a: unknown, b: unknown) => {
      // bytes are ordered as Go's bytes.Compare orders them (cel-js has no ordering of bytes)
      if (a instanceof Uint8Array && b instanceof Uint8Array) return test(Buffer.compare(a, b));
      // Double.Compare and Int/Uint.Compare of a double: a NaN is never ordered
      if (Number.isNaN(a) || (Number.isNaN(b) && (typeof a === 'number' || typeof a === 'bigint' || isUint(a)))) throw new CelGoError('NaN values cannot be ordered');
      const c = crossNumericCompare(a, b);
      return c === undefined ? op(a, b) : test(c);
    });
  }
  // string()'s argument as cel-go converts it, string() staying the engine's (with the libraries'
  // overloads): bytes of invalid UTF-8 fail (Bytes.ConvertToType; cel-js substitutes U+FFFD), and a
  // double is printed with Go's %g (Double.ConvertToType: 1.23456789e+08, 1e-07, +Inf), not JavaScript's
  lib.registerFunction('__crdx_strarg(dyn): dyn', (x: unknown) => {
    if (x instanceof Uint8Array && utf8Text(x) === undefined) throw new CelGoError('invalid UTF-8 in bytes, cannot convert to string');
    if (typeof x === 'number') return formatFloat(x, 'g');
    // a duration as seconds ("5400s", "0.1s"), a timestamp as RFC 3339 in its own zone (cel-js has
    // no string() of either)
    if (isDuration(x)) return durationText(x);
    if (x instanceof Date) {
      const t = timestampText(x);
      if (t === undefined) throw new CelUnsupported('string() of a timestamp whose zone crdx does not know');
      return t;
    }
    return x;
  });
  // -x and x / y of ints overflow in cel-go when the result leaves int64 (negateInt64Checked,
  // divideInt64Checked: only the smallest int negated); cel-js does not check: its result is checked here
  lib.registerFunction('__crdx_intok(dyn): dyn', (x: unknown) => {
    if (typeof x === 'bigint' && (x >= 1n << 63n || x < -(1n << 63n))) throw new CelGoError('integer overflow');
    return x;
  });
  lib.registerFunction('__crdx_duration(dyn): google.protobuf.Duration', (x: unknown) => {
    // duration(int) (declared until cel-go 0.29, Kubernetes 1.37) always failed: Int.ConvertToType;
    // from 1.37 an int (a dyn one: the checker refuses a typed one) meets the guards of the others
    if (typeof x === 'bigint') throw runtime.v137 ? noOverload('duration', x) : new CelGoError("type conversion error from 'int' to 'google.protobuf.Duration'");
    // duration(duration) is the identity (cel-js has no such overload)
    if (isDuration(x)) return x;
    if (typeof x !== 'string') return ops.duration(x);
    const ns = parseDuration(x);
    // cel-go's String.ConvertToType drops Go's parse error
    if (ns === undefined) throw new CelGoError("type conversion error from 'string' to 'google.protobuf.Duration'");
    return makers.duration(ns / 1_000_000_000n, Number(ns % 1_000_000_000n));
  });
  lib.registerFunction('__crdx_timestamp(dyn): google.protobuf.Timestamp', (x: unknown) => {
    // timestamp(timestamp) is the identity (cel-js has no such overload)
    if (x instanceof Date) return adoptTimestamp(x);
    // timestamp(int): Unix seconds in UTC, years 1 to 9999 (Int.ConvertToType)
    if (typeof x === 'bigint') {
      if (!inTimestampRange(x)) throw new CelGoError('timestamp overflow');
      return makeTimestamp(x * 1_000_000_000n, 0);
    }
    if (typeof x !== 'string') {
      const t = ops.timestamp(x);
      return t instanceof Date ? adoptTimestamp(t) : t;
    }
    const t = parseTimeRFC3339(x);
    // cel-go's String.ConvertToType drops Go's parse error
    if ('error' in t) throw new CelGoError("type conversion error from 'string' to 'google.protobuf.Timestamp'");
    // cel-go's range: year 1 to 9999
    if (!inTimestampRange(BigInt(t.sec))) throw new CelGoError('timestamp overflow');
    // nanoseconds and the zone the text was written in are kept (time.ts makeTimestamp)
    return timestampOfText(t.sec, t.nsec, x);
  });
  // optional.ofNonZeroValue (cel-go's traits.Zeroer): the apiserver's adapters for the resource's
  // objects and lists are not Zeroers (an empty one is optional.of); cel-go's own values (literals,
  // results of macros and functions) are
  lib.registerFunction('__crdx_optional_ofNonZeroValue(dyn): optional<dyn>', (x: unknown) => {
    const none = m.Optional.none();
    if (x === null || x === false || x === 0n || x === '' || (typeof x === 'number' && x === 0)) return none;
    if (isUint(x)) return (x as { valueOf(): bigint }).valueOf() === 0n ? none : m.Optional.of(x);
    if (x instanceof Uint8Array) return x.length === 0 ? none : m.Optional.of(x);
    // Go's time.Time.IsZero: 0001-01-01T00:00:00Z
    if (x instanceof Date) return msOf(x) === -62135596800000 && subMillisecondNanos(x) === 0 ? none : m.Optional.of(x);
    if (x instanceof Map) return x.size === 0 && !isBound(x) ? none : m.Optional.of(x);
    // a map literal (cel-js makes a plain object)
    if (isPlainObject(x)) return Object.keys(x).length === 0 ? none : m.Optional.of(x);
    if (Array.isArray(x)) return x.length === 0 && !isAdapterList(x) ? none : m.Optional.of(x);
    if (x instanceof (Duration as unknown as abstract new (...a: never[]) => unknown)) {
      const d = x as { seconds: bigint; nanos: number };
      return d.seconds === 0n && d.nanos === 0 ? none : m.Optional.of(x);
    }
    if (typeof x === 'bigint' || typeof x === 'number' || typeof x === 'string' || typeof x === 'boolean') return m.Optional.of(x);
    throw new CelUnsupported('optional.ofNonZeroValue() of a value of this type');
  });
  // `||` and `&&` as cel-go evaluates them: both sides, the first error wins when neither decides
  const logical = (decides: boolean) => ({ args }: { args: unknown[] }) => ({
    args,
    typeCheck(checker: { check(n: unknown, ctx: unknown): unknown; getType(t: string): unknown }, macro: { args: unknown[] }, ctx: unknown) {
      for (const a of macro.args) checker.check(a, ctx);
      return checker.getType('bool');
    },
    evaluate(ev: { run(n: unknown, ctx: unknown): unknown }, macro: { args: unknown[] }, ctx: unknown) {
      let left: unknown;
      let leftErr: unknown;
      try {
        left = ev.run(macro.args[0], ctx);
      } catch (e) {
        if (e instanceof CelGoPanic) throw e;
        leftErr = e;
      }
      if (left === decides) return decides;
      let right: unknown;
      try {
        right = ev.run(macro.args[1], ctx);
      } catch (e) {
        // a panic ends the evaluation; it is no error value for the operator to weigh; a left
        // term that is no bool is the first error
        throw e instanceof CelGoPanic ? e : (leftErr ?? (typeof left !== 'boolean' ? new CelGoError('no such overload') : e));
      }
      if (right === decides) return decides;
      if (leftErr !== undefined) throw leftErr;
      // evalAnd/evalOr: a term that is no bool is MaybeNoSuchOverloadErr's `no such overload`
      if (typeof left !== 'boolean' || typeof right !== 'boolean') throw new CelGoError('no such overload');
      return !decides;
    },
    async: false,
  });
  lib.registerFunction('__crdx_or(ast, ast): bool', logical(true) as never);
  // the list argument of sort(), distinct() or sortBy() (rewrite.ts; its number the second argument):
  // as evaluated, but a failing one is the panic of cel-go's cost tracker where the server runs it
  lib.registerFunction('__crdx_lister(ast, ast): dyn', (({ args }: { args: unknown[] }) => ({
    args,
    typeCheck(checker: { check(n: unknown, ctx: unknown): unknown }, macro: { args: unknown[] }, ctx: unknown) {
      return checker.check(macro.args[0], ctx);
    },
    evaluate(ev: { run(n: unknown, ctx: unknown): unknown }, macro: { args: { args: unknown }[] }, ctx: unknown) {
      const k = Number(macro.args[1]!.args);
      let v: unknown;
      try {
        v = ev.run(macro.args[0], ctx);
      } catch (e) {
        throw listerError(e, k);
      }
      const p = runtime.panicking;
      runtime.pendingSum = p === undefined || p === 'unknown' ? 'unknown' : p.sums.get(k);
      return v;
    },
    async: false,
  })) as never);
  lib.registerFunction('__crdx_and(ast, ast): bool', logical(false) as never);
  // cel-go's sets extension (ext/sets.go): membership with the list's equality
  const contains = (a: unknown[], b: unknown[]) => b.every((x) => celIn(x, a, ops.inOp, ops.eq) === true);
  lib.registerFunction('__crdx_sets_contains(list<dyn>, list<dyn>): bool', contains);
  lib.registerFunction('__crdx_sets_equivalent(list<dyn>, list<dyn>): bool', (a: unknown[], b: unknown[]) => contains(a, b) && contains(b, a));
  lib.registerFunction('__crdx_sets_intersects(list<dyn>, list<dyn>): bool', (a: unknown[], b: unknown[]) => b.some((x) => celIn(x, a, ops.inOp, ops.eq) === true));
  registerComprehensions(lib);
  registerRegex(lib);
  registerTime(lib);
  registerLists(lib, ops);
  registerListsExt(lib, ops);
  registerSortBy(lib, ops);
  registerOptMap(lib, m.Optional);
  registerOptionalEntries(lib, m.Optional);
  registerOptionalLists(lib, m.Optional);
  registerStrings(
    lib,
    (l, x) => (positional(l, 'indexOf()'), BigInt(l.findIndex((e) => celEqual(e, x, ops.eq)))),
    (l, x) => {
      positional(l, 'lastIndexOf()');
      for (let i = l.length - 1; i >= 0; i--) if (celEqual(l[i], x, ops.eq)) return BigInt(i);
      return -1n;
    },
  );
  registerQuantity(env as unknown as Parameters<typeof registerQuantity>[0]);
  registerURL(env as unknown as Parameters<typeof registerURL>[0]);
  registerIP(env as unknown as Parameters<typeof registerIP>[0]);
  registerCIDR(env as unknown as Parameters<typeof registerCIDR>[0]);
  registerSemver(env as unknown as Parameters<typeof registerSemver>[0]);
  registerFormat(env as unknown as Parameters<typeof registerFormat>[0], m.Optional);
  return { plain, libs: env as unknown as EvalEnv, ops, makers };
}

/**
 * Optional list elements and map entries, written as calls (ast.ts optionalEntriesPlain), as
 * cel-go's evalList and evalMap build them: an empty optional leaves the element out and removes an
 * earlier entry of its key; any other value where an optional belongs is an error. In both
 * environments: the plain one evaluates a rule's sub-expressions for its error texts (cel-errors.ts).
 */
function registerOptionalEntries(lib: LibEnv, optional: unknown): void {
  const Optional = optional as unknown as abstract new (...a: never[]) => { hasValue(): boolean; value(): unknown };
  lib.registerFunction('__crdx_push(list<dyn>, dyn): list<dyn>', (l: unknown[], x: unknown) => [...l, x]);
  lib.registerFunction('__crdx_pushopt(list<dyn>, dyn): list<dyn>', (l: unknown[], x: unknown) => {
    if (!(x instanceof Optional)) throw new CelGoError(`cannot initialize optional list element from non-optional value ${goValueText(x)}`);
    return x.hasValue() ? [...l, x.value()] : l;
  });
  // a map literal as cel-js makes it: a plain object, keyed by the key's text
  const put = (m: Record<string, unknown>, k: unknown, x: unknown, keep: boolean): Record<string, unknown> => {
    const key = String(k);
    const out = { ...m };
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') return out;
    if (keep) out[key] = x;
    else delete out[key];
    return out;
  };
  lib.registerFunction('__crdx_put(map<dyn, dyn>, dyn, dyn): map<dyn, dyn>', (m: Record<string, unknown>, k: unknown, x: unknown) => put(m, k, x, true));
  lib.registerFunction('__crdx_putopt(map<dyn, dyn>, dyn, dyn): map<dyn, dyn>', (m: Record<string, unknown>, k: unknown, x: unknown) => {
    if (!(x instanceof Optional)) throw new CelGoError(`cannot initialize optional entry '${goValueText(k)}' from non-optional value ${goValueText(x)}`);
    return x.hasValue() ? put(m, k, x.value(), true) : put(m, k, undefined, false);
  });
}

/**
 * cel-go's optional library on lists (cel/library.go, optional types version 1 and 2): `l.first()`
 * and `l.last()` an optional of the element (none when empty), `optional.unwrap(l)` and
 * `l.unwrapOpt()` the values of the optionals that have one, in order.
 */
function registerOptionalLists(lib: LibEnv, optional: unknown): void {
  const O = optional as unknown as { of(x: unknown): unknown; none(): unknown } & (abstract new (...a: never[]) => { hasValue(): boolean; value(): unknown });
  lib.registerFunction('list<dyn>.first(): optional<dyn>', (l: unknown[]) => (l.length > 0 ? O.of(l[0]) : O.none()));
  lib.registerFunction('list<dyn>.last(): optional<dyn>', (l: unknown[]) => (l.length > 0 ? O.of(l[l.length - 1]) : O.none()));
  const unwrap = (l: unknown[]): unknown[] => {
    const out: unknown[] = [];
    for (const x of l) {
      if (!(x instanceof O)) throw new CelUnsupported('unwrap of a list whose element is not an optional');
      if (x.hasValue()) out.push(x.value());
    }
    return out;
  };
  lib.registerFunction('list<dyn>.unwrapOpt(): list<dyn>', unwrap);
  lib.registerFunction('OptionalNamespace.unwrap(list<dyn>): list<dyn>', (_: unknown, l: unknown[]) => unwrap(l));
}

/** A scalar as Go's %v prints cel-go's value of it; other values crdx does not print (not evaluated). */
function goValueText(x: unknown): string {
  if (typeof x === 'string' || typeof x === 'bigint' || typeof x === 'boolean') return String(x);
  if (typeof x === 'number') return formatFloat(x, 'g');
  if (isUint(x)) return String(x.valueOf());
  throw new CelUnsupported('a value that is not optional where an optional list element or map entry belongs');
}
