/**
 * cel-go's syntax error text (ANTLR's lexer and parser errors, as cel-go's parser reports them) for
 * the broken texts users produce most: an expression cut short (every prefix of a rule, as typed in
 * the editor), a stray token, an operand missing before a closing bracket, characters no token
 * starts with, and a string left open.
 *
 * The behaviour imitated (ANTLR 4 Go runtime, DefaultErrorStrategy, as cel-go drives it):
 *  - the lexer reports `token recognition error at: '<text>'` where no token matches, the text
 *    running from the token's start through the character it failed on, then skips that much
 *    (an r/b prefix or the first two of three quotes before a broken string are a token of their
 *    own; the string is lexed anew);
 *  - at the end of the input the parser reports one error (it is then in recovery mode and never
 *    matches again): `missing 'X' at '<EOF>'` when conjuring the closing token X lets the input end
 *    there, `mismatched input '<EOF>' expecting …` with the tokens the grammar allows at that point,
 *    `no viable alternative at input '…'` after a `.` or a `-`, `extraneous input '<EOF>'` after `!`;
 *  - a stray token followed by what the grammar wants is deleted (`extraneous input 'T'`); before a
 *    ')' or an index's ']' a token that may follow the closer has it conjured (`missing ')' at 'T'`);
 *    else it is `mismatched input 'T'` and the rule recovers: it skips to the first token of the
 *    follow sets of the rules on the stack (the end of the text, an operator, the '?', ':', ',' or
 *    closing token of a construct around it), reproduced where the level just outside takes that
 *    token (ending the recovery mode, in which no error is reported);
 *  - a ternary whose ':' meets a '?' (`a ? b ? c : d : e`) is `mismatched input '?' expecting ':'`;
 *    at the top the rest is skipped, inside a bracket the '?' ends the recovery at once: the
 *    bracket's closing token is conjured silently and the expression around it takes the '?';
 *    an operator where an operand is wanted is taken as the operator, its operand then missing;
 *    a closing token where an operand is wanted closes the construct;
 *  - after a whole expression, one more token is `extraneous input 'T' expecting <EOF>`, more are
 *    `mismatched input 'T' expecting <EOF>`;
 *  - a map entry's (or the ternary's) ':' missing before an operand is conjured (`missing ':' at
 *    'T'`); missing before the map's '}' it is `mismatched input '}' expecting ':'` and the visitor
 *    leaves the entry out;
 *  - a '.' followed by no name is `no viable alternative at input '.T'`: the member rule returns
 *    what it had before the dot and the recovery skips to a token of the follow sets (reproduced
 *    where that is the end of the text, or the innermost construct's closing token or comma);
 *  - cel-go's visitor then builds what was parsed, and reports what it reports on any tree (macro
 *    arguments such as has()'s): crdx closes the text as the recovery left it (a placeholder
 *    operand, the closing tokens) and takes the port's issues that lie before the errors.
 *
 * Written from the ATN's behaviour and checked against cel-go 0.29.2's output
 * (test/schema/cel/syntax-errors.test.ts, test/conformance/cel-syntax.conformance.test.ts; 0.17.8 and 0.26 give the same texts but for backticks
 * and, before 0.23, '%': see celGoSyntaxErrorText). Anything outside these shapes gives undefined:
 * the caller keeps its own wording and must not present it as the server's.
 */
import { ALL_MACROS, lexCel, parseCel, type MacroSet, type ParseIssue, type Tok } from './ast.js';
import { formatIssues } from './check.js';

/** ANTLR token types (CEL.tokens) of what the messages list, for their order. */
const TYPE: Record<string, number> = {
  "'['": 10, "']'": 11, "'{'": 12, "'}'": 13, "'('": 14, "')'": 15, "'.'": 16, "','": 17, "'-'": 18, "'!'": 19, "'?'": 20,
  "'true'": 26, "'false'": 27, "'null'": 28, NUM_FLOAT: 31, NUM_INT: 32, NUM_UINT: 33, STRING: 34, BYTES: 35, IDENTIFIER: 36, ESC_IDENTIFIER: 37,
};
/** What may start an operand (FIRST of unary). */
const OPERAND = ["'['", "'{'", "'('", "'.'", "'-'", "'!'", "'true'", "'false'", "'null'", 'NUM_FLOAT', 'NUM_INT', 'NUM_UINT', 'STRING', 'BYTES', 'IDENTIFIER'];

function tokenSet(names: readonly string[]): string {
  const sorted = [...new Set(names)].sort((a, b) => TYPE[a]! - TYPE[b]!);
  return sorted.length === 1 ? sorted[0]! : `{${sorted.join(', ')}}`;
}

/** ANTLR's display of a token's text in a parser error (a lexer error shows its text as it is). */
function display(s: string): string {
  return s.replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
}

/** A token as the follow sets name it: an operator's text, 'in', '<EOF>', else its kind (never an operator). */
function tokType(t: Tok): string {
  if (t.kind === 'eof') return '<EOF>';
  if (t.kind === 'op' || (t.kind === 'ident' && t.text === 'in')) return t.text;
  return `#${t.kind}`;
}

/** The frame of a ternary's middle operand (its close: what completes the ternary). */
const TERNARY = ' : 0';

