import { goTypeName, isLibraryValue } from './classes.js';

/**
 * The engine's own operators as functions, for library code that must apply CEL's `==`, `<`, `+`
 * to runtime values whose type only the engine dispatches on (dyn).
 */

export interface CelOps {
  readonly eq: Fallback;
  readonly lt: Fallback;
  readonly le: Fallback;
  readonly gt: Fallback;
  readonly ge: Fallback;
  readonly add: Fallback;
  readonly inOp: Fallback;
  /** duration(x) for a non-string x (a duration: the identity). */
  readonly duration: (x: unknown) => unknown;
  readonly timestamp: (x: unknown) => unknown;
  /** The engine's int(x) and uint(x). */
  readonly int: (x: unknown) => unknown;
  readonly uint: (x: unknown) => unknown;
}

type Parse = (e: string) => (ctx: Record<string, unknown>) => unknown;

export function makeOps(parse: Parse): CelOps {
  // the engine these run in (the plain environment) has no Kubernetes library types: an operand of
  // one gets cel-go's answer here (libraryOperandError)
  const bin = (op: string): Fallback => {
    const run = parse(`a ${op} b`);
    return (a, b) => {
      // a value of another type is unequal to a library value (its Equal answers False)
      if (op === '==' && isLibraryValue(b) && !isLibraryValue(a)) return false;
      const e = libraryOperandError(op, a, b);
      if (e !== undefined) throw e;
      try {
        return run({ a, b });
      } catch (err) {
        // an operand holding values the plain environment cannot type (a preserve-unknown field of
        // the resource): cel-go's answer by the first operand's trait
        if (op !== '==' && op !== 'in' && err instanceof Error && err.message.startsWith('Unsupported type')) throw traitError(op, a);
        throw err;
      }
    };
  };
  const conversion = (name: string): ((x: unknown) => unknown) => {
    const run = parse(`${name}(x)`);
    return (x) => {
      if (isLibraryValue(x)) throw noOverload(name, x);
      return run({ x });
    };
  };
  return { eq: bin('=='), lt: bin('<'), le: bin('<='), gt: bin('>'), ge: bin('>='), add: bin('+'), inOp: bin('in'), duration: conversion('duration'), timestamp: conversion('timestamp'), int: conversion('int'), uint: conversion('uint') };
}

/**
 * cel-go's error for an operator with a Kubernetes library value as an operand (they have no
 * operator trait and are no Receivers, nor Containers): a library value first answers
 * `no such overload: _op_`; as the second, the first operand's own function refuses it (`no such
 * overload`) when that has the operator's trait or is a Receiver, else `no such overload: _op_`.
 * `in` a library value: `no such overload`. `==` is the caller's (celEqual, libraryMismatch).
 */
function libraryOperandError(op: string, a: unknown, b: unknown): CelGoError | undefined {
  if (op === '==') return undefined;
  if (op === 'in') return isLibraryValue(b) ? new CelGoError('no such overload') : undefined;
  if (isLibraryValue(a)) return new CelGoError(`no such overload: _${op}_`);
  if (!isLibraryValue(b)) return undefined;
  return traitError(op, a);
}

/** cel-go's error for an operator whose second operand the first one's function refuses (it has the operator's trait, or is a Receiver), or whose first operand lacks the trait. */
function traitError(op: string, a: unknown): CelGoError {
  const left = goTypeName(a);
  const traited = TRAITED[op === '<=' || op === '>' || op === '>=' ? '<' : op] ?? [];
  return left !== undefined && (traited.includes(left) || RECEIVERS.has(left)) ? new CelGoError('no such overload') : new CelGoError(`no such overload: _${op}_`);
}

/** An error the evaluator reports as "not evaluated" (crdx does not reproduce the server here). */
export class CelUnsupported extends Error {
  override readonly name = 'CelUnsupported';
}

/** The engine's own operator, for values the adapters (values.ts) leave to it. */
export type Fallback = (a: unknown, b: unknown) => unknown;

/** An evaluation error with cel-go's text (the server's `<text> evaluating rule: …`). */
export class CelGoError extends Error {
  override readonly name = 'CelGoError';
}

