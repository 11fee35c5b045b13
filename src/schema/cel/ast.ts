/**
 * Our CEL expression tree, shaped like cel-go's parsed AST (common/ast Expr), and a parser for it
 * that expands macros as cel-go's parser does (parser/macro.go; the two-variable comprehensions of
 * ext/comprehensions.go; optMap/optFlatMap of cel/library.go; sortBy of ext/lists.go).
 *
 * Ids are handed out in the order cel-go's parser hands them out (an operator's id after its left
 * operand, a call's id before its arguments, the nodes a macro builds after its arguments), and
 * every node records the offset (in code points) that cel-go records for it: the operator token of
 * a binary, unary or index expression, the `.` of a selection, the `(` of a member call, the
 * identifier of a global call, the `[`/`{` of a list/map literal, the first character of a
 * literal or identifier. Nodes a macro builds carry the offset of the macro call.
 *
 * Comprehension names as cel-go writes them: the accumulator is `@result` (cel-go's parser default,
 * HiddenAccumulatorName), optMap/optFlatMap/sortBy iterate over an empty list with iterVar
 * `#unused` and bind their value as the accumulator, sortBy's input is `@__sortBy_input__`.
 *
 * Syntax errors: the parser reports the first one (ParseResult.syntaxError) with its offset; the
 * text is ours, callers must not present it as the server's. cel-go's own texts (ANTLR's errors and
 * recovery) are syntax-errors.ts's, for the shapes it reproduces.
 */

export type Literal =
  | { readonly type: 'int'; readonly value: bigint }
  | { readonly type: 'uint'; readonly value: bigint }
  | { readonly type: 'double'; readonly value: number }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'bytes'; readonly value: Uint8Array }
  | { readonly type: 'bool'; readonly value: boolean }
  | { readonly type: 'null' };

interface Node {
  readonly id: number;
  /** Offset of the node in the expression, in code points (cel-go's location of the id). */
  readonly offset: number;
}

export interface IdentExpr extends Node {
  readonly kind: 'ident';
  readonly name: string;
}
export interface SelectExpr extends Node {
  readonly kind: 'select';
  readonly operand: Expr;
  readonly field: string;
  /** has(operand.field): a presence test. */
  readonly testOnly: boolean;
}
export interface CallExpr extends Node {
  readonly kind: 'call';
  /** The function name as cel-go names it: `_==_`, `_&&_`, `!_`, `-_`, `_[_]`, `_?._`, `_[?_]`, `@in`, `size`, … */
  readonly fn: string;
  readonly target: Expr | undefined;
  readonly args: readonly Expr[];
}
export interface LiteralExpr extends Node {
  readonly kind: 'literal';
  readonly value: Literal;
}
export interface ListExpr extends Node {
  readonly kind: 'list';
  readonly elements: readonly Expr[];
  /** Indices of `?elem` entries. */
  readonly optionalIndices: readonly number[];
}
export interface MapEntry extends Node {
  readonly key: Expr;
  readonly value: Expr;
  readonly optional: boolean;
}
export interface MapExpr extends Node {
  readonly kind: 'map';
  readonly entries: readonly MapEntry[];
}
export interface StructField extends Node {
  readonly field: string;
  readonly value: Expr;
  readonly optional: boolean;
}
/** A message construction `a.b.C{f: v}` (no message types exist in the CRD environment). */
export interface StructExpr extends Node {
  readonly kind: 'struct';
  readonly typeName: string;
  readonly fields: readonly StructField[];
}
export interface ComprehensionExpr extends Node {
  readonly kind: 'comprehension';
  readonly iterRange: Expr;
  readonly iterVar: string;
  /** The second variable of the two-variable forms (index or key first, then value). */
  readonly iterVar2: string | undefined;
  readonly accuVar: string;
  readonly accuInit: Expr;
  readonly loopCondition: Expr;
  readonly loopStep: Expr;
  readonly result: Expr;
}

export type Expr = IdentExpr | SelectExpr | CallExpr | LiteralExpr | ListExpr | MapExpr | StructExpr | ComprehensionExpr;

export const ACCU_VAR = '@result';
/** The accumulator name older cel-go used; iteration variables may not take it either. */
const LEGACY_ACCU_VAR = '__result__';
export const UNUSED_ITER_VAR = '#unused';

/** Which macro families the parser expands (the environment's libraries decide). */
export interface MacroSet {
  /** optMap / optFlatMap (optional types, compat 1.28). */
  readonly optionals: boolean;
  /** all/exists/existsOne/exists_one with two variables, transformList/Map/MapEntry (compat 1.32). */
  readonly twoVar: boolean;
  /** sortBy (ext lists v2+, compat 1.34). */
  readonly sortBy: boolean;
  /**
   * Backtick-escaped field names (``self.`x` ``, `has(self.`x`)`, ``self.?`x` ``): cel-go 0.29
   * (Kubernetes 1.37) accepts them; before, each is the parse error `unsupported syntax: '`'`.
   */
  readonly identEscapes?: boolean;
  /**
   * false: the grammar of cel-go before 0.23 (Kubernetes before 1.33), where a backtick is no token:
   * each one is the lexer's `Syntax error: token recognition error at: '`'`, skipped, and the rest
   * is parsed without it (as ANTLR recovers). Default true: a backtick opens an escaped name.
   */
  readonly escapeTokens?: boolean;
}

export const ALL_MACROS: MacroSet = { optionals: true, twoVar: true, sortBy: true };

export interface ParsedExpr {
  readonly expr: Expr;
  /** The source as code points (offsets index into it). */
  readonly source: readonly string[];
  /** Number of ids handed out (ids are 1..maxId). */
  readonly maxId: number;
}

export interface ParseIssue {
  readonly offset: number;
  readonly message: string;
}

export type ParseResult = { readonly ok: true; readonly parsed: ParsedExpr; readonly issues: readonly ParseIssue[] } | { readonly ok: false; readonly syntaxError: ParseIssue };

/** Words cel-go's lexer reads as tokens other than IDENTIFIER. */
const KEYWORD_TOKENS = new Set(['true', 'false', 'null', 'in']);

const RESERVED = new Set([
  'as', 'break', 'const', 'continue', 'else', 'false', 'for', 'function', 'if', 'import', 'in', 'let', 'loop', 'package', 'namespace', 'null', 'return', 'true', 'var', 'void', 'while',
]);

