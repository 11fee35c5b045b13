/**
 * crdx's CEL (the port of cel-go's parser and checker, and the evaluator: cel-js with the rewrite
 * layer and the libraries) against the cel-spec conformance data of `@bufbuild/cel-spec` (cel-spec
 * v0.25.1, and test inputs extracted from cel-go with cel-go's own output), for the cases that apply
 * to x-kubernetes-validations rules. The data is read from the package; nothing expected is written
 * here.
 *
 * Three comparisons, each per section (conformance file, or suite name):
 * - parse: accepted or rejected as cel-go's parser does; where crdx words a parse error (ParseResult
 *   issues: it claims cel-go's `ERROR: <input>:L:C: …` text and caret), the exact text. ANTLR's own
 *   syntax errors crdx reports in its own words (compile.ts turns them into "unchecked"): only the
 *   rejection is compared.
 * - check: the output type (cel.FormatCELType) or the error text, in the CRD environment of the
 *   newest Kubernetes (compatibility version 1.36 on a 1.37 server), with the variables the
 *   reference environment or the test declares.
 * - eval: the expected value, or that evaluation fails, through crdx's evaluator
 *   (cel-eval.ts evaluateExpression) with the test's bindings as variables.
 *
 * Cases that do not apply to a CRD rule are counted under a reason (NOT_APPLICABLE below), never
 * run. Disagreements must be exactly the declared ones (DIVERGENCES): a new one, or a declared one
 * that starts to agree, fails.
 */
import { fromBinary } from '@bufbuild/protobuf';
import { DurationSchema, TimestampSchema, type Any } from '@bufbuild/protobuf/wkt';
import type { Decl, Type } from '@bufbuild/cel-spec/cel/expr/checked_pb.js';
import type { Value } from '@bufbuild/cel-spec/cel/expr/value_pb.js';
import { getCheckingSuite, getComprehensionSuite, getConformanceSuite, getParsingSuite, type IncrementalTest, type IncrementalTestSuite } from '@bufbuild/cel-spec/testdata/tests.js';
import { afterAll, describe, expect, it } from 'vitest';
import { compileCel, formatIssues, type CheckEnv } from '../../src/schema/cel/check.js';
import { GO_LITERAL_CHECKS } from '../../src/schema/cel/compile.js';
import { BOOL, BYTES, DOUBLE, DURATION, DYN, INT, NULL, STRING, TIMESTAMP, UINT, formatType, listOf, mapOf, optionalOf, typeOf, typeParam, type CelType } from '../../src/schema/cel/types.js';
import { subMillisecondNanos } from '../../src/schema/cel/lib/time.js';
import { evaluateExpression } from '../../src/schema/cel-eval.js';
import { NEWEST_KUBE_VERSION } from '../../src/core/kube-version.js';
import { cel } from '../helpers/cel.js';

/** The newest Kubernetes: new rules compile at compatibility version 1.36 on a 1.37 server. */
const COMPAT = 36;
const SERVER = 37;
const KUBE = NEWEST_KUBE_VERSION;

// ---------------------------------------------------------------------------------------------
// What applies to a CRD rule

/**
 * Why a case does not apply to a Kubernetes CRD validation rule; each predicate is a category, with
 * its reason. Order matters only for which reason a case is counted under.
 */
