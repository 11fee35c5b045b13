/**
 * A rule's text as the evaluator runs it: parsed by cel-js and printed back, fully parenthesised,
 * with the operations whose cel-js built-ins differ from cel-go on the values we bind routed to
 * functions of ours (registered in env.ts):
 * - `a == b`, `a != b`, `a + b`, `a in b` → `__crdx_eq`, `__crdx_ne`, `__crdx_add`, `__crdx_in` (set
 *   and map lists: values.ts; `!=` stays one call, as cel-go costs it);
 * - `s.matches(re)` / `matches(s, re)` → `__crdx_matches` / `__crdx_gmatches` (RE2, not JavaScript's
 *   RegExp; two names because cel-go costs the forms differently before 1.37);
 * - `int(x)`, `uint(x)` → `__crdx_int`, `__crdx_uint` (cel-go's range checks of a double, Go's
 *   strconv for a string); `double(x)`, `bool(x)` → `double(__crdx_dblarg(x))`, `bool(__crdx_boolarg(x))`
 *   (a string parsed by Go's strconv);
 *   `string(x)` → `string(__crdx_strarg(x))` (cel-go refuses bytes that are not UTF-8, and prints a
 *   double with Go's %g); `-x`,
 *   `a / b` → `__crdx_intok(-x)`, `__crdx_intok(a / b)` (an int result beyond int64: the smallest
 *   int negated or divided by -1); `<`, `<=`, `>`, `>=` → `__crdx_lt`, `__crdx_le`, `__crdx_gt`,
 *   `__crdx_ge` (an int or uint against a double ordered as cel-go orders them);
 * - `a || b`, `a && b` → `__crdx_or`, `__crdx_and` (macros: when both sides fail, cel-go reports
 *   the left side's error, cel-js the right's);
 * - `has(x.f)` → `__crdx_has(x, "f")` (cel-js accepts only `has(ident.f…)`: marcbachmann/cel-js#104);
 * - `x.package` (a reserved word as a field name) → `__crdx_sel(x, "package")`: the server unescapes
 *   a field name before the lookup, so it reaches the property bound as `__package__`;
 * - dotted global functions cel-js would read as a method on a type named like the prefix:
 *   `format.named(…)`, `format.dns1123Label()`… → `__crdx_format_<name>`, `strings.quote(s)` →
 *   `__crdx_strings_quote`, `optional.ofNonZeroValue(x)` → `__crdx_optional_ofNonZeroValue`
 *   (and sets.*, lists.range, ip.isCanonical as before).
 * - the list argument of `l.sort()`, `l.distinct()`, `l.sum()` and `l.sortBy(e, key)` (l and key)
 *   → `__crdx_lister(l, k)`, the calls numbered in post-order (children first) from 0: where the
 *   server's cost tracker asserts the argument to be a list, a failing one is a panic (env.ts
 *   listerError), and sum() learns the overload the checker chose, whose zero an empty list sums
 *   to (which: cel-eval.ts listerPanics, from the checked types).
 * cel-js cannot replace its own overloads (registerFunction refuses a signature it already has), so
 * the rule is rewritten instead of the library being patched.
 */

import { isCelReserved } from './escape.js';
import { FORMAT_FUNCTIONS } from './lib/format.js';
import { STRING_FUNCTIONS } from './lib/strings.js';
import { TZ_ACCESSORS } from './lib/time.js';
import { isUint } from './lib/classes.js';

interface Node {
  readonly op: string;
  readonly args: unknown;
}

const BINARY = new Set(['<', '<=', '>', '>=', '-', '*', '/', '%']);
const COMPARE: Readonly<Record<string, string>> = { '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge' };

/** Two unary nodes whose operators are one run of `sign` tokens (nothing but spaces between them). */
function signsInOneRun(outer: Node, inner: Node, sign: '-' | '!'): boolean {
  const o = outer as Node & { readonly start?: number; readonly input?: string };
  const i = inner as Node & { readonly start?: number };
  if (typeof o.start !== 'number' || typeof i.start !== 'number' || typeof o.input !== 'string') return false;
  return o.input[o.start] === sign && o.input[i.start] === sign && /^\s*$/.test(o.input.slice(o.start + 1, i.start));
}

