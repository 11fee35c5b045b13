/**
 * The constant folding cel-go's planner does while it builds a Program (interpreter/decorators.go
 * decOptimize, on because the Kubernetes base environment sets cel.OptOptimize): bottom-up, a
 * literal is a constant; a list or map literal whose elements (keys and values) are all constants
 * becomes one; a call of a type-conversion function (bool, bytes, double, duration, dyn, int,
 * string, timestamp, type, uint) with one constant argument is evaluated there and then, and if
 * that fails, Program() fails with the error. The apiserver reports that as `program instantiation
 * failed: <error>` (compilation.go). Nothing else (other calls, operators, unary minus, selects,
 * comprehensions) is a constant, but the planner still plans every node, so a conversion anywhere
 * in the tree counts, in the planner's order (a call's target, then its arguments, left to right).
 * An index that is a constant becomes a qualifier there, and one of a type no qualifier takes (a
 * list or map literal, null, bytes, ...) fails Program() with `invalid qualifier type: %T`.
 *
 * The conversions are String/Int/Uint/Double/Bytes/Bool.ConvertToType of cel-go's common/types,
 * the same in cel-go 0.17 (Kubernetes 1.30) and 0.29 (1.37). Where crdx cannot tell a value or an
 * error text exactly (timestamps and durations as strings, hexadecimal floats, runtime dispatch of
 * a dyn value to no overload, a folded pattern whose value crdx does not know), the result is
 * `unchecked`. A constant regex pattern of matches, find or findAll is compiled as the planner
 * compiles it, and Go's error fails Program(). Pure.
 */
import { parseDuration } from '../../go/duration.js';
import { formatFloat } from '../../go/float.js';
import { utf8Text } from '../../go/strings.js';
import { regexError } from '../../go/regexp.js';
import { parseBool, parseFloat64, parseInt10, parseUint10 } from '../../go/strconv.js';
import { parseTimeRFC3339 } from '../../go/time.js';
import type { Expr } from './ast.js';
import type { CheckResult } from './check.js';
import { inTimestampRange } from './lib/time.js';
import { doubleFitsInt, doubleFitsUint } from './values.js';

/** A folded constant: a value crdx knows, or only its runtime type name (`known: false`). */
type Const =
  | { readonly t: 'int' | 'uint'; readonly v: bigint }
  | { readonly t: 'double'; readonly v: number }
  | { readonly t: 'string'; readonly v: string }
  | { readonly t: 'bytes'; readonly v: Uint8Array }
  | { readonly t: 'bool'; readonly v: boolean }
  | { readonly t: 'opaque'; readonly type: string };

export type FoldVerdict =
  | { readonly kind: 'ok' }
  /** cel-go's error text (without the `program instantiation failed: ` prefix). */
  | { readonly kind: 'error'; readonly error: string }
  | { readonly kind: 'unchecked'; readonly why: string };

const CONVERSIONS = new Set(['bool', 'bytes', 'double', 'duration', 'dyn', 'int', 'string', 'timestamp', 'type', 'uint']);
const TYPE_NAME: Readonly<Record<string, string>> = {
  bool: 'bool',
  bytes: 'bytes',
  double: 'double',
  duration: 'google.protobuf.Duration',
  int: 'int',
  string: 'string',
  timestamp: 'google.protobuf.Timestamp',
  uint: 'uint',
};
const INT_MAX = (1n << 63n) - 1n;
/** The Go types (`%T`) of the constants that are no qualifier (a list or map literal, null, bytes, a duration, a timestamp, a type). */
const QUALIFIER_ERROR_TYPES: Readonly<Record<string, string>> = {
  list: '*types.baseList',
  map: '*types.baseMap',
  null_type: 'types.Null',
  bytes: 'types.Bytes',
  'google.protobuf.Duration': 'types.Duration',
  'google.protobuf.Timestamp': 'types.Timestamp',
  type: '*types.Type',
};

class Stop extends Error {
  constructor(readonly verdict: FoldVerdict) {
    super('fold stopped');
  }
}

const error = (text: string): never => {
  throw new Stop({ kind: 'error', error: text });
};
const unchecked = (why: string): never => {
  throw new Stop({ kind: 'unchecked', why });
};
const convErr = (from: string, to: string): never => error(`type conversion error from '${from}' to '${to}'`);