const NOT_APPLICABLE: readonly { readonly reason: string; readonly test: (t: IncrementalTest, kind: Kind) => boolean }[] = [
  {
    // proto2/proto3 message types, enums, extensions, wrappers, Any/Struct/Value: a CRD rule sees
    // only the schema's object types and the libraries' (no protobuf message is ever declared)
    reason: 'protobuf messages, enums, wrappers or extensions',
    test: (t) =>
      /\b(?:TestAllTypes|NestedTestAllTypes|TestRequired|NestedMessage|NestedEnum|GlobalEnum|TestAllTypes_|Proto2|Proto3|proto[23]|ExtendedExampleType|single_nested|standalone_)|google\.protobuf\.(?!Duration\b|Timestamp\b)|\.(?:Any|Struct|Value|ListValue|Int32Value|Int64Value|UInt32Value|UInt64Value|FloatValue|DoubleValue|BoolValue|StringValue|BytesValue|NullValue|Empty|FieldMask)\b|\bcel\.expr\./.test(
        t.original.expr,
      ) ||
      t.original.typeEnv.some((d) => d.declKind.case === 'ident' && typeUses(d.declKind.value.type, (x) => x.typeKind.case === 'messageType' || x.typeKind.case === 'wrapper' || (x.typeKind.case === 'wellKnown' && x.typeKind.value === 1) || x.typeKind.case === 'abstractType' && x.typeKind.value.name !== 'optional_type')) ||
      Object.values(t.original.bindings).some((b) => b.kind.case !== 'value' || valueUses(b.kind.value, (v) => v.kind.case === 'objectValue' || v.kind.case === 'enumValue')) ||
      expectedValues(t).some((v) => valueUses(v, (x) => x.kind.case === 'enumValue' || (x.kind.case === 'objectValue' && !WKT_URLS.has(x.kind.value.typeUrl)))),
  },
  {
    // cel.Container: a CRD rule is compiled without one
    reason: 'a container (namespace) for name resolution',
    test: (t) => t.original.container !== '',
  },
  {
    // the CRD environment declares no functions of a rule's own
    reason: 'functions the test declares',
    test: (t) => t.original.typeEnv.some((d) => d.declKind.case === 'function'),
  },
  {
    // libraries the reference environment has and Kubernetes does not enable: ext.Math, ext.Encoders,
    // ext.Protos, ext.Bindings (cel.bind), cel.block, the strings extension beyond version 2, and
    // the reference environment's test functions fg_s and fi_s_s
    reason: 'a library Kubernetes does not enable (math, base64, proto, cel.bind, cel.block, strings v3+, test functions)',
    test: (t) => /\b(?:math|base64|proto|cel)\s*\.\s*[A-Za-z@_]|\bfg_s\b|\bfi_s_s\b|\.\s*reverse\s*\(|\bstrings\s*\.\s*(?!quote\b)/.test(t.original.expr) || ['math_ext', 'encoders_ext', 'block_ext', 'bindings_ext', 'proto2_ext'].includes(fileOf(t)),
  },
  {
    // the reference cases run with macros off; a CRD rule always has them
    reason: 'macros disabled',
    test: (t) => t.original.disableMacros,
  },
  {
    // Kubernetes always type-checks a rule before it runs
    reason: 'runs without type-checking',
    test: (t, kind) => t.original.disableCheck && kind === 'eval',
  },
  {
    // the reference parser (cel-es's extraction of cel-go's tests) does not enable the optional
    // syntax (`a.?b`, `[?x]`) or backtick-escaped names; Kubernetes enables both (1.28+, 1.37)
    reason: 'optional or escaped-name syntax the reference parser leaves off',
    test: (t, kind) => kind !== 'eval' && /unsupported syntax:? '(?:\[\?|\{\?|\.\?|\?|`)'/.test(t.error ?? ''),
  },
  {
    // CRD rules declare only self and oldSelf: no variable with a dotted name
    reason: 'a variable with a qualified name',
    test: (t) => t.original.typeEnv.some((d) => d.name.includes('.')) || Object.keys(t.original.bindings).some((n) => n.includes('.')),
  },
  {
    // Kubernetes enables cel.CrossTypeNumericComparisons; the reference environment does not
    reason: 'cross-type numeric comparisons (Kubernetes enables them, the reference environment does not)',
    test: (t, kind) => kind !== 'eval' && errorMessages(t.error ?? '').length > 0 && errorMessages(t.error ?? '').every((m) => /^found no matching overload for '_(?:<|<=|>|>=)_' applied to '\((?:int|uint|double), (?:int|uint|double)\)'$/.test(m)),
  },
  {
    // the reference parser's limits (recursion depth 32, 4 error recoveries) are not Kubernetes'
    reason: "the reference parser's recursion or error-recovery limits",
    test: (t) => /recursion limit exceeded|max recursion depth|error recovery (?:attempt|token lookahead) limit/.test(t.error ?? ''),
  },
  {
    // two-variable comprehensions and other libraries Kubernetes enables and the reference
    // environment does not: its check error does not apply
    reason: 'the reference environment lacks a library Kubernetes enables',
    test: (t, kind) => kind !== 'eval' && (t.original.expr !== '' && /undeclared reference to '(?:all|exists|existsOne|exists_one|transformList|transformMap|transformMapEntry|sets|lists|optional|sortBy)'|found no matching overload for '(?:all|exists|existsOne|exists_one|map|filter)'/.test(t.error ?? '')),
  },
  {
    // cel-spec's conformance only: an unknown result, or an expectation on the checker only
    reason: 'unknowns',
    test: (t, kind) => kind === 'eval' && (t.original.resultMatcher.case === 'unknown' || t.original.resultMatcher.case === 'anyUnknowns'),
  },
  {
    reason: 'checker-only case',
    test: (t, kind) => kind === 'eval' && t.original.checkOnly,
  },
];

/** google.protobuf.Duration and Timestamp values (as expected results, packed in Any). */
const WKT_URLS = new Set(['type.googleapis.com/google.protobuf.Duration', 'type.googleapis.com/google.protobuf.Timestamp']);

function typeUses(t: Type | undefined, p: (t: Type) => boolean): boolean {
  if (!t) return false;
  if (p(t)) return true;
  const k = t.typeKind;
  if (k.case === 'listType') return typeUses(k.value.elemType, p);
  if (k.case === 'mapType') return typeUses(k.value.keyType, p) || typeUses(k.value.valueType, p);
  if (k.case === 'abstractType') return k.value.parameterTypes.some((x) => typeUses(x, p));
  if (k.case === 'type') return typeUses(k.value, p);
  return false;
}

function valueUses(v: Value | undefined, p: (v: Value) => boolean): boolean {
  if (!v) return false;
  if (p(v)) return true;
  const k = v.kind;
  if (k.case === 'listValue') return k.value.values.some((x) => valueUses(x, p));
  if (k.case === 'mapValue') return k.value.entries.some((e) => valueUses(e.key, p) || valueUses(e.value, p));
  return false;
}

function expectedValues(t: IncrementalTest): Value[] {
  const m = t.original.resultMatcher;
  if (m.case === 'value') return [m.value];
  if (m.case === 'typedResult' && m.value.result) return [m.value.result];
  return [];
}

// ---------------------------------------------------------------------------------------------
// Cases and their sections

type Kind = 'parse' | 'check' | 'eval';

interface Case {
  readonly section: string;
  readonly file: string;
  readonly test: IncrementalTest;
}

const FILE = new WeakMap<IncrementalTest, string>();
function fileOf(t: IncrementalTest): string {
  return FILE.get(t) ?? '';
}

function flatten(s: IncrementalTestSuite, file: string, section: string, out: Case[]): Case[] {
  for (const t of s.tests) {
    FILE.set(t, file);
    out.push({ section, file, test: t });
  }
  for (const c of s.suites) flatten(c, file, section, out);
  return out;
}

/** The conformance files (one section each), and the three suites extracted from cel-go's tests. */
const CONFORMANCE: Case[] = getConformanceSuite().suites.flatMap((f) => flatten(f, f.name, `conformance/${f.name}`, []));
const FROM_CEL_GO: Case[] = [getParsingSuite(), getComprehensionSuite(), getCheckingSuite()].flatMap((s) => flatten(s, s.name, s.name, []));

// ---------------------------------------------------------------------------------------------
// The reference environment's declarations, as crdx types

/** The variables the reference environment declares for every case (cel-es gen_incremental_tests.go). */
const REFERENCE_VARIABLES: ReadonlyMap<string, CelType> = new Map([
  ['is', STRING],
  ['ii', INT],
  ['iu', UINT],
  ['iz', BOOL],
  ['ib', BYTES],
  ['id', DOUBLE],
  ['ix', NULL],
]);

const PRIMITIVES: Record<number, CelType> = { 1: BOOL, 2: INT, 3: UINT, 4: DOUBLE, 5: STRING, 6: BYTES };

function celTypeOfProto(t: Type | undefined): CelType | undefined {
  if (!t) return undefined;
  const k = t.typeKind;
  switch (k.case) {
    case 'primitive':
      return PRIMITIVES[k.value];
    case 'dyn':
      return DYN;
    case 'null':
      return NULL;
    case 'wellKnown':
      return k.value === 2 ? TIMESTAMP : k.value === 3 ? DURATION : undefined;
    case 'listType': {
      const e = celTypeOfProto(k.value.elemType);
      return e && listOf(e);
    }
    case 'mapType': {
      const a = celTypeOfProto(k.value.keyType);
      const b = celTypeOfProto(k.value.valueType);
      return a && b && mapOf(a, b);
    }
    case 'typeParam':
      return typeParam(k.value);
    case 'type': {
      const e = celTypeOfProto(k.value);
      return e && typeOf(e);
    }
    case 'abstractType': {
      if (k.value.name !== 'optional_type' || k.value.parameterTypes.length !== 1) return undefined;
      const e = celTypeOfProto(k.value.parameterTypes[0]);
      return e && optionalOf(e);
    }
    default:
      return undefined;
  }
}

function checkEnv(decls: readonly Decl[]): CheckEnv | undefined {
  const variables = new Map(REFERENCE_VARIABLES);
  for (const d of decls) {
    if (d.declKind.case !== 'ident') return undefined;
    const t = celTypeOfProto(d.declKind.value.type);
    if (!t) return undefined;
    variables.set(d.name, t);
  }
  return { compat: COMPAT, server: SERVER, variables };
}

// ---------------------------------------------------------------------------------------------
// Texts

/** cel-go's check errors (checker/errors.go): the rest of what a compile reports comes from the parser. */
const CHECK_ERROR =
  /^(?:undeclared reference to|found no matching overload for|expected type|undefined field|unexpected failed resolution|type '.*' does not support field selection|expression of type '.*' cannot be range of a comprehension|'.*' is not a (?:message )?type|incompatible type already exists|error during formatting:|could not parse formatting clause:|index \d+ out of range$)/;

/** The error messages of an `ERROR: <source>:L:C: message` text (the source name is the test's). */
function errorMessages(text: string): string[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith('ERROR: '))
    .map((l) => l.replace(/^ERROR: [^:]*:-?\d+:\d+: /, ''));
}