export type TokKind = 'ident' | 'escident' | 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'op' | 'eof';
export interface Tok {
  readonly kind: TokKind;
  readonly text: string;
  readonly offset: number;
  readonly value?: string | Uint8Array | bigint | number;
  /**
   * A string or bytes literal the grammar takes whose escapes cel-go's visitor cannot decode
   * (parser.unquote: `\u` in bytes, a code point that is no Unicode scalar value): its error.
   */
  readonly unescapeError?: string;
}

/** An escape the grammar (CEL.g4 ESC_SEQ) takes and cel-go's unescape refuses: reported by the visitor, at the literal. */
class UnescapeError extends Error {}

class SyntaxErr extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

const OPS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '+', '-', '*', '/', '%', '?', ':', '.', ',', '[', ']', '(', ')', '{', '}'];

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}
function isHex(c: string | undefined): boolean {
  return c !== undefined && c.length === 1 && ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
}
function isIdStart(c: string | undefined): boolean {
  return c !== undefined && c.length === 1 && (c === '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}
function isIdPart(c: string | undefined): boolean {
  return isIdStart(c) || isDigit(c);
}

function utf8(s: string): number[] {
  return [...new TextEncoder().encode(s)];
}

/** Decodes the body of a (non-raw) string or bytes literal as cel-go's unescape does. */
function unescape(body: readonly string[], isBytes: boolean, at: number): string | Uint8Array {
  const bytes: number[] = [];
  let str = '';
  const push = (s: string): void => {
    if (isBytes) bytes.push(...utf8(s));
    else str += s;
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      push(c);
      continue;
    }
    const n = body[++i];
    if (n === undefined) throw new SyntaxErr(at, 'unable to unescape string');
    const simpleEsc: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', "'": "'", '"': '"', '`': '`', '?': '?' };
    if (n in simpleEsc) {
      push(simpleEsc[n]!);
      continue;
    }
    const hex = (len: number): number => {
      const h = body.slice(i + 1, i + 1 + len).join('');
      if (h.length !== len || !/^[0-9a-fA-F]+$/.test(h)) throw new SyntaxErr(at, 'unable to unescape string');
      i += len;
      return parseInt(h, 16);
    };
    if (n === 'x' || n === 'X') {
      const v = hex(2);
      if (isBytes) bytes.push(v);
      else str += String.fromCodePoint(v);
      continue;
    }
    if (n === 'u' || n === 'U') {
      const v = hex(n === 'u' ? 4 : 8);
      if (isBytes) throw new UnescapeError('unable to unescape string');
      if (v > 0x10ffff || (v >= 0xd800 && v < 0xe000)) throw new UnescapeError('invalid unicode code point');
      str += String.fromCodePoint(v);
      continue;
    }
    if (n >= '0' && n <= '3') {
      const o = body.slice(i, i + 3).join('');
      if (!/^[0-3][0-7][0-7]$/.test(o)) throw new SyntaxErr(at, 'unable to unescape string');
      i += 2;
      const v = parseInt(o, 8);
      if (isBytes) bytes.push(v);
      else str += String.fromCodePoint(v);
      continue;
    }
    throw new SyntaxErr(at, 'unable to unescape string');
  }
  return isBytes ? new Uint8Array(bytes) : str;
}

function lex(src: readonly string[], noEscapeTokens?: ParseIssue[]): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '`' && noEscapeTokens) {
      noEscapeTokens.push({ offset: i, message: "Syntax error: token recognition error at: '`'" });
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    const start = i;
    // string / bytes literals with prefixes r, b (any order, any case)
    let j = i;
    let raw = false;
    let isBytes = false;
    while (j < src.length && j - i < 2 && /^[rRbB]$/.test(src[j]!)) {
      const p = src[j]!.toLowerCase();
      if (p === 'r') {
        if (raw) break;
        raw = true;
      } else {
        if (isBytes) break;
        isBytes = true;
      }
      j++;
    }
    if (src[j] === '"' || src[j] === "'") {
      const q = src[j]!;
      const triple = src[j + 1] === q && src[j + 2] === q;
      const delim = triple ? 3 : 1;
      let k = j + delim;
      const body: string[] = [];
      for (;;) {
        if (k >= src.length) throw new SyntaxErr(start, 'unterminated string literal');
        if (triple ? src[k] === q && src[k + 1] === q && src[k + 2] === q : src[k] === q) break;
        if (!triple && (src[k] === '\n' || src[k] === '\r')) throw new SyntaxErr(start, 'unterminated string literal');
        if (src[k] === '\\' && !raw) {
          body.push(src[k]!, src[k + 1] ?? '');
          k += 2;
          continue;
        }
        // in a raw string a backslash is a character like any other: the next quote ends it (CEL.g4
        // RAW '\'' ~('\''|'\n'|'\r')* '\''; cel-go reads r'\' == 'a' as comparing a backslash)
        body.push(src[k]!);
        k++;
      }
      const end = k + delim;
      let value: string | Uint8Array;
      let unescapeError: string | undefined;
      if (raw) value = isBytes ? new Uint8Array(utf8(body.join(''))) : body.join('');
      else {
        try {
          value = unescape(body, isBytes, start);
        } catch (e) {
          if (!(e instanceof UnescapeError)) throw e;
          value = isBytes ? new Uint8Array() : '';
          unescapeError = e.message;
        }
      }
      const text = src.slice(start, end).join('');
      toks.push({ kind: isBytes ? 'bytes' : 'string', text, offset: start, value, ...(unescapeError === undefined ? {} : { unescapeError }) });
      i = end;
      continue;
    }
    if (c === '`') {
      // ESC_IDENTIFIER: '`' (LETTER | DIGIT | '_' | '.' | '-' | '/' | ' ')+ '`'
      let k = i + 1;
      while (k < src.length && /^[A-Za-z0-9_.\-/ ]$/.test(src[k]!)) k++;
      if (k > i + 1 && src[k] === '`') {
        toks.push({ kind: 'escident', text: src.slice(i, k + 1).join(''), offset: start, value: src.slice(i + 1, k).join('') });
        i = k + 1;
        continue;
      }
    }
    if (isIdStart(c)) {
      let k = i + 1;
      while (isIdPart(src[k])) k++;
      toks.push({ kind: 'ident', text: src.slice(i, k).join(''), offset: start });
      i = k;
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1]))) {
      let k = i;
      if (c === '0' && (src[i + 1] === 'x' || src[i + 1] === 'X') && isHex(src[i + 2])) {
        k = i + 2;
        while (isHex(src[k])) k++;
        const digits = src.slice(i + 2, k).join('');
        if (src[k] === 'u' || src[k] === 'U') {
          toks.push({ kind: 'uint', text: src.slice(i, k + 1).join(''), offset: start, value: BigInt('0x' + digits) });
          i = k + 1;
        } else {
          toks.push({ kind: 'int', text: src.slice(i, k).join(''), offset: start, value: BigInt('0x' + digits) });
          i = k;
        }
        continue;
      }
      while (isDigit(src[k])) k++;
      let isDouble = false;
      if (src[k] === '.' && isDigit(src[k + 1])) {
        isDouble = true;
        k++;
        while (isDigit(src[k])) k++;
      }
      if ((src[k] === 'e' || src[k] === 'E') && (isDigit(src[k + 1]) || ((src[k + 1] === '+' || src[k + 1] === '-') && isDigit(src[k + 2])))) {
        isDouble = true;
        k += 2;
        while (isDigit(src[k])) k++;
      }
      const text = src.slice(i, k).join('');
      if (isDouble) {
        toks.push({ kind: 'double', text, offset: start, value: Number(text) });
        i = k;
      } else if (src[k] === 'u' || src[k] === 'U') {
        toks.push({ kind: 'uint', text: text + src[k], offset: start, value: BigInt(text) });
        i = k + 1;
      } else {
        toks.push({ kind: 'int', text, offset: start, value: BigInt(text) });
        i = k;
      }
      continue;
    }
    const two = c + (src[i + 1] ?? '');
    const op = OPS.find((o) => (o.length === 2 ? o === two : o === c));
    if (op === undefined) throw new SyntaxErr(start, `token recognition error at: '${c}'`);
    toks.push({ kind: 'op', text: op, offset: start });
    i += op.length;
  }
  toks.push({ kind: 'eof', text: '<EOF>', offset: src.length });
  return toks;
}

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