const BINARY = new Set(['==', '!=', '<', '<=', '>=', '>', '&&', '||', '+', '-', '*', '/', '%']);

/** Where the cut text stops: an operand is wanted (with the extra tokens the grammar also allows there), or a token. */
type Need =
  | { readonly kind: 'operand'; readonly extra: readonly string[] }
  | { readonly kind: 'unary'; readonly run: readonly Tok[] }
  | { readonly kind: 'dot'; readonly dot: Tok; readonly optional: boolean; readonly leading: boolean }
  | { readonly kind: 'token'; readonly tok: string; readonly set: readonly string[]; readonly lastOfFrame: boolean };

/** An open construct: the text that closes it (for the completion) and whether it still needs a token. */
interface Frame {
  readonly close: string;
  readonly requires: boolean;
  /** For a has( call: where its argument starts. */
  readonly hasArg?: number;
  /** For a map entry's key (up to its ':'): where the entry starts. */
  readonly entryStart?: number;
  /** A call's arguments, a list's or a map's entries: ',' separates them. */
  readonly commas?: boolean;
  /** An index or a member call's arguments: part of the member rule (a global call's, a list, a map or parentheses: of primary). */
  readonly member?: boolean;
}

/** The recogniser stops: at the end of the tokens (`at` undefined), or at a stray token (`at`) the recovery does not get past. */
class Cut extends Error {
  constructor(
    readonly need: Need,
    readonly at?: Tok,
  ) {
    super('cut');
  }
}

/**
 * cel-go stops a recovery that would skip more tokens than this (and reports it without a
 * location, then visits nothing): not reproduced.
 */
const RECOVERY_LOOKAHEAD = 256;

function startsOperand(t: Tok): boolean {
  if (t.kind === 'op') return ['[', '{', '(', '.', '-', '!'].includes(t.text);
  return (t.kind === 'ident' && t.text !== 'in') || t.kind === 'int' || t.kind === 'uint' || t.kind === 'double' || t.kind === 'string' || t.kind === 'bytes';
}

/** Tokens ANTLR's recovery never stops at (in no follow set of the grammar's rules): it skips them to the end. */
function skipped(t: Tok): boolean {
  // '!' only ever opens an operand, after no rule: in no follow set either
  if (t.kind === 'op') return t.text === '!';
  return (t.kind === 'ident' && t.text !== 'in') || t.kind === 'int' || t.kind === 'uint' || t.kind === 'double' || t.kind === 'string' || t.kind === 'bytes';
}
class Unsure extends Error {}
/** Unwinds a ternary whose ':' met a '?' (Recogniser.nestedTernary) to the expression that began it. */
class Resync extends Error {}

/**
 * A recogniser of cel-go's grammar over the port's tokens that knows, where the tokens end, what the
 * grammar wanted next and which constructs are open. It only needs to be right on texts the port
 * parses up to their end.
 */
class Recogniser {
  pos = 0;
  readonly frames: Frame[] = [];
  /**
   * A closing token where an operand is wanted, with what was expected (the visitor sees no operand:
   * the port is given a placeholder). Or a map entry's ':' missing: before an operand ANTLR conjures
   * it (`missing`), before the map's '}' the visitor drops the entry (`dropFrom`, where it starts).
   */
  stray: { readonly tok: Tok; readonly set: readonly string[]; readonly missing?: boolean; readonly dropFrom?: number } | undefined;
  /**
   * A '.' followed by no name (`no viable alternative at input '.T'`): the member ends before the dot
   * and the recovery skips to `stop`, a token that may follow an operand there.
   */
  dotted: { readonly dot: Tok; readonly at: Tok; readonly stop: Tok } | undefined;
  /** Stray tokens deleted before a closing token (`extraneous input`), with what was expected. */
  readonly deleted: { readonly tok: Tok; readonly set: readonly string[] }[] = [];
  /**
   * A ternary inside a bracket met a '?' where its ':' was wanted (`a ? b ? c : d : e` in a call's
   * arguments, a list, a map's value, parentheses or an index): the recovery stops at that '?' at
   * once (the expression around the bracket may go on with one), the bracket's closing token is
   * conjured silently before it (`pending` until then) and that expression takes the '?' as its own
   * ternary. `closer`: the bracket's closing token.
   */
  resync: { readonly tok: Tok; readonly closer: string; pending: boolean } | undefined;
  /** A closing token conjured before a token that may follow it (`missing ')' at 'T'`). */
  readonly inserted: { readonly tok: Tok; readonly closer: string }[] = [];
  /**
   * A stray token where a closing token was wanted (`mismatched input 'T' expecting …`): the rule
   * recovered by skipping up to `stop`, which the level outside takes; the construct is left without
   * its closing token.
   */
  readonly mismatched: { readonly tok: Tok; readonly set: readonly string[]; readonly closer: string; readonly stop: Tok }[] = [];
  constructor(private readonly toks: readonly Tok[]) {}

