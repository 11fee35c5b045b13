/**
 * Evaluation of x-kubernetes-validations rules on a custom resource, as the API server's CEL
 * validator does (apiextensions-apiserver pkg/apiserver/schema/cel/validation.go): each node's rules
 * with `self` (and `oldSelf` on update, when an old value is correlated) bound to the node's value,
 * then the children. Values are bound as the server's adapters bind them (cel/bind.ts), the rule
 * runs rewritten onto the libraries of cel/env.ts (cel/rewrite.ts), and a rule whose runtime cost
 * bound could reach the server's limits is not run (cel/cost-bound.ts). Still conservative: a rule
 * calling a function outside SUPPORTED_CALLS, a value crdx cannot bind, and an evaluation error whose
 * server text crdx does not know leave the object "not fully evaluated" (`complete: false`) rather
 * than guessing; a violation is reported only when a rule evaluated to false, or failed with the
 * server's error text.
 *
 * The evaluator is the CEL engine the caller passes in (cel-syntax.ts; on the CRD, Crd.cel): a
 * schema with rules and no engine is a wiring bug and throws, it is never skipped.
 */
import { gated } from '../core/version-gates.js';
import { OMIT, type FieldError } from '../core/field-error.js';
import { atLeast, DEFAULT_KUBE_VERSION, type KubeVersion } from '../core/kube-version.js';
import { Loc } from '../core/path.js';
import { isRecord, type JsonPath } from '../core/types.js';
import { celMissing, type CelEngine } from '../core/cel-engine.js';
import { hasKeyDeep, type CelBindingFacts, type Structural } from '../crd/structural-schema.js';
import { arithmeticErrorOf, goMissingKey, missingKeyOf, type SubResult } from './cel-errors.js';
import { makeEnvs, type CelEnvs } from './cel/env.js';
import { CelGoError, CelUnsupported, goCallNoOverload, goNoSuchOverload } from './cel/lib/ops.js';
import { runtime, setRuntimeFlags, type RuntimeFlags } from './cel/lib/runtime.js';
import { bytesLiteralsAsUtf8, rewriteWithListers, type ListerCall } from './cel/rewrite.js';
import { listerSites } from './cel/lister-panics.js';
import type { ListerSites } from './cel/lib/runtime.js';
import { optionalEntriesPlain, plainFieldNames, relationsGrouped } from './cel/ast.js';
import { compileExpression, GO_LITERAL_CHECKS } from './cel/compile.js';
import { schemaDeclType } from './cel/decl.js';
import { costBound, PER_CALL_LIMIT, PER_OBJECT_BUDGET, shapeOf, sizeOf, type Shape } from './cel/cost-bound.js';
import { bindValue, BoundError, Unbound } from './cel/bind.js';
import { CostLimitExceeded, exactCostReason, runCosted, type CostedResult } from './cel/cost-runtime.js';
import { quote as goQuote } from '../go/quote.js';
import { Correlated, type CorrShape } from './validation/ratchet.js';
import { validFieldPath } from './field-path.js';

interface CelOutcome {
  readonly errors: FieldError[];
  /** The ratcheted errors the server sends as `299` warnings (their text: field-error.ts errorText). */
  readonly warnings?: readonly FieldError[];
  /** Every rule the server would evaluate was evaluated here. */
  readonly complete: boolean;
  /** What was not evaluated, and why (empty exactly when `complete`). */
  readonly skipped: readonly CelSkip[];
}

/** A rule (or a part of the schema holding rules) the server evaluates and crdx did not. */
export interface CelSkip {
  /** The rule's text ('' when the skip is not about one rule). */
  readonly rule: string;
  /** Where in the object: the node the rule applies to. */
  readonly at: JsonPath;
  /** Where in the version's openAPIV3Schema: the rule (…, 'x-kubernetes-validations', i) or the node. */
  readonly schemaAt: JsonPath;
  /** Why, in a few words (completes "not evaluated: …"). */
  readonly why: string;
}

/** Functions and macros whose cel-js behaviour matches cel-go on the values we bind. */
const SUPPORTED_CALLS = new Set([
  'size', 'has', 'all', 'exists', 'exists_one', 'map', 'filter', 'matches', 'startsWith', 'endsWith', 'contains', 'int', 'uint', 'string', 'lowerAscii', 'upperAscii', 'hasValue', 'value', 'orValue',
  // Kubernetes regex and lists libraries (cel/lib/regex.ts, cel/lib/lists.ts)
  'find', 'findAll', 'isSorted', 'sum', 'min', 'max', 'indexOf', 'lastIndexOf',
  // durations and timestamps parsed as Go does (cel/env.ts), their accessors, type()
  'duration', 'timestamp', 'type', 'dyn', 'double', 'bool', 'bytes',
  // cel-go two-variable comprehensions (cel/lib/comprehensions.ts)
  'existsOne', 'transformList', 'transformMap', 'transformMapEntry',
  // cel-go lists extension v3 (cel/lib/lists.ts; sortBy: cel/lib/comprehensions.ts)
  'slice', 'flatten', 'distinct', 'reverse', 'sort', 'range', 'sortBy',
  // cel-go sets extension (cel/env.ts), optionals (cel-js)
  'contains', 'equivalent', 'intersects', 'of', 'none', 'or', 'ofNonZeroValue', 'optMap', 'optFlatMap',
  // cel-go optionals on lists (cel/env.ts registerOptionalLists)
  'first', 'last', 'unwrap', 'unwrapOpt',
  // Kubernetes IP library (cel/lib/ip.ts)
  'isIP', 'ip', 'isCanonical', 'family', 'isUnspecified', 'isLoopback', 'isLinkLocalMulticast', 'isLinkLocalUnicast', 'isGlobalUnicast',
  // Kubernetes CIDR library (cel/lib/cidr.ts)
  'cidr', 'isCIDR', 'containsIP', 'containsCIDR', 'masked', 'prefixLength',
  // Kubernetes semver library (cel/lib/semver.ts; isGreaterThan, isLessThan, compareTo: below)
  'semver', 'isSemver', 'major', 'minor', 'patch',
  // Kubernetes format library (cel/lib/format.ts)
  'named', 'validate', 'dns1123Label', 'dns1123Subdomain', 'dns1035Label', 'qualifiedName', 'dns1123LabelPrefix', 'dns1123SubdomainPrefix', 'dns1035LabelPrefix', 'labelValue', 'uri', 'uuid', 'byte', 'date', 'datetime',
  // Kubernetes URL library (cel/lib/url.ts)
  'url', 'isURL', 'getScheme', 'getHost', 'getHostname', 'getPort', 'getEscapedPath', 'getQuery',
  // cel-go strings extension (cel/lib/strings.ts)
  'charAt', 'replace', 'split', 'substring', 'trim', 'join', 'quote', 'format',
  // Kubernetes quantity library (cel/lib/quantity.ts)
  'quantity', 'isQuantity', 'sign', 'isGreaterThan', 'isLessThan', 'compareTo', 'add', 'sub', 'isInteger', 'asInteger', 'asApproximateFloat',
  'getFullYear', 'getMonth', 'getDayOfMonth', 'getDate', 'getDayOfWeek', 'getDayOfYear', 'getHours', 'getMinutes', 'getSeconds', 'getMilliseconds',
]);