class Parser {
  private pos = 0;
  private nextId = 1;
  private depth = 0;
  readonly issues: ParseIssue[] = [];
  /** Relations chained to a relation: the offsets of the chain's start and of the operator. */
  readonly chains: [number, number][] = [];

  constructor(
    private readonly toks: readonly Tok[],
    private readonly macros: MacroSet,
  ) {}

  get maxId(): number {
    return this.nextId - 1;
  }

  private peek(k = 0): Tok {
    return this.toks[Math.min(this.pos + k, this.toks.length - 1)]!;
  }
  private isOp(text: string, k = 0): boolean {
    const t = this.peek(k);
    return t.kind === 'op' && t.text === text;
  }
  private take(): Tok {
    return this.toks[this.pos++]!;
  }
  private expectOp(text: string): Tok {
    const t = this.peek();
    if (t.kind !== 'op' || t.text !== text) throw new SyntaxErr(t.offset, `mismatched input '${t.text}' expecting '${text}'`);
    return this.take();
  }
  private id(): number {
    return this.nextId++;
  }

  parse(): Expr {
    const e = this.expr();
    const t = this.peek();
    if (t.kind !== 'eof') throw new SyntaxErr(t.offset, `extraneous input '${t.text}' expecting <EOF>`);
    return e;
  }

  private expr(): Expr {
    if (++this.depth > 250) throw new SyntaxErr(this.peek().offset, 'expression recursion limit exceeded: 250');
    try {
      const cond = this.or();
      if (!this.isOp('?')) return cond;
      const q = this.take();
      const id = this.id();
      const t = this.or();
      this.expectOp(':');
      const f = this.expr();
      return this.globalCallOrMacro(id, q.offset, '_?_:_', [cond, t, f]);
    } finally {
      this.depth--;
    }
  }

  private logic(fn: string, op: string, next: () => Expr): Expr {
    const first = next();
    const terms = [first];
    const ops: { id: number; offset: number }[] = [];
    while (this.isOp(op)) {
      const t = this.take();
      terms.push(next());
      ops.push({ id: this.id(), offset: t.offset });
    }
    if (ops.length === 0) return first;
    const balanced = (lo: number, hi: number): Expr => {
      const mid = Math.floor((lo + hi + 1) / 2);
      const left = mid === lo ? terms[mid]! : balanced(lo, mid - 1);
      const right = mid === hi ? terms[mid + 1]! : balanced(mid + 1, hi);
      const o = ops[mid]!;
      return { kind: 'call', id: o.id, offset: o.offset, fn, target: undefined, args: [left, right] };
    };
    return balanced(0, ops.length - 1);
  }

  private or(): Expr {
    return this.logic('_||_', '||', () => this.and());
  }
  private and(): Expr {
    return this.logic('_&&_', '&&', () => this.relation());
  }

  private relation(): Expr {
    const start = this.peek().offset;
    let lhs = this.calc(0);
    for (let n = 0; ; n++) {
      const t = this.peek();
      let fn: string | undefined;
      if (t.kind === 'op' && ['<', '<=', '>=', '>', '==', '!='].includes(t.text)) fn = `_${t.text}_`;
      else if (t.kind === 'ident' && t.text === 'in') fn = '@in';
      if (fn === undefined) return lhs;
      // a relation whose left operand is a relation (one precedence level, left to right)
      if (n > 0) this.chains.push([start, t.offset]);
      this.take();
      const id = this.id();
      const rhs = this.calc(0);
      lhs = this.globalCallOrMacro(id, t.offset, fn, [lhs, rhs]);
    }
  }

