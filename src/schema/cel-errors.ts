/**
 * Which evaluation error the server's CEL (cel-go) reports for a rule that failed to evaluate here
 * (cel-js), for the one kind reproduced: a missing key (`no such key: certificateRefs`), the most
 * common runtime error of real CRD rules (a field the rule selects is not set).
 *
 * The two evaluators agree on values and on error absorption in `||` and `&&` (`error || true` is
 * true), but when both operands of `||`/`&&` fail cel-go keeps the left error and cel-js throws the
 * right one. So the error is found again in cel-go's order: operands left to right, the condition
 * of `?:` then only its chosen branch, the left error of a logical operator whose right operand does
 * not absorb it; each sub-expression is evaluated on its own from its source text. Anything else
 * (another kind of error, an error inside a comprehension macro, a variable bound by one): undefined,
 * the rule stays "not evaluated".
 */

interface CelNode {
  readonly op: string;
  readonly start: number;
  readonly end: number;
  readonly args: unknown;
}

/** The outcome of evaluating one sub-expression here. */
export type SubResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly key: string | undefined };

type Found = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly key: string };

const MACRO = /\.\s*(all|exists|exists_one|map|filter)\s*\(/;

function isNode(x: unknown): x is CelNode {
  return typeof x === 'object' && x !== null && typeof (x as CelNode).op === 'string' && typeof (x as CelNode).start === 'number';
}

function children(n: CelNode): CelNode[] {
  const a = n.args;
  if (Array.isArray(a)) return a.flatMap((x) => (isNode(x) ? [x] : Array.isArray(x) ? x.filter(isNode) : []));
  return isNode(a) ? [a] : [];
}

/**
 * The source text of a node. cel-js ends a node such as `!(x)` before its closing parenthesis:
 * closing parentheses and brackets the text opens are taken in.
 */
function nodeText(rule: string, n: CelNode): string {
  let end = n.end;
  let depth = 0;
  let quote = '';
  for (let i = n.start; i < end; i++) {
    const c = rule[i]!;
    if (quote !== '') {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
  }
  while (depth > 0 && end < rule.length) {
    const c = rule[end]!;
    if (c === ')' || c === ']') depth--;
    else if (!/\s/.test(c)) break;
    end++;
  }
  return rule.slice(n.start, end);
}

/** The missing key cel-go reports for `rule` (parsed as `ast`), or undefined when not sure. */
export function goMissingKey(rule: string, ast: unknown, evaluate: (text: string) => SubResult): string | undefined {
  if (!isNode(ast)) return undefined;
  const memo = new Map<CelNode, SubResult>();
  const run = (n: CelNode): SubResult => {
    let r = memo.get(n);
    if (r === undefined) memo.set(n, (r = evaluate(nodeText(rule, n))));
    return r;
  };
  const find = (n: CelNode, depth: number): Found | undefined => {
    if (depth > 200) return undefined;
    const r = run(n);
    if (r.ok) return r;
    if (r.key === undefined || MACRO.test(nodeText(rule, n))) return undefined;
    const kids = children(n);
    if (n.op === '||' || n.op === '&&') {
      const absorbing = n.op === '||';
      const [l, rt] = kids;
      if (l === undefined || rt === undefined) return undefined;
      const left = find(l, depth + 1);
      if (left === undefined) return undefined;
      if (left.ok) return left.value === absorbing ? undefined : find(rt, depth + 1);
      const right = run(rt);
      return right.ok && right.value === absorbing ? undefined : left;
    }
    if (n.op === '?:') {
      const [c, a, b] = kids;
      if (c === undefined || a === undefined || b === undefined) return undefined;
      const cond = find(c, depth + 1);
      if (cond === undefined || !cond.ok) return cond;
      if (cond.value !== true && cond.value !== false) return undefined;
      return find(cond.value ? a : b, depth + 1);
    }
    for (const k of kids) {
      const f = find(k, depth + 1);
      if (f === undefined) return undefined;
      if (!f.ok) return f;
    }
    // every operand evaluated: this node itself is missing the key
    return { ok: false, key: r.key };
  };
  const f = find(ast, 0);
  return f !== undefined && !f.ok ? f.key : undefined;
}

/**
 * cel-go's text for a cel-js "No such key" error: `no such key: K`, or `index out of bounds: N`
 * for a list index past its end; undefined for any other error.
 */
export function missingKeyOf(e: unknown): string | undefined {
  const msg = e instanceof Error ? e.message : '';
  const m = /^No such key: (.*)$/.exec(msg.split('\n')[0] ?? '');
  if (m === null) return undefined;
  // cel-js: `index N >= size M` (`size undefined` for an empty list), `index N < 0` for a negative one
  const oob = /^index out of bounds, index (-?\d+) (?:>= size (?:\d+|undefined)|< 0)$/.exec(m[1]!);
  if (oob !== null) return `index out of bounds: ${oob[1]}`;
  if (m[1]!.startsWith('index out of bounds')) return undefined;
  return `no such key: ${m[1]}`;
}

/**
 * cel-js's integer division and modulus by zero and its integer overflows as cel-go words them
 * (common/types/err.go): "division by zero", "modulus by zero", "integer overflow", "unsigned
 * integer overflow". Other errors: undefined.
 */
export function arithmeticErrorOf(e: unknown): string | undefined {
  const first = (e instanceof Error ? e.message : '').split('\n')[0] ?? '';
  if (first === 'division by zero') return 'division by zero';
  if (first === 'modulo by zero') return 'modulus by zero';
  // int + - * beyond int64 (cel-js adds the value), a uint result below 0 or beyond uint64
  if (/^integer overflow: -?\d+$/.test(first)) return 'integer overflow';
  if (first === 'Unsigned integer overflow') return 'unsigned integer overflow';
  return undefined;
}
