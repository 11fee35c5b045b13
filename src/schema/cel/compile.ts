/**
 * Compiling one x-kubernetes-validations rule as the apiserver does when a CRD is written
 * (apiextensions-apiserver pkg/apiserver/schema/cel/compilation.go compileRule): the rule against
 * `self`/`oldSelf` of the node's declared type (oldSelf as optional_type(T) with
 * optionalOldSelf), in the new-expressions environment (compatibility version = server minor − 1)
 * or, for expressions already stored in the CRD, the stored-expressions environment (every
 * library). The result says what the server reports, or that crdx cannot tell (`unchecked`).
 *
 * Results are cached per declared type, environment and text: a CRD with many versions or many
 * identical rules compiles each once, and environments of different compatibility versions that
 * declare the same for a text (check.ts compileIdentity) share their verdicts.
 */
import { parseDuration } from '../../go/duration.js';
import { regexError } from '../../go/regexp.js';
import { parseTimeRFC3339 } from '../../go/time.js';
import { locate } from './ast.js';
import { compileIdentity, parseCached, compileCel, formatIssues, macrosOf, type CheckEnv, type CompileOutcome, type LiteralChecks } from './check.js';
import { celTypeOf, type DeclType } from './decl.js';
import { programVerdict } from './fold.js';
import { celGoSyntaxErrorText } from './syntax-errors.js';
import { BOOL, STRING, celTypeId, optionalOf, type CelType } from './types.js';
import { since } from '../../core/version-gates.js';

export interface RuleCompileOptions {
  /** Minor of the compatibility version (1.x); Infinity: the stored-expressions environment. */
  readonly compat: number;
  /** Minor of the simulated server (1.x): its cel-go version (check.ts CheckEnv.server). */
  readonly server: number;
  readonly optionalOldSelf: boolean;
  readonly literals: LiteralChecks | undefined;
}

export type ExprVerdict =
  /** Compiles; `usesOldSelf` from the checked reference map. */
  | { readonly kind: 'ok'; readonly usesOldSelf: boolean; readonly outcome: CompileOutcome }
  /**
   * The server's detail text (`compilation failed: …`, `cel expression must evaluate to a bool`, …);
   * `program`: it compiles, but Program() fails (`program instantiation failed: …`, fold.ts).
   */
  | { readonly kind: 'error'; readonly detail: string; readonly program?: true; /** a program that fails to instantiate: its checked references name oldSelf (compileRule sets UsesOldSelf first) */ readonly usesOldSelf?: boolean }
  /** crdx cannot reproduce the verdict; why. */
  | { readonly kind: 'unchecked'; readonly why: string }
  /**
   * The server panics compiling it (cel-go's homogeneous literal validator on an optional element of
   * type dyn): the request gets no answer. `what`: that element, `line`/`column` (1-based) in the text.
   */
  | { readonly kind: 'panic'; readonly what: string; readonly line: number; readonly column: number };

const cache = new WeakMap<DeclType, Map<string, ExprVerdict>>();
/** The same verdicts by the self type's identity (versions with equal schemas share them). */
const byType = new Map<string, ExprVerdict>();

function envFor(decl: DeclType, compat: number, server: number, optionalOldSelf: boolean): CheckEnv {
  const self: CelType = celTypeOf(decl);
  return { compat, server, variables: new Map([['self', self], ['oldSelf', optionalOldSelf ? optionalOf(self) : self]]) };
}

