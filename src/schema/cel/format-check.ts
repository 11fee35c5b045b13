/**
 * The compile-time check of literal `format()` calls that cel-go's strings extension (version 1 and
 * up, so the CRD environment from compatibility version 1.29) adds to the environment from
 * cel-go 0.18 (Kubernetes 1.31): for `'<string literal>'.format([<list literal>])`, the format
 * string is read as the runtime reads it and every clause is checked against the checked type of
 * the list element it takes; an argument that no clause takes is reported too. Lists and maps
 * nested in a `format` call are exempt from the homogeneous literal check (`inFormatCall`) on every
 * server (cel-go 0.17's homogeneous validator exempts them itself; later the extension configures it).
 *
 * Written from reading cel-go ext/formatting.go (stringFormatValidator and parseFormatString); the
 * texts are cel-go's. The format string is read byte by byte (UTF-8), as Go indexes a string.
 */
import type { CallExpr, Expr } from './ast.js';
import { allNodes } from './ast.js';
import type { CelKind, CelType } from './types.js';

export interface FormatIssue {
  readonly offset: number;
  readonly message: string;
}

export interface FormatCheckInput {
  /** The checked type of a node (cel-go ast.GetType). */
  typeOf(id: number): CelType | undefined;
  /** The overload ids the checker resolved for a call. */
  overloadsOf(id: number): readonly string[] | undefined;
  /**
   * Before cel-go 0.23 the validator passed the issue text as a Go format string with no
   * arguments (a `%` in it printed as `%!c(MISSING)`).
   */
  readonly textAsFormat: boolean;
}

/** The clauses and the argument kinds each accepts (dyn is always accepted). */
const CLAUSE_KINDS: Readonly<Record<string, readonly CelKind[]>> = {
  d: ['int', 'uint'],
  f: ['double', 'string'],
  e: ['double', 'string'],
  b: ['int', 'uint', 'bool'],
  x: ['int', 'uint', 'string', 'bytes'],
  X: ['int', 'uint', 'string', 'bytes'],
  o: ['int', 'uint'],
};
const CLAUSE_TEXT: Readonly<Record<string, string>> = {
  d: 'decimal clause can only be used on integers',
  f: 'fixed-point clause can only be used on doubles',
  e: 'scientific clause can only be used on doubles',
  b: 'only integers and bools can be formatted as binary',
  x: 'only integers, byte buffers, and strings can be formatted as hex',
  X: 'only integers, byte buffers, and strings can be formatted as hex',
  o: 'octal clause can only be used on integers',
};
const STRING_KINDS: readonly CelKind[] = ['list', 'map', 'int', 'uint', 'double', 'bool', 'string', 'timestamp', 'bytes', 'duration', 'type', 'null'];
const STRING_TEXT = 'string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps';

const INT64_MAX = (1n << 63n) - 1n;

/** The calls the validator looks at: a string literal target, one list literal argument, resolved to string_format (or not resolved). */
function literalFormatCall(e: Expr, overloadsOf: FormatCheckInput['overloadsOf']): e is CallExpr {
  if (e.kind !== 'call' || e.fn !== 'format' || !e.target) return false;
  const ids = overloadsOf(e.id) ?? [];
  if (ids.length > 0 && !ids.includes('string_format')) return false;
  if (e.target.kind !== 'literal' || e.target.value.type !== 'string') return false;
  return e.args.length === 1 && e.args[0]!.kind === 'list';
}

/** Go's fmt.Sprintf(text) with no arguments, for the texts the validator can produce. */
function goSprintfNoArgs(text: string): string {
  let out = '';
  const cs = Array.from(text);
  for (let i = 0; i < cs.length; i++) {
    if (cs[i] !== '%') {
      out += cs[i];
      continue;
    }
    const verb = cs[++i];
    out += verb === undefined ? '%!(NOVERB)' : verb === '%' ? '%' : `%!${verb}(MISSING)`;
  }
  return out;
}

/** The issues of the literal format() calls in a checked tree. */
export function checkFormatCalls(root: Expr, input: FormatCheckInput): FormatIssue[] {
  const issues: FormatIssue[] = [];
  const report = (offset: number, message: string): void => {
    issues.push({ offset, message: input.textAsFormat ? goSprintfNoArgs(message) : message });
  };
  for (const e of allNodes(root)) {
    if (!literalFormatCall(e, input.overloadsOf)) continue;
    const target = e.target as Expr & { kind: 'literal'; value: { type: 'string'; value: string } };
    const args = (e.args[0] as Expr & { kind: 'list' }).elements;
    const r = clauses(new TextEncoder().encode(target.value.value), args, input.typeOf);
    if (r.error) report((r.error.node ?? e).offset, r.error.message);
    else if (args.length > r.requested) report(e.offset, `too many arguments supplied to string.format (expected ${r.requested}, got ${args.length})`);
  }
  return issues;
}