/** The text with each error's source name written as crdx writes it (`<input>`). */
function asInput(text: string): string {
  return text.replace(/^ERROR: [^:\n]*:(-?\d+):(\d+): /gm, 'ERROR: <input>:$1:$2: ');
}

type Expected = { readonly parses: true; readonly type?: string; readonly checkError?: string } | { readonly parses: false; readonly error: string };

/** What cel-go's compile said of the case (the data's `type` or `error`). */
function expectedCompile(t: IncrementalTest): Expected {
  if (t.error === undefined) return { parses: true, ...(t.type !== undefined ? { type: t.type } : {}) };
  const msgs = errorMessages(t.error);
  // cel.ProtoAsDeclaration / Extend failures carry no ERROR: lines
  if (msgs.length === 0) return { parses: true };
  if (msgs.every((m) => CHECK_ERROR.test(m))) return { parses: true, checkError: asInput(t.error) };
  return { parses: false, error: asInput(t.error) };
}

// ---------------------------------------------------------------------------------------------
// Outcomes

type Verdict = { readonly kind: 'agree'; readonly note?: string } | { readonly kind: 'disagree'; readonly detail: string } | { readonly kind: 'na'; readonly reason: string } | { readonly kind: 'abstain'; readonly why: string };

function notApplicable(t: IncrementalTest, kind: Kind): string | undefined {
  return NOT_APPLICABLE.find((p) => p.test(t, kind))?.reason;
}

function compileK8s(text: string, env: CheckEnv) {
  return compileCel(text, env, GO_LITERAL_CHECKS);
}