  private peek(k = 0): Tok {
    return this.toks[Math.min(this.pos + k, this.toks.length - 1)]!;
  }
  private isOp(text: string): boolean {
    const t = this.peek();
    return t.kind === 'op' && t.text === text;
  }
  private atEof(): boolean {
    return this.peek().kind === 'eof';
  }
  /**
   * Where an operand (or one of `extra`) is wanted: the end of the tokens cuts; a stray token
   * followed by what is wanted is deleted (extraneous input), unless `strict`.
   */
  private operandOrCut(extra: readonly string[] = [], strict = false, closerOk = true): boolean {
    if (this.atEof()) throw new Cut({ kind: 'operand', extra });
    const wanted = (t: Tok): boolean => startsOperand(t) || (t.kind === 'op' && extra.includes(`'${t.text}'`));
    const t = this.peek();
    if (wanted(t)) return true;
    // the closing token of the construct, an operand missing before it ('()', 'a[]', 'f(a, )'):
    // mismatched input; the recovery stops at it and the construct closes (no operand)
    const inner = this.frames[this.frames.length - 1];
    // (when what follows it is wanted, the sync deletes it first: below)
    if (closerOk && t.kind === 'op' && inner?.close === t.text && !wanted(this.peek(1))) {
      if (this.stray?.tok === t) return false;
      if (this.stray !== undefined) throw new Unsure();
      this.stray = { tok: t, set: [...OPERAND, ...extra] };
      return false;
    }
    // an operator the recovery stops at, then the end: cel-go resumes there, takes the operator
    // and wants its operand at the end
    if (!strict && this.peek(1).kind === 'eof' && ((t.kind === 'op' && (BINARY.has(t.text) || t.text === '?')) || (t.kind === 'ident' && t.text === 'in')))
      throw new Cut({ kind: 'operand', extra }, t);
    if (strict || !wanted(this.peek(1))) throw new Unsure();
    this.deleted.push({ tok: t, set: [...OPERAND, ...extra] });
    this.pos++;
    return true;
  }
  private close(text: string, set: readonly string[]): void {
    const need: Need = { kind: 'token', tok: text, set, lastOfFrame: text !== ':' };
    if (this.atEof()) throw new Cut(need);
    if (this.isOp(text)) {
      this.pos++;
      return;
    }
    if (this.resync?.pending === true && this.peek() === this.resync.tok) {
      // the recovery's conjured closing token (in recovery mode, so unreported)
      if (text !== this.resync.closer) throw new Unsure();
      this.resync.pending = false;
      return;
    }
    // a stray token before a closing token: deleted (extraneous input), or (when all that follows is
    // skipped by the recovery to the end) the one error, mismatched input
    const t = this.peek();
    const next = this.peek(1);
    if (text === ':') {
      if (next.kind === 'op' && next.text === ':') {
        this.deleted.push({ tok: t, set });
        this.pos += 2;
        return;
      }
      if (this.stray !== undefined) throw new Unsure();
      // what follows ':' may start here: ANTLR conjures the ':' (`missing ':' at 'T'`)
      if (startsOperand(t)) {
        this.stray = { tok: t, set, missing: true };
        return;
      }
      // {…, k}: mismatched input '}'; the map closes, its visitor leaves out the entry without ':'
      const key = this.frames[this.frames.length - 1];
      if (key?.entryStart !== undefined && t.kind === 'op' && t.text === '}' && this.frames[this.frames.length - 2]?.close === '}') {
        this.stray = { tok: t, set, dropFrom: key.entryStart };
        return;
      }
      if (t.kind === 'op' && t.text === '?' && key?.close === TERNARY) this.nestedTernary(t, need);
      throw new Unsure();
    }
    if (next.kind === 'op' && next.text === text) {
      this.deleted.push({ tok: t, set });
      this.pos += 2;
      return;
    }
    const n = this.frames.length;
    const f = this.frames[n - 1]!;
    // a list's or a map's: the sync before its optional ',' would delete the token before a ','
    // (then wants the closing token again): not reproduced
    const viaSync = f.close === '}' || (f.close === ']' && f.commas === true);
    if (viaSync && next.kind === 'op' && next.text === ',') throw new Unsure();
    // match() of ')' or an index's ']': single-token insertion when the token may follow the closer
    if (!viaSync && this.followsConstruct(n - 1).has(tokType(t))) {
      this.inserted.push({ tok: t, closer: text });
      return;
    }
    // mismatched input: the rule recovers, skipping to a token of the follow sets of the rules on the stack
    const recovery = this.recoverySet(n - 1);
    let k = this.pos;
    while (!recovery.has(tokType(this.toks[k]!))) k++;
    if (k - this.pos > RECOVERY_LOOKAHEAD) throw new Unsure();
    const stop = this.toks[k]!;
    if (stop.kind === 'eof') throw new Cut(need, t);
    if (!this.resumesAt(n - 1, stop)) throw new Unsure();
    this.mismatched.push({ tok: t, set, closer: text, stop });
    this.pos = k;
  }

  /** The tokens that may follow the construct of frame i (nextTokens after its closing token, in context). */
  private followsConstruct(i: number): Set<string> {
    const out = new Set<string>(['.', '[', ...BINARY, 'in']);
    const outer = this.frames[i - 1];
    if (outer?.close === TERNARY) out.add(':');
    else {
      out.add('?');
      for (const x of this.closersOf(outer)) out.add(x);
    }
    return out;
  }