  private calc(level: number): Expr {
    const ops = level === 0 ? ['+', '-'] : ['*', '/', '%'];
    let lhs = level === 0 ? this.calc(1) : this.unary();
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'op' || !ops.includes(t.text)) return lhs;
      this.take();
      const id = this.id();
      const rhs = level === 0 ? this.calc(1) : this.unary();
      lhs = this.globalCallOrMacro(id, t.offset, `_${t.text}_`, [lhs, rhs]);
    }
  }

  private unary(): Expr {
    const t = this.peek();
    if (t.kind === 'op' && (t.text === '!' || t.text === '-')) {
      let n = 0;
      while (this.isOp(t.text, n)) n++;
      // a single '-' directly before a number literal is the literal's sign
      const lit = this.peek(n);
      if (t.text === '-' && n === 1 && (lit.kind === 'int' || lit.kind === 'double')) return this.member();
      this.pos += n;
      if (n % 2 === 0) return this.member();
      const id = this.id();
      const operand = this.member();
      return this.globalCallOrMacro(id, t.offset, t.text === '!' ? '!_' : '-_', [operand]);
    }
    return this.member();
  }

  private member(): Expr {
    let e = this.primary();
    for (;;) {
      if (this.isOp('.')) {
        const dot = this.take();
        const opt = this.isOp('?');
        if (opt) this.take();
        let name = this.peek();
        if (name.kind === 'escident' && !(this.isOp('(', 1) && !opt)) {
          // a field name only (a call needs a plain identifier)
          if (this.macros.identEscapes) name = { ...name, text: name.value as string };
          else {
            this.issues.push({ offset: name.offset, message: "unsupported syntax: '`'" });
            name = { ...name, text: '' };
          }
        } else if (name.kind !== 'ident') throw new SyntaxErr(name.offset, `no viable alternative at input '.${name.text}'`);
        // true, false, null and in are tokens of their own in cel-go's grammar, never a field name
        else if (KEYWORD_TOKENS.has(name.text)) throw new SyntaxErr(name.offset, `mismatched input '${name.text}' expecting IDENTIFIER`);
        this.take();
        if (!opt && this.isOp('(')) {
          const open = this.take();
          const id = this.id();
          const args = this.exprList(')');
          e = this.receiverCallOrMacro(id, open.offset, name.text, e, args);
          continue;
        }
        if (opt) {
          const field: Expr = { kind: 'literal', id: this.id(), offset: name.offset, value: { type: 'string', value: name.text } };
          e = { kind: 'call', id: this.id(), offset: dot.offset, fn: '_?._', target: undefined, args: [e, field] };
        } else {
          e = { kind: 'select', id: this.id(), offset: dot.offset, operand: e, field: name.text, testOnly: false };
        }
        continue;
      }
      if (this.isOp('[')) {
        const open = this.take();
        const id = this.id();
        const opt = this.isOp('?');
        if (opt) this.take();
        const index = this.expr();
        this.expectOp(']');
        e = this.globalCallOrMacro(id, open.offset, opt ? '_[?_]' : '_[_]', [e, index]);
        continue;
      }
      return e;
    }
  }

  private exprList(close: string): Expr[] {
    const out: Expr[] = [];
    if (this.isOp(close)) {
      this.take();
      return out;
    }
    for (;;) {
      out.push(this.expr());
      if (this.isOp(',')) {
        this.take();
        continue;
      }
      this.expectOp(close);
      return out;
    }
  }

  private primary(): Expr {
    const t = this.peek();
    if (t.kind === 'op' && t.text === '.' && this.peek(1).kind === 'ident') {
      this.take();
      return this.identOrCall(this.take(), '.', t.offset);
    }
    if (t.kind === 'ident') {
      if (t.text === 'true' || t.text === 'false') {
        this.take();
        return { kind: 'literal', id: this.id(), offset: t.offset, value: { type: 'bool', value: t.text === 'true' } };
      }
      if (t.text === 'null') {
        this.take();
        return { kind: 'literal', id: this.id(), offset: t.offset, value: { type: 'null' } };
      }
      this.take();
      return this.identOrCall(t, '', t.offset);
    }
    if (t.kind === 'op' && t.text === '(') {
      this.take();
      const e = this.expr();
      this.expectOp(')');
      return e;
    }
    if (t.kind === 'op' && t.text === '[') {
      this.take();
      const id = this.id();
      const elements: Expr[] = [];
      const optionalIndices: number[] = [];
      // the grammar's `'[' listInit? ','? ']'`: a lone comma is an empty list
      if (this.isOp(',') && this.isOp(']', 1)) this.take();
      while (!this.isOp(']')) {
        if (this.isOp('?')) {
          this.take();
          optionalIndices.push(elements.length);
        }
        elements.push(this.expr());
        if (this.isOp(',')) this.take();
        else break;
      }
      this.expectOp(']');
      return { kind: 'list', id, offset: t.offset, elements, optionalIndices };
    }
    if (t.kind === 'op' && t.text === '{') {
      this.take();
      const id = this.id();
      const entries: MapEntry[] = [];
      // `'{' mapInitializerList? ','? '}'`: a lone comma is an empty map
      if (this.isOp(',') && this.isOp('}', 1)) this.take();
      while (!this.isOp('}')) {
        let optional = false;
        if (this.isOp('?')) {
          this.take();
          optional = true;
        }
        const key = this.expr();
        const col = this.expectOp(':');
        const colId = this.id();
        const value = this.expr();
        entries.push({ id: colId, offset: col.offset, key, value, optional });
        if (this.isOp(',')) this.take();
        else break;
      }
      this.expectOp('}');
      return { kind: 'map', id, offset: t.offset, entries };
    }
    if (t.kind === 'op' && t.text === '-') {
      // a signed number literal
      this.take();
      const n = this.take();
      return this.number(n, true, t.offset);
    }
    if (t.kind === 'int' || t.kind === 'uint' || t.kind === 'double') {
      this.take();
      return this.number(t, false, t.offset);
    }
    if ((t.kind === 'string' || t.kind === 'bytes') && t.unescapeError !== undefined) this.issues.push({ offset: t.offset, message: t.unescapeError });
    if (t.kind === 'string') {
      this.take();
      return { kind: 'literal', id: this.id(), offset: t.offset, value: { type: 'string', value: t.value as string } };
    }
    if (t.kind === 'bytes') {
      this.take();
      return { kind: 'literal', id: this.id(), offset: t.offset, value: { type: 'bytes', value: t.value as Uint8Array } };
    }
    if (t.kind === 'eof') throw new SyntaxErr(t.offset, `mismatched input '<EOF>' expecting an expression`);
    throw new SyntaxErr(t.offset, `extraneous input '${t.text}'`);
  }

  /**
   * A number literal. One cel-go cannot convert (beyond int64, uint64 or float64: VisitInt, VisitUint,
   * VisitDouble) is an issue of the parse, which goes on, as the parser's visitor reports it; `--x`
   * drops both signs first (VisitNegate), so `--9223372036854775808` is such an int literal.
   */
  private number(t: Tok, negative: boolean, offset: number): Expr {
    if (t.kind === 'double') {
      const v = t.value as number;
      // Go's strconv.ParseFloat fails on a literal beyond the float64 range (it underflows to 0 without error)
      if (!Number.isFinite(v)) return this.literalError(offset, 'invalid double literal');
      return { kind: 'literal', id: this.id(), offset, value: { type: 'double', value: negative ? -v : v } };
    }
    if (t.kind === 'uint') {
      const v = t.value as bigint;
      if (v > UINT64_MAX) return this.literalError(offset, 'invalid uint literal');
      return { kind: 'literal', id: this.id(), offset, value: { type: 'uint', value: v } };
    }
    if (t.kind !== 'int') throw new SyntaxErr(t.offset, `no viable alternative at input '-${t.text}'`);
    const v = negative ? -(t.value as bigint) : (t.value as bigint);
    if (v < INT64_MIN || v > INT64_MAX) return this.literalError(offset, 'invalid int literal');
    return { kind: 'literal', id: this.id(), offset, value: { type: 'int', value: v } };
  }

  private literalError(offset: number, message: string): Expr {
    this.issues.push({ offset, message });
    return { kind: 'literal', id: this.id(), offset, value: { type: 'int', value: 0n } };
  }

  private identOrCall(name: Tok, lead: string, offset: number): Expr {
    if (RESERVED.has(name.text)) throw new SyntaxErr(offset, `reserved identifier: ${name.text}`);
    if (this.isOp('(')) {
      const open = this.take();
      const id = this.id();
      const args = this.exprList(')');
      return this.globalCallOrMacro(id, open.offset, lead + name.text, args);
    }
    // a message construction: a.b.C{...}
    if (this.isOp('{') && this.structAhead()) return this.struct(lead + name.text, offset);
    return { kind: 'ident', id: this.id(), offset: name.offset, name: lead + name.text };
  }

  /** After an identifier, `{` starts a message construction (never a map: a map needs an operator before it). */
  private structAhead(): boolean {
    return true;
  }

  private struct(typeName: string, offset: number): Expr {
    const open = this.take();
    const id = this.id();
    const fields: StructField[] = [];
    if (this.isOp(',') && this.isOp('}', 1)) this.take();
    while (!this.isOp('}')) {
      let optional = false;
      if (this.isOp('?')) {
        this.take();
        optional = true;
      }
      const f = this.take();
      if (f.kind !== 'ident') throw new SyntaxErr(f.offset, `mismatched input '${f.text}' expecting IDENTIFIER`);
      const col = this.expectOp(':');
      const colId = this.id();
      const value = this.expr();
      fields.push({ id: colId, offset: col.offset, field: f.text, value, optional });
      if (this.isOp(',')) this.take();
      else break;
    }
    this.expectOp('}');
    void offset;
    return { kind: 'struct', id, offset: open.offset, typeName, fields };
  }

  // --- macros -------------------------------------------------------------------------------

  private globalCallOrMacro(id: number, offset: number, fn: string, args: Expr[]): Expr {
    if (fn === 'has' && args.length === 1) {
      const a = args[0]!;
      if (a.kind !== 'select') return this.macroError(a, 'invalid argument to has() macro');
      return { kind: 'select', id: this.id(), offset, operand: a.operand, field: a.field, testOnly: true };
    }
    return { kind: 'call', id, offset, fn, target: undefined, args };
  }

  private macroError(at: Expr, message: string): Expr {
    this.issues.push({ offset: at.offset, message });
    return { kind: 'literal', id: this.id(), offset: at.offset, value: { type: 'null' } };
  }

  private receiverCallOrMacro(id: number, offset: number, fn: string, target: Expr, args: Expr[]): Expr {
    const m = this.macro(offset, fn, target, args);
    if (m !== undefined) return m;
    return { kind: 'call', id, offset, fn, target, args };
  }

  private mk = {
    lit: (offset: number, value: Literal): Expr => ({ kind: 'literal', id: this.id(), offset, value }),
    ident: (offset: number, name: string): Expr => ({ kind: 'ident', id: this.id(), offset, name }),
    accu: (offset: number): Expr => ({ kind: 'ident', id: this.id(), offset, name: ACCU_VAR }),
    call: (offset: number, fn: string, ...args: Expr[]): Expr => ({ kind: 'call', id: this.id(), offset, fn, target: undefined, args }),
    member: (offset: number, fn: string, target: Expr, ...args: Expr[]): Expr => ({ kind: 'call', id: this.id(), offset, fn, target, args }),
    list: (offset: number, ...elements: Expr[]): Expr => ({ kind: 'list', id: this.id(), offset, elements, optionalIndices: [] }),
    map: (offset: number): Expr => ({ kind: 'map', id: this.id(), offset, entries: [] }),
    compre: (
      offset: number,
      iterRange: Expr,
      iterVar: string,
      iterVar2: string | undefined,
      accuVar: string,
      accuInit: Expr,
      loopCondition: Expr,
      loopStep: Expr,
      result: Expr,
    ): Expr => ({ kind: 'comprehension', id: this.id(), offset, iterRange, iterVar, iterVar2, accuVar, accuInit, loopCondition, loopStep, result }),
  };

  /** A deep copy with fresh ids (cel-go's ExprHelper.Copy), for macros that use their target twice. */
  private copy(e: Expr): Expr {
    const c = (x: Expr): Expr => this.copy(x);
    switch (e.kind) {
      case 'ident':
        return { ...e, id: this.id() };
      case 'literal':
        return { ...e, id: this.id() };
      case 'select': {
        const operand = c(e.operand);
        return { ...e, operand, id: this.id() };
      }
      case 'call': {
        const target = e.target && c(e.target);
        const args = e.args.map(c);
        return { ...e, target, args, id: this.id() };
      }
      case 'list': {
        const elements = e.elements.map(c);
        return { ...e, elements, id: this.id() };
      }
      case 'map': {
        const entries = e.entries.map((en) => {
          const key = c(en.key);
          const value = c(en.value);
          return { ...en, key, value, id: this.id() };
        });
        return { ...e, entries, id: this.id() };
      }
      case 'struct': {
        const fields = e.fields.map((f) => ({ ...f, value: c(f.value), id: this.id() }));
        return { ...e, fields, id: this.id() };
      }
      case 'comprehension': {
        const iterRange = c(e.iterRange);
        const accuInit = c(e.accuInit);
        const loopCondition = c(e.loopCondition);
        const loopStep = c(e.loopStep);
        const result = c(e.result);
        return { ...e, iterRange, accuInit, loopCondition, loopStep, result, id: this.id() };
      }
    }
  }

  private iterVar(e: Expr, message = 'argument must be a simple name'): string | { error: Expr } {
    if (e.kind !== 'ident') return { error: this.macroError(e, message) };
    if (e.name === ACCU_VAR || e.name === LEGACY_ACCU_VAR) return { error: this.macroError(e, 'iteration variable overwrites accumulator variable') };
    return e.name;
  }

  private macro(off: number, fn: string, target: Expr, args: Expr[]): Expr | undefined {
    const n = args.length;
    const m = this.mk;
    const quantifier = (kind: 'all' | 'exists' | 'existsOne', v: string, v2: string | undefined, pred: Expr): Expr => {
      if (kind === 'all') {
        const init = m.lit(off, { type: 'bool', value: true });
        const cond = m.call(off, '@not_strictly_false', m.accu(off));
        const step = m.call(off, '_&&_', m.accu(off), pred);
        const result = m.accu(off);
        return m.compre(off, target, v, v2, ACCU_VAR, init, cond, step, result);
      }
      if (kind === 'exists') {
        const init = m.lit(off, { type: 'bool', value: false });
        const cond = m.call(off, '@not_strictly_false', m.call(off, '!_', m.accu(off)));
        const step = m.call(off, '_||_', m.accu(off), pred);
        const result = m.accu(off);
        return m.compre(off, target, v, v2, ACCU_VAR, init, cond, step, result);
      }
      const init = m.lit(off, { type: 'int', value: 0n });
      const cond = m.lit(off, { type: 'bool', value: true });
      const step = m.call(off, '_?_:_', pred, m.call(off, '_+_', m.accu(off), m.lit(off, { type: 'int', value: 1n })), m.accu(off));
      const result = m.call(off, '_==_', m.accu(off), m.lit(off, { type: 'int', value: 1n }));
      return m.compre(off, target, v, v2, ACCU_VAR, init, cond, step, result);
    };
    const twoVars = (): [string, string] | Expr => {
      const v1 = this.iterVar(args[0]!);
      if (typeof v1 !== 'string') return v1.error;
      const v2 = this.iterVar(args[1]!);
      if (typeof v2 !== 'string') return v2.error;
      if (v1 === v2) return this.macroError(args[1]!, `duplicate variable name: ${v1}`);
      return [v1, v2];
    };
    const quantifierKinds: Record<string, 'all' | 'exists' | 'existsOne'> = { all: 'all', exists: 'exists', exists_one: 'existsOne', existsOne: 'existsOne' };
    const qk = quantifierKinds[fn];
    if (qk !== undefined && n === 2) {
      const v = this.iterVar(args[0]!);
      if (typeof v !== 'string') return v.error;
      return quantifier(qk, v, undefined, args[1]!);
    }
    if (qk !== undefined && n === 3 && this.macros.twoVar) {
      const vs = twoVars();
      if (!Array.isArray(vs)) return vs;
      return quantifier(qk, vs[0], vs[1], args[2]!);
    }
    if ((fn === 'map' && (n === 2 || n === 3)) || (fn === 'filter' && n === 2)) {
      return this.makeMap(off, fn, target, args);
    }
    if (this.macros.twoVar && (fn === 'transformList' || fn === 'transformMap' || fn === 'transformMapEntry') && (n === 3 || n === 4)) {
      const vs = twoVars();
      if (!Array.isArray(vs)) return vs;
      const filter = n === 4 ? args[2] : undefined;
      const transform = args[n - 1]!;
      let init: Expr;
      let step: Expr;
      if (fn === 'transformList') {
        init = m.list(off);
        step = m.call(off, '_+_', m.accu(off), m.list(off, transform));
      } else if (fn === 'transformMap') {
        init = m.map(off);
        step = m.call(off, 'cel.@mapInsert', m.accu(off), m.ident(off, vs[0]), transform);
      } else {
        init = m.map(off);
        step = m.call(off, 'cel.@mapInsert', m.accu(off), transform);
      }
      if (filter) step = m.call(off, '_?_:_', filter, step, m.accu(off));
      const cond = m.lit(off, { type: 'bool', value: true });
      return m.compre(off, target, vs[0], vs[1], ACCU_VAR, init, cond, step, m.accu(off));
    }
    if (this.macros.optionals && (fn === 'optMap' || fn === 'optFlatMap') && n === 2) {
      const v = args[0]!;
      if (v.kind !== 'ident') return this.macroError(v, `${fn}() variable name must be a simple identifier`);
      const hasValue = m.member(off, 'hasValue', target);
      const range = m.list(off);
      const value = m.member(off, 'value', this.copy(target));
      const cond = m.lit(off, { type: 'bool', value: false });
      const step = m.ident(off, v.name);
      const bound = m.compre(off, range, UNUSED_ITER_VAR, undefined, v.name, value, cond, step, args[1]!);
      const some = fn === 'optMap' ? m.call(off, 'optional.of', bound) : bound;
      return m.call(off, '_?_:_', hasValue, some, m.call(off, 'optional.none'));
    }
    if (this.macros.sortBy && fn === 'sortBy' && n === 2) {
      const input = '@__sortBy_input__';
      const varIdent = m.ident(off, input);
      if (!['list', 'select', 'ident', 'comprehension', 'call'].includes(target.kind))
        return this.macroError(target, 'sortBy can only be applied to a list, identifier, comprehension, call or select expression');
      const mapped = this.makeMap(off, 'map', this.copy(varIdent), args);
      const call = m.member(off, '@sortByAssociatedKeys', this.copy(varIdent), mapped);
      return m.compre(off, m.list(off), UNUSED_ITER_VAR, undefined, input, target, m.lit(off, { type: 'bool', value: false }), varIdent, call);
    }
    return undefined;
  }

  private makeMap(off: number, fn: string, target: Expr, args: Expr[]): Expr {
    const m = this.mk;
    const v = this.iterVar(args[0]!, 'argument is not an identifier');
    if (typeof v !== 'string') return v.error;
    const init = m.list(off);
    const cond = m.lit(off, { type: 'bool', value: true });
    let step: Expr;
    if (fn === 'filter') {
      step = m.call(off, '_+_', m.accu(off), m.list(off, args[0]!));
      step = m.call(off, '_?_:_', args[1]!, step, m.accu(off));
    } else {
      const filter = args.length === 3 ? args[1] : undefined;
      const transform = args[args.length - 1]!;
      step = m.call(off, '_+_', m.accu(off), m.list(off, transform));
      if (filter) step = m.call(off, '_?_:_', filter, step, m.accu(off));
    }
    return m.compre(off, target, v, undefined, ACCU_VAR, init, cond, step, m.accu(off));
  }
}

