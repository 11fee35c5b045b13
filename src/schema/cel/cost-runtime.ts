/**
 * The runtime cost of one evaluation, counted as cel-go's cost tracker counts it
 * (interpreter/runtimecost.go, with the Kubernetes library's CallCost of apiserver
 * pkg/cel/library/cost.go and the program options of pkg/cel/environment/base.go: OptOptimize,
 * presence tests free). The count follows the evaluation of the rewritten rule (rewrite.ts) node by
 * node: the evaluator's `run` is wrapped for the duration of one call, and each node adds what the
 * matching cel-go step adds once it has a value:
 * - an identifier 1, a field selection or an index 1 (2 on a value that is not an attribute: cel-go
 *   makes it a relative attribute), a constant 0 (also a literal list or map of constants and a type
 *   conversion of a constant: OptOptimize folds them), a list literal 10, a map literal 30;
 * - an attribute used as an index or as a branch of `?:` without its base identifier (cel-go
 *   resolves it through the attribute, not through its observed step);
 * - a call the cost of cel-go's costCall or the library's CallCost on the actual arguments;
 * - the macros all/exists/exists_one/map/filter what their cel-go expansions add per iteration
 *   (the loop condition, the accumulator, the list appended) and for the result.
 * Only rules made of these are counted (`exactCostReason` says why another one is not): a rule the
 * count does not cover is left to the bound of cost-bound.ts. Past the limit the evaluation is
 * cancelled as cel-go cancels it (`CostLimitExceeded`), so a huge list never runs away.
 */

import { isUint } from './lib/classes.js';
import { CelUnsupported } from './lib/ops.js';
import { runtime } from './lib/runtime.js';

const TRAVERSAL = 0.1;
const REGEX_LENGTH = 0.25;

/** cel-go's error text when the per-call limit is exceeded. */
export class CostLimitExceeded extends Error {
  constructor() {
    super('operation cancelled: actual cost limit exceeded');
  }
}

interface Node {
  readonly op: string;
  readonly args: unknown;
}

const isNode = (x: unknown): x is Node => typeof x === 'object' && x !== null && 'op' in x;

const ERROR: unique symbol = Symbol('error');