/**
 * A Go panic the server's evaluation recovers (cel-go Program.Eval: `internal error: <panic>`). It
 * is no CEL error value: `||`, `&&`, `?:` and the comprehensions do not absorb it, and the rule fails
 * with its text, after the cost counted up to it.
 */
export class CelGoPanic extends CelGoError {}

/**
 * A CEL error value: crdx's own with cel-go's text or cel-js's evaluation error (what an
 * accumulator, `||` or `?:` may hold in cel-go). Not a panic, not what crdx does not reproduce
 * (CelUnsupported), not the cost limit.
 */
export function isCelErrorValue(e: unknown): e is Error {
  return !(e instanceof CelGoPanic) && (e instanceof CelGoError || (e instanceof Error && e.name === 'EvaluationError'));
}

/**
 * The panic of cel-go's lists extension cost trackers (ext/lists.go trackListSort,
 * trackListDistinct, trackListSortBy) on a failing list: they assert the evaluated argument, an
 * error, to be a list.
 */
export const LISTER_PANIC = 'internal error: interface conversion: *types.Err is not traits.Lister: missing method Add';

/** The operand traits cel-go's standard operators ask of their first operand (common/types/traits), by the operand's type as cel-js names it. */
const TRAITED: Readonly<Record<string, readonly string[]>> = {
  '+': ['int', 'uint', 'double', 'string', 'bytes', 'list', 'google.protobuf.Duration', 'google.protobuf.Timestamp'],
  '-': ['int', 'uint', 'double', 'google.protobuf.Duration', 'google.protobuf.Timestamp'],
  '*': ['int', 'uint', 'double'],
  '/': ['int', 'uint', 'double'],
  '%': ['int', 'uint'],
  '<': ['int', 'uint', 'double', 'string', 'bytes', 'bool', 'google.protobuf.Duration', 'google.protobuf.Timestamp'],
};
/** cel-go's types that receive calls by name (traits.Receiver): what a call on them without the trait answers. */
const RECEIVERS = new Set(['string', 'google.protobuf.Duration', 'google.protobuf.Timestamp']);
/** The Kubernetes library values' types as cel-js names them: no operator trait, no Receiver. */
const LIBRARY_TYPES = ['k8s.Quantity', 'k8s.URL', 'net.IP', 'net.CIDR', 'kubernetes.Semver', 'kubernetes.NamedFormat'];
const KNOWN = new Set(['int', 'uint', 'double', 'string', 'bytes', 'bool', 'null', 'list', 'map', 'google.protobuf.Duration', 'google.protobuf.Timestamp', 'optional', ...LIBRARY_TYPES]);

/**
 * cel-go's error for an arithmetic or ordering operator cel-js found no overload for (its message
 * `no such overload: dyn<T> op dyn<U>`), which only dyn operands reach: the planner's evalBinary
 * calls the operator's function when the first operand has the operator's trait, and that answers
 * `no such overload` for a second operand it does not take; else a Receiver (string, duration,
 * timestamp) answers `no such overload` too, and any other value `no such overload: _op_`.
 * Undefined for another message or a first operand of a type not modelled (library values,
 * optionals, types).
 */
export function goNoSuchOverload(message: string): string | undefined {
  // `!_` takes a bool only (MaybeNoSuchOverloadErr); `-_` asks for traits.Negater (int, double,
  // duration; a bool has it and refuses), and answers `no such overload` for a Receiver too
  const unary = /^no such overload: ([!-])(?:dyn<)?([\w.]+)(?:<[\w., <>]+>)?>?(?:$|\n)/.exec(message);
  if (unary !== null) {
    const t = unary[2]!;
    if (!KNOWN.has(t)) return undefined;
    if (unary[1] === '!') return 'no such overload';
    if (t === 'google.protobuf.Duration') return undefined;
    return t === 'bool' || RECEIVERS.has(t) ? 'no such overload' : 'no such overload: -_';
  }
  // `in` (inAggregate) asks its right operand for traits.Container only: any other answers `no such overload`
  const inOp = /^no such overload: (?:dyn<)?[\w.]+(?:<[\w., <>]+>)?>? in (?:dyn<([\w.]+)(?:<[\w., <>]+>)?>|([\w.]+)(?:<[\w., <>]+>)?)(?:$|\n)/.exec(message);
  if (inOp !== null) {
    const right = inOp[1] ?? inOp[2]!;
    return KNOWN.has(right) && right !== 'list' && right !== 'map' ? 'no such overload' : undefined;
  }
  const m = /^no such overload: (?:dyn<([\w.]+)(?:<[\w., <>]+>)?>|([\w.]+)(?:<[\w., <>]+>)?) (<=|>=|<|>|\+|-|\*|\/|%) /.exec(message);
  if (m === null) return undefined;
  const left = m[1] ?? m[2]!;
  const op = m[3]!;
  if (!KNOWN.has(left)) return undefined;
  const traited = TRAITED[op === '<=' || op === '>' || op === '>=' ? '<' : op]!;
  return traited.includes(left) || RECEIVERS.has(left) ? 'no such overload' : `no such overload: _${op}_`;
}