  /** What follows the expression directly inside frame f (the end of the text at the top). */
  private closersOf(f: Frame | undefined): string[] {
    if (f === undefined) return ['<EOF>'];
    if (f.close === ': 0') return [':'];
    return f.commas === true ? [f.close, ','] : [f.close];
  }

  /**
   * ANTLR's error recovery set for an error in the rule of frame i's construct: the follow sets of
   * the invoking states of every rule on the stack. Operators from the levels between the
   * brackets, '.' and '[' from every primary (member loop), '?' from an expression entered by its
   * first operand, ':' from a ternary's middle operand and a map key, the brackets' own tokens, the end.
   */
  private recoverySet(i: number): Set<string> {
    // (the end: the follow of the top expression, whatever path leads there)
    const out = new Set<string>([...BINARY, 'in', '<EOF>']);
    for (let j = i; j >= 0; j--) {
      const f = this.frames[j]!;
      if (f.close !== TERNARY && f.close !== ': 0' && f.member !== true) out.add('.').add('[');
      const outer = this.frames[j - 1];
      if (f.close === TERNARY) {
        out.add(':');
        continue;
      }
      if (outer?.close !== TERNARY) out.add('?');
      for (const x of this.closersOf(outer)) out.add(x);
    }
    return out;
  }

  /**
   * Whether the recogniser goes on as ANTLR does after frame i's rule recovered at `stop`: the
   * token is taken by the level just outside it (an operator, a member's '.' or '[' after a
   * primary, the '?' of the expression around it, the ':' of the ternary or map key around it,
   * the ',' or closing token of the bracket around it), which ends the recovery mode.
   */
  private resumesAt(i: number, stop: Tok): boolean {
    const f = this.frames[i]!;
    const x = tokType(stop);
    if (BINARY.has(x) || x === 'in') return true;
    // (a '.' is taken when the member loop's prediction sees a name after it; else its failure is
    // still in recovery mode, unreported, and the recogniser would report it)
    if (x === '[') return f.member !== true;
    if (x === '.') {
      const k = this.toks.indexOf(stop);
      const after = this.toks[k + 1]!;
      return f.member !== true && ((after.kind === 'ident' && !['in', 'true', 'false', 'null'].includes(after.text)) || after.kind === 'escident');
    }
    const outer = this.frames[i - 1];
    if (x === '?') return outer?.close !== TERNARY;
    if (outer === undefined) return false;
    if (x === ':') return outer.close === TERNARY || outer.close === ': 0';
    return outer.close !== TERNARY && outer.close !== ': 0' && this.closersOf(outer).includes(x);
  }
  /**
   * `a ? b ? …`: the ternary's ':' wanted, a '?' there (mismatched input '?' expecting ':'). The
   * expression rule reports it and recovers: it skips to a token of the follow sets of the rules on
   * the stack. At the top that is only the end (one error; the rest is skipped). Inside a bracket
   * whose expression may itself go on with a '?' (it is not a ternary's middle operand) the '?' is
   * one, so nothing is skipped: the bracket's closing token is conjured before it (silently, still in
   * recovery mode) and that expression takes the '?' (see `resync`). Other shapes: not reproduced.
   */
  private nestedTernary(q: Tok, need: Need): never {
    const n = this.frames.length;
    if (this.resync !== undefined || this.frames.some((f) => f.hasArg !== undefined)) throw new Unsure();
    if (n === 1) {
      const rest = this.toks.slice(this.pos, -1);
      if (rest.length > RECOVERY_LOOKAHEAD) throw new Unsure();
      throw new Cut(need, q);
    }
    const bracket = this.frames[n - 2]!;
    const around = this.frames[n - 3];
    if (!(bracket.close === ')' || bracket.close === ']' || bracket.close === '}') || around?.close === TERNARY) throw new Unsure();
    this.resync = { tok: q, closer: bracket.close, pending: true };
    throw new Resync();
  }
  private frame<T>(f: Frame, body: () => T): T {
    this.frames.push(f);
    const out = body();
    this.frames.pop();
    return out;
  }

  /** Open expressions: cel-go's parser stops at 250 (the port says so itself); deeper, crdx words it. */
  private depth = 0;

  expr(): void {
    if (++this.depth > 250) throw new Unsure();
    try {
      this.exprBody();
    } finally {
      this.depth--;
    }
  }

  private exprBody(): void {
    if (!this.operandOrCut()) return;
    this.cond();
    if (!this.isOp('?')) return;
    this.pos++;
    try {
      this.frame({ close: TERNARY, requires: true }, () => {
        this.operandOrCut();
        this.cond();
        this.close(':', ["':'"]);
      });
    } catch (e) {
      // the ':' met a '?': this ternary ends without it (and without its third operand)
      if (!(e instanceof Resync)) throw e;
      this.frames.pop();
      return;
    }
    this.expr();
  }

  private cond(): void {
    this.unary();
    for (;;) {
      const t = this.peek();
      if (!((t.kind === 'op' && BINARY.has(t.text)) || (t.kind === 'ident' && t.text === 'in'))) return;
      this.pos++;
      if (!this.operandOrCut()) return;
      this.unary();
    }
  }

  private unary(): void {
    const run: Tok[] = [];
    while (this.isOp('!') || this.isOp('-')) run.push(this.toks[this.pos++]!);
    if (run.length > 0 && this.atEof()) throw new Cut({ kind: 'unary', run });
    // a '-' before a number is its sign
    this.member();
  }

