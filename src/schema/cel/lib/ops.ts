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
  const bin = (op: string): Fallback => {
    const run = parse(`a ${op} b`);
    return (a, b) => run({ a, b });
  };
  const dur = parse('duration(x)');
  const ts = parse('timestamp(x)');
  const int = parse('int(x)');
  const uint = parse('uint(x)');
  return { eq: bin('=='), lt: bin('<'), le: bin('<='), gt: bin('>'), ge: bin('>='), add: bin('+'), inOp: bin('in'), duration: (x) => dur({ x }), timestamp: (x) => ts({ x }), int: (x) => int({ x }), uint: (x) => uint({ x }) };
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
const KNOWN = new Set(['int', 'uint', 'double', 'string', 'bytes', 'bool', 'null', 'list', 'map', 'google.protobuf.Duration', 'google.protobuf.Timestamp']);

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
  const m = /^no such overload: (?:dyn<([\w.]+)(?:<[\w., <>]+>)?>|([\w.]+)(?:<[\w., <>]+>)?) (<=|>=|<|>|\+|-|\*|\/|%) /.exec(message);
  if (m === null) return undefined;
  const left = m[1] ?? m[2]!;
  const op = m[3]!;
  if (!KNOWN.has(left)) return undefined;
  const traited = TRAITED[op === '<=' || op === '>' || op === '>=' ? '<' : op]!;
  return traited.includes(left) || RECEIVERS.has(left) ? 'no such overload' : `no such overload: _${op}_`;
}