const EMPTY_ENV: CheckEnv = { compat: COMPAT, server: SERVER, variables: new Map() };

function judgeParse(t: IncrementalTest): Verdict {
  const na = notApplicable(t, 'parse');
  if (na) return { kind: 'na', reason: na };
  const want = expectedCompile(t);
  const out = compileK8s(t.original.expr, EMPTY_ENV);
  const parseIssues = out.parsed !== undefined && out.checked === undefined ? out.issues : [];
  if (want.parses) {
    if (out.syntaxError) return { kind: 'disagree', detail: `crdx rejects it: ${out.syntaxError.message}` };
    if (parseIssues.length > 0) return { kind: 'disagree', detail: `crdx rejects it:\n${formatIssues(out.parsed!.source, parseIssues)}` };
    return { kind: 'agree' };
  }
  if (out.syntaxError) return { kind: 'agree', note: 'rejected in crdx words' };
  if (parseIssues.length === 0) return { kind: 'disagree', detail: `crdx accepts it; cel-go:\n${want.error}` };
  const got = formatIssues(out.parsed!.source, parseIssues);
  return got === want.error ? { kind: 'agree' } : { kind: 'disagree', detail: `crdx:\n${got}\ncel-go:\n${want.error}` };
}

/** Kubernetes-only compile-time validators crdx's checker runs after the type check. */
function kubernetesValidatorIssue(out: ReturnType<typeof compileK8s>): string | undefined {
  if (!out.checked || out.checked.errors.length > 0 || out.issues.length === 0) return undefined;
  if (out.issues.every((i) => /^expected type '.*' but found '.*'$/.test(i.message))) return 'mixed-type list or map literal (Kubernetes requires homogeneous aggregate literals)';
  if (out.issues.every((i) => /^invalid (?:duration|timestamp|matches) argument$/.test(i.message))) return 'invalid literal argument (Kubernetes validates it at compile time)';
  return undefined;
}

function judgeCheck(t: IncrementalTest): Verdict {
  const na = notApplicable(t, 'check');
  if (na) return { kind: 'na', reason: na };
  const want = expectedCompile(t);
  if (!want.parses) return { kind: 'na', reason: 'does not parse (the parse comparison covers it)' };
  if (want.type === undefined && want.checkError === undefined) return { kind: 'na', reason: 'no checker output in the data' };
  const env = checkEnv(t.original.typeEnv);
  if (!env) return { kind: 'na', reason: 'protobuf messages, enums, wrappers or extensions' };
  const out = compileK8s(t.original.expr, env);
  if (out.syntaxError) return { kind: 'disagree', detail: `crdx does not parse it: ${out.syntaxError.message}` };
  if (!out.checked) return { kind: 'disagree', detail: `crdx's parser reports:\n${formatIssues(out.parsed!.source, out.issues)}` };
  const k8s = kubernetesValidatorIssue(out);
  if (k8s) return { kind: 'na', reason: k8s };
  const got = out.issues.length > 0 ? formatIssues(out.parsed!.source, out.issues) : undefined;
  if (want.checkError !== undefined) {
    if (got === undefined) return { kind: 'disagree', detail: `crdx accepts it as ${formatType(out.checked.type)}; cel-go:\n${want.checkError}` };
    return got === want.checkError ? { kind: 'agree' } : { kind: 'disagree', detail: `crdx:\n${got}\ncel-go:\n${want.checkError}` };
  }
  if (got !== undefined) return { kind: 'disagree', detail: `crdx rejects it:\n${got}\ncel-go: ${want.type}` };
  const type = formatType(out.checked.type);
  return type === want.type ? { kind: 'agree' } : { kind: 'disagree', detail: `crdx: ${type}, cel-go: ${want.type}` };
}

// ---------------------------------------------------------------------------------------------
// Values

/** cel-js's uint class, taken from a value (the package does not export it). */
const { UnsignedInt, Duration } = (() => {
  const env = new cel.module.Environment();
  const u = env.parse('1u')({}) as { constructor: new (v: bigint) => unknown };
  const d = env.parse('duration("1s")')({}) as { constructor: new (s: bigint, n: number) => unknown };
  return { UnsignedInt: u.constructor, Duration: d.constructor };
})();

/** A binding (cel.expr.Value) as crdx's evaluator holds the value; undefined: not expressible. */
function toRuntime(v: Value): unknown {
  const k = v.kind;
  switch (k.case) {
    case 'nullValue':
      return null;
    case 'boolValue':
    case 'stringValue':
      return k.value;
    case 'int64Value':
      return k.value;
    case 'uint64Value':
      return new UnsignedInt(k.value);
    case 'doubleValue':
      return k.value;
    case 'bytesValue':
      return k.value;
    case 'listValue':
      return k.value.values.map(toRuntime);
    case 'mapValue': {
      const m = new Map<unknown, unknown>();
      for (const e of k.value.entries) m.set(toRuntime(e.key!), toRuntime(e.value!));
      return m;
    }
    case 'objectValue': {
      const w = wkt(k.value);
      if (!w) throw new Error(`cannot bind ${k.value.typeUrl}`);
      if (w.kind === 'duration') return new Duration(w.seconds, w.nanos);
      return new Date(Number(w.seconds) * 1000 + Math.floor(w.nanos / 1e6));
    }
    default:
      throw new Error(`cannot bind a ${k.case} value`);
  }
}