/**
 * cel-go's error for a call whose overloads' type guards refuse its runtime arguments
 * (decls.MaybeNoSuchOverload: `no such overload: f(int, string)`, the receiver first, each
 * argument by its type name): a CelGoError when every argument's type name is known, else a
 * CelUnsupported (library values, optionals).
 */
export function noOverload(name: string, ...args: unknown[]): Error {
  const names = args.map(goTypeName);
  if (names.some((n) => n === undefined)) return new CelUnsupported(`${name}() on arguments of a type crdx does not name as cel-go does`);
  return new CelGoError(`no such overload: ${name}(${names.join(', ')})`);
}

/** cel-go's names of crdx's rewritten functions (rewrite.ts), where they differ. */
const CALL_NAMES: Readonly<Record<string, string>> = {
  __crdx_strings_quote: 'strings.quote',
  __crdx_sets_contains: 'sets.contains',
  __crdx_sets_equivalent: 'sets.equivalent',
  __crdx_sets_intersects: 'sets.intersects',
  __crdx_lists_range: 'lists.range',
  __crdx_ip_isCanonical: 'ip.isCanonical',
  __crdx_matches: 'matches',
  __crdx_gmatches: 'matches',
  __crdx_duration: 'duration',
  __crdx_timestamp: 'timestamp',
  __crdx_int: 'int',
  __crdx_uint: 'uint',
};

/** cel-js's runtime type names as cel-go's TypeName spells them (parameters dropped); undefined for one not modelled. */
function goTypeOfJs(t: string): string | undefined {
  const base = t.replace(/<.*$/s, '');
  if (base === 'null') return 'null_type';
  if (base === 'optional') return 'optional_type';
  if (base === 'k8s.Quantity') return 'kubernetes.Quantity';
  if (base === 'k8s.URL') return 'kubernetes.URL';
  const same = ['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'type', 'google.protobuf.Duration', 'google.protobuf.Timestamp', 'net.IP', 'net.CIDR', 'kubernetes.Semver', 'kubernetes.NamedFormat'];
  return same.includes(base) ? base : undefined;
}

/** A comma-separated list of type names, split at the top level (`map<string, int>, int`). */
function splitTypes(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '<') depth++;
    else if (ch === '>') depth--;
    if (depth === 0 && s.startsWith(', ', i)) {
      out.push(cur);
      cur = '';
      i++;
      continue;
    }
    cur += ch;
  }
  if (cur !== '') out.push(cur);
  return out;
}

/**
 * cel-go's Go types (`%T`) of the values that are no list or map, by their TypeName, and the first
 * method of traits.Lister (Add, Contains, Get, Iterator, Size: Go names the first missing) each
 * lacks: Add for those without traits.Adder.
 */
const GO_NON_LIST_TYPES: Readonly<Record<string, readonly [string, string]>> = {
  int: ['types.Int', 'Contains'],
  uint: ['types.Uint', 'Contains'],
  double: ['types.Double', 'Contains'],
  bool: ['types.Bool', 'Add'],
  string: ['types.String', 'Contains'],
  bytes: ['types.Bytes', 'Contains'],
  null_type: ['types.Null', 'Add'],
  type: ['*types.Type', 'Add'],
  'google.protobuf.Duration': ['types.Duration', 'Contains'],
  'google.protobuf.Timestamp': ['types.Timestamp', 'Contains'],
  'kubernetes.Quantity': ['cel.Quantity', 'Add'],
  'kubernetes.URL': ['cel.URL', 'Add'],
  'net.IP': ['cel.IP', 'Add'],
  'net.CIDR': ['cel.CIDR', 'Add'],
  'kubernetes.Semver': ['cel.Semver', 'Add'],
  'kubernetes.NamedFormat': ['cel.Format', 'Add'],
};