function isNode(x: unknown): x is Node {
  return typeof x === 'object' && x !== null && 'op' in x && 'args' in x;
}

/** A CEL string literal for s (double-quoted; control characters escaped). */
function str(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (c < 0x20 || c === 0x7f) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else if (c >= 0xd800 && c <= 0xdfff) throw new Error('lone surrogate in a string literal');
    else out += ch;
  }
  return `${out}"`;
}

function value(v: unknown): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
      return String(v);
    case 'bigint':
      return v < 0n ? `(${v})` : String(v);
    case 'string':
      return str(v);
    case 'number': {
      if (!Number.isFinite(v)) throw new Error('non-finite double literal');
      let t = String(v);
      if (!/[.e]/.test(t)) t += '.0';
      return v < 0 || Object.is(v, -0) ? `(${Object.is(v, -0) ? '-0.0' : t})` : t;
    }
  }
  if (v instanceof Uint8Array) return `b"${[...v].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}"`;
  if (isUint(v)) return `${String(v.valueOf())}u`;
  throw new Error(`literal of an unexpected kind (${typeof v})`);
}

/** The sort-like calls of the text being printed, in the order they are numbered. */
let listers: ListerCall[] = [];

export type ListerCall = 'sort' | 'distinct' | 'sortBy' | 'sum';