/** Type names as identifiers (constants in cel-go). */
const TYPE_NAMES = new Set(['int', 'uint', 'double', 'string', 'bytes', 'bool', 'list', 'map', 'null_type', 'type', 'dyn']);
/** cel-go's type conversion functions (folded on constant arguments by OptOptimize). */
const CONVERSIONS = new Set(['int', 'uint', '__crdx_int', '__crdx_uint', 'double', 'string', 'bytes', 'bool', 'dyn', 'type', '__crdx_duration', '__crdx_timestamp']);
/** The rewrite's checks of a conversion's argument (rewrite.ts): transparent, at no cost. */
const ARG_CHECKS = new Set(['__crdx_strarg', '__crdx_dblarg', '__crdx_boolarg']);
const MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter', 'existsOne', 'transformList', 'transformMap', 'transformMapEntry']);
/** What a transform macro's step adds per element it keeps: accumulator and append/insert (the transform itself is counted as it runs). */
const TRANSFORM_STEP: Record<string, number> = { transformList: 12, transformMap: 3, transformMapEntry: 2 };
/** The two-variable forms counted (cel-go's expansions cost as the one-variable ones). */
const TWO_VAR = new Set(['all', 'exists', 'existsOne']);
/** Functions costing 1 (cel-go's default, or the library's nominal cost). */
const UNIT = new Set([
  'size', 'int', 'uint', '__crdx_int', '__crdx_uint', 'double', 'string', 'bool', 'dyn', 'type', '__crdx_duration', '__crdx_timestamp', '__crdx_s_charAt',
  'getFullYear', 'getMonth', 'getDayOfMonth', 'getDate', 'getDayOfWeek', 'getDayOfYear', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds',
  'isURL', 'getScheme', 'getHostname', 'getHost', 'getPort', 'getEscapedPath', 'getQuery',
  'sign', 'asInteger', 'isInteger', 'asApproximateFloat', 'isGreaterThan', 'isLessThan', 'compareTo', 'add', 'sub', 'major', 'minor', 'patch',
  'masked', 'prefixLength', 'family', 'isUnspecified', 'isLoopback', 'isLinkLocalMulticast', 'isLinkLocalUnicast', 'isGlobalUnicast',
  // optionals (cel-go's optional library: no cost function of its own, the default 1 a call; or and
  // orValue are the planner's short-circuiting nodes, no calls: OPTIONAL_FREE)
  'hasValue', 'value', 'of', '__crdx_optional_ofNonZeroValue', 'or', 'orValue',
]);
/** ceil(size(first argument) × 0.1). */
const TRAVERSE_FIRST = new Set(['__crdx_s_lowerAscii', '__crdx_s_upperAscii', '__crdx_s_substring', '__crdx_s_trim', 'url', 'quantity', 'isQuantity', 'semver', 'isSemver', 'cidr', 'isIP', 'isCIDR', '__crdx_strings_quote']);
const OTHER = new Set([
  '__crdx_eq', '__crdx_ne', '__crdx_add', '__crdx_in', '__crdx_or', '__crdx_and', '__crdx_has', '__crdx_intok', '__crdx_dyn', '__crdx_lister', '__crdx_sets_contains', '__crdx_sets_intersects', '__crdx_sets_equivalent', '__crdx_strarg', '__crdx_dblarg', '__crdx_boolarg', '__crdx_lt', '__crdx_le', '__crdx_gt', '__crdx_ge', '__crdx_matches', '__crdx_gmatches',
  '__crdx_s_indexOf', '__crdx_s_lastIndexOf', '__crdx_s_replace', '__crdx_s_split', '__crdx_s_join', '__crdx_s_format', 'ip', '__crdx_ip_isCanonical',
  'startsWith', 'endsWith', 'contains', 'find', 'findAll', 'isSorted', 'sum', 'min', 'max', 'indexOf', 'lastIndexOf', 'containsIP', 'containsCIDR', 'bytes',
  // the lists extension's cost trackers (LIST_TRACKED)
  'sort', 'distinct', 'reverse', 'slice', 'flatten', '__crdx_lists_range',
]);
/** ext/lists.go trackAllocatingListCall: the call (1) and the list it makes (common.ListCreateBaseCost 10). */
const LIST_CALL = 1 + 10;
const BINARY = new Set(['<', '<=', '>', '>=', '-', '*', '/', '%']);
/** The optional library's global functions crdx counts (optional.none: not, its cost on the server is not what a call costs). */
const OPTIONAL_GLOBALS = new Set(['of']);
/** or() and orValue(): evalOptionalOr / evalOptionalOrValue in cel-go's planner, which cost nothing of their own. */
const OPTIONAL_FREE = new Set(['or', 'orValue']);
const COMPARE = new Set(['<', '<=', '>', '>=']);

const callName = (n: Node): string => (n.args as unknown[])[0] as string;
const callArgs = (n: Node): Node[] => (n.op === 'call' ? ((n.args as unknown[])[1] as Node[]) : ((n.args as unknown[])[2] as Node[]));