/** Parses a CEL expression as cel-go's parser does (with the given macros). */
export function parseCel(text: string, macros: MacroSet = ALL_MACROS): ParseResult {
  const source = Array.from(text);
  try {
    const lexIssues: ParseIssue[] = [];
    const p = new Parser(lex(source, macros.escapeTokens === false ? lexIssues : undefined), macros);
    const expr = p.parse();
    return { ok: true, parsed: { expr, source, maxId: p.maxId }, issues: lexIssues.length > 0 ? [...lexIssues, ...p.issues] : p.issues };
  } catch (e) {
    if (e instanceof SyntaxErr) return { ok: false, syntaxError: { offset: e.offset, message: e.message } };
    throw e;
  }
}

/**
 * The text with each relation that is the left operand of another parenthesised (`a == b <= c` →
 * `(a == b) <= c`), for an evaluator whose grammar binds `<`, `<=`, `>`, `>=` and `in` tighter than
 * `==` and `!=` (cel-js reads `a == (b <= c)`); CEL's relations are one level, left to right.
 * Undefined when the text chains no relations, or does not parse.
 */
export function relationsGrouped(text: string): string | undefined {
  if (!mayChainRelations(text)) return undefined;
  const source = Array.from(text);
  let chains: readonly [number, number][];
  try {
    const p = new Parser(lex(source), ALL_MACROS);
    p.parse();
    chains = p.chains;
  } catch {
    return undefined;
  }
  if (chains.length === 0) return undefined;
  const opens = new Map<number, number>();
  const closes = new Map<number, number>();
  for (const [a, b] of chains) {
    opens.set(a, (opens.get(a) ?? 0) + 1);
    // before the spaces ahead of the operator
    let e = b;
    while (e > a && /\s/.test(source[e - 1]!)) e--;
    closes.set(e, (closes.get(e) ?? 0) + 1);
  }
  let out = '';
  for (let i = 0; i <= source.length; i++) {
    out += ')'.repeat(closes.get(i) ?? 0) + '('.repeat(opens.get(i) ?? 0);
    if (i < source.length) out += source[i];
  }
  return out;
}