interface ClauseError {
  /** The argument the issue is reported at; undefined: the call. */
  readonly node: Expr | undefined;
  readonly message: string;
}

/** Reads the format string as the runtime does, checking each clause's argument by its type. */
function clauses(s: Uint8Array, args: readonly Expr[], typeOf: FormatCheckInput['typeOf']): { requested: number; error?: ClauseError } {
  const at = (message: string): ClauseError => ({ node: undefined, message });
  const PARSE = 'could not parse formatting clause: ';
  let requested = 0;
  let argIndex = 0;
  let i = 0;
  const PCT = 0x25;
  while (i < s.length) {
    if (s[i] !== PCT) {
      i++;
      continue;
    }
    if (i + 1 < s.length && s[i + 1] === PCT) {
      i += 2;
      continue;
    }
    requested++;
    const current = argIndex;
    if (i + 1 >= s.length) return { requested, error: at('unexpected end of string') };
    if (argIndex >= args.length) return { requested, error: at(`index ${argIndex} out of range`) };
    let j = i + 1;
    if (s[j] === 0x2e) {
      j++;
      let digits = '';
      for (;;) {
        if (j >= s.length) return { requested, error: at(`${PARSE}error while parsing precision: could not find end of precision specifier`) };
        const c = s[j]!;
        if (c < 0x30 || c > 0x39) break;
        digits += String.fromCharCode(c);
        j++;
      }
      if (digits === '' || BigInt(digits) > INT64_MAX) {
        const why = digits === '' ? 'invalid syntax' : 'value out of range';
        return { requested, error: at(`${PARSE}error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing "${digits}": ${why}`) };
      }
    }
    const verb = String.fromCharCode(s[j]!);
    j++;
    const arg = args[current]!;
    if (verb === 's') {
      const bad = stringArgProblem(arg, typeOf);
      if (bad) return { requested, error: { node: bad, message: `error during formatting: ${STRING_TEXT}, was given ${typeName(typeOf(bad.id))}` } };
    } else if (CLAUSE_KINDS[verb]) {
      if (!kindOneOf(typeOf(arg.id), CLAUSE_KINDS[verb]!)) {
        return { requested, error: { node: arg, message: `error during formatting: ${CLAUSE_TEXT[verb]}, was given ${typeName(typeOf(arg.id))}` } };
      }
    } else {
      return { requested, error: at(`${PARSE}unrecognized formatting clause "${verb}"`) };
    }
    i = j;
    argIndex++;
  }
  return { requested };
}

function typeName(t: CelType | undefined): string {
  return t?.name ?? 'dyn';
}

/** Type kind check of cel-go's validator: dyn passes, otherwise the kind (not the parameters) must be one of `kinds`. */
function kindOneOf(t: CelType | undefined, kinds: readonly CelKind[]): boolean {
  if (!t || t.kind === 'dyn') return true;
  return kinds.includes(t.kind);
}

/** The first node a `%s` clause cannot print (list and map literals are looked into), if any. */
function stringArgProblem(e: Expr, typeOf: FormatCheckInput['typeOf']): Expr | undefined {
  if (!kindOneOf(typeOf(e.id), STRING_KINDS)) return e;
  if (e.kind === 'list') {
    for (const el of e.elements) {
      const bad = stringArgProblem(el, typeOf);
      if (bad) return bad;
    }
  } else if (e.kind === 'map') {
    for (const en of e.entries) {
      const bad = stringArgProblem(en.key, typeOf) ?? stringArgProblem(en.value, typeOf);
      if (bad) return bad;
    }
  }
  return undefined;
}

/** The list and map literals inside a call named `format` (exempt from the homogeneous literal check). */
export function inFormatCall(root: Expr): ReadonlySet<Expr> {
  const exempt = new Set<Expr>();
  for (const n of allNodes(root)) {
    if (n.kind !== 'call' || n.fn !== 'format') continue;
    for (const d of allNodes(n)) if (d.kind === 'list' || d.kind === 'map') exempt.add(d);
  }
  return exempt;
}