function typeNameOf(c: Const): string {
  return c.t === 'opaque' ? c.type : c.t;
}

function convert(fn: string, c: Const, argStatic: string | undefined): Const {
  if (fn === 'dyn') return c;
  if (fn === 'type') return { t: 'opaque', type: 'type' };
  const to = TYPE_NAME[fn]!;
  if (c.t === 'opaque') {
    // null checks as a wrapper type (google.protobuf.Int64Value, …), and the planner's fold of the
    // conversion finds no overload for it
    if (c.type === 'null_type' && (fn === 'int' || fn === 'uint' || fn === 'double' || fn === 'string' || fn === 'bytes')) return error(`no such overload: ${fn}(null_type)`);
    // a timestamp or duration converts to the types it declares an overload for; the rest crdx does not model
    if (c.type === 'google.protobuf.Timestamp' && (fn === 'string' || fn === 'int' || fn === 'timestamp')) return fn === 'string' ? { t: 'opaque', type: 'string' } : fn === 'int' ? { t: 'opaque', type: 'int' } : c;
    if (c.type === 'google.protobuf.Duration' && (fn === 'string' || fn === 'int' || fn === 'duration')) return fn === 'string' ? { t: 'opaque', type: 'string' } : fn === 'int' ? { t: 'opaque', type: 'int' } : c;
    return unchecked(`${fn}() of a constant ${c.type} crdx does not evaluate`);
  }
  switch (c.t) {
    case 'string': {
      const s = c.v;
      switch (fn) {
        case 'int': {
          const n = parseInt10(s);
          return n === undefined ? convErr('string', to) : { t: 'int', v: n };
        }
        case 'uint': {
          const n = parseUint10(s);
          return n === undefined ? convErr('string', to) : { t: 'uint', v: n };
        }
        case 'double': {
          const n = parseFloat64(s);
          return n === undefined ? convErr('string', to) : { t: 'double', v: n };
        }
        case 'bool': {
          const b = parseBool(s);
          return b === undefined ? convErr('string', to) : { t: 'bool', v: b };
        }
        case 'bytes':
          return { t: 'bytes', v: new TextEncoder().encode(s) };
        case 'string':
          return c;
        case 'duration':
          return parseDuration(s) === undefined ? convErr('string', to) : { t: 'opaque', type: to };
        case 'timestamp': {
          const t = parseTimeRFC3339(s);
          if ('error' in t) return convErr('string', to);
          if (!inTimestampRange(BigInt(t.sec))) return error('timestamp overflow');
          return { t: 'opaque', type: to };
        }
      }
      break;
    }
    case 'int':
      switch (fn) {
        case 'int':
          return c;
        case 'uint':
          return c.v < 0n ? error('unsigned integer overflow') : { t: 'uint', v: c.v };
        case 'double':
          return { t: 'double', v: Number(c.v) };
        case 'string':
          return { t: 'string', v: c.v.toString() };
        case 'timestamp':
          return inTimestampRange(c.v) ? { t: 'opaque', type: to } : error('timestamp overflow');
        case 'duration':
          // declared until cel-go 0.29 and always failing; through dyn the dispatch is not modelled
          return argStatic === 'int' ? convErr('int', to) : unchecked('duration() of a dyn int');
      }
      break;
    case 'uint':
      switch (fn) {
        case 'int':
          return c.v > INT_MAX ? error('integer overflow') : { t: 'int', v: c.v };
        case 'uint':
          return c;
        case 'double':
          return { t: 'double', v: Number(c.v) };
        case 'string':
          return { t: 'string', v: c.v.toString() };
      }
      break;
    case 'double':
      switch (fn) {
        case 'int': {
          const v = c.v;
          if (!doubleFitsInt(v)) return error('integer overflow');
          return { t: 'int', v: BigInt(Math.trunc(v)) };
        }
        case 'uint': {
          const v = c.v;
          if (!doubleFitsUint(v)) return error('unsigned integer overflow');
          return { t: 'uint', v: BigInt(Math.trunc(v)) };
        }
        case 'double':
          return c;
        case 'string':
          return { t: 'string', v: formatFloat(c.v, 'g') };
      }
      break;
    case 'bytes':
      switch (fn) {
        case 'string': {
          const s = utf8Text(c.v);
          return s === undefined ? error('invalid UTF-8 in bytes, cannot convert to string') : { t: 'string', v: s };
        }
        case 'bytes':
          return c;
      }
      break;
    case 'bool':
      switch (fn) {
        case 'bool':
          return c;
        case 'string':
          return { t: 'string', v: String(c.v) };
      }
      break;
  }
  // no overload of fn for this runtime type (reached through dyn): the dispatcher's error is not modelled
  return unchecked(`${fn}() of a constant ${typeNameOf(c)} (no overload)`);
}