  private member(): void {
    this.primary();
    for (;;) {
      if (this.isOp('.')) {
        const dot = this.toks[this.pos++]!;
        const optional = this.isOp('?');
        if (optional) this.pos++;
        if (this.atEof()) throw new Cut({ kind: 'dot', dot, optional, leading: false });
        const name = this.peek();
        if (name.kind !== 'ident' && name.kind !== 'escident') {
          if (optional) throw new Unsure();
          this.noName(dot, name);
          return;
        }
        this.pos++;
        // a.b{…: a message construction, not reproduced
        if (this.isOp('{')) throw new Unsure();
        if (!optional && name.kind === 'ident' && this.isOp('(')) {
          this.pos++;
          this.args(undefined, true);
        }
        continue;
      }
      if (this.isOp('[')) {
        this.pos++;
        this.frame({ close: ']', requires: true, member: true }, () => {
          this.operandOrCut(["'?'"], true);
          if (this.isOp('?')) {
            this.pos++;
            this.operandOrCut([], true, false);
          }
          this.expr();
          this.close(']', ["']'"]);
        });
        continue;
      }
      return;
    }
  }

  /**
   * `a.` then no name: ANTLR's prediction of the member loop fails at `at` (no viable alternative);
   * the member rule reports it and returns what it had before the dot, after skipping to a token of
   * the follow sets of the rules on the stack. Only stops where the recogniser goes on as ANTLR
   * does: the end of the text at the top, or the innermost construct's closing token or comma.
   */
  private noName(dot: Tok, at: Tok): void {
    if (this.dotted !== undefined) throw new Unsure();
    const closers = new Set(this.frames.map((f) => f.close.trim().split(' ')[0]!));
    const inFollow = (t: Tok): boolean =>
      t.kind === 'eof' ||
      (t.kind === 'ident' && t.text === 'in') ||
      (t.kind === 'op' && (BINARY.has(t.text) || t.text === '?' || closers.has(t.text) || (t.text === ',' && this.frames.length > 0)));
    let k = this.pos;
    while (!inFollow(this.toks[k]!)) k++;
    if (k - this.pos > RECOVERY_LOOKAHEAD) throw new Unsure();
    const stop = this.toks[k]!;
    const inner = this.frames[this.frames.length - 1];
    // (an operator or a ':' there: cel-go's recovery is not the one described, as measured inside
    // parentheses; a has() argument: cel-go reports the macro at the argument, the port elsewhere)
    const goesOn =
      (stop.kind === 'eof' && inner === undefined) ||
      (stop.kind === 'op' && inner !== undefined && ((stop.text === inner.close && inner.close.length === 1) || (stop.text === ',' && inner.commas === true)));
    if (!goesOn || this.frames.some((f) => f.hasArg !== undefined)) throw new Unsure();
    this.dotted = { dot, at, stop };
    this.pos = k;
  }

  /** After a call's '(': exprList? ')'. */
  private args(hasArg: number | undefined, member = false): void {
    this.frame({ close: ')', requires: true, commas: true, ...(hasArg !== undefined ? { hasArg } : {}), ...(member ? { member } : {}) }, () => {
      this.operandOrCut(["')'"]);
      if (this.isOp(')')) {
        this.pos++;
        return;
      }
      for (;;) {
        this.expr();
        if (!this.isOp(',')) break;
        this.pos++;
        this.operandOrCut();
      }
      this.close(')', ["')'"]);
    });
  }

  private primary(): void {
    const t = this.peek();
    if (t.kind === 'op' && t.text === '.') {
      this.pos++;
      if (this.atEof()) throw new Cut({ kind: 'dot', dot: t, optional: false, leading: true });
      if (this.peek().kind !== 'ident') throw new Unsure();
      this.identOrCall(this.toks[this.pos++]!, true);
      return;
    }
    if (t.kind === 'ident') {
      this.pos++;
      if (t.text === 'true' || t.text === 'false' || t.text === 'null') return;
      if (t.text === 'in') throw new Unsure();
      this.identOrCall(t, false);
      return;
    }
    if (t.kind === 'op' && t.text === '(') {
      this.pos++;
      this.frame({ close: ')', requires: true }, () => {
        this.expr();
        this.close(')', ["')'"]);
      });
      return;
    }
    if (t.kind === 'op' && t.text === '[') {
      this.pos++;
      this.frame({ close: ']', requires: true, commas: true }, () => this.entries(']', false));
      return;
    }
    if (t.kind === 'op' && t.text === '{') {
      this.pos++;
      this.frame({ close: '}', requires: true, commas: true }, () => this.entries('}', true));
      return;
    }
    if (t.kind === 'op' && t.text === '-') {
      this.pos++;
      const n = this.peek();
      if (n.kind !== 'int' && n.kind !== 'double') throw new Unsure();
      this.pos++;
      return;
    }
    if (t.kind === 'int' || t.kind === 'uint' || t.kind === 'double' || t.kind === 'string' || t.kind === 'bytes') {
      this.pos++;
      return;
    }
    throw new Unsure();
  }

