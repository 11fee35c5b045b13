/**
 * cel-go's two-variable comprehensions (ext/comprehensions.go, Kubernetes 1.32+) as cel-js macros:
 * all(i, v, p), exists(i, v, p), existsOne / exists_one(i, v, p), transformList(i, v, [f,] e),
 * transformMap(k, v, [f,] e), transformMapEntry, over lists (index, element) and maps (key, value).
 * `all` and `exists` fold as cel-go's && and || do: a deciding element wins over an error, else
 * the first error; existsOne and the transforms run every element as cel-go's expansions do (the
 * last failing predicate's error, else the first failing expression's); transformMapEntry(k, v,
 * [f,] m) merges the maps m, a repeated key an error. Also the lists extension's sortBy(e, key) macro (ext/lists.go).
 */
import { CelGoError, CelGoPanic, CelUnsupported, isCelErrorValue, type CelOps } from './ops.js';
import type { LibEnv } from './types.js';
import { goValueType, isPlainObject, kindName, mayBeNonStringKey } from './classes.js';
import { runtime } from './runtime.js';
import { keepMapOrder } from '../values.js';

/** An element whose evaluation failed (the error is kept in the loop's accumulator). */
const FAILED: unique symbol = Symbol('failed');

interface Ctx {
  forkWithVariable(name: string, type: unknown): Ctx;
  reuse(parent: Ctx): Ctx;
  setIterValue(v: unknown, ev: unknown): Ctx;
}
interface Checker {
  check(n: unknown, ctx: Ctx): unknown;
  getType(t: string): unknown;
  createError(code: string, message: string, node: unknown): Error;
}
interface Ev {
  run(n: unknown, ctx: Ctx): unknown;
}
interface Macro {
  args: { op: string; args: unknown }[];
  receiver: unknown;
  c1?: Ctx;
  c2?: Ctx;
}

type Kind = 'all' | 'exists' | 'existsOne' | 'transformList' | 'transformMap' | 'transformMapEntry';