function print(n: Node): string {
  const a = n.args as unknown[];
  const p = (x: unknown): string => {
    if (!isNode(x)) throw new Error('unexpected AST shape');
    return print(x);
  };
  const w = (x: unknown): string => `(${p(x)})`;
  switch (n.op) {
    case 'value':
      return value(n.args);
    case 'id':
      return n.args as string;
    case '==':
      return `__crdx_eq(${p(a[0])}, ${p(a[1])})`;
    case '!=':
      return `__crdx_ne(${p(a[0])}, ${p(a[1])})`;
    case '+':
      return `__crdx_add(${p(a[0])}, ${p(a[1])})`;
    case 'in': {
      // cel-go's planner (OptOptimize, as Kubernetes runs it) makes `x in []` the constant false:
      // x is never evaluated, so its error is never raised (interpreter maybeOptimizeSetMembership)
      const list = a[1];
      if (isNode(list) && list.op === 'list' && Array.isArray(list.args) && list.args.length === 0) return 'false';
      return `__crdx_in(${p(a[0])}, ${p(a[1])})`;
    }
    case '||':
      return `__crdx_or(${p(a[0])}, ${p(a[1])})`;
    case '&&':
      return `__crdx_and(${p(a[0])}, ${p(a[1])})`;
    case '!_':
      // `!!x`: an even run of `!` is dropped by cel-go's parser (VisitLogicalNot), whatever x's type
      if (isNode(n.args) && n.args.op === '!_' && signsInOneRun(n, n.args, '!')) return p(n.args.args);
      return `!${w(n.args)}`;
    case '-_':
      // `--x`: cel-go's parser drops an even run of minus signs (VisitNegate), so no negation (and no
      // overflow) happens; `-(-x)` negates twice
      if (isNode(n.args) && n.args.op === '-_' && signsInOneRun(n, n.args, '-')) return p(n.args.args);
      // the smallest int negated overflows (cel-go: integer overflow); a literal is folded by the parser
      return isNode(n.args) && n.args.op === 'value' ? `-${w(n.args)}` : `__crdx_intok(-${w(n.args)})`;
    case '.':
      // a reserved word as a field name: the server unescapes it to reach the property (env.ts)
      if (isCelReserved(a[1] as string)) return `__crdx_sel(${p(a[0])}, ${str(a[1] as string)})`;
      return `${w(a[0])}.${a[1] as string}`;
    case '.?':
      return `${w(a[0])}.?${a[1] as string}`;
    case '[]':
      return `${w(a[0])}[${p(a[1])}]`;
    case '[?]':
      return `${w(a[0])}[?${p(a[1])}]`;
    case 'call': {
      const name = a[0] as string;
      const args = a[1] as unknown[];
      if (name === 'matches' && args.length === 2) return `__crdx_gmatches(${p(args[0])}, ${p(args[1])})`;
      // Go's time.ParseDuration (cel-js parses durations its own way)
      if (name === 'duration' && args.length === 1) return `__crdx_duration(${p(args[0])})`;
      if (name === 'timestamp' && args.length === 1) return `__crdx_timestamp(${p(args[0])})`;
      // cel-go range-checks int(double) and uint(double); cel-js does not (int) or words it otherwise (uint)
      if ((name === 'int' || name === 'uint') && args.length === 1) return `__crdx_${name}(${p(args[0])})`;
      // cel-go refuses string(bytes) of invalid UTF-8
      if (name === 'string' && args.length === 1) return `string(__crdx_strarg(${p(args[0])}))`;
      // a string converted as Go's strconv parses it
      if (name === 'double' && args.length === 1) return `double(__crdx_dblarg(${p(args[0])}))`;
      if (name === 'bool' && args.length === 1) return `bool(__crdx_boolarg(${p(args[0])}))`;
      // cel-js takes has() only on an identifier-rooted chain; cel-go evaluates the operand and tests the field
      if (name === 'has' && args.length === 1 && isNode(args[0]) && args[0].op === '.') {
        const [operand, field] = args[0].args as [unknown, string];
        return `__crdx_has(${p(operand)}, ${str(field)})`;
      }
      return `${name}(${args.map(p).join(', ')})`;
    }
    case 'rcall': {
      const name = a[0] as string;
      const args = a[2] as unknown[];
      if (name === 'matches' && args.length === 1) return `__crdx_matches(${p(a[1])}, ${p(args[0])})`;
      // cel-go's sets extension (sets.contains, sets.equivalent, sets.intersects)
      if (isNode(a[1]) && a[1].op === 'id' && a[1].args === 'sets' && ['contains', 'equivalent', 'intersects'].includes(name) && args.length === 2) return `__crdx_sets_${name}(${args.map(p).join(', ')})`;
      if (isNode(a[1]) && a[1].op === 'id' && a[1].args === 'lists' && name === 'range' && args.length === 1) return `__crdx_lists_range(${p(args[0])})`;
      if (isNode(a[1]) && a[1].op === 'id' && a[1].args === 'ip' && name === 'isCanonical' && args.length === 1) return `__crdx_ip_isCanonical(${p(args[0])})`;
      if (isNode(a[1]) && a[1].op === 'id' && a[1].args === 'optional' && name === 'ofNonZeroValue' && args.length === 1) return `__crdx_optional_ofNonZeroValue(${p(args[0])})`;
      if (isNode(a[1]) && a[1].op === 'id' && a[1].args === 'strings' && name === 'quote' && args.length === 1) return `__crdx_strings_quote(${p(args[0])})`;
      if (((name === 'sort' || name === 'distinct' || name === 'sum') && args.length === 0) || (name === 'sortBy' && args.length === 2)) {
        const recv = p(a[1]);
        const rest = args.map(p);
        const k = listers.push(name as ListerCall) - 1;
        if (name !== 'sortBy') return `__crdx_lister(${recv}, ${k}).${name}()`;
        return `__crdx_lister(${recv}, ${k}).sortBy(${rest[0]!}, __crdx_lister(${rest[1]!}, ${k}))`;
      }
      // the Kubernetes format library's global functions (format.named, format.dns1123Label, ...)
      if (isNode(a[1]) && a[1].op === 'id' && a[1].args === 'format' && FORMAT_FUNCTIONS.has(name)) return `__crdx_format_${name}(${args.map(p).join(', ')})`;
      // a timestamp accessor with a time zone, as cel-go reads the zone (cel/lib/time.ts)
      if (TZ_ACCESSORS.has(name) && args.length === 1) return `__crdx_tsget_${name}(${p(a[1])}, ${p(args[0])})`;
      // cel-go's strings extension counts code points (cel/lib/strings.ts)
      if (STRING_FUNCTIONS.has(name) && !(isNode(a[1]) && a[1].op === 'id' && a[1].args === 'strings')) return `__crdx_s_${name}(${[a[1], ...args].map(p).join(', ')})`;
      // a dotted global function (optional.of, strings.quote, sets.contains, lists.range, ...) stays as written
      const recv = isNode(a[1]) && a[1].op === 'id' ? (a[1].args as string) : w(a[1]);
      const call = `${recv}.${name}(${args.map(p).join(', ')})`;
      // the value of an optional the engine knows no type of (oldSelf with optionalOldSelf): cel-js types
      // it as an unbound type parameter and refuses a field of it (`oldSelf.value().f`); as dyn it is read
      if ((name === 'value' && args.length === 0) || (name === 'orValue' && args.length === 1)) return `__crdx_dyn(${call})`;
      return call;
    }
    case 'list':
      return `[${a.map(p).join(', ')}]`;
    case 'map':
      return `{${(a as [unknown, unknown][]).map(([k, v]) => `${p(k)}: ${p(v)}`).join(', ')}}`;
    case '?:':
      return `${w(a[0])} ? ${w(a[1])} : ${w(a[2])}`;
    default:
      // the smallest int divided by -1 overflows (cel-go: integer overflow)
      if (n.op === '/') return `__crdx_intok(${w(a[0])} / ${w(a[1])})`;
      // an int or uint against a double: cel-go converts the integer to a double (values.ts)
      if (n.op in COMPARE) return `__crdx_${COMPARE[n.op]}(${p(a[0])}, ${p(a[1])})`;
      if (BINARY.has(n.op)) return `${w(a[0])} ${n.op} ${w(a[1])}`;
      throw new Error(`unexpected AST operation ${n.op}`);
  }
}