/**
 * Whether two relational operators may be one chain: a cheap scan (string literals skipped) for a
 * second one at the same bracket depth with no `&&`, `||`, `?`, `:` or `,` between them. False
 * positives only cost a parse (relationsGrouped decides by crdx's parser); most rules have none.
 */
function mayChainRelations(text: string): boolean {
  const seen: boolean[] = [false];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i);
      const end = triple ? text.indexOf(c.repeat(3), i + 3) : -1;
      if (triple) {
        if (end < 0) return true;
        i = end + 2;
        continue;
      }
      let j = i + 1;
      while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      i = j;
      continue;
    }
    const d = seen.length - 1;
    if (c === '(' || c === '[' || c === '{') seen.push(false);
    else if (c === ')' || c === ']' || c === '}') {
      if (seen.length > 1) seen.pop();
    } else if (c === ',' || c === '?' || c === ':' || (c === '&' && text[i + 1] === '&') || (c === '|' && text[i + 1] === '|')) seen[d] = false;
    else {
      const rel =
        c === '<' || c === '>' || ((c === '=' || c === '!') && text[i + 1] === '=')
          ? text[i + 1] === '='
            ? 2
            : 1
          : c === 'i' && text[i + 1] === 'n' && !/[\w]/.test(text[i - 1] ?? ' ') && !/[\w]/.test(text[i + 2] ?? ' ')
            ? 2
            : 0;
      if (rel === 0) continue;
      if (seen[d]) return true;
      seen[d] = true;
      i += rel - 1;
    }
  }
  return false;
}