  /** A list's or a map's entries up to its closing token. */
  private entries(closer: string, isMap: boolean): void {
    const q = `'${closer}'`;
    this.operandOrCut([q, "','", "'?'"], true);
    if (this.isOp(closer)) {
      this.pos++;
      return;
    }
    // [, …: the comma before the closing token
    if (this.isOp(',')) {
      this.pos++;
      this.close(closer, [q]);
      return;
    }
    for (;;) {
      const entryStart = this.peek().offset;
      if (this.isOp('?')) {
        this.pos++;
        this.operandOrCut([], true, false);
      }
      this.operandOrCut([], true);
      if (isMap) {
        this.frame({ close: ': 0', requires: true, entryStart }, () => {
          this.expr();
          this.close(':', ["':'"]);
        });
        this.operandOrCut([], true);
      }
      this.expr();
      if (!this.isOp(',')) {
        this.close(closer, [q, "','"]);
        return;
      }
      this.pos++;
      if (this.atEof()) throw new Cut({ kind: 'token', tok: closer, set: [q], lastOfFrame: true });
      if (this.isOp(closer)) {
        this.pos++;
        return;
      }
    }
  }

  private identOrCall(name: Tok, leadingDot: boolean): void {
    if (this.isOp('(')) {
      this.pos++;
      // has() is the one macro whose argument the visitor looks at while it is cut
      this.args(name.text === 'has' && !leadingDot ? this.peek().offset : undefined);
      return;
    }
    // message construction: not reproduced
    if (this.isOp('{')) throw new Unsure();
  }
}

const ESC_CHARS = new Set(['a', 'b', 'f', 'n', 'r', 't', 'v', '"', "'", '\\', '?', '`']);
const isHexDigit = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/**
 * Where cel-go's lexer gives up on the (plain, one-quote) string opening at `qi`: the index of the
 * character no rule takes (the text's length at its end), or -1 when the string closes.
 */
function stringFailure(src: readonly string[], qi: number): number {
  const q = src[qi];
  let k = qi + 1;
  const digits = (n: number, ok: (c: string | undefined) => boolean): number => {
    for (let j = 0; j < n; j++) if (!ok(src[k + j])) return k + j;
    k += n;
    return -1;
  };
  for (;;) {
    if (k >= src.length) return src.length;
    const c = src[k]!;
    if (c === q) return -1;
    if (c === '\n' || c === '\r') return k;
    if (c !== '\\') {
      k++;
      continue;
    }
    const e = src[k + 1];
    if (e === undefined) return src.length;
    k += 2;
    let f = -1;
    if (ESC_CHARS.has(e)) continue;
    if (e >= '0' && e <= '3') f = digits(2, (d) => d !== undefined && d >= '0' && d <= '7');
    else if (e === 'x' || e === 'X') f = digits(2, isHexDigit);
    else if (e === 'u') f = digits(4, isHexDigit);
    else if (e === 'U') f = digits(8, isHexDigit);
    else return k - 1;
    if (f >= 0) return f;
  }
}

/** Blanks code points (keeping line breaks, so positions hold). */
function blank(src: string[], from: number, to: number): void {
  for (let i = from; i < to && i < src.length; i++) if (src[i] !== '\n') src[i] = ' ';
}

/**
 * cel-go's error text (`ERROR: <input>:L:C: …` with the caret lines, every error in cel-go's order)
 * for a text its parser rejects, when crdx is sure it reproduces it; else undefined. The grammar is
 * cel-go 0.23+'s (backticks are tokens); `macros` as the environment has them.
 */
export function celGoSyntaxErrorText(text: string, macros: MacroSet = ALL_MACROS): string | undefined {
  // before cel-go 0.23 a backtick is no token, and a syntax error's text went through Sprintf as the format (a '%' in it is mangled)
  const before023 = macros.escapeTokens === false;
  if (before023 && text.includes('`')) return undefined;
  try {
    const issues = syntaxIssues(text, macros);
    if (issues === undefined || issues.length === 0) return undefined;
    if (before023 && issues.some((i) => i.message.startsWith('Syntax error:') && i.message.includes('%'))) return undefined;
    return formatIssues(Array.from(text), issues);
  } catch (e) {
    if (e instanceof Unsure) return undefined;
    throw e;
  }
}