/**
 * What Program() says of a checked expression: ok, the error of a folded conversion, or that
 * crdx cannot tell.
 */
export function programVerdict(root: Expr, checked: CheckResult): FoldVerdict {
  const staticName = (e: Expr): string | undefined => checked.typeOf(e.id)?.name;
  const fold = (e: Expr): Const | undefined => {
    switch (e.kind) {
      case 'literal': {
        const l = e.value;
        return l.type === 'null' ? { t: 'opaque', type: 'null_type' } : ({ t: l.type, v: l.value } as Const);
      }
      case 'ident':
        // a type name (int, string, ...) is a constant type value to the planner
        return checked.typeOf(e.id)?.kind === 'type' ? { t: 'opaque', type: 'type' } : undefined;
      case 'select':
        fold(e.operand);
        return undefined;
      case 'list': {
        const all = e.elements.map(fold);
        return all.every((x) => x !== undefined) ? { t: 'opaque', type: 'list' } : undefined;
      }
      case 'map': {
        let all = true;
        for (const en of e.entries) {
          if (fold(en.key) === undefined) all = false;
          if (fold(en.value) === undefined) all = false;
        }
        return all ? { t: 'opaque', type: 'map' } : undefined;
      }
      case 'struct':
        for (const f of e.fields) fold(f.value);
        return undefined;
      case 'comprehension':
        fold(e.accuInit);
        fold(e.iterRange);
        fold(e.loopCondition);
        fold(e.loopStep);
        fold(e.result);
        return undefined;
      case 'call': {
        if (e.target) fold(e.target);
        const args = e.args.map(fold);
        if (e.target === undefined && CONVERSIONS.has(e.fn) && args.length === 1 && args[0] !== undefined) return convert(e.fn, args[0], staticName(e.args[0]!));
        // planIndex makes a qualifier of a constant index while planning (NewQualifier): of a
        // string, int, uint, bool or double only, else `invalid qualifier type: %T`
        if ((e.fn === '_[_]' || e.fn === '_[?_]') && args.length === 2 && args[1] !== undefined) {
          const go = QUALIFIER_ERROR_TYPES[typeNameOf(args[1])];
          if (go !== undefined) error(`invalid qualifier type: ${go}`);
        }
        // decRegexOptimizer (CompileRegexConstants, right after the folding) compiles a constant
        // pattern, literal or folded, with regexp.Compile, and Program() fails with its error:
        // cel-go's own matches, and the Kubernetes regex library's find and findAll (library/regex.go
        // FindRegexOptimization, FindAllRegexOptimization). The checker's literal validator (new
        // rules from 1.30) refuses a literal pattern of s.matches(p) before (it reads argument 0
        // of the call: the string of matches(s, p)); a stored rule that skipped it fails here.
        const regexCall = e.fn === 'matches' || ((e.fn === 'find' || e.fn === 'findAll') && e.target !== undefined);
        if (regexCall && args.length >= 1) {
          // the pattern is argument 1 of the call, its target (or first argument) being argument 0
          const at = e.target !== undefined ? 0 : 1;
          const pat = args[at];
          if (pat !== undefined) {
            if (pat.t === 'string') {
              const message = regexError(pat.v);
              if (message !== undefined) error(message);
            } else if (pat.t === 'opaque' && pat.type === 'string') return unchecked(`${e.fn}() with a folded pattern crdx does not know`);
          }
        }
        return undefined;
      }
    }
  };
  try {
    fold(root);
    return { kind: 'ok' };
  } catch (e) {
    if (e instanceof Stop) return e.verdict;
    throw e;
  }
}