/** The tokens of the text (cel-go 0.23+ lexing), or the port's first lexical error. */
export function lexCel(source: readonly string[]): { readonly ok: true; readonly toks: readonly Tok[] } | { readonly ok: false; readonly error: ParseIssue } {
  try {
    return { ok: true, toks: lex(source) };
  } catch (e) {
    if (e instanceof SyntaxErr) return { ok: false, error: { offset: e.offset, message: e.message } };
    throw e;
  }
}

/** Every node of the tree, parents before children, as an array. */
export function allNodes(e: Expr, out: Expr[] = []): Expr[] {
  out.push(e);
  switch (e.kind) {
    case 'select':
      allNodes(e.operand, out);
      break;
    case 'call':
      if (e.target) allNodes(e.target, out);
      for (const a of e.args) allNodes(a, out);
      break;
    case 'list':
      for (const a of e.elements) allNodes(a, out);
      break;
    case 'map':
      for (const en of e.entries) {
        allNodes(en.key, out);
        allNodes(en.value, out);
      }
      break;
    case 'struct':
      for (const f of e.fields) allNodes(f.value, out);
      break;
    case 'comprehension':
      allNodes(e.iterRange, out);
      allNodes(e.accuInit, out);
      allNodes(e.loopCondition, out);
      allNodes(e.loopStep, out);
      allNodes(e.result, out);
      break;
    default:
      break;
  }
  return out;
}

/** Every node of the tree, parents before children. */
export function* walkExpr(e: Expr): Generator<Expr> {
  yield e;
  switch (e.kind) {
    case 'select':
      yield* walkExpr(e.operand);
      break;
    case 'call':
      if (e.target) yield* walkExpr(e.target);
      for (const a of e.args) yield* walkExpr(a);
      break;
    case 'list':
      for (const a of e.elements) yield* walkExpr(a);
      break;
    case 'map':
      for (const en of e.entries) {
        yield* walkExpr(en.key);
        yield* walkExpr(en.value);
      }
      break;
    case 'struct':
      for (const f of e.fields) yield* walkExpr(f.value);
      break;
    case 'comprehension':
      yield* walkExpr(e.iterRange);
      yield* walkExpr(e.accuInit);
      yield* walkExpr(e.loopCondition);
      yield* walkExpr(e.loopStep);
      yield* walkExpr(e.result);
      break;
    default:
      break;
  }
}