/** The types cel-go's Receivers are (traits.ReceiverType): a call on them without the function's trait answers `no such overload`. */
const RECEIVER_TYPES = new Set(['string', 'google.protobuf.Duration', 'google.protobuf.Timestamp']);

/**
 * cel-go's error for a function call cel-js found no overload for at runtime (`found no matching
 * overload for 'f(int)'` or `'int.f(string)'`), which only dyn arguments reach, by how cel-go binds
 * the function: the standard library's singletons with an operand trait (size, matches) answer
 * `no such overload: f` unless the first argument is a Receiver; contains, startsWith and endsWith
 * have no type guards and answer `no such overload`, as do matches, find and findAll on a constant
 * pattern (the regex optimisation); sort() answers `no such overload: sort`, flatten() its own
 * `no such overload: T.flatten()`; every other function's overloads are guarded
 * (decls.MaybeNoSuchOverload). Recorded from cel-go by test/unit/cel-go-dyn-calls.json.
 * Undefined for another error, a function of crdx's own or a type not modelled.
 */
export function goCallNoOverload(err: unknown): string | undefined {
  if (!(err instanceof Error) || (err as { code?: unknown }).code !== 'no_matching_overload') return undefined;
  const node = (err as { node?: { op?: string; args?: unknown } }).node;
  if (node === undefined || (node.op !== 'call' && node.op !== 'rcall') || !Array.isArray(node.args)) return undefined;
  const raw = String(node.args[0]);
  const m = /found no matching overload for '(.*)'/.exec(err.message.split('\n')[0] ?? '');
  if (m === null) return undefined;
  const sig = m[1]!;
  let jsTypes: string[];
  if (node.op === 'rcall') {
    const at = sig.lastIndexOf(`.${raw}(`);
    if (at < 0 || !sig.endsWith(')')) return undefined;
    jsTypes = [sig.slice(0, at), ...splitTypes(sig.slice(at + raw.length + 2, -1))];
  } else {
    if (!sig.startsWith(`${raw}(`) || !sig.endsWith(')')) return undefined;
    jsTypes = splitTypes(sig.slice(raw.length + 1, -1));
  }
  const types = jsTypes.map(goTypeOfJs);
  if (types.some((t) => t === undefined)) return undefined;
  const name = CALL_NAMES[raw] ?? /^__crdx_(?:s|tsget)_(\w+)$/.exec(raw)?.[1] ?? (raw.startsWith('__crdx_') ? undefined : raw);
  if (name === undefined) return undefined;
  // the arguments as written: the pattern of matches/find/findAll is the last one
  const argAsts = (node.op === 'rcall' ? (node.args as unknown[])[2] : (node.args as unknown[])[1]) as { op?: string }[] | undefined;
  const constantPattern = Array.isArray(argAsts) && argAsts.length > 0 && argAsts[argAsts.length - 1]?.op === 'value';
  const first = types[0]!;
  switch (name) {
    case 'size':
      return RECEIVER_TYPES.has(first) ? 'no such overload' : 'no such overload: size';
    case 'matches':
      return constantPattern || RECEIVER_TYPES.has(first) ? 'no such overload' : 'no such overload: matches';
    case 'contains':
    case 'startsWith':
    case 'endsWith':
      return 'no such overload';
    case 'find':
    case 'findAll':
      return constantPattern ? 'no such overload' : `no such overload: ${name}(${types.join(', ')})`;
    case 'sort':
      return 'no such overload: sort';
    case 'flatten':
      return node.op === 'rcall' ? `no such overload: ${first}.flatten(${types.slice(1).join(', ')})` : undefined;
    case 'distinct': {
      // its implementation asserts a lister before anything else: a panic cel-go recovers as an error
      const go = GO_NON_LIST_TYPES[first];
      return node.op === 'rcall' && go !== undefined ? `internal error: interface conversion: ${go[0]} is not traits.Lister: missing method ${go[1]}` : undefined;
    }
    default:
      return `no such overload: ${name}(${types.join(', ')})`;
  }
}