function wkt(a: Any): { kind: 'duration' | 'timestamp'; seconds: bigint; nanos: number } | undefined {
  if (a.typeUrl.endsWith('/google.protobuf.Duration')) {
    const d = fromBinary(DurationSchema, a.value);
    return { kind: 'duration', seconds: d.seconds, nanos: d.nanos };
  }
  if (a.typeUrl.endsWith('/google.protobuf.Timestamp')) {
    const d = fromBinary(TimestampSchema, a.value);
    return { kind: 'timestamp', seconds: d.seconds, nanos: d.nanos };
  }
  return undefined;
}

function canonDouble(x: number): string {
  if (Number.isNaN(x)) return 'double(NaN)';
  if (Object.is(x, -0)) return 'double(-0)';
  return `double(${x})`;
}

function hex(b: Uint8Array): string {
  return Buffer.from(b).toString('hex');
}

/** An expected value as a canonical text. `stringKeys`: map keys as their text (what cel-js keeps of an object's keys). */
function canonExpected(v: Value, stringKeys: boolean): string {
  const k = v.kind;
  switch (k.case) {
    case 'nullValue':
      return 'null';
    case 'boolValue':
      return `bool(${k.value})`;
    case 'int64Value':
      return `int(${k.value})`;
    case 'uint64Value':
      return `uint(${k.value})`;
    case 'doubleValue':
      return canonDouble(k.value);
    case 'stringValue':
      return `string(${JSON.stringify(k.value)})`;
    case 'bytesValue':
      return `bytes(${hex(k.value)})`;
    case 'typeValue':
      return `type(${k.value})`;
    case 'listValue':
      return `[${k.value.values.map((x) => canonExpected(x, stringKeys)).join(', ')}]`;
    case 'mapValue':
      return `{${k.value.entries
        .map((e) => `${stringKeys ? `key(${keyText(e.key!)})` : canonExpected(e.key!, false)}: ${canonExpected(e.value!, stringKeys)}`)
        .sort()
        .join(', ')}}`;
    case 'objectValue': {
      const w = wkt(k.value);
      return w ? `${w.kind}(${w.seconds}s, ${w.nanos}ns)` : `object(${k.value.typeUrl})`;
    }
    default:
      return `?${k.case}`;
  }
}

function keyText(v: Value): string {
  const k = v.kind;
  if (k.case === 'stringValue' || k.case === 'boolValue' || k.case === 'int64Value' || k.case === 'uint64Value') return String(k.value);
  return `?${k.case}`;
}

/** Whether an expected value holds a map (whose keys cel-js may keep only as text). */
function hasObjectMap(x: unknown): boolean {
  if (Array.isArray(x)) return x.some(hasObjectMap);
  if (x instanceof Map) return [...x.values()].some(hasObjectMap);
  return x !== null && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype;
}

/** crdx's result as the same canonical text. */
function canonGot(x: unknown, stringKeys: boolean): string {
  if (x === null) return 'null';
  if (typeof x === 'boolean') return `bool(${x})`;
  if (typeof x === 'bigint') return `int(${x})`;
  if (typeof x === 'number') return canonDouble(x);
  if (typeof x === 'string') return `string(${JSON.stringify(x)})`;
  if (x instanceof Uint8Array) return `bytes(${hex(x)})`;
  if (x instanceof UnsignedInt) return `uint(${String((x as { value: bigint }).value)})`;
  if (x instanceof Duration) {
    const d = x as { seconds: bigint | number; nanos: number };
    return `duration(${BigInt(d.seconds)}s, ${d.nanos}ns)`;
  }
  if (x instanceof Date) {
    const ms = x.getTime();
    const s = Math.floor(ms / 1000);
    return `timestamp(${s}s, ${(ms - s * 1000) * 1e6 + subMillisecondNanos(x)}ns)`;
  }
  if (Array.isArray(x)) return `[${x.map((e) => canonGot(e, stringKeys)).join(', ')}]`;
  if (x instanceof Map) return `{${[...x].map(([a, b]) => `${stringKeys ? `key(${String(a instanceof UnsignedInt ? (a as { value: bigint }).value : a)})` : canonGot(a, false)}: ${canonGot(b, stringKeys)}`).sort().join(', ')}}`;
  if (typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype) return `{${Object.entries(x as object).map(([a, b]) => `key(${a}): ${canonGot(b, true)}`).sort().join(', ')}}`;
  const name = (x as { name?: unknown }).name;
  // cel-js names the null type `null` (cel-go: null_type); the two are the same type value
  if (typeof x === 'object' && x.constructor?.name === 'Type' && typeof name === 'string') return `type(${name === 'null' ? 'null_type' : name})`;
  return `?${Object.prototype.toString.call(x)}`;
}