/** Why the runtime cost of a (rewritten) rule is not counted here; undefined when it is. */
export function exactCostReason(ast: unknown): string | undefined {
  let why: string | undefined;
  const walk = (n: unknown): void => {
    if (why !== undefined || !isNode(n)) return;
    const a = n.args as unknown[];
    switch (n.op) {
      case 'value':
      case 'id':
        return;
      case '.':
      case '[]':
        walk(a[0]);
        if (n.op === '[]') walk(a[1]);
        return;
      case '?:':
      case '!_':
      case '-_':
      case 'list':
        for (const x of Array.isArray(n.args) ? n.args : [n.args]) walk(x);
        return;
      case 'map':
        for (const [k, v] of n.args as [unknown, unknown][]) (walk(k), walk(v));
        return;
      case 'call': {
        const name = callName(n);
        if (/^__crdx_(push|put)(opt)?$/.test(name)) why = 'optional list elements or map entries';
        else if (!UNIT.has(name) && !TRAVERSE_FIRST.has(name) && !OTHER.has(name) && !name.startsWith('__crdx_tsget_')) why = `${name}()`;
        else if (name === '__crdx_in' && isNode(callArgs(n)[1]) && callArgs(n)[1]!.op === 'list' && (callArgs(n)[1]!.args as unknown[]).length === 0) why = 'membership in an empty list';
        callArgs(n).forEach(walk);
        return;
      }
      case 'rcall': {
        const name = callName(n);
        const args = callArgs(n);
        if (MACROS.has(name)) {
          const ok =
            name === 'map' ? args.length === 2 || args.length === 3 : name === 'existsOne' ? args.length === 3 : name in TRANSFORM_STEP ? args.length === 3 || args.length === 4 : args.length === 2 || (args.length === 3 && TWO_VAR.has(name));
          if (!ok) why = `${name}() with ${args.length - 1} variables`;
        } else if (!UNIT.has(name) && !TRAVERSE_FIRST.has(name) && !OTHER.has(name)) why = `${name}()`;
        walk(a[1]);
        args.forEach(walk);
        return;
      }
      default:
        if (BINARY.has(n.op)) {
          walk(a[0]);
          walk(a[1]);
          return;
        }
        why = `the operator ${n.op}`;
    }
  };
  walk(ast);
  return why === undefined ? undefined : `crdx does not count the runtime cost of ${why} yet`;
}

/** cel-go's actualSize: the size of strings (code points), bytes, lists, maps and optionals with a value; 1 otherwise. */
function actualSize(v: unknown): number {
  if (typeof v === 'string') {
    let n = 0;
    for (const _ of v) n++;
    return n;
  }
  if (v instanceof Uint8Array) return v.length;
  if (Array.isArray(v)) return v.length;
  if (v instanceof Map) return v.size;
  if (v instanceof Set) return v.size;
  if (typeof v === 'object' && v !== null && (v as unknown) !== ERROR) {
    const o = v as { hasValue?: () => boolean; value?: () => unknown };
    if (typeof o.hasValue === 'function' && typeof o.value === 'function') return o.hasValue() ? actualSize(o.value()) : 1;
    if (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null) return Object.keys(v).length;
  }
  return 1;
}

/** The Kubernetes library's traversalCost (strings and bytes: bytes × 0.1 truncated; lists and maps: the sum). */
function traversalCost(v: unknown): number {
  if (typeof v === 'string') return Math.floor(Buffer.byteLength(v, 'utf8') * TRAVERSAL);
  if (v instanceof Uint8Array) return Math.floor(v.length * TRAVERSAL);
  if (Array.isArray(v)) return v.reduce((s: number, x) => s + traversalCost(x), 0);
  if (v instanceof Map) {
    let s = 0;
    for (const [k, x] of v) s += traversalCost(k) + traversalCost(x);
    return s;
  }
  if (typeof v === 'object' && v !== null && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null)) {
    let s = 0;
    for (const [k, x] of Object.entries(v)) s += traversalCost(k) + traversalCost(x);
    return s;
  }
  return 1;
}

const ceilT = (n: number): number => Math.ceil(n * TRAVERSAL);

/**
 * Whether the server runs sort()'s cost tracker for the call `n` (`__crdx_lister(l, k).sort()`): the
 * checker resolved it to one overload (runtime.panicking, lister-panics.ts, by the call's number k).
 */
function sortTracked(n: Node): boolean {
  const recv = (n.args as unknown[])[1];
  const k = isNode(recv) && recv.op === 'call' && callName(recv) === '__crdx_lister' ? callArgs(recv)[1] : undefined;
  const p = runtime.panicking;
  if (!isNode(k) || k.op !== 'value' || p === 'unknown') throw new CelUnsupported("the runtime cost of a sort() whose overload crdx could not tell");
  return p !== undefined && p.panics.has(Number(k.args as bigint | number));
}
const isString = (v: unknown): boolean => typeof v === 'string' || v instanceof Uint8Array;

/** An attribute in cel-go's plan: an identifier, a selection or index, a conditional. */
const isAttribute = (n: unknown): boolean => isNode(n) && (n.op === 'id' || n.op === '.' || n.op === '[]' || n.op === '?:');

