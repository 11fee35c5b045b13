/**
 * What each command's flags parse to: the options main.ts builds from commander's record and the
 * command runners (*-command.ts) take. A module of its own, so the runners need not import main.ts.
 */
import type { FieldValidation } from '../core/field-validation.js';
import type { KubeVersion } from '../core/kube-version.js';
import type { FormatName } from '../formatters/index.js';
import type { ClusterCliOptions } from './cluster-options.js';

export interface LintCliOptions {
  readonly paths: readonly string[];
  readonly format: FormatName;
  readonly kubeVersion: KubeVersion;
  readonly maxWarnings: number | undefined;
  readonly color: boolean | undefined;
  readonly quiet: boolean;
  /** --allow-empty: no document at all is not an input failure. */
  readonly allowEmpty: boolean;
  readonly rule: readonly string[];
  /** Files or directories whose CRDs custom resources are validated against (not linted themselves). */
  readonly crd: readonly string[];
  /** --cluster: lint the installed CRDs too (undefined without it). */
  readonly cluster?: ClusterCliOptions | undefined;
  /** --validate: the fieldValidation of the simulated requests. */
  readonly fieldValidation: FieldValidation;
  /** --baseline FILE: report only findings the file does not hold. */
  readonly baseline?: string | undefined;
  /** --update-baseline: write the current findings to the --baseline file. */
  readonly updateBaseline?: boolean;
  /** --old PATH|git:REV (repeatable): the installed CRDs; a CRD of the input with one of their names is an update. */
  readonly old?: readonly string[];
  /** --objects PATH (repeatable): objects stored under the --old CRDs, checked on their next write under the input's. */
  readonly objects?: readonly string[];
  /** --explain-cost: the estimated cost of every CEL rule, not only of those over budget. */
  readonly explainCost?: boolean;
}

export interface DefaultCliOptions {
  readonly paths: readonly string[];
  readonly crd: readonly string[];
  readonly output: 'yaml' | 'json';
  readonly kubeVersion: KubeVersion;
  /** undefined: explain when stderr is a terminal. */
  readonly explain: boolean | undefined;
  readonly color: boolean | undefined;
  /** --cluster: CRDs from the cluster; RESOURCE/NAME arguments are live objects (undefined without it). */
  readonly cluster?: ClusterCliOptions | undefined;
  /** --validate: the fieldValidation of the simulated requests. */
  readonly fieldValidation: FieldValidation;
}

export interface StatusCliOptions {
  /** The new object(s): -f FILE (- for stdin). */
  readonly paths: readonly string[];
  /** The stored object(s); none: a create. */
  readonly old: readonly string[];
  readonly crd: readonly string[];
  readonly via: 'status' | 'main';
  readonly output: 'yaml' | 'json';
  readonly kubeVersion: KubeVersion;
  readonly explain: boolean | undefined;
  readonly color: boolean | undefined;
  /** --cluster: CRDs from the cluster (undefined without it). */
  readonly cluster?: ClusterCliOptions | undefined;
  /** --validate: the fieldValidation of the simulated requests. */
  readonly fieldValidation: FieldValidation;
}

export interface ScaleCliOptions {
  readonly paths: readonly string[];
  readonly crd: readonly string[];
  /** Undefined: GET /scale. */
  readonly replicas: number | undefined;
  readonly resourceVersion: string | undefined;
  readonly output: 'yaml' | 'json';
  readonly showObject: boolean;
  readonly kubeVersion: KubeVersion;
  readonly color: boolean | undefined;
  /** --cluster: CRDs from the cluster (undefined without it). */
  readonly cluster?: ClusterCliOptions | undefined;
}

export interface TestCliOptions {
  /** Test files or directories (default: the current directory). */
  readonly paths: readonly string[];
  readonly output: 'text' | 'json' | 'junit' | 'tap';
  /** Only cases whose name contains this text. */
  readonly filter: string | undefined;
  /** The Kubernetes version of cases without kubeVersion. */
  readonly kubeVersion: KubeVersion;
  readonly color: boolean | undefined;
  /** Rewrite the expectations of failing cases with the outcome. */
  readonly update: boolean;
  /** Report which constraints of the CRDs the passing cases exercised. */
  readonly coverage: boolean;
  /** Write a starter test file for the CRDs of this file instead of running tests. */
  readonly init: string | undefined;
  /** --validate: the fieldValidation of cases that do not name one. */
  readonly fieldValidation: FieldValidation;
}

export interface RulesRunOptions {
  readonly id: string | undefined;
  readonly output: 'text' | 'json';
}