/** cel-go's location of an offset: 1-based line, 0-based column (in code points), and the line's text. */
export function locate(source: readonly string[], offset: number): { line: number; column: number; lineText: string } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source[i] === '\n') {
      line++;
      start = i + 1;
    }
  }
  let end = start;
  while (end < source.length && source[end] !== '\n') end++;
  return { line, column: offset - start, lineText: source.slice(start, end).join('') };
}

/**
 * The text with every backtick-escaped field name that is a plain, unreserved identifier written
 * plainly (``self.`x` `` → `self.x`), for an evaluator that lacks the escape syntax; undefined
 * when the text does not lex or an escaped name is not such an identifier.
 */
export function plainFieldNames(text: string): string | undefined {
  const src = Array.from(text);
  let toks: Tok[];
  try {
    toks = lex(src);
  } catch {
    return undefined;
  }
  let out = '';
  let at = 0;
  for (const t of toks) {
    if (t.kind !== 'escident') continue;
    const name = t.value as string;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || RESERVED.has(name)) return undefined;
    out += src.slice(at, t.offset).join('') + name;
    at = t.offset + Array.from(t.text).length;
  }
  return out + src.slice(at).join('');
}

/** Whether the parsed text uses syntax only cel-go parses (an escaped field name, a leading-dot identifier). */
export function usesCelGoOnlySyntax(p: ParsedExpr): boolean {
  return p.source.includes('`') || allNodes(p.expr).some((n) => n.kind === 'ident' && n.name.startsWith('.'));
}

/** Tokens after which `[` indexes and `{` constructs a message: the end of an operand. */
function endsOperand(t: Tok | undefined): boolean {
  if (t === undefined) return false;
  if (t.kind === 'op') return t.text === ')' || t.text === ']' || t.text === '}';
  // `in` is the one keyword that lexes as an identifier and does not end an operand
  return t.kind !== 'eof' && !(t.kind === 'ident' && t.text === 'in');
}

/**
 * The text with every list literal that has optional elements (`[a, ?b]`) and every map literal that
 * has optional entries (`{?k: v}`), which cel-js does not parse, written as calls it does parse:
 * `[a, ?b]` as `__crdx_pushopt(__crdx_push([], a), b)`, `{k: v, ?l: w}` as
 * `__crdx_putopt(__crdx_put({}, k, v), l, w)` (the evaluator's functions, env.ts, do what cel-go's
 * evalList and evalMap do with them; no list literal, whose elements cel-js would want of one type).
 * Undefined when the text has none, or does not lex.
 */
export function optionalEntriesPlain(text: string): string | undefined {
  if (!text.includes('?')) return undefined;
  const src = Array.from(text);
  const lexed = lexCel(src);
  if (!lexed.ok) return undefined;
  const toks = lexed.toks;
  const isOp = (i: number, s: string): boolean => toks[i]!.kind === 'op' && toks[i]!.text === s;
  const close = new Map<number, number>();
  const open: number[] = [];
  for (let i = 0; i < toks.length; i++) {
    if (isOp(i, '(') || isOp(i, '[') || isOp(i, '{')) open.push(i);
    else if (isOp(i, ')') || isOp(i, ']') || isOp(i, '}')) {
      const j = open.pop();
      if (j === undefined) return undefined;
      close.set(j, i);
    }
  }
  if (open.length > 0) return undefined;
  let changed = false;
  const slice = (a: number, b: number): string => src.slice(toks[a]!.offset, toks[b]!.offset).join('');
  /** The tokens a..b (b excluded) split at their commas outside brackets. */
  const split = (a: number, b: number, sep: string): [number, number][] => {
    const out: [number, number][] = [];
    let s = a;
    for (let k = a; k < b; k++) {
      const c = close.get(k);
      if (c !== undefined) k = c;
      else if (isOp(k, sep)) {
        out.push([s, k]);
        s = k + 1;
      }
    }
    if (s < b) out.push([s, b]);
    return out;
  };
  /** Where a map entry's key ends: the `:` after as many `:` as the key has `?` of conditionals. */
  const colonOf = (a: number, b: number): number | undefined => {
    let pending = 0;
    for (let k = a; k < b; k++) {
      const c = close.get(k);
      if (c !== undefined) k = c;
      else if (isOp(k, '?') && !(k > a && isOp(k - 1, '.'))) pending++;
      else if (isOp(k, ':') && pending-- === 0) return k;
    }
    return undefined;
  };
  // a piece that may end in a comment is closed on the next line
  const piece = (a: number, b: number): string => {
    const t = render(a, b).trim();
    return t.includes('//') ? `${t}\n` : t;
  };
  const render = (from: number, to: number): string => {
    let out = '';
    let at = from;
    for (let i = from; i < to; i++) {
      const isList = isOp(i, '[');
      if (!(isList || isOp(i, '{')) || endsOperand(toks[i - 1])) continue;
      const j = close.get(i)!;
      const parts = split(i + 1, j, ',');
      const optional = parts.map(([a]) => isOp(a, '?'));
      if (!optional.includes(true)) continue;
      // a chain of calls, innermost first: cel-js evaluates the elements in their order
      let acc = isList ? '[]' : '{}';
      for (let n = 0; n < parts.length; n++) {
        const [a0, b] = parts[n]!;
        const a = optional[n] ? a0 + 1 : a0;
        if (isList) {
          acc = `${optional[n] ? '__crdx_pushopt' : '__crdx_push'}(${acc}, ${piece(a, b)})`;
          continue;
        }
        const colon = colonOf(a, b);
        if (colon === undefined) throw new Error('a map entry without its colon');
        acc = `${optional[n] ? '__crdx_putopt' : '__crdx_put'}(${acc}, ${piece(a, colon)}, ${piece(colon + 1, b)})`;
      }
      out += slice(at, i) + acc;
      changed = true;
      at = j + 1;
      i = j;
    }
    return out + (at < to ? slice(at, to) : '');
  };
  let out: string;
  try {
    out = render(0, toks.length - 1);
  } catch {
    return undefined;
  }
  return changed ? out + src.slice(toks[toks.length - 1]!.offset).join('') : undefined;
}