function macro(kind: Kind, filtered: boolean) {
  return ({ args, receiver }: { args: unknown[]; receiver: unknown }) => ({
    args,
    receiver,
    typeCheck(checker: Checker, m: Macro, ctx: Ctx) {
      checker.check(m.receiver, ctx);
      for (const a of m.args.slice(0, 2)) if (a.op !== 'id') throw checker.createError('invalid_macro_argument', `${kind}() variables must be simple identifiers`, a);
      const dyn = checker.getType('dyn');
      m.c1 = ctx.forkWithVariable(m.args[0]!.args as string, dyn);
      m.c2 = m.c1.forkWithVariable(m.args[1]!.args as string, dyn);
      for (const a of m.args.slice(2)) checker.check(a, m.c2);
      return checker.getType(kind === 'transformList' ? 'list' : kind === 'transformMap' || kind === 'transformMapEntry' ? 'map' : 'bool');
    },
    evaluate(ev: Ev, m: Macro, ctx: Ctx) {
      const coll = ev.run(m.receiver, ctx);
      let entries: [unknown, unknown][];
      if (Array.isArray(coll)) entries = coll.map((v, i) => [BigInt(i), v]);
      else if (coll instanceof Map) entries = [...coll.entries()];
      // a map literal (cel-js's plain object, its keys strings: one that may have been an int or a bool is not known as one)
      else if (isPlainObject(coll)) {
        entries = Object.entries(coll);
        if (entries.some(([k]) => mayBeNonStringKey(String(k)))) throw new CelUnsupported(`${kind}() over a map literal whose keys may be ints or bools`);
      }
      else {
        // cel-go's fold (interpreter evalFold): a two-variable range must be a list or a map
        const t = goValueType(coll);
        if (t === undefined) throw new CelUnsupported(`${kind}() over a value that is not a list or a map`);
        throw new CelGoError(`unsupported comprehension range type: ${t}`);
      }
      // Go goes through a map in random order (runtime.mapIterated)
      if (!Array.isArray(coll) && entries.length > 1) runtime.mapIterated = true;
      const at = (k: unknown, v: unknown) => m.c2!.reuse(m.c1!.reuse(ctx).setIterValue(k, ev)).setIterValue(v, ev);
      const body = m.args[filtered ? 3 : 2];
      if (kind === 'all' || kind === 'exists') {
        const decides = kind === 'exists';
        let err: unknown;
        for (const [k, v] of entries) {
          let r: unknown;
          try {
            r = ev.run(body, at(k, v));
          } catch (e) {
            if (e instanceof CelGoPanic) throw e;
            if (e instanceof Error) runtime.elementErrors.add(e.message);
            err ??= e;
            continue;
          }
          if (r === decides) return decides;
          // the step `accu && p` (`accu || p`): a predicate that is no bool is `no such overload`,
          // kept as the first error while the loop goes on
          if (typeof r !== 'boolean') {
            const nb = new CelGoError('no such overload');
            runtime.elementErrors.add(nb.message);
            err ??= nb;
          }
        }
        if (err !== undefined) throw err;
        return !decides;
      }
      // existsOne and the transforms: cel-go's step `f ? accu + … : accu` runs every element; the
      // accumulator becomes the error of each failing predicate (the last is reported), and that
      // of a failing expression only when it holds none yet (the first operand's error wins)
      let err: Error | undefined;
      const attempt = <T>(node: unknown, k: unknown, v: unknown, replace: boolean): T | typeof FAILED => {
        try {
          return ev.run(node, at(k, v)) as T;
        } catch (e) {
          if (!isCelErrorValue(e)) throw e;
          runtime.elementErrors.add(e.message);
          err = replace ? e : (err ?? e);
          return FAILED;
        }
      };
      /** The predicate's verdict on one element (existsOne's body, a transform's filter). */
      const holds = (node: unknown, k: unknown, v: unknown): boolean => {
        const p = attempt<unknown>(node, k, v, true);
        if (p === FAILED) return false;
        if (typeof p === 'boolean') return p;
        err = new CelGoError('no such overload');
        return false;
      };
      if (kind === 'existsOne') {
        let n = 0;
        for (const [k, v] of entries) if (holds(body, k, v)) n++;
        if (err !== undefined) throw err;
        return n === 1;
      }
      const keep = (k: unknown, v: unknown) => !filtered || holds(m.args[2], k, v);
      if (kind === 'transformList') {
        const out: unknown[] = [];
        for (const [k, v] of entries) {
          if (!keep(k, v)) continue;
          const r = attempt<unknown>(body, k, v, false);
          if (r !== FAILED) out.push(r);
        }
        if (err !== undefined) throw err;
        return keepMapOrder(coll, out);
      }
      const out = new Map<unknown, unknown>();
      if (kind === 'transformMapEntry') {
        // each result map merged in (cel.@mapInsert): a key given twice is an error
        for (const [k, v] of entries) {
          if (!keep(k, v)) continue;
          const r = attempt<unknown>(body, k, v, false);
          if (r === FAILED || err !== undefined) continue;
          const es = r instanceof Map ? [...r.entries()] : isPlainObject(r) ? Object.entries(r) : undefined;
          if (es === undefined) throw new CelUnsupported('transformMapEntry() whose expression is not a map');
          for (const [rk, rv] of es) {
            if (typeof rk !== 'string' && typeof rk !== 'bigint' && typeof rk !== 'boolean') throw new CelUnsupported('transformMapEntry() with keys that are not strings, ints or bools');
            if (out.has(rk)) {
              err = new CelGoError(`insert failed: key ${String(rk)} already exists`);
              break;
            }
            out.set(rk, rv);
          }
        }
        if (err !== undefined) throw err;
        return out;
      }
      for (const [k, v] of entries) {
        if (!keep(k, v)) continue;
        const r = attempt<unknown>(body, k, v, false);
        if (r !== FAILED) out.set(k, r);
      }
      if (err !== undefined) throw err;
      return out;
    },
    async: false,
  });
}

export function registerComprehensions(env: LibEnv): void {
  const reg = (sig: string, h: unknown) => env.registerFunction(sig, h as never);
  for (const recv of ['list', 'map']) {
    reg(`${recv}.all(ast, ast, ast): bool`, macro('all', false));
    reg(`${recv}.exists(ast, ast, ast): bool`, macro('exists', false));
    reg(`${recv}.existsOne(ast, ast, ast): bool`, macro('existsOne', false));
    reg(`${recv}.exists_one(ast, ast, ast): bool`, macro('existsOne', false));
    reg(`${recv}.transformList(ast, ast, ast): list<dyn>`, macro('transformList', false));
    reg(`${recv}.transformList(ast, ast, ast, ast): list<dyn>`, macro('transformList', true));
    reg(`${recv}.transformMap(ast, ast, ast): map<dyn, dyn>`, macro('transformMap', false));
    reg(`${recv}.transformMap(ast, ast, ast, ast): map<dyn, dyn>`, macro('transformMap', true));
    reg(`${recv}.transformMapEntry(ast, ast, ast): map<dyn, dyn>`, macro('transformMapEntry', false));
    reg(`${recv}.transformMapEntry(ast, ast, ast, ast): map<dyn, dyn>`, macro('transformMapEntry', true));
  }
}

/** A type name for the "same type" check of sortBy's keys. */
const kindOf = kindName;

const COMPARABLE = ['bigint', 'number', 'string', 'boolean', 'UnsignedInt', 'Duration', 'Date', 'Uint8Array'];