function judgeEval(t: IncrementalTest): Verdict {
  const na = notApplicable(t, 'eval');
  if (na) return { kind: 'na', reason: na };
  const o = t.original;
  const env = checkEnv(o.typeEnv);
  if (!env) return { kind: 'na', reason: 'protobuf messages, enums, wrappers or extensions' };
  // a CRD rule runs only once it compiled: crdx's checker must accept what cel-go evaluates
  const compiled = compileK8s(o.expr, env);
  if (compiled.syntaxError) return { kind: 'disagree', detail: `crdx does not parse it: ${compiled.syntaxError.message}` };
  const k8s = kubernetesValidatorIssue(compiled);
  if (k8s) return { kind: 'na', reason: k8s };
  const m = o.resultMatcher;
  if (compiled.issues.length > 0) {
    const text = formatIssues(compiled.parsed!.source, compiled.issues);
    // cel-go's checker rejects it too: an expected error that is a compile error
    if (m.case === 'evalError' && t.error !== undefined && asInput(t.error) === text) return { kind: 'agree', note: 'compile error' };
    return { kind: 'disagree', detail: `crdx's checker rejects it:\n${text}` };
  }
  const vars: Record<string, unknown> = {};
  for (const [name, b] of Object.entries(o.bindings)) vars[name] = toRuntime((b.kind as { value: Value }).value);
  const got = evaluateExpression(o.expr, vars, cel, KUBE);
  if (got.kind === 'abstain') return { kind: 'abstain', why: got.why };
  const want = m.case === 'value' ? m.value : m.case === 'typedResult' ? m.value.result : m.case === undefined ? trueValue() : undefined;
  if (m.case === 'evalError' || m.case === 'anyEvalErrors') {
    if (got.kind === 'error') return { kind: 'agree' };
    return { kind: 'disagree', detail: `crdx evaluates it to ${canonGot(got.value, false)}; cel-spec: error ${m.case === 'evalError' ? m.value.errors.map((e) => e.message).join('; ') : ''}` };
  }
  if (!want) return { kind: 'na', reason: `result matcher ${m.case}` };
  if (got.kind === 'error') return { kind: 'disagree', detail: `crdx fails: ${got.text ?? got.message}; cel-spec: ${canonExpected(want, false)}` };
  const stringKeys = hasObjectMap(got.value);
  const a = canonGot(got.value, stringKeys);
  const b = canonExpected(want, stringKeys);
  if (a !== b) return { kind: 'disagree', detail: `crdx: ${a}, cel-spec: ${b}` };
  if (m.case === 'typedResult' && m.value.deducedType) {
    const wantType = celTypeOfProto(m.value.deducedType);
    if (wantType && formatType(compiled.checked!.type) !== formatType(wantType)) return { kind: 'disagree', detail: `type: crdx ${formatType(compiled.checked!.type)}, cel-spec ${formatType(wantType)}` };
  }
  return { kind: 'agree', ...(stringKeys ? { note: 'map keys compared as text' } : {}) };
}

function trueValue(): Value {
  return { kind: { case: 'boolValue', value: true } } as Value;
}

// ---------------------------------------------------------------------------------------------
// Known divergences: each a case crdx does not (yet) agree on, with why. The test fails when one of
// them agrees, or another case disagrees.