function syntaxIssues(text: string, macros: MacroSet): ParseIssue[] | undefined {
  const src = Array.from(text);
  const work = [...src];
  const out: ParseIssue[] = [];
  // what the lexer skipped belongs to no token: no token text shows it
  const gone = new Array<boolean>(src.length).fill(false);
  const skip = (from: number, to: number): void => {
    blank(work, from, to);
    for (let i = from; i < to && i < src.length; i++) gone[i] = true;
  };
  const tokenText = (from: number, to = src.length): string => display(src.filter((_, i) => i >= from && i < to && !gone[i]).join(''));
  // the lexer: skip what no token matches, as ANTLR's lexer recovers
  let toks: readonly Tok[] | undefined;
  for (let n = 0; toks === undefined; n++) {
    if (n > 20) return undefined;
    const l = lexCel(work);
    if (l.ok) {
      toks = l.toks;
      break;
    }
    const o = l.error.offset;
    const c = work[o]!;
    if (l.error.message.startsWith('token recognition error')) {
      if (c === '`') return undefined;
      // '&', '|', '=' begin a two-character token: the lexer fails on (and skips) the next character too
      const width = (c === '&' || c === '|' || c === '=') && o + 1 < work.length ? 2 : 1;
      out.push({ offset: o, message: `Syntax error: token recognition error at: '${work.slice(o, o + width).join('')}'` });
      skip(o, o + width);
      continue;
    }
    if (l.error.message === 'unterminated string literal' || l.error.message === 'unable to unescape string') {
      // r/b prefixes: the lexer falls back to the identifier they spell and lexes the quote anew
      let qi = o;
      while (qi < o + 2 && /^[rRbB]$/.test(work[qi] ?? '')) qi++;
      const q = work[qi];
      if (q !== '"' && q !== "'") return undefined;
      // three quotes: the lexer falls back to the empty string of the first two (with the prefix)
      // and lexes the third anew
      if (work[qi + 1] === q) {
        if (work[qi + 2] !== q) return undefined;
        qi += 2;
      }
      const f = stringFailure(work, qi);
      if (f < 0) return undefined;
      const to = Math.min(f + 1, work.length);
      out.push({ offset: qi, message: `Syntax error: token recognition error at: '${work.slice(qi, to).join('')}'` });
      skip(qi, to);
      continue;
    }
    return undefined;
  }
  const body = work.join('');
  const whole = parseCel(body, macros);
  if (whole.ok) {
    out.push(...whole.issues);
    return out;
  }
  // a reserved word as a name (cel-go rewords its no viable alternative); 'in' is a token of its own
  if (/reserved identifier/.test(whole.syntaxError.message) && whole.syntaxError.message !== 'reserved identifier: in') return undefined;
  // nested past cel-go's recursion limit: the port's own error
  if (whole.syntaxError.message.startsWith('expression recursion limit exceeded')) return undefined;
  const r = new Recogniser(toks);
  const end = src.length;
  // the text the visitor sees: deleted tokens left out
  const seen = [...work];
  const noteDeleted = (): void => {
    for (const d of r.deleted) {
      out.push({ offset: d.tok.offset, message: `Syntax error: extraneous input '${display(d.tok.text)}' expecting ${tokenSet(d.set)}` });
      blank(seen, d.tok.offset, d.tok.offset + Array.from(d.tok.text).length);
    }
  };
  // a missing operand before a closing token: the visitor sees none; the port is given a placeholder
  // there, so only its issues before it are cel-go's
  const noteStray = (): number => {
    if (r.stray === undefined) return end;
    const t = display(r.stray.tok.text);
    out.push({ offset: r.stray.tok.offset, message: r.stray.missing ? `Syntax error: missing ':' at '${t}'` : `Syntax error: mismatched input '${t}' expecting ${tokenSet(r.stray.set)}` });
    return r.stray.tok.offset;
  };
  // a '.' with no name: the visitor sees the operand before it; the skipped tokens are no one's
  const noteDotted = (): void => {
    if (r.dotted === undefined) return;
    const { dot, at, stop } = r.dotted;
    out.push({ offset: at.offset, message: `Syntax error: no viable alternative at input '${tokenText(dot.offset, at.offset + Array.from(at.text).length)}'` });
    blank(seen, dot.offset, stop.offset);
  };
  // a ternary's ':' that met a '?' inside a bracket: that error, then the visitor sees the ternary
  // without its third operand and the bracket closed before the '?' (the port is given both)
  // and closing tokens conjured (`missing`), or left out after a mismatch whose recovery skipped
  // tokens (the visitor sees the construct without them: the port is given the closing token)
  const edits: { readonly at: number; readonly text: string }[] = [];
  const noteRecovered = (): number => {
    if (r.resync === undefined && r.inserted.length === 0 && r.mismatched.length === 0) return end;
    if (r.resync?.pending === true || r.stray !== undefined || r.dotted !== undefined || r.deleted.length > 0) throw new Unsure();
    let first = end;
    if (r.resync !== undefined) {
      out.push({ offset: r.resync.tok.offset, message: "Syntax error: mismatched input '?' expecting ':'" });
      edits.push({ at: r.resync.tok.offset, text: TERNARY + r.resync.closer });
      first = Math.min(first, r.resync.tok.offset);
    }
    for (const i of r.inserted) {
      out.push({ offset: i.tok.offset, message: `Syntax error: missing '${i.closer}' at '${display(i.tok.text)}'` });
      edits.push({ at: i.tok.offset, text: i.closer });
      first = Math.min(first, i.tok.offset);
    }
    for (const m of r.mismatched) {
      out.push({ offset: m.tok.offset, message: `Syntax error: mismatched input '${display(m.tok.text)}' expecting ${tokenSet(m.set)}` });
      blank(seen, m.tok.offset, m.stop.offset);
      edits.push({ at: m.tok.offset, text: m.closer });
      first = Math.min(first, m.tok.offset);
    }
    return first;
  };
  const filled = (tail = ''): string => {
    if (edits.length > 0) {
      let t = [...seen];
      for (const e of [...edits].sort((a, b) => b.at - a.at)) t = [...t.slice(0, e.at), e.text, ...t.slice(e.at)];
      return t.join('') + tail;
    }
    if (r.stray === undefined) return seen.join('') + tail;
    const at = r.stray.tok.offset;
    if (r.stray.dropFrom !== undefined) {
      const kept = [...seen];
      blank(kept, r.stray.dropFrom, at);
      return kept.join('') + tail;
    }
    return seen.slice(0, at).join('') + (r.stray.missing ? ':' : '0') + seen.slice(at).join('') + tail;
  };
  try {
    r.expr();
  } catch (e) {
    if (!(e instanceof Cut)) throw e;
    const recoveredAt = noteRecovered();
    noteDeleted();
    noteDotted();
    const strayAt = Math.min(noteStray(), recoveredAt);
    const n = e.need;
    let completion = '';
    let limit = end;
    if (e.at !== undefined) {
      if (n.kind === 'token') {
        // a stray token where a closing token is wanted; the recovery skips it and the rest
        out.push({ offset: e.at.offset, message: `Syntax error: mismatched input '${display(e.at.text)}' expecting ${tokenSet(n.set)}` });
      } else if (n.kind === 'operand') {
        // an operator where an operand is wanted, then the end
        out.push({ offset: e.at.offset, message: `Syntax error: mismatched input '${display(e.at.text)}' expecting ${tokenSet([...OPERAND, ...n.extra])}` });
        out.push({ offset: end, message: `Syntax error: mismatched input '<EOF>' expecting ${tokenSet(OPERAND)}` });
        completion = ' 0';
      } else return undefined;
      limit = e.at.offset;
      blank(seen, limit, seen.length);
    } else
      switch (n.kind) {
        case 'operand':
          out.push({ offset: end, message: `Syntax error: mismatched input '<EOF>' expecting ${tokenSet([...OPERAND, ...n.extra])}` });
          // at the start of a call's arguments, a list or a map nothing was parsed: close it empty
          if (!n.extra.some((x) => x === "')'" || x === "']'" || x === "'}'")) completion = ' 0';
          break;
        case 'unary': {
          const last = n.run[n.run.length - 1]!;
          if (n.run.every((t) => t.text === '!')) out.push({ offset: end, message: `Syntax error: extraneous input '<EOF>' expecting ${tokenSet(OPERAND)}` });
          else if (last.text === '-' && n.run.slice(0, -1).every((t) => t.text === '!' || t.text === '-')) {
            out.push({ offset: end, message: `Syntax error: no viable alternative at input '${tokenText(last.offset)}'` });
            out.push({ offset: end, message: `Syntax error: mismatched input '<EOF>' expecting ${tokenSet(OPERAND)}` });
          } else return undefined;
          completion = ' 0';
          break;
        }
        case 'dot': {
          if (n.optional) return undefined;
          out.push({ offset: end, message: `Syntax error: no viable alternative at input '${tokenText(n.dot.offset)}'` });
          if (n.leading) {
            // has(.: cel-go reports the argument without a location
            if (r.frames.some((f) => f.hasArg !== undefined)) return undefined;
            completion = 'x';
          } else {
            // the member loop gives up before the dot: the visitor sees the operand without it
            // (has(a.: an identifier, no selection, for has())
            blank(seen, n.dot.offset, n.dot.offset + 1);
          }
          break;
        }
        case 'token': {
          const outerNeeds = r.frames.slice(0, -1).some((f) => f.requires);
          if (n.lastOfFrame && !outerNeeds && n.set.length === 1) out.push({ offset: end, message: `Syntax error: missing '${n.tok}' at '<EOF>'` });
          else out.push({ offset: end, message: `Syntax error: mismatched input '<EOF>' expecting ${tokenSet(n.set)}` });
          break;
        }
      }
    // what cel-go's visitor reports on the parsed part: the port's issues on the closed text, before the error
    for (let i = r.frames.length - 1; i >= 0; i--) completion += r.frames[i]!.close;
    // (after the stray closer, positions in the filled text are one off; no issue may lie there)
    if (strayAt < limit) {
      // (a stray closer's text is not kept apart from the cut one; recovered tokens' edits are)
      if (e.at !== undefined && r.stray !== undefined) return undefined;
      limit = strayAt;
    }
    const closed = parseCel(filled(completion), macros);
    if (!closed.ok) return undefined;
    for (const i of closed.issues) {
      if (i.offset >= limit) return undefined;
      out.push(i);
    }
    return out;
  }
  const recoveredAt = noteRecovered();
  noteDeleted();
  noteDotted();
  const strayAt = Math.min(noteStray(), recoveredAt);
  // a whole expression and more tokens
  const extra = toks[r.pos]!;
  if (extra.kind !== 'eof') {
    if (toks.length - 1 - r.pos > RECOVERY_LOOKAHEAD) return undefined;
    const single = toks[r.pos + 1]!.kind === 'eof';
    out.push({ offset: extra.offset, message: `Syntax error: ${single ? 'extraneous' : 'mismatched'} input '${display(extra.text)}' expecting <EOF>` });
    blank(seen, extra.offset, seen.length);
  } else if (r.deleted.length === 0 && r.stray === undefined && r.dotted === undefined && recoveredAt === end) return undefined;
  const parsed = parseCel(filled(), macros);
  if (!parsed.ok) return undefined;
  for (const i of parsed.issues) {
    if (i.offset >= strayAt) return undefined;
    out.push(i);
  }
  return out;
}