/** A value cel-go's OptOptimize folds to a constant. */
function isConst(n: unknown): boolean {
  if (!isNode(n)) return false;
  switch (n.op) {
    case 'value':
      return true;
    case '-_':
      return isNode(n.args) && n.args.op === 'value';
    case 'list':
      return (n.args as unknown[]).every(isConst);
    case 'map':
      return (n.args as [unknown, unknown][]).every(([k, v]) => isConst(k) && isConst(v));
    case 'call': {
      const args = callArgs(n);
      // the rewrite's checks of a conversion's argument (rewrite.ts) are transparent
      if (ARG_CHECKS.has(callName(n))) return isConst(args[0]);
      return CONVERSIONS.has(callName(n)) && args.length === 1 && isConst(args[0]) && callName(n) !== 'dyn' && callName(n) !== 'type';
    }
    default:
      return false;
  }
}

/** A constant list of scalars: cel-go tests membership in a set, at no cost. */
function isConstScalarList(n: unknown): boolean {
  const scalar = (x: unknown): boolean => {
    if (!isNode(x)) return false;
    if (x.op === '-_') return isNode(x.args) && x.args.op === 'value' && scalar(x.args);
    if (x.op !== 'value') return false;
    const v = x.args;
    return ['bigint', 'number', 'string', 'boolean'].includes(typeof v) || isUint(v);
  };
  return isNode(n) && n.op === 'list' && (n.args as unknown[]).every(scalar);
}

/** What the static shape of a rule tells the count: base identifiers not observed, relative attributes. */
interface Plan {
  /** Attributes whose base step cel-go does not observe (used as an index or a `?:` branch). */
  readonly unobserved: Set<Node>;
  /** Nodes whose value a cost reads (call arguments and receivers, comparison operands). */
  readonly needed: Set<Node>;
  /** Nodes cel-go folds to constants (OptOptimize). */
  readonly consts: Set<Node>;
}

function planOf(ast: unknown): Plan {
  const unobserved = new Set<Node>();
  const needed = new Set<Node>();
  const consts = new Set<Node>();
  const base = (n: Node): Node => {
    let x = n;
    while ((x.op === '.' || x.op === '[]') && isNode((x.args as unknown[])[0]) && isAttribute((x.args as unknown[])[0])) x = (x.args as unknown[])[0] as Node;
    return x;
  };
  const walk = (n: unknown): void => {
    if (!isNode(n)) return;
    const a = n.args;
    if (n.op === '[]' && isAttribute((a as unknown[])[1])) unobserved.add(base((a as unknown[])[1] as Node));
    if (n.op === '?:') for (const b of [(a as unknown[])[1], (a as unknown[])[2]]) if (isAttribute(b)) unobserved.add(base(b as Node));
    if (n.op === 'call' || n.op === 'rcall') for (const x of callArgs(n)) if (isNode(x)) needed.add(x);
    if (n.op === 'rcall' && isNode((a as unknown[])[1])) needed.add((a as unknown[])[1] as Node);
    // optional.of(x): one global function of cel-go's, no variable `optional` is read
    const recv = n.op === 'rcall' ? (a as unknown[])[1] : undefined;
    if (isNode(recv) && recv.op === 'id' && recv.args === 'optional' && OPTIONAL_GLOBALS.has(callName(n))) unobserved.add(recv);
    if (COMPARE.has(n.op)) for (const x of a as unknown[]) if (isNode(x)) needed.add(x);
    if (isConst(n)) consts.add(n);
    if (Array.isArray(a)) for (const x of a) Array.isArray(x) ? x.forEach(walk) : walk(x);
    else walk(a);
  };
  walk(ast);
  return { unobserved, needed, consts };
}

const plans = new WeakMap<object, Plan>();

/** How a macro's iterations are counted while it runs. */
interface Loop {
  readonly kind: string;
  /** The node run once per iteration (the predicate; map's transform or filter). */
  readonly watched: Node;
  readonly constTransform: boolean;
  runs: number;
}