/**
 * `list.sortBy(e, key)`: the keys computed in order (the first error wins), then the list sorted by
 * them as @sortByAssociatedKeys does. Go's sort.Slice is an insertion sort (stable) up to 12
 * elements; a longer list with equal keys, whose order Go's pdqsort decides, is not evaluated.
 */
export function registerSortBy(env: LibEnv, ops: CelOps): void {
  const h = ({ args, receiver }: { args: unknown[]; receiver: unknown }) => ({
    args,
    receiver,
    typeCheck(checker: Checker, m: Macro, ctx: Ctx) {
      checker.check(m.receiver, ctx);
      if (m.args[0]!.op !== 'id') throw checker.createError('invalid_macro_argument', 'sortBy() variable must be a simple identifier', m.args[0]);
      m.c1 = ctx.forkWithVariable(m.args[0]!.args as string, checker.getType('dyn'));
      checker.check(m.args[1], m.c1);
      return checker.getType('list');
    },
    evaluate(ev: Ev, m: Macro, ctx: Ctx) {
      const l = ev.run(m.receiver, ctx);
      if (!Array.isArray(l)) {
        // the expansion's map() over the receiver (a one-variable fold): a scalar is no range
        const t = l instanceof Map || isPlainObject(l) ? undefined : goValueType(l);
        if (t === undefined) throw new CelUnsupported('sortBy() over a value that is not a list');
        throw new CelGoError(`got '${t}', expected iterable type`);
      }
      const keys = l.map((v) => ev.run(m.args[1], m.c1!.reuse(ctx).setIterValue(v, ev)));
      if (l.length === 0) return l;
      const k = kindOf(keys[0]);
      if (!COMPARABLE.includes(k)) throw new CelGoError('list elements must be comparable');
      if (l.length > 1 && keys.some((x) => kindOf(x) !== k)) throw new CelGoError('list elements must have the same type');
      if (keys.some((x) => typeof x === 'number' && Number.isNaN(x))) throw new CelUnsupported('sortBy() with a NaN key');
      const cmp = (a: unknown, b: unknown) => (ops.lt(a, b) === true ? -1 : ops.lt(b, a) === true ? 1 : 0);
      const idx = l.map((_, i) => i).sort((i, j) => cmp(keys[i], keys[j]));
      if (l.length > 12 && idx.some((x, i) => i > 0 && cmp(keys[idx[i - 1]!], keys[x]) === 0)) throw new CelUnsupported('sortBy() of more than 12 elements with equal keys (Go\'s unstable sort decides their order)');
      return idx.map((i) => l[i]);
    },
    async: false,
  });
  env.registerFunction('list.sortBy(ast, ast): list<dyn>', h as never);
}

interface OptionalLike {
  hasValue(): boolean;
  value(): unknown;
}

/**
 * cel-go's optional macros (cel/macro.go): `opt.optMap(x, e)` is `opt.hasValue() ?
 * optional.of(e[x := opt.value()]) : optional.none()`; `opt.optFlatMap(x, e)` the same with `e`
 * already an optional.
 */
export function registerOptMap(env: LibEnv, optional: { of(v: unknown): unknown; none(): unknown }): void {
  const h = (flat: boolean) => ({ args, receiver }: { args: unknown[]; receiver: unknown }) => ({
    args,
    receiver,
    typeCheck(checker: Checker, m: Macro, ctx: Ctx) {
      checker.check(m.receiver, ctx);
      if (m.args[0]!.op !== 'id') throw checker.createError('invalid_macro_argument', 'optMap() variable name must be a simple identifier', m.args[0]);
      m.c1 = ctx.forkWithVariable(m.args[0]!.args as string, checker.getType('dyn'));
      checker.check(m.args[1], m.c1);
      return checker.getType('dyn');
    },
    evaluate(ev: Ev, m: Macro, ctx: Ctx) {
      const o = ev.run(m.receiver, ctx) as OptionalLike;
      if (typeof o?.hasValue !== 'function') throw new CelUnsupported(`${flat ? 'optFlatMap' : 'optMap'}() on a value that is not an optional`);
      if (!o.hasValue()) return optional.none();
      const r = ev.run(m.args[1], m.c1!.reuse(ctx).setIterValue(o.value(), ev));
      if (!flat) return optional.of(r);
      if (typeof (r as OptionalLike)?.hasValue !== 'function') throw new CelUnsupported('optFlatMap() whose expression is not an optional');
      return r;
    },
    async: false,
  });
  env.registerFunction('optional.optMap(ast, ast): optional<dyn>', h(false) as never);
  env.registerFunction('optional.optFlatMap(ast, ast): optional<dyn>', h(true) as never);
}