interface Compiled {
  readonly rule: string;
  readonly run: ((ctx: Record<string, unknown>) => unknown) | undefined;
  readonly message: string | undefined;
  readonly messageExpression: string | undefined;
  readonly runMessage: ((ctx: Record<string, unknown>) => unknown) | undefined;
  /** The sort-like calls of the rule and of its messageExpression, as the rewrite numbered them (runtime.panicking). */
  readonly listers: readonly ListerCall[];
  readonly messageListers: readonly ListerCall[];
  /** The rule's cel-js AST as written (for the error texts of cel-errors.ts). */
  readonly ast: unknown;
  /** The text that AST was parsed from (the rule, with what cel-js lacks written as it parses it). */
  readonly src: string | undefined;
  readonly reason: string | undefined;
  /** Where the rule's errors are reported below its node: the server's text, and the path in the object. */
  readonly fieldPath: { readonly field: string; readonly at: readonly string[] } | undefined;
  readonly usesOldSelf: boolean;
  readonly optionalOldSelf: boolean;
  /** Why the rule cannot be evaluated here (undefined: it can). */
  readonly unsupported: string | undefined;
  /** The rule's and messageExpression's AST shapes (cel/cost-bound.ts). */
  readonly shapes: readonly Shape[];
  /** Why crdx does not count the rule's (or its messageExpression's) runtime cost as cel-go does (cel/cost-runtime.ts); undefined: it does. */
  readonly inexact: string | undefined;
}

type Env = CelEnvs['plain'];
const envs = new WeakMap<CelEngine, CelEnvs>();

function environment(cel: CelEngine): CelEnvs {
  let env = envs.get(cel);
  if (!env) envs.set(cel, (env = makeEnvs(cel.module)));
  return env;
}

/** A rule text compiled for evaluation: parsed as written, rewritten (cel/rewrite.ts), parsed again with the libraries. */
type CompiledText = { run: (ctx: Record<string, unknown>) => unknown; ast: unknown; src: string; listers: readonly ListerCall[] };
const compiledTexts = new WeakMap<CelEnvs, Map<string, CompiledText>>();

/** A rule text's program, once per environment: a program does not depend on the node (the same rule in each version of a CRD compiles once). */
function compileText(text: string, e: CelEnvs): CompiledText {
  let m = compiledTexts.get(e);
  if (!m) compiledTexts.set(e, (m = new Map()));
  let c = m.get(text);
  if (c) return c;
  // backtick-escaped field names (cel-go 0.29, Kubernetes 1.37), which cel-js lacks, written plainly;
  // bytes literals beyond ASCII as cel-go reads them (UTF-8)
  let src = text.includes('`') ? (plainFieldNames(text) ?? text) : text;
  // optional list elements and map entries (`[?x]`, `{?k: v}`) as calls of ours
  src = optionalEntriesPlain(src) ?? src;
  src = bytesLiteralsAsUtf8(src) ?? src;
  // chained relations grouped as CEL's grammar groups them
  src = relationsGrouped(src) ?? src;
  const ast = e.plain.parse(src).ast;
  // a long-lived engine (the language server) meets a new text at each keystroke in a rule
  if (m.size >= 10_000) m.clear();
  const rewritten = rewriteWithListers(ast);
  m.set(text, (c = { run: e.libs.parse(rewritten.text), ast, src, listers: rewritten.listers }));
  return c;
}

/**
 * One sub-expression of a rule evaluated on its own (cel-errors.ts): as written in the plain
 * environment, else (a library call it lacks: `url(s).getQuery()['a']`) as a rule is evaluated,
 * rewritten with the libraries.
 */
function evaluateText(text: string, ctx: Record<string, unknown>, envs: CelEnvs): SubResult {
  let first: unknown;
  try {
    return { ok: true, value: envs.plain.parse(relationsGrouped(text) ?? text)(ctx) };
  } catch (e) {
    const key = missingKeyOf(e);
    if (key !== undefined) return { ok: false, key };
    first = e;
  }
  try {
    return { ok: true, value: compileText(text, envs).run(ctx) };
  } catch (e) {
    const go = e instanceof CelGoError && /^no such key: /.test(e.message) ? e.message : undefined;
    return { ok: false, key: missingKeyOf(e) ?? go ?? missingKeyOf(first) };
  }
}