/**
 * The text with every bytes literal holding a character beyond ASCII written with `\x` escapes of
 * the character's UTF-8 bytes, which is what cel-go makes of it (cel-js keeps one byte per
 * character); a raw bytes literal becomes a plain one (its backslashes escaped). Undefined when
 * there is nothing to change.
 */
export function bytesLiteralsAsUtf8(text: string): string | undefined {
  let out = '';
  let changed = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c !== '"' && c !== "'") {
      out += c;
      i++;
      continue;
    }
    // the prefix: up to two of r, R, b, B right before the quote, not the end of an identifier
    let p = out.length;
    while (p > 0 && out.length - p < 2 && /[rRbB]/.test(out[p - 1]!)) p--;
    if (p > 0 && /[A-Za-z0-9_]/.test(out[p - 1]!)) p = out.length;
    const prefix = out.slice(p);
    const q = text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
    const raw = /[rR]/.test(prefix);
    let j = i + q.length;
    while (j < text.length && !text.startsWith(q, j)) j += !raw && text[j] === '\\' ? 2 : 1;
    const end = Math.min(j + q.length, text.length);
    const body = text.slice(i + q.length, Math.min(j, text.length));
    if (/[bB]/.test(prefix) && /[^\x00-\x7f]/.test(body)) {
      let b = '';
      for (const ch of body) {
        if (raw && ch === '\\') b += '\\\\';
        else if (ch.codePointAt(0)! > 0x7f) b += [...new TextEncoder().encode(ch)].map((x) => `\\x${x.toString(16).padStart(2, '0')}`).join('');
        else b += ch;
      }
      out = `${out.slice(0, p)}b${q}${b}${q}`;
      changed = true;
    } else out += text.slice(i, end);
    i = end;
  }
  return changed ? out : undefined;
}

/** The rewritten text of a parsed expression (its cel-js AST). Throws on an AST it does not know. */
export function rewriteForEval(ast: unknown): string {
  return rewriteWithListers(ast).text;
}

/** The rewritten text, and its sort-like calls in the order they are numbered (`__crdx_lister`). */
export function rewriteWithListers(ast: unknown): { readonly text: string; readonly listers: readonly ListerCall[] } {
  if (!isNode(ast)) throw new Error('unexpected AST shape');
  listers = [];
  try {
    return { text: print(ast), listers };
  } finally {
    listers = [];
  }
}
