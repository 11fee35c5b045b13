/**
 * `kubectl crdx test`: the model of a test file (`*.crdx-test.yaml`) and the results of running it.
 * Leaf types: imports only from core, so formatters can render results without reaching back up.
 *
 * Layers: src/io reads the files → parse.ts turns a file into this model (with positions) →
 * run.ts simulates every case on src/cr → expect.ts compares the outcome with the expectations →
 * src/formatters/crdtest.ts renders the results → src/cli/test-command.ts picks the exit code.
 */
import type { KubeVersion } from '../core/kube-version.js';
import type { FieldValidation } from '../core/field-validation.js';
import type { JsonPath, Position } from '../core/types.js';
import type { Manifest } from '../manifest/parse.js';

export type Operation = 'create' | 'update' | 'status' | 'scale-get' | 'scale-update';
export const OPERATIONS: readonly Operation[] = ['create', 'update', 'status', 'scale-get', 'scale-update'];

/** The request's fieldValidation (kubectl's --validate): Strict, Warn or Ignore. */
export type { FieldValidation } from '../core/field-validation.js';

/** One expected cause of a denial. */
export interface ExpectedCause {
  /** The server's field path (`spec.replicas`); absent: any. */
  readonly field?: string;
  /** field.ErrorType (`Invalid`, `Required`, …) or the StatusCause reason (`FieldValueInvalid`); absent: any. */
  readonly type?: string;
  readonly reason?: string;
  /** The cause's message, exactly. */
  readonly message?: string;
  readonly messageContains?: string;
  /** Path of this entry in the test file. */
  readonly path: JsonPath;
}

export type ExpectedWarnings =
  | { readonly exact: readonly string[] }
  | { readonly contains: readonly string[] };

export interface Expectations {
  /** true: the request succeeds; a list: it fails with exactly these causes (in any order). */
  readonly allowed?: true;
  readonly denied?: readonly ExpectedCause[];
  readonly warnings?: ExpectedWarnings;
  /** The object as stored (or the Scale), partially: only what is given is compared. */
  readonly result?: unknown;
}

/** An object of a case: written inline, or a path (relative to the test file) to a YAML file with one object. */
export type ObjectSource =
  | { readonly inline: true; readonly value: Record<string, unknown>; readonly path: JsonPath }
  | { readonly inline: false; readonly file: string; readonly path: JsonPath };

export interface TestCase {
  readonly index: number;
  readonly name: string;
  /** Path of the case in the test file (['cases', i]). */
  readonly path: JsonPath;
  readonly position: Position;
  readonly operation: Operation;
  readonly object: ObjectSource;
  readonly oldObject?: ObjectSource;
  /** scale-update: spec.replicas of the Scale sent. */
  readonly replicas?: number;
  readonly kubeVersion?: KubeVersion;
  readonly fieldValidation?: FieldValidation;
  readonly expect: Expectations;
}

/** A `crds:` entry: a path or glob relative to the test file, or an inline CRD. */
export type CrdSource =
  | { readonly inline: true; readonly value: Record<string, unknown>; readonly path: JsonPath }
  | { readonly inline: false; readonly pattern: string; readonly path: JsonPath };

export interface TestFile {
  readonly file: string;
  /** The file's mapping as read, with positions (inline objects are read from it). */
  readonly root: Manifest;
  readonly crds: readonly CrdSource[];
  readonly cases: readonly TestCase[];
}

/** Why a test file cannot be run (exit 2), at a position of that file (or of a file it names). */
export interface TestFileError {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly message: string;
}

// ---------------------------------------------------------------------------------------------------------------
// results
// ---------------------------------------------------------------------------------------------------------------

export interface Cause {
  /** Absent for a failure without field causes (400, 404, 409, 500). */
  readonly field?: string;
  /** StatusCause reason (FieldValueInvalid, …), or the Status reason of a failure without causes. */
  readonly reason: string;
  readonly message: string;
}

/** What the server answers, in the terms the expectations use. */
export interface Outcome {
  readonly allowed: boolean;
  /** HTTP status: 200/201 when allowed. */
  readonly code: number;
  /** Causes, duplicates removed, in the server's order. */
  readonly causes: readonly Cause[];
  readonly warnings: readonly string[];
  /** The object as stored (server-generated uid, resourceVersion, creationTimestamp and managedFields left out), or the Scale. */
  readonly result?: unknown;
  /** CRD rules crdx could not evaluate faithfully for this case: its verdict may differ from the server's. */
  readonly celNotEvaluated?: boolean;
  /** The rules behind celNotEvaluated, each with why (src/schema/cel-eval.ts). */
  readonly celSkipped?: readonly { readonly rule: string; readonly why: string }[];
  /** Why crdx cannot tell the server's answer (CEL rules it does not evaluate, a conversion webhook): the case fails as not decided offline. */
  readonly undecided?: string;
  readonly notes?: readonly string[];
}

/** One way the outcome differs from what the case expects. */
export interface Mismatch {
  /** What was compared: verdict, cause, warnings, result at a path. */
  readonly what: string;
  readonly expected: string;
  readonly actual: string;
  /** Where the expectation sits in the test file. */
  readonly line: number;
  readonly column: number;
}

export interface CaseResult {
  readonly name: string;
  readonly index: number;
  readonly operation: Operation;
  readonly line: number;
  readonly column: number;
  readonly passed: boolean;
  readonly mismatches: readonly Mismatch[];
  /** Undefined when the case could not be simulated (an object without a CRD): `error` says why. */
  readonly outcome?: Outcome;
  readonly error?: string;
}

export interface FileResult {
  readonly file: string;
  /** Set when the file could not be run at all. */
  readonly errors: readonly TestFileError[];
  readonly cases: readonly CaseResult[];
  /** Milliseconds spent running the file's cases. */
  readonly ms: number;
}

interface TestSummary {
  readonly passed: number;
  readonly failed: number;
  /** Test files that could not be read. */
  readonly errors: number;
}

export interface TestRun {
  readonly files: readonly FileResult[];
  readonly summary: TestSummary;
  /** With --coverage. */
  readonly coverage?: readonly CrdCoverage[];
}

/** One constraint of a CRD schema and how the passing cases exercised it. */
export interface ConstraintCoverage {
  /** cel, enum, pattern, minimum, maximum, minLength, maxLength, minItems, maxItems, minProperties, maxProperties, required. */
  readonly kind: string;
  /** The data path of its schema node (`spec.ports[*].name`). */
  readonly node: string;
  /** The rule, the values, the pattern, the bound, the required property. */
  readonly detail: string;
  /** Where it is written in the CRD. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Passing cases where it applied and held. */
  readonly held: number;
  /** Passing cases where the server refused a value for it. */
  readonly violated: number;
}

export interface CrdCoverage {
  readonly crd: string;
  readonly file: string;
  readonly constraints: readonly ConstraintCoverage[];
}

export function summarize(files: readonly FileResult[]): TestSummary {
  let passed = 0;
  let failed = 0;
  let errors = 0;
  for (const f of files) {
    if (f.errors.length > 0) errors++;
    for (const c of f.cases) if (c.passed) passed++;
    else failed++;
  }
  return { passed, failed, errors };
}