export interface CostedResult {
  readonly ok: boolean;
  readonly value?: unknown;
  readonly error?: unknown;
  /** cel-go's actual cost (past the limit: the cost when the evaluation was cancelled). */
  readonly cost: number;
}

interface Evaluator {
  run(n: unknown, ctx: unknown): unknown;
}

/**
 * Run a compiled rule (`fn`, from the libraries' environment: `fn.ast` is its AST) with cel-go's
 * cost tracking and per-call `limit`. `v137`: the 1.37 costs (startsWith/endsWith by the argument,
 * global matches as the member form).
 */
export function runCosted(fn: ((ctx: Record<string, unknown>) => unknown) & { ast?: unknown }, ctx: Record<string, unknown>, limit: number, v137: boolean): CostedResult {
  const root = fn.ast as (Node & { evaluate: unknown }) | undefined;
  if (!root || !isNode(root)) throw new Error('a compiled rule without its AST');
  let plan = plans.get(root);
  if (!plan) plans.set(root, (plan = planOf(root)));
  const { unobserved, needed, consts } = plan;
  let cost = 0;
  let cancelled = false;
  const values = new Map<Node, unknown>();
  const loops = new Map<Node, Loop>();
  const valueOf = (n: unknown): unknown => (isNode(n) ? values.get(n) : undefined);

  const callCost = (n: Node, name: string, args: unknown[], result: unknown): number => {
    const s = (i: number) => actualSize(args[i]);
    switch (name) {
      case '__crdx_eq':
      case '__crdx_ne':
        return ceilT(Math.min(s(0), s(1)));
      case '__crdx_add':
        return isString(args[0]) && isString(args[1]) ? ceilT(s(0) + s(1)) : 1;
      // the relational operators (rewrite.ts), costed as cel-go costs them (strings: the shorter one)
      case '__crdx_lt':
      case '__crdx_le':
      case '__crdx_gt':
      case '__crdx_ge':
        return isString(args[0]) && isString(args[1]) ? ceilT(Math.min(s(0), s(1))) : 1;
      case '__crdx_in': {
        const list = callArgs(n)[1];
        if (isConstScalarList(list)) return 0;
        return Array.isArray(args[1]) ? s(1) : 1;
      }
      case '__crdx_or':
      case '__crdx_and':
      case '__crdx_has':
      case '__crdx_intok':
      // an optional's value read as dyn (rewrite.ts): no call of cel-go's
      case '__crdx_dyn':
      // the list argument of sort(), distinct(), sortBy() (rewrite.ts): no call of cel-go's
      case '__crdx_lister':
      case '__crdx_strarg':
      case '__crdx_dblarg':
      case '__crdx_boolarg':
        return 0;
      // ext/sets.go trackSetsCost: the call plus |a|·|b| comparisons (twice for equivalence)
      case '__crdx_sets_contains':
      case '__crdx_sets_intersects':
        return 1 + s(0) * s(1);
      case '__crdx_sets_equivalent':
        return 1 + s(0) * s(1) * 2;
      case '__crdx_gmatches':
        return v137 ? Math.ceil((1 + s(0)) * TRAVERSAL) * Math.ceil(s(1) * REGEX_LENGTH) : 1;
      case '__crdx_matches':
      case 'find':
      case 'findAll':
        return Math.ceil((1 + s(0)) * TRAVERSAL) * Math.ceil(s(1) * REGEX_LENGTH);
      // ext/lists.go (version 3) cost trackers: the result's size (slice, reverse, lists.range), the
      // input's times the depth (flatten), 2n² (2.1n² for strings and bytes) comparisons (distinct,
      // and sort where its tracker runs: the checker resolved it to one overload, lister-panics.ts);
      // a sort() of several overloads costs the default 1
      case 'slice':
      case 'reverse':
      case '__crdx_lists_range':
        return actualSize(result) + LIST_CALL;
      case 'flatten': {
        const depth = args.length > 1 && typeof args[1] === 'bigint' ? Number(args[1]) : 1;
        return Math.floor(depth * s(0)) + LIST_CALL;
      }
      case 'distinct':
      case 'sort': {
        if (name === 'sort' && !sortTracked(n)) return 1;
        const l = args[0];
        const sz = s(0);
        const first = Array.isArray(l) ? l[0] : undefined;
        const factor = 2 + (sz > 0 && (isString(first) || first instanceof Uint8Array) ? TRAVERSAL : 0);
        return Math.floor(sz * sz * factor) + LIST_CALL;
      }
      case 'startsWith':
      case 'endsWith':
        return ceilT(v137 ? s(1) : s(0));
      case 'contains':
        return isString(args[0]) ? ceilT(s(0)) * ceilT(s(1)) : 1;
      case '__crdx_s_indexOf':
      case '__crdx_s_lastIndexOf':
      case 'indexOf':
      case 'lastIndexOf':
      case 'isSorted':
      case 'sum':
      case 'min':
      case 'max':
        return traversalCost(args[0]);
      case '__crdx_s_replace':
      case '__crdx_s_split':
      case '__crdx_ip_isCanonical':
        return Math.ceil(s(0) * 2 * TRAVERSAL);
      case '__crdx_s_join':
        return Math.ceil(actualSize(result) * 2 * TRAVERSAL);
      case '__crdx_s_format':
        return ceilT(s(0));
      case 'ip':
        return typeof args[0] === 'string' ? ceilT(s(0)) : 1;
      case 'bytes':
        return typeof args[0] === 'string' ? ceilT(s(0)) : 1;
      case 'string':
        return args[0] instanceof Uint8Array ? ceilT(s(0)) : 1;
      case 'containsIP':
        return ceilT(2 * s(0)) + (typeof args[1] === 'string' ? ceilT(s(1)) : 0);
      case 'containsCIDR':
        return ceilT(2 * s(0)) + ceilT(s(0)) + 1 + (typeof args[1] === 'string' ? ceilT(s(1)) : 0);
    }
    if (TRAVERSE_FIRST.has(name)) return ceilT(s(0));
    return 1;
  };

  const nodeCost = (n: Node, result: unknown): number => {
    const a = n.args as unknown[];
    switch (n.op) {
      case 'id':
        if (TYPE_NAMES.has(n.args as string) || unobserved.has(n)) return 0;
        return 1;
      case '.':
      case '[]':
        return isAttribute(a[0]) || unobserved.has(n) ? 1 : 2;
      case '!_':
        return 1;
      // (the evaluator's own nodes, such as a macro's empty accumulator list, are not in the plan)
      case '-_':
        return consts.has(n) || isConst(n) ? 0 : 1;
      case 'list':
        return consts.has(n) || isConst(n) ? 0 : 10;
      case 'map':
        return consts.has(n) || isConst(n) ? 0 : 30;
      case 'call': {
        const name = callName(n);
        const args = callArgs(n);
        if (CONVERSIONS.has(name) && consts.has(n)) return 0;
        return callCost(n, name, args.map(valueOf), result);
      }
      case 'rcall': {
        const name = callName(n);
        const args = callArgs(n);
        const loop = loops.get(n);
        if (loop !== undefined) {
          const range = valueOf(a[1]);
          const size = range instanceof Map ? range.size : Array.isArray(range) ? range.length : typeof range === 'object' && range !== null ? Object.keys(range).length : 0;
          const early = loop.runs < size;
          if (loop.kind === 'all') return (early ? 2 : 0) + 1;
          if (loop.kind === 'exists') return (early ? 3 : 0) + 1;
          if (loop.kind === 'exists_one') return 2;
          return 1;
        }
        if (OPTIONAL_FREE.has(name)) return 0;
        return callCost(n, name, [valueOf(a[1]), ...args.map(valueOf)], result);
      }
      default:
        if (COMPARE.has(n.op)) {
          const l = valueOf(a[0]);
          const r = valueOf(a[1]);
          return isString(l) && isString(r) ? ceilT(Math.min(actualSize(l), actualSize(r))) : 1;
        }
        if (BINARY.has(n.op)) return 1;
        // ?:, constants and the evaluator's own macro nodes
        return 0;
    }
  };

  /** The per-iteration cost of a macro's expansion, once its watched node has a value. */
  const iteration = (loop: Loop, v: unknown): number => {
    switch (loop.kind) {
      case 'all':
        return 3;
      case 'exists':
        return 4;
      case 'exists_one':
        return v === true ? 2 : 0;
      case 'filter':
        return v === true ? 12 : 0;
      case 'map':
        return loop.constTransform ? 2 : 12;
      case 'map3':
        return v === true ? (loop.constTransform ? 2 : 12) : 0;
      case 'transformList':
        return loop.constTransform ? 2 : 12;
      case 'transformList?':
        return v === true ? (loop.constTransform ? 2 : 12) : 0;
      case 'transformMap':
      case 'transformMapEntry':
        return TRANSFORM_STEP[loop.kind]!;
      case 'transformMap?':
      case 'transformMapEntry?':
        return v === true ? TRANSFORM_STEP[loop.kind.slice(0, -1)]! : 0;
      default:
        return 0;
    }
  };
  const watchers = new Map<Node, Loop>();

  const saved = Object.prototype.hasOwnProperty.call(root, 'evaluate') ? root.evaluate : undefined;
  const restore = () => {
    if (saved === undefined) delete (root as { evaluate?: unknown }).evaluate;
    else (root as { evaluate: unknown }).evaluate = saved;
  };
  let result: CostedResult | undefined;
  (root as { evaluate: unknown }).evaluate = function hook(ev: Evaluator, ast: unknown, c: unknown): unknown {
    restore();
    const orig = ev.run;
    const tracked = (n: unknown, cx: unknown): unknown => {
      if (cancelled) throw new CostLimitExceeded();
      if (!isNode(n)) return orig.call(ev, n, cx);
      let loop: Loop | undefined;
      let prevLoop: Loop | undefined;
      let prevWatch: Loop | undefined;
      if (n.op === 'rcall' && MACROS.has(callName(n)) && loops !== undefined) {
        const name = callName(n);
        const args = callArgs(n);
        const twoVar = (TWO_VAR.has(name) && args.length === 3) || name in TRANSFORM_STEP;
        const kind = name === 'map' && args.length === 3 ? 'map3' : name === 'existsOne' ? 'exists_one' : name in TRANSFORM_STEP ? `${name}${args.length === 4 ? '?' : ''}` : name;
        const watched = twoVar ? args[2]! : args[1]!;
        const transform = name === 'map' || name === 'transformList' ? args[args.length - 1] : undefined;
        loop = { kind, watched, constTransform: transform !== undefined && isConst(transform), runs: 0 };
        prevLoop = loops.get(n);
        prevWatch = watchers.get(watched);
        loops.set(n, loop);
        watchers.set(watched, loop);
      }
      let v: unknown = ERROR;
      try {
        v = orig.call(ev, n, cx);
        return v;
      } finally {
        if (!cancelled) {
          if (needed.has(n)) values.set(n, v);
          const w = watchers.get(n);
          if (w !== undefined) {
            w.runs++;
            cost += iteration(w, v);
          }
          cost += nodeCost(n, v);
          if (loop !== undefined) {
            if (prevLoop === undefined) loops.delete(n);
            else loops.set(n, prevLoop);
            if (prevWatch === undefined) watchers.delete(loop.watched);
            else watchers.set(loop.watched, prevWatch);
          }
          if (cost > limit) cancelled = true;
        }
      }
    };
    (ev as { run: unknown }).run = tracked;
    try {
      const v = tracked(ast, c);
      if (cancelled) throw new CostLimitExceeded();
      return v;
    } finally {
      delete (ev as { run?: unknown }).run;
    }
  };
  try {
    const value = fn(ctx);
    result = cancelled ? { ok: false, error: new CostLimitExceeded(), cost } : { ok: true, value, cost };
  } catch (error) {
    result = { ok: false, error: cancelled ? new CostLimitExceeded() : error, cost };
  } finally {
    if (Object.prototype.hasOwnProperty.call(root, 'evaluate') && (root as { evaluate: { name?: string } }).evaluate.name === 'hook') restore();
  }
  return result;
}