/** The expression without its string literals (for scanning identifiers and calls). */
function stripStrings(e: string): string {
  return e.replace(/[rRbB]?("""[\s\S]*?"""|'''[\s\S]*?'''|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')/g, '""');
}

/** Why the functions the expression calls cannot be evaluated here; undefined when they can. */
function callUnsupported(e: string): string | undefined {
  const code = stripStrings(e);
  for (const m of code.matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*\(/g)) {
    const name = m[1]!;
    // `x in (…)`: the operator, not a call
    if (name === 'in') continue;
    if (!SUPPORTED_CALLS.has(name)) return `crdx does not evaluate ${name}() yet`;
  }
  return undefined;
}

/** validation.go ruleErrorString: how an evaluation error names its rule (the message if set, else the rule). */
function ruleErrorString(c: { readonly message?: string | undefined; readonly rule: string }): string {
  return c.message !== undefined && c.message.length > 0 ? c.message.trim() : c.rule.trim();
}

/** The place of a rule's error: its node's, or (fieldPath) one child below it, at the keys the path walks. */
function below(loc: Loc, fp: Compiled['fieldPath']): Loc {
  return fp === undefined ? loc : loc.child(fp.field, null).withAt([...loc.at, ...fp.at]);
}

/**
 * A rule's fieldPath as the server resolves it when it compiles the rule (ValidFieldPath): its
 * normalized text, appended to the node's field path as one child, and the keys it walks in the
 * object. A path the server would not resolve adds nothing (the server refuses such a CRD anyway).
 */
function ruleFieldPath(fp: string | undefined, schema: Structural): Compiled['fieldPath'] {
  if (fp === undefined) return undefined;
  const r = validFieldPath(fp, schema);
  return r.error !== undefined || r.normalized === undefined || r.normalized === '' ? undefined : { field: r.normalized, at: r.segments ?? [] };
}

/**
 * The rules of a schema node compiled (once, kept on the node: see `rules`). Every environment is
 * made with the same options, so the programs do not depend on which engine compiled them.
 */
function compile(schema: Structural, facts: CelBindingFacts, e: CelEnvs): Compiled[] {
  const out: Compiled[] = [];
  for (const r of schema.extensions.validations) {
    const rr = isRecord(r) ? r : {};
    const rule = typeof rr['rule'] === 'string' ? rr['rule'] : '';
    const message = typeof rr['message'] === 'string' ? rr['message'] : undefined;
    const messageExpression = typeof rr['messageExpression'] === 'string' && rr['messageExpression'] !== '' ? rr['messageExpression'] : undefined;
    const fp = typeof rr['fieldPath'] === 'string' && rr['fieldPath'] !== '' ? rr['fieldPath'] : undefined;
    const reason = typeof rr['reason'] === 'string' ? rr['reason'] : undefined;
    const usesOldSelf = /(?<![.\w])oldSelf\b/.test(stripStrings(rule));
    let unsupported: string | undefined;
    let run: Compiled['run'];
    let runMessage: Compiled['runMessage'];
    let listers: readonly ListerCall[] = [];
    let messageListers: readonly ListerCall[] = [];
    let ast: unknown;
    let src: string | undefined;
    const fieldPath = ruleFieldPath(fp, schema);
    const unknownCall = callUnsupported(rule) ?? (messageExpression !== undefined ? callUnsupported(messageExpression) : undefined);
    if (reason !== undefined && !['FieldValueInvalid', 'FieldValueForbidden', 'FieldValueRequired', 'FieldValueDuplicate'].includes(reason)) unsupported = `its reason ${JSON.stringify(reason)} is not one crdx knows`;
    else if (unknownCall !== undefined) unsupported = unknownCall;
    else {
      try {
        if (rule.trim() !== '') ({ run, ast, src, listers } = compileText(rule, e));
        if (messageExpression !== undefined) ({ run: runMessage, listers: messageListers } = compileText(messageExpression, e));
      } catch {
        unsupported = 'crdx cannot parse it';
      }
    }
    let inexact: string | undefined;
    try {
      inexact = run === undefined ? undefined : exactCostReason((run as { ast?: unknown }).ast) ?? (runMessage === undefined ? undefined : exactCostReason((runMessage as { ast?: unknown }).ast));
    } catch {
      inexact = 'crdx cannot count its runtime cost';
    }
    const shapes: Shape[] = [];
    try {
      if (ast !== undefined) shapes.push(shapeOf(ast));
      if (messageExpression !== undefined && runMessage !== undefined) shapes.push(shapeOf(e.plain.parse(relationsGrouped(messageExpression) ?? messageExpression).ast));
    } catch {
      // parsed above already
    }
    out.push({ rule, run, message, messageExpression, runMessage, listers, messageListers, ast, src, reason, fieldPath, usesOldSelf, optionalOldSelf: rr['optionalOldSelf'] === true, unsupported, shapes, inexact });
  }
  return out;
}

/** The CEL validator's correlation reads the structural schema (model.Structural in the apiextensions CEL adaptor). */
const STRUCTURAL_SHAPE: CorrShape<Structural> = {
  child: (s, field) => s.properties.get(field) ?? s.additionalProperties?.schema,
  items: (s) => s.items,
  mapKeys: (s) => (s.extensions.listType === 'map' && s.generic.type === 'array' && (s.extensions.listMapKeys?.length ?? 0) > 0 ? s.extensions.listMapKeys : undefined),
};

/**
 * validation.go ratchetingOptions: the node's correlation and the nearest correlated ancestor. Errors
 * of rules without oldSelf are ratcheted when the node (else that ancestor) equals its old value as
 * CachedDeepEqual decides: schema-aware, so an object holding a key its schema does not declare
 * (preserve-unknown-fields) is never equal.
 */
interface Ratchet {
  readonly cur: Correlated<Structural> | undefined;
  readonly parent: Correlated<Structural> | undefined;
}
const NO_RATCHET: Ratchet = { cur: undefined, parent: undefined };
const shouldRatchet = (r: Ratchet): boolean => (r.cur !== undefined ? r.cur.deepEqual() : r.parent !== undefined && r.parent.deepEqual());
function ratchetKey(r: Ratchet, field: string): Ratchet {
  if (r.cur === undefined) return r;
  // apiVersion and kind at the root are never ratcheted (both sides are converted to the same version)
  if (r.parent === undefined && (field === 'apiVersion' || field === 'kind')) return NO_RATCHET;
  return { cur: r.cur.key(field), parent: r.cur };
}
const ratchetIndex = (r: Ratchet, i: number): Ratchet => (r.cur === undefined ? r : { cur: r.cur.index(i), parent: r.cur });

class Walk {
  readonly errors: FieldError[] = [];
  /** Errors the server sends as warnings (ratcheted: the value is unchanged by the update), in its order. */
  readonly warnings: FieldError[] = [];
  readonly skipped: CelSkip[] = [];
  /** The runtime cost counted as cel-go counts it of the rules evaluated so far (the per-object budget). */
  private spent = 0;
  /** The cost bounds of the rules evaluated whose cost crdx did not count exactly (cost-bound.ts). */
  private slack = 0;
  /** The server stopped here (out of budget, a call over its limit): no further rule runs. */
  private stopped = false;
  private readonly env: CelEnvs;
  /** Errors on unchanged values are ratcheted (an update with the ratcheting correlation). */
  private readonly ratchets: boolean;
  constructor(
    update: boolean,
    private readonly cel: CelEngine,
    private readonly typeAsValue: boolean,
    ratcheting = true,
    adapters137 = false,
    /** Rules the server's stored environment no longer compiles are errors (a custom resource on a 1.37 server). */
    private readonly storedCompile137 = false,
    /** The simulated version's library behaviours. */
    private readonly flags: RuntimeFlags = runtimeFlags(undefined),
  ) {
    const env = environment(cel);
    this.env = adapters137 ? { ...env, makers: { ...env.makers, adapters137 } } : env;
    this.ratchets = update && ratcheting;
  }

  private skip(rule: string, loc: Loc, schemaAt: JsonPath, why: string): void {
    this.skipped.push({ rule, at: loc.at, schemaAt, why });
  }

  /**
   * One node: its rules, then its children. `old` is the correlated old value (undefined when none);
   * `ratchet`: the correlation (when the nearest correlated node, this one or an ancestor, is unchanged the server
   * turns errors of rules without oldSelf into warnings (which we do not reproduce).
   */
  node(v: unknown, old: unknown, s: Structural, loc: Loc, root: boolean, ratchet: Ratchet, sp: JsonPath): void {
    if (v === null || v === undefined || this.stopped) return;
    // rules inside allOf/anyOf/oneOf/not are not evaluated here
    if (s.facts.celInNested)
      for (const k of ['allOf', 'anyOf', 'oneOf', 'not']) if (hasKeyDeep(s.raw[k], 'x-kubernetes-validations')) this.skip('', loc, [...sp, k], `crdx does not evaluate rules inside ${k} yet`);
    if (s.extensions.validations.length > 0) this.rules(v, old, s, loc, root, this.ratchets && shouldRatchet(ratchet), sp);
    const t = s.generic.type;
    if (t === 'object' && isRecord(v)) {
      const ps = s.declaresProperties;
      const ap = s.additionalProperties?.schema;
      const oldMap = isRecord(old) ? old : undefined;
      for (const [k, x] of Object.entries(v)) {
        const cs = ps ? s.properties.get(k) : ap;
        if (!cs) continue;
        if (!cs.facts.celBelow) continue;
        const o = oldMap && Object.prototype.hasOwnProperty.call(oldMap, k) ? oldMap[k] : undefined;
        this.node(x, o ?? undefined, cs, ps ? loc.child(k) : loc.key(k), false, ratchetKey(ratchet, k), ps ? [...sp, 'properties', k] : [...sp, 'additionalProperties']);
      }
    } else if (t === 'array' && Array.isArray(v)) {
      const it = s.items;
      if (!it || !it.facts.celBelow) return;
      const keys = s.extensions.listType === 'map' ? s.extensions.listMapKeys : undefined;
      const oldArr = Array.isArray(old) ? old : [];
      const keyOf = (o: unknown): string | undefined => {
        if (!keys || keys.length === 0 || !isRecord(o)) return undefined;
        const parts: string[] = [];
        for (const k of keys) {
          const x = o[k];
          if (typeof x === 'string' || typeof x === 'boolean') parts.push(`${typeof x}:${String(x)}`);
          else if (typeof x === 'number' || typeof x === 'bigint') parts.push(typeof x === 'bigint' || Number.isInteger(x) ? `int:${String(x)}` : `float:${x}`);
          else return undefined;
        }
        return parts.join('\0');
      };
      const oldBy = new Map<string, unknown>();
      for (const o of oldArr) {
        const k = keyOf(o);
        if (k !== undefined && !oldBy.has(k)) oldBy.set(k, o);
      }
      v.forEach((x, i) => {
        const k = keyOf(x);
        const o = k === undefined ? undefined : oldBy.get(k);
        this.node(x, o ?? undefined, it, loc.index(i), false, ratchetIndex(ratchet, i), [...sp, 'items']);
      });
    } else if (s.facts.celInChildren) {
      // a value of the wrong shape holding rules below: the server would not reach them either, but be safe
      this.skip('', loc, sp, 'the value does not have the schema\'s type, and rules sit below this node');
    }
  }

  private rules(v: unknown, old: unknown, s: Structural, loc: Loc, root: boolean, ratchet: boolean, sp: JsonPath): void {
    const f = s.celBinding;
    const compiled = s.derive('cel/rules', (n) => compile(n, f, this.env));
    const bind = (x: unknown) => (x === undefined ? undefined : bindValue(x, s, root, this.env.makers));
    const bound = { self: bind(v), oldSelf: bind(old) };
    const unbound = bound.self instanceof Unbound ? bound.self : bound.oldSelf instanceof Unbound ? bound.oldSelf : undefined;
    const plain = { self: bound.self instanceof Unbound ? undefined : bound.self, oldSelf: bound.oldSelf instanceof Unbound ? undefined : bound.oldSelf };
    const m = this.cel.module;
    setRuntimeFlags(this.flags);
    const nodeField = loc.field === '' ? '<nil>' : loc.field;
    const outOfBudget = 'validation failed due to running out of cost budget, no further validation rules will be run';
    // a node with rules reached with no budget left (validation.go validateExpressions)
    if (this.spent >= PER_OBJECT_BUDGET && compiled.some((c) => c.run !== undefined || c.unsupported !== undefined)) {
      if (this.slack > 0) this.skip('', loc, sp, 'the server may have run out of its runtime cost budget before this node, and crdx did not count the cost of every rule before it');
      else this.errors.push({ type: 'Invalid', field: nodeField, value: s.generic.type, detail: outOfBudget, at: loc.at });
      this.stopped = true;
      return;
    }
    let size: { largest: number; longest: number } | undefined;
    for (const [i, c] of compiled.entries()) {
      if (this.stopped) return;
      if (c.run === undefined && c.unsupported === undefined) continue; // empty rule
      const skip = (why: string) => this.skip(c.rule, loc, [...sp, 'x-kubernetes-validations', i], why);
      const notCompiled = this.storedCompile137 ? compiledBefore137Only(c, s, root) : undefined;
      if (notCompiled !== undefined) {
        this.errors.push({ type: 'Invalid', field: loc.field === '' ? '<nil>' : loc.field, value: s.generic.type, detail: `rule compile error: ${notCompiled}`, at: loc.at });
        continue;
      }
      const { self, oldSelf } = plain;
      // transition rules need a correlated old value (optionalOldSelf ones run with an empty optional)
      if (c.usesOldSelf && old === undefined && !c.optionalOldSelf) continue;
      if (c.unsupported !== undefined) {
        skip(c.unsupported);
        continue;
      }
      // the value itself binds as an error (a format: byte string strfmt cannot decode): self is that
      // error to the rule, as cel-go resolves it (`self.size() > 0` fails with it, `true || self == b''`
      // and a rule that never reads self do not)
      const selfError = bound.self instanceof BoundError ? bound.self.error : undefined;
      if ((self === undefined && selfError === undefined) || (c.usesOldSelf && old !== undefined && oldSelf === undefined)) {
        skip(`crdx cannot bind the value as the server does (${unbound?.why ?? 'no value'})`);
        continue;
      }
      const ctx = activation(self, selfError);
      if (c.optionalOldSelf) ctx['oldSelf'] = old === undefined ? m.Optional.none() : m.Optional.of(oldSelf);
      else if (old !== undefined && oldSelf !== undefined) ctx['oldSelf'] = oldSelf;
      // runtime cost: counted as cel-go counts it (cel/cost-runtime.ts) where crdx can; else a bound
      // under the server's limits (cel/cost-bound.ts), or the rule is not evaluated
      let costed: CostedResult | undefined;
      runtime.mapIterated = false;
      runtime.elementErrors.clear();
      runtime.panicking = c.listers.length === 0 ? undefined : listerPanics(c.rule, c.listers, s, root, c.optionalOldSelf, 'bool');
      if (c.inexact === undefined) {
        costed = runCosted(c.run! as never, ctx, PER_CALL_LIMIT, this.flags.v137);
        const cancelled = !costed.ok && costed.error instanceof CostLimitExceeded;
        if (this.spent + costed.cost > PER_OBJECT_BUDGET) {
          // the server checks the budget before the rule's own error
          if (this.slack > 0) skip('the server may run out of its runtime cost budget at this rule, and crdx did not count the cost of every rule before it exactly');
          else this.errors.push({ type: 'Invalid', field: nodeField, value: s.generic.type, detail: outOfBudget, at: loc.at });
          this.stopped = true;
          return;
        }
        if (this.spent + this.slack + costed.cost > PER_OBJECT_BUDGET) {
          this.spent += costed.cost;
          skip('the server may run out of its runtime cost budget at this rule, and crdx did not count the cost of every rule before it exactly');
          continue;
        }
        this.spent += costed.cost;
        if (cancelled) {
          const why = ruleErrorString(c);
          this.errors.push({ type: 'Invalid', field: nodeField, value: s.generic.type, detail: `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${why}`, at: loc.at });
          this.stopped = true;
          return;
        }
      } else {
        size ??= (() => {
          const a = sizeOf(v);
          const b = old === undefined ? { largest: 0, longest: 0 } : sizeOf(old);
          return { largest: Math.max(a.largest, b.largest), longest: Math.max(a.longest, b.longest) };
        })();
        const bound = Math.max(0, ...c.shapes.map((sh) => costBound(sh, size!)));
        if (bound > PER_CALL_LIMIT || this.spent + this.slack + bound > PER_OBJECT_BUDGET) {
          skip(`${c.inexact}, and this rule could exceed the server's ${bound > PER_CALL_LIMIT ? 'per-call limit' : 'per-object budget'} here`);
          continue;
        }
        this.slack += bound;
      }
      let res: unknown;
      try {
        if (costed !== undefined) {
          if (!costed.ok) throw costed.error;
          res = costed.value;
        } else res = c.run!(ctx);
      } catch (err) {
        // the sub-expressions knownErrorText runs again are numbered on their own
        runtime.panicking = undefined;
        // a missing key or an index past the end is an Invalid error at this node, as cel-go reports it (cel-errors.ts)
        if (err instanceof CelUnsupported) {
          skip(`crdx does not reproduce the server here: ${err.message}`);
          continue;
        }
        // An evaluation error is never ratcheted (validation.go validateExpressions appends it to the
        // errors before the ratcheting addErr, which only covers a rule that evaluated to false).
        // an operator applied to operands it has no overload for, which only dyn operands reach (an
        // int-or-string value, dyn(), preserve-unknown fields): checked on every pair of types by the
        // dynoperators library case
        const nso = goNoSuchOverload(errorText(err));
        if (nso !== undefined) {
          const why = ruleErrorString(c);
          this.errors.push({ type: 'Invalid', field: loc.field === '' ? '<nil>' : loc.field, value: s.generic.type, detail: `'${nso}': call arguments did not match a supported operator, function or macro signature for rule: ${why}`, at: loc.at });
          continue;
        }
        // read before knownErrorText, whose sub-expression runs set it again
        const mapIterated = runtime.mapIterated;
        const key = knownErrorText(err, c.src ?? c.rule, c.ast, ctx, this.env, mapIterated);
        if (key === undefined) {
          skip(
            mapIterated && (missingKeyOf(err) !== undefined || err instanceof CelGoError)
              ? `it fails inside a comprehension over a map of several entries, which the server goes through in Go's random order (crdx: ${errorText(err)})`
              : `crdx's evaluation failed (${errorText(err)})`,
          );
          continue;
        }
        const why = ruleErrorString(c);
        // the server words an error that starts with "no such overload" on its own (validation.go)
        const detail = key.startsWith('no such overload') ? `'${key}': call arguments did not match a supported operator, function or macro signature for rule: ${why}` : `${key} evaluating rule: ${why}`;
        this.errors.push({ type: 'Invalid', field: loc.field === '' ? '<nil>' : loc.field, value: s.generic.type, detail, at: loc.at });
        continue;
      }
      runtime.panicking = undefined;
      if (res === true) continue;
      if (res !== false) {
        skip('crdx evaluated it to a value that is not a bool');
        continue;
      }
      // on a value the update leaves unchanged, the server sends the error as a warning (ratcheting)
      const out = !c.usesOldSelf && this.ratchets && ratchet ? this.warnings : this.errors;
      let detail: string | undefined;
      if (c.runMessage) {
        // messageExpression sees oldSelf without the optional wrapping
        const mctx = activation(plain.self, selfError);
        if (old !== undefined && plain.oldSelf !== undefined) mctx['oldSelf'] = plain.oldSelf;
        let msg: unknown;
        runtime.panicking = c.messageListers.length === 0 ? undefined : listerPanics(c.messageExpression!, c.messageListers, s, root, c.optionalOldSelf, 'string');
        try {
          if (c.inexact === undefined) {
            const mc = runCosted(c.runMessage as never, mctx, PER_CALL_LIMIT, this.flags.v137);
            const cancelled = !mc.ok && mc.error instanceof CostLimitExceeded;
            if (this.spent + mc.cost > PER_OBJECT_BUDGET || cancelled) {
              const at = below(loc, c.fieldPath);
              const field = at.field === '' ? '<nil>' : at.field;
              if (this.spent + mc.cost > PER_OBJECT_BUDGET && this.slack > 0) skip('the server may run out of its runtime cost budget at its messageExpression, and crdx did not count the cost of every rule before it exactly');
              else {
                const detail = this.spent + mc.cost > PER_OBJECT_BUDGET ? 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run' : `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(c.messageExpression!)}`;
                out.push({ type: 'Invalid', field, value: s.generic.type, detail, at: at.at });
              }
              this.stopped = true;
              return;
            }
            this.spent += mc.cost;
            if (!mc.ok) throw mc.error;
            msg = mc.value;
          } else msg = c.runMessage(mctx);
        } catch (err) {
          runtime.panicking = undefined;
          // the server logs a failed messageExpression and falls back to the message; crdx does so only
          // for the failures it knows cel-go has too (a missing key, a library error, a dyn overload,
          // a division by zero or an overflow)
          // (and an optional's method on oldSelf, which a messageExpression sees unwrapped: the server
          // compiles it with oldSelf optional and fails at run time)
          const known =
            err instanceof CelGoError ||
            missingKeyOf(err) !== undefined ||
            arithmeticErrorOf(err) !== undefined ||
            /^no such overload: dyn</.test(errorText(err)) ||
            dynErrorText(err) !== undefined ||
            (c.optionalOldSelf && /^found no matching overload for '[^']*\.(?:hasValue|value|orValue|or)\(/.test(errorText(err))) ||
            // on a create the message's activation has no oldSelf (validationActivationWithOldSelf)
            (old === undefined && /^Unknown variable: oldSelf\b/.test(errorText(err)));
          if (!known) {
            skip(`the rule fails, but crdx's evaluation of its messageExpression failed (${errorText(err)})`);
            continue;
          }
          msg = undefined;
        }
        runtime.panicking = undefined;
        // a result that is not a string, empty, longer than 5,120 bytes or with a line break: the message
        const t = typeof msg === 'string' ? goTrimSpace(msg) : '';
        if (t !== '' && Buffer.byteLength(t, 'utf8') <= 5 * 1024 && !t.includes('\n')) detail = t;
      }
      detail ??= c.message !== undefined && c.message.length > 0 ? c.message.trim() : `failed rule: ${c.rule.trim()}`;
      const at = below(loc, c.fieldPath);
      // up to 1.34 the server printed the schema type as the value; from 1.35 the value (none for objects and arrays)
      const value = this.typeAsValue ? s.generic.type : s.generic.type === 'object' || s.generic.type === 'array' ? OMIT : v;
      const field = at.field === '' ? '<nil>' : at.field;
      switch (c.reason) {
        case 'FieldValueForbidden':
          out.push({ type: 'Forbidden', field, value: OMIT, detail, at: at.at, atKey: true });
          break;
        case 'FieldValueRequired':
          out.push({ type: 'Required', field, value: OMIT, detail, at: at.at, atKey: true });
          break;
        case 'FieldValueDuplicate':
          out.push({ type: 'Duplicate', field, value, detail: '', at: at.at });
          break;
        default:
          out.push({ type: 'Invalid', field, value, detail, at: at.at });
      }
    }
  }
}

/**
 * cel-go's text for an evaluation error crdx reproduces: a library error with cel-go's text
 * (cel/lib/*), an integer division or modulus by zero, or a missing key / index past the end
 * (found again in cel-go's order of evaluation, cel-errors.ts); undefined for any other error.
 */
function knownErrorText(err: unknown, rule: string, ast: unknown, ctx: Record<string, unknown>, env: CelEnvs, mapIterated: boolean): string | undefined {
  // (the comprehensions' elements that failed all failed with this error: then the order is no matter)
  // (by their texts: cel-js's messages go on with an excerpt of the source, where each failed)
  const text = (m: string): string => m.split('\n', 1)[0]!;
  const orderFree = [...runtime.elementErrors].every((t) => text(t) === text((err as Error).message));
  if (err instanceof CelGoError) return mapIterated && !orderFree ? undefined : err.message;
  // a call whose dyn arguments no overload takes, as cel-go words it by how the function is bound
  const call = dynErrorText(err);
  if (call !== undefined) return mapIterated && !orderFree ? undefined : call;
  const arithmetic = arithmeticErrorOf(err);
  if (arithmetic !== undefined) return arithmetic;
  const key = missingKeyOf(err);
  if (key === undefined) return undefined;
  // the engine evaluates operands, arguments and comprehensions in cel-go's order (env.ts
  // patchArgumentOrder, __crdx_or/__crdx_and), so where the textual search gives up (an error inside
  // a comprehension) its error is cel-go's, unless a comprehension went through a map of several
  // entries: Go iterates a map in random order, and which failing entry the server meets first is not known
  return goMissingKey(rule, ast, (text) => evaluateText(text, ctx, env)) ?? (mapIterated && !orderFree ? undefined : key);
}

/** cel-go's text of an error only dyn values reach (a call or operator no overload takes, no bool where one is wanted). */
function dynErrorText(err: unknown): string | undefined {
  return goCallNoOverload(err) ?? goNoSuchOverload(errorText(err)) ?? notBoolText(err);
}

/**
 * cel-go's error where a bool was wanted and a dyn value is none: a conditional's condition
 * (evalConditional) and the `accu && p` / `accu || p` step of all() and exists() (evalAnd, evalOr;
 * cel-js keeps the first error of the loop, as they do) answer `no such overload`.
 */
function notBoolText(err: unknown): string | undefined {
  const first = err instanceof Error ? (err.message.split('\n')[0] ?? '') : '';
  return /^(?:(?:all|exists)\(var, predicate\) predicate must return bool|Ternary condition must be bool), got '/.test(first) ? 'no such overload' : undefined;
}

/** What crdx's evaluator makes of one expression (evaluateExpression). */
export type ExpressionOutcome =
  | { readonly kind: 'value'; readonly value: unknown }
  /** `text`: cel-go's error text when crdx reproduces it (knownErrorText); `message`: the engine's. */
  | { readonly kind: 'error'; readonly text: string | undefined; readonly message: string }
  /** crdx does not evaluate it (a rule like it is reported "not evaluated"): why. */
  | { readonly kind: 'abstain'; readonly why: string };

/**
 * One expression evaluated as a rule is (the same gate on calls, the same rewritten program, the
 * same error texts), with `vars` as the activation and no schema, binding or cost limits: how
 * test/unit/cel-spec.test.ts runs the cel-spec conformance cases.
 */
export function evaluateExpression(text: string, vars: Record<string, unknown>, cel: CelEngine, kube?: KubeVersion): ExpressionOutcome {
  const unsupported = callUnsupported(text);
  if (unsupported !== undefined) return { kind: 'abstain', why: unsupported };
  const env = environment(cel);
  let c: CompiledText;
  try {
    c = compileText(text, env);
  } catch (e) {
    return { kind: 'abstain', why: `crdx cannot parse it (${errorText(e)})` };
  }
  setRuntimeFlags(runtimeFlags(kube));
  runtime.mapIterated = false;
  runtime.elementErrors.clear();
  // no schema, no checked types: no cost tracker's panic
  runtime.panicking = undefined;
  try {
    return { kind: 'value', value: c.run(vars) };
  } catch (err) {
    if (err instanceof CelUnsupported) return { kind: 'abstain', why: `crdx does not reproduce the server here: ${err.message}` };
    return { kind: 'error', text: knownErrorText(err, c.src, c.ast, vars, env, runtime.mapIterated), message: errorText(err) };
  }
}

const listerCache = new WeakMap<Structural, Map<string, ListerSites | 'unknown'>>();

/**
 * Which of an expression's sort-like calls (numbered by the rewrite, `listers`) panic on the
 * server when their list fails (cel/lister-panics.ts), from the expression checked against the
 * node's type; 'unknown' when crdx cannot tell (the expression does not check here, or the two
 * parsers' calls do not line up).
 */
function listerPanics(text: string, listers: readonly ListerCall[], s: Structural, root: boolean, optionalOldSelf: boolean, want: 'bool' | 'string'): ListerSites | 'unknown' {
  let m = listerCache.get(s);
  if (!m) listerCache.set(s, (m = new Map()));
  const key = `${root}\0${optionalOldSelf}\0${want}\0${text}`;
  let r = m.get(key);
  if (r !== undefined) return r;
  r = 'unknown';
  const decl = schemaDeclType(s, root, 37);
  // the calls' overloads are those of every server with the lists extension (1.34 and later)
  const v = decl && compileExpression(text, decl, { compat: 37, server: 37, optionalOldSelf, literals: GO_LITERAL_CHECKS }, want);
  if (v?.kind === 'ok' && v.outcome.parsed && v.outcome.checked) {
    const sites = listerSites(v.outcome.parsed.expr, v.outcome.checked);
    if (sites.length === listers.length && sites.every((x, i) => x.kind === listers[i]))
      r = { panics: new Set(sites.flatMap((x, i) => (x.panics ? [i] : []))), sums: new Map(sites.flatMap((x, i) => (x.sum !== undefined ? [[i, x.sum] as const] : []))) };
  }
  m.set(key, r);
  return r;
}

/** strings.TrimSpace */
function goTrimSpace(s: string): string {
  return s.replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g, '');
}

/**
 * A rule a 1.36 server stored that a 1.37 server's stored-expressions environment no longer
 * compiles (cel-go 0.29: `duration(int)` is gone, `.name` skips the comprehension variables): its
 * validator reports `rule compile error: <the compile error>` on every object. Other compile errors
 * cannot reach a stored CRD (crdx reports them on the CRD itself).
 */
function compiledBefore137Only(c: { readonly rule: string; readonly optionalOldSelf: boolean }, s: Structural, root: boolean): string | undefined {
  if (c.rule.trim() === '') return undefined;
  const now = schemaDeclType(s, root, 37);
  const before = schemaDeclType(s, root, 36);
  if (!now || !before) return undefined;
  const v = compileExpression(c.rule, now, { compat: 37, server: 37, optionalOldSelf: c.optionalOldSelf, literals: GO_LITERAL_CHECKS }, 'bool');
  if (v.kind !== 'error') return undefined;
  const then = compileExpression(c.rule, before, { compat: 36, server: 36, optionalOldSelf: c.optionalOldSelf, literals: GO_LITERAL_CHECKS }, 'bool');
  return then.kind === 'ok' ? v.detail : undefined;
}

/** The list value adapters changed in 1.37 (apiserver pkg/cel/common valuesunstructured.go). */
function adapters137(kube: KubeVersion | undefined): boolean {
  return gated(kube ?? DEFAULT_KUBE_VERSION, 'cel.list-adapters');
}

/** Whether a stored rule is compiled by cel-go 0.29, which no longer declares duration(int) (1.37 and later). */
function storedCompile137(kube: KubeVersion | undefined): boolean {
  return gated(kube ?? DEFAULT_KUBE_VERSION, 'cel.go-0.29');
}

/** The library behaviours of a version's cel-go and golang.org/x/text (the default version when none is given). */
function runtimeFlags(kube: KubeVersion | undefined): RuntimeFlags {
  const k = kube ?? DEFAULT_KUBE_VERSION;
  return {
    v137: gated(k, 'cel.go-0.29-runtime'),
    indexPastEndFails: !gated(k, 'cel.go-0.22-runtime'),
    emptyLastIndexOfFails: !gated(k, 'cel.go-0.26-runtime'),
    sciSpaces: !gated(k, 'cel.x-text-0.23'),
  };
}

function errorText(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  const line = m.split('\n')[0]!.trim();
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

/**
 * The server's CEL validation of a custom resource (`old`: the stored object, on update).
 * `complete: false` when some rule could not be evaluated here (`skipped` says which and why).
 */
export function evaluateCel(obj: Record<string, unknown>, old: Record<string, unknown> | undefined, schema: Structural | undefined, cel: CelEngine | undefined, kube?: KubeVersion): CelOutcome {
  if (!schema || !schema.facts.celBelow) return { errors: [], complete: true, skipped: [] };
  if (!cel) throw celMissing('CEL evaluation');
  const whole = (why: string): CelOutcome => ({ errors: [], complete: false, skipped: [{ rule: '', at: [], schemaAt: [], why }] });
  const w = new Walk(old !== undefined, cel, kube !== undefined && !gated(kube, 'cr.cel-message-value'), true, adapters137(kube), storedCompile137(kube), runtimeFlags(kube));
  try {
    w.node(obj, old, schema, new Loc('', []), true, old !== undefined ? { cur: new Correlated(obj, old, schema, STRUCTURAL_SHAPE), parent: undefined } : NO_RATCHET, []);
  } catch (e) {
    return whole(`crdx's evaluation failed (${errorText(e)})`);
  }
  return { errors: w.errors, complete: w.skipped.length === 0, skipped: w.skipped, ...(w.warnings.length > 0 ? { warnings: w.warnings } : {}) };
}

/**
 * The CEL rules at and below a schema node run on its default, as the CRD's default validation does
 * (apiextensions defaulting/validation.go): first as an update from the default to itself (transition
 * rules see it as oldSelf), then, when that passed, as a create (optionalOldSelf rules without it). No
 * ratcheting: the validator is built without a correlation. Errors are at `loc` (…default).
 */
export function evaluateCelOnDefault(value: unknown, schema: Structural, loc: Loc, isResourceRoot: boolean, cel: CelEngine, kube?: KubeVersion): CelOutcome {
  if (!schema.facts.celBelow) return { errors: [], complete: true, skipped: [] };
  const typeAsValue = kube !== undefined && !gated(kube, 'cr.cel-message-value');
  const run = (old: unknown): CelOutcome => {
    const w = new Walk(old !== undefined, cel, typeAsValue, false, adapters137(kube), false, runtimeFlags(kube));
    try {
      w.node(value, old, schema, loc, isResourceRoot, NO_RATCHET, []);
    } catch (e) {
      return { errors: [], complete: false, skipped: [{ rule: '', at: loc.at, schemaAt: [], why: `crdx's evaluation failed (${errorText(e)})` }] };
    }
    return { errors: w.errors, complete: w.skipped.length === 0, skipped: w.skipped };
  };
  const asUpdate = run(value);
  if (asUpdate.errors.length > 0 || !asUpdate.complete) return asUpdate;
  return run(undefined);
}

/** A rule's variables: self, or, where the server binds self as an error, a self that fails when read. */
function activation(self: unknown, selfError: string | undefined): Record<string, unknown> {
  if (selfError === undefined) return { self };
  return Object.defineProperty({}, 'self', {
    enumerable: true,
    get: () => {
      throw new CelGoError(selfError);
    },
  }) as Record<string, unknown>;
}