function verdict(text: string, decl: DeclType, o: RuleCompileOptions, want: 'bool' | 'string'): ExprVerdict {
  const out = compileCel(text, envFor(decl, o.compat, o.server, o.optionalOldSelf), o.literals);
  const failed = want === 'bool' ? 'compilation failed: ' : 'messageExpression compilation failed: ';
  if (out.syntaxError) {
    const loc = out.parsed ? undefined : locate(Array.from(text), out.syntaxError.offset);
    return { kind: 'unchecked', why: `crdx's CEL parser rejects it (${out.syntaxError.message}${loc ? ` at ${loc.line}:${loc.column + 1}` : ''}), a syntax cel-go may accept` };
  }
  if (out.panic) {
    const at = locate(Array.from(text), out.panic.offset);
    return { kind: 'panic', what: out.panic.message, line: at.line, column: at.column + 1 };
  }
  if (out.issues.length > 0) return { kind: 'error', detail: failed + formatIssues(out.parsed!.source, out.issues) };
  if (out.undecided) return { kind: 'unchecked', why: `crdx cannot run ${out.undecided}` };
  const t = out.checked!.type;
  if (want === 'bool' && t.kind !== BOOL.kind) return { kind: 'error', detail: 'cel expression must evaluate to a bool' };
  if (want === 'string' && t.kind !== STRING.kind) return { kind: 'error', detail: 'messageExpression must evaluate to a string' };
  let usesOldSelf = false;
  for (let id = 1; id <= out.parsed!.maxId; id++) if (out.checked!.refOf(id)?.name === 'oldSelf') usesOldSelf = true;
  // Program(): cel-go's planner folds constant conversions (fold.ts); a failing one fails the program
  const prog = programVerdict(out.parsed!.expr, out.checked!);
  if (prog.kind === 'error') return { kind: 'error', detail: (want === 'bool' ? 'program instantiation failed: ' : 'messageExpression instantiation failed: ') + prog.error, program: true, usesOldSelf };
  if (prog.kind === 'unchecked') return { kind: 'unchecked', why: `crdx cannot tell whether the program instantiates (${prog.why})` };
  return { kind: 'ok', usesOldSelf, outcome: out };
}

/** compileRule's verdict on a rule (want 'bool') or a messageExpression (want 'string'). */
export function compileExpression(text: string, decl: DeclType, o: RuleCompileOptions, want: 'bool' | 'string'): ExprVerdict {
  let m = cache.get(decl);
  if (!m) cache.set(decl, (m = new Map()));
  // by what the text sees of the environment, not its version: n−1 and n mostly declare the same
  const key = `${want}\0${compileIdentity(text, o.compat, o.server)}\0${o.optionalOldSelf}\0${text}`;
  const hit = m.get(key);
  if (hit) return hit;
  const typeKey = `${celTypeId(celTypeOf(decl))}\0${key}`;
  let v = byType.get(typeKey);
  if (!v) byType.set(typeKey, (v = verdict(text, decl, o, want)));
  m.set(key, v);
  return v;
}

/** The 1.29 literal validators with Go's parsers (time.ParseDuration, time.Parse RFC 3339, regexp via RE2JS). */
export const GO_LITERAL_CHECKS: LiteralChecks = {
  duration: (s) => parseDuration(s) !== undefined,
  timestamp: (s) => !('error' in parseTimeRFC3339(s)),
  regex: (s) => regexError(s) === undefined,
};

/**
 * Whether crdx's port of cel-go's parser reads the text's grammar on a server of minor
 * 1.`server` (with every macro and the optional syntax on; what a given environment leaves off is a
 * worded parse issue that compileExpression reports with cel-go's text). Then the server's parser
 * accepts it too, and the evaluator's parser (cel-js) is not asked for a syntax error: it lacks
 * syntax cel-go has (backtick-escaped field names, leading-dot identifiers, optional list elements
 * `[?x]` and map entries `{?k: v}`, message construction), and its rejection is no verdict of the
 * server's.
 */
export function celGoParses(text: string, server: number): boolean {
  return parseCached(text, { optionals: true, twoVar: true, sortBy: true, identEscapes: server >= since('cel.go-0.29'), escapeTokens: server >= since('cel.go-0.23') }).ok;
}

/**
 * What follows `compilation failed: ` when a text's syntax is wrong (in the environment of
 * compatibility version 1.`compat` on a server of minor 1.`server`), undefined when cel-go parses it:
 * cel-go's own text (`ERROR: <input>:L:C: …` and the caret lines) where crdx reproduces it
 * (syntax-errors.ts), else the evaluator's word that the syntax is wrong (`ERROR: <input>: Syntax
 * error: …`, no position: crdx's wording, not cel-go's).
 */
export function syntaxErrorDetail(text: string, compat: number, server: number, evaluatorSyntaxError: (text: string) => string | undefined): string | undefined {
  if (celGoParses(text, server)) return undefined;
  const exact = celGoSyntaxErrorText(text, macrosOf(compat, server));
  if (exact !== undefined) return exact;
  const e = evaluatorSyntaxError(text);
  return e === undefined ? undefined : `ERROR: <input>: Syntax error: ${e}`;
}