const DIVERGENCES: Readonly<Record<string, string>> = {
  "check checking/int{}": "struct literal of a non-message type: crdx reports the undeclared reference, cel-go that 'int' is not a message type (both reject it)",
  "check conformance/string_ext/NaN support for decimal": "cel-spec follows strings v4+, where %d takes a double; Kubernetes' strings v2 validator rejects it, as crdx does (real server: cel-compile conformance)",
  "check conformance/string_ext/double substitution not allowed with hex clause": "both reject it; cel-spec has the texts of strings v4+ (cel-go formatting_v2.go), Kubernetes enables strings v2, whose validator words it as crdx does (real server: cel-compile conformance)",
  "check conformance/string_ext/duration substitution not allowed with decimal clause": "both reject it; cel-spec has the texts of strings v4+ (cel-go formatting_v2.go), Kubernetes enables strings v2, whose validator words it as crdx does (real server: cel-compile conformance)",
  "check conformance/string_ext/negative infinity support for decimal": "cel-spec follows strings v4+, where %d takes a double; Kubernetes' strings v2 validator rejects it, as crdx does (real server: cel-compile conformance)",
  "check conformance/string_ext/null not allowed for %X": "both reject it; cel-spec has the texts of strings v4+ (cel-go formatting_v2.go), Kubernetes enables strings v2, whose validator words it as crdx does (real server: cel-compile conformance)",
  "check conformance/string_ext/null not allowed for %b": "both reject it; cel-spec has the texts of strings v4+ (cel-go formatting_v2.go), Kubernetes enables strings v2, whose validator words it as crdx does (real server: cel-compile conformance)",
  "check conformance/string_ext/null not allowed for %d": "both reject it; cel-spec has the texts of strings v4+ (cel-go formatting_v2.go), Kubernetes enables strings v2, whose validator words it as crdx does (real server: cel-compile conformance)",
  "check conformance/string_ext/null not allowed for %e": "both reject it; cel-spec has the texts of strings v4+ (cel-go formatting_v2.go), Kubernetes enables strings v2, whose validator words it as crdx does (real server: cel-compile conformance)",
  "check conformance/string_ext/null not allowed for %f": "both reject it; cel-spec has the texts of strings v4+ (cel-go formatting_v2.go), Kubernetes enables strings v2, whose validator words it as crdx does (real server: cel-compile conformance)",
  "check conformance/string_ext/null not allowed for %o": "both reject it; cel-spec has the texts of strings v4+ (cel-go formatting_v2.go), Kubernetes enables strings v2, whose validator words it as crdx does (real server: cel-compile conformance)",
  "check conformance/string_ext/null not allowed for %x": "both reject it; cel-spec has the texts of strings v4+ (cel-go formatting_v2.go), Kubernetes enables strings v2, whose validator words it as crdx does (real server: cel-compile conformance)",
  "check conformance/string_ext/positive infinity support for decimal": "cel-spec follows strings v4+, where %d takes a double; Kubernetes' strings v2 validator rejects it, as crdx does (real server: cel-compile conformance)",
  "check conformance/string_ext/string substitution is not allowed with binary clause": "both reject it; cel-spec has the texts of strings v4+ (cel-go formatting_v2.go), Kubernetes enables strings v2, whose validator words it as crdx does (real server: cel-compile conformance)",
  "check conformance/string_ext/string substitution not allowed with octal clause": "both reject it; cel-spec has the texts of strings v4+ (cel-go formatting_v2.go), Kubernetes enables strings v2, whose validator words it as crdx does (real server: cel-compile conformance)",
  "check parsing/foo{ a:b }": "struct literal of an undeclared type: cel-go stops at the type, crdx also reports the field values (both reject it)",
  "check parsing/foo{ a:b, c:d }": "struct literal of an undeclared type: cel-go stops at the type, crdx also reports the field values (both reject it)",
  "eval conformance/fields/map_value_repeat_key": "cel-spec expects an error; cel-go keeps the last of repeated keys (its own conformance run skips this case), as crdx does",
  "eval conformance/macros/map_one": "cel-js keeps the keys of an int-keyed map literal as strings",
  "eval conformance/optionals/map_null_entry_no_such_key": "optional field selection on a dyn value: cel-js differs from cel-go (errors versus empty optionals)",
  "eval conformance/optionals/map_present_key_invalid_field": "optional field selection on a dyn value: cel-js differs from cel-go (errors versus empty optionals)",
  "eval conformance/optionals/map_undefined_entry_hasValue": "optional field selection on a dyn value: cel-js differs from cel-go (errors versus empty optionals)",
  "eval conformance/optionals/optional_chaining_5": "optional field selection on a dyn value: cel-js differs from cel-go (errors versus empty optionals)",
  "eval conformance/optionals/optional_none_optindex_hasValue": "optional field selection on a dyn value: cel-js differs from cel-go (errors versus empty optionals)",
  "eval conformance/optionals/optional_none_optselect_hasValue": "optional field selection on a dyn value: cel-js differs from cel-go (errors versus empty optionals)",
  "eval conformance/optionals/type": "cel-js has no type() of an optional",
  "eval conformance/string_ext/NaN support for decimal": "the checker rejects %d of a double as Kubernetes' strings v2 does; cel-spec follows strings v4+",
  "eval conformance/string_ext/NaN support for scientific notation": "cel-spec follows strings v4+ (Go's %e, NaN and Infinity as such); Kubernetes' strings v2 prints doubles through golang.org/x/text (×10⁰⁰, ∞, padded to the precision), as crdx does (real server: cel-libs stringsverbs)",
  "eval conformance/string_ext/default precision for scientific notation": "cel-spec follows strings v4+ (Go's %e, NaN and Infinity as such); Kubernetes' strings v2 prints doubles through golang.org/x/text (×10⁰⁰, ∞, padded to the precision), as crdx does (real server: cel-libs stringsverbs)",
  "eval conformance/string_ext/dyntype NaN/infinity support": "cel-spec follows strings v4+ (Go's %e, NaN and Infinity as such); Kubernetes' strings v2 prints doubles through golang.org/x/text (×10⁰⁰, ∞, padded to the precision), as crdx does (real server: cel-libs stringsverbs)",
  "eval conformance/string_ext/dyntype support for lists": "cel-spec follows strings v4+ (lists printed with unquoted strings and shortest doubles); Kubernetes' strings v2 quotes strings and prints doubles with 6 decimals, as crdx does",
  "eval conformance/string_ext/dyntype support for scientific notation": "cel-spec follows strings v4+ (Go's %e, NaN and Infinity as such); Kubernetes' strings v2 prints doubles through golang.org/x/text (×10⁰⁰, ∞, padded to the precision), as crdx does (real server: cel-libs stringsverbs)",
  "eval conformance/string_ext/indexof_out_of_range": "indexOf/lastIndexOf with a start past the end: cel-spec has the error of cel-go < 0.22; from 1.32 (cel-go 0.22) the server returns -1, as crdx does (before 1.32 crdx fails as the server does; real servers: cel-libs strings)",
  "eval conformance/string_ext/lastindexof_out_of_range": "indexOf/lastIndexOf with a start past the end: cel-spec has the error of cel-go < 0.22; from 1.32 (cel-go 0.22) the server returns -1, as crdx does (before 1.32 crdx fails as the server does; real servers: cel-libs strings)",
  "eval conformance/string_ext/list support for string": "cel-spec follows strings v4+ (lists printed with unquoted strings and shortest doubles); Kubernetes' strings v2 quotes strings and prints doubles with 6 decimals, as crdx does",
  "eval conformance/string_ext/map support for string": "cel-spec follows strings v4+ (lists printed with unquoted strings and shortest doubles); Kubernetes' strings v2 quotes strings and prints doubles with 6 decimals, as crdx does",
  "eval conformance/string_ext/negative infinity support for decimal": "the checker rejects %d of a double as Kubernetes' strings v2 does; cel-spec follows strings v4+",
  "eval conformance/string_ext/negative infinity support for fixed-point": "cel-spec follows strings v4+ (Go's %e, NaN and Infinity as such); Kubernetes' strings v2 prints doubles through golang.org/x/text (×10⁰⁰, ∞, padded to the precision), as crdx does (real server: cel-libs stringsverbs)",
  "eval conformance/string_ext/negative infinity support for scientific notation": "cel-spec follows strings v4+ (Go's %e, NaN and Infinity as such); Kubernetes' strings v2 prints doubles through golang.org/x/text (×10⁰⁰, ∞, padded to the precision), as crdx does (real server: cel-libs stringsverbs)",
  "eval conformance/string_ext/positive infinity support for decimal": "the checker rejects %d of a double as Kubernetes' strings v2 does; cel-spec follows strings v4+",
  "eval conformance/string_ext/positive infinity support for fixed-point": "cel-spec follows strings v4+ (Go's %e, NaN and Infinity as such); Kubernetes' strings v2 prints doubles through golang.org/x/text (×10⁰⁰, ∞, padded to the precision), as crdx does (real server: cel-libs stringsverbs)",
  "eval conformance/string_ext/positive infinity support for scientific notation": "cel-spec follows strings v4+ (Go's %e, NaN and Infinity as such); Kubernetes' strings v2 prints doubles through golang.org/x/text (×10⁰⁰, ∞, padded to the precision), as crdx does (real server: cel-libs stringsverbs)",
  "eval conformance/string_ext/scientific notation formatting clause": "cel-spec follows strings v4+ (Go's %e, NaN and Infinity as such); Kubernetes' strings v2 prints doubles through golang.org/x/text (×10⁰⁰, ∞, padded to the precision), as crdx does (real server: cel-libs stringsverbs)",
  "eval conformance/string_ext/scientific notation formatting clause in a string variable": "cel-spec follows strings v4+ (Go's %e, NaN and Infinity as such); Kubernetes' strings v2 prints doubles through golang.org/x/text (×10⁰⁰, ∞, padded to the precision), as crdx does (real server: cel-libs stringsverbs)",
};

// ---------------------------------------------------------------------------------------------

interface Row {
  applicable: number;
  agree: number;
  disagree: number;
  abstain: number;
  na: Map<string, number>;
}

const tally = new Map<string, Row>();
const disagreements = new Map<string, string>();

function record(kind: Kind, c: Case, key: string, v: Verdict): void {
  const section = `${kind} ${c.section}`;
  let r = tally.get(section);
  if (!r) tally.set(section, (r = { applicable: 0, agree: 0, disagree: 0, abstain: 0, na: new Map() }));
  if (v.kind === 'na') {
    r.na.set(v.reason, (r.na.get(v.reason) ?? 0) + 1);
    return;
  }
  r.applicable++;
  if (v.kind === 'agree') r.agree++;
  else if (v.kind === 'abstain') r.abstain++;
  else {
    r.disagree++;
    disagreements.set(key, v.detail);
  }
}

/** Unique keys: section, test name, and an ordinal among cases of the same name. */
function keyed(kind: Kind, cases: readonly Case[]): [string, Case][] {
  const seen = new Map<string, number>();
  return cases.map((c) => {
    const base = `${kind} ${c.section}/${c.test.name}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return [n === 1 ? base : `${base} #${n}`, c];
  });
}

describe('cel-spec conformance data (@bufbuild/cel-spec)', () => {
  afterAll(() => {
    const lines = ['section | applicable | agree | disagree | crdx abstains | not applicable'];
    for (const [s, r] of [...tally].sort(([a], [b]) => a.localeCompare(b))) {
      const na = [...r.na].map(([why, n]) => `${n} ${why}`).join('; ');
      lines.push(`${s} | ${r.applicable} | ${r.agree} | ${r.disagree} | ${r.abstain} | ${na}`);
    }
    if (process.env['CRDX_CELSPEC_TALLY']) console.log(lines.join('\n'));
  });

  it('parses as cel-go does (accepted or rejected; cel-go error texts where crdx words them)', () => {
    for (const [key, c] of keyed('parse', [...FROM_CEL_GO, ...CONFORMANCE])) record('parse', c, key, judgeParse(c.test));
  });

  it('type-checks as cel-go does in the Kubernetes CRD environment (output type or error text)', () => {
    for (const [key, c] of keyed('check', [...FROM_CEL_GO, ...CONFORMANCE])) record('check', c, key, judgeCheck(c.test));
  });

  it('evaluates as cel-spec expects (value, or an evaluation error)', () => {
    for (const [key, c] of keyed('eval', CONFORMANCE)) record('eval', c, key, judgeEval(c.test));
  });

  it('disagrees on exactly the declared divergences', () => {
    const got = Object.fromEntries([...disagreements].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    if (process.env['CRDX_CELSPEC_DUMP']) console.log(Object.entries(got).map(([k, d]) => `${k}\n  ${d.replace(/\n/g, '\n  ')}`).join('\n'));
    expect(Object.keys(got)).toEqual(Object.keys(DIVERGENCES).sort());
  });

  it('applies to a good part of the data in every kind of comparison', () => {
    // the predicates must not swallow the data: a floor per comparison, not an expected count
    for (const kind of ['parse', 'check', 'eval'] as const) {
      const n = [...tally].filter(([s]) => s.startsWith(`${kind} `)).reduce((a, [, r]) => a + r.applicable, 0);
      expect(n, kind).toBeGreaterThan(100);
    }
  });
});
