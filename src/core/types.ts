/** Leaf types shared by every layer. Imports nothing else from src. */

/** A path into a JSON/YAML value: object keys and array indexes. */
export type JsonPath = readonly (string | number)[];

export type Severity = 'error' | 'warning' | 'info';

/** 1-based, like yaml's LineCounter and every editor. */
export interface Position {
  readonly line: number;
  readonly column: number;
  readonly endLine?: number;
  readonly endColumn?: number;
}

/** The API server's field.ErrorType names. */
export type ServerErrorType =
  | 'Required'
  | 'Invalid'
  | 'TypeInvalid'
  | 'NotSupported'
  | 'Forbidden'
  | 'Duplicate'
  | 'TooMany'
  | 'TooLong'
  | 'NotFound'
  | 'Internal';

/** One StatusCause of the server's 422 Invalid response. */
export interface ServerCause {
  /** The server's field path, quirks included (spec.validation.openAPIV3Schema..., ...JSONPath). */
  readonly field: string;
  /** The StatusCause reason (e.g. FieldValueRequired). */
  readonly reason: string;
  /** The StatusCause message (the field error body: type, value and detail). */
  readonly message: string;
}

/**
 * The server's whole answer when the request fails without field causes (a 400 BadRequest while
 * decoding the body, such as strict field validation), exactly as its Status carries it.
 */
export interface ServerResponse {
  readonly code: number;
  readonly reason: string;
  readonly message: string;
}

interface ObjectRef {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly name?: string;
  readonly namespace?: string;
}

/** The one output type every formatter consumes. */
export interface Finding {
  readonly ruleId: string;
  readonly severity: Severity;
  readonly message: string;
  readonly messageId: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  readonly document: number;
  readonly object?: ObjectRef;
  /** Where the problem sits in the user's manifest, in the server's notation. */
  readonly path: string;
  readonly server?: ServerCause;
  /** The request fails as a whole (no StatusCause): the server's status code, reason and message. */
  readonly response?: ServerResponse;
  /** The server answers nothing (it panics handling the request): what it fails on. */
  readonly aborted?: string;
  /** The input could not be processed (syntax error, unreadable file). */
  readonly fatal?: true;
  /** lint --old: the cause comes from the installed CRD, at this place of the OLD file. */
  readonly old?: { readonly file: string; readonly line: number; readonly column: number };
}

/** Why a finding is not reported as a problem: a `# crdx-disable…` comment of the source, with its reason. */
export interface Suppression {
  readonly kind: 'inSource';
  /** The reason written after `--` (empty when none was given: that is a finding of its own). */
  readonly justification: string;
  /** Where the suppression comment is (1-based). */
  readonly line: number;
  readonly column: number;
}

/** A finding a suppression comment covers: listed (JSON, SARIF), never counted. */
export interface SuppressedFinding extends Finding {
  readonly suppressions: readonly Suppression[];
}

/** What --baseline did: findings it matched (not reported) and entries no finding matched any more. */
interface BaselineSummary {
  readonly file: string;
  readonly matched: number;
  /** Baseline entries whose finding no longer occurs: --update-baseline removes them. */
  readonly fixed: number;
}

/** lint --old: the server's verdict on one CRD of the input that replaces an installed one. */
export interface CrdUpdateSummary {
  readonly name: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** The server accepts the update (no server-faithful error). */
  readonly accepted: boolean;
  /** Findings of the engine on this CRD (all severities). */
  readonly findings: number;
  /** Of those, the upgrade-safety advice: changes the server accepts that break stored objects or clients. */
  readonly breaking: number;
  /** lint --objects (or --old cluster): the stored objects of this CRD that were checked. */
  readonly objects?: number;
  /** Of those, the objects whose next write the server would reject (or whose apiVersion is gone). */
  readonly affected?: number;
}

/** The one wording of an update's verdict, for every output format. */
export function updateSummaryText(u: CrdUpdateSummary): string {
  return `CustomResourceDefinition ${u.name}: update ${u.accepted ? 'accepted' : 'rejected'} by the server; ${u.findings} finding${u.findings === 1 ? '' : 's'}${u.breaking > 0 ? ` (${u.breaking} breaking change${u.breaking === 1 ? '' : 's'})` : ''}${u.objects !== undefined ? `; ${u.affected ?? 0} of ${u.objects} stored object${u.objects === 1 ? '' : 's'} affected` : ''}`;
}

export interface Summary {
  readonly files: number;
  readonly documents: number;
  readonly errors: number;
  readonly warnings: number;
  /** Findings covered by a suppression comment (listed apart, not counted as errors or warnings); absent when none. */
  readonly suppressed?: number;
  /** Present with --baseline. */
  readonly baseline?: BaselineSummary;
  /** More warnings than --max-warnings allows (counted before -q hides them): the run fails. */
  readonly tooManyWarnings?: { readonly warnings: number; readonly max: number };
  /** lint --old: one entry per CRD of the input that updates an installed one, in input order. */
  readonly updates?: readonly CrdUpdateSummary[];
  /** Objects of a group that is not built in whose kind no CRD of the run (input or --crd) defines: not checked. */
  readonly unchecked?: UncheckedSummary;
}

export interface UncheckedSummary {
  readonly objects: number;
  /** `Kind.group` of each, sorted, once. */
  readonly kinds: readonly string[];
}

/** The one wording of objects left unchecked for want of their CRD, for every output format. */
export function uncheckedText(u: UncheckedSummary): string {
  const shown = u.kinds.slice(0, 5).join(', ') + (u.kinds.length > 5 ? `, and ${u.kinds.length - 5} more` : '');
  return `${u.objects} object${u.objects === 1 ? '' : 's'} not checked: no CRD in the run defines ${u.kinds.length === 1 ? 'its kind' : 'their kinds'} (${shown}); give ${u.kinds.length === 1 ? 'it' : 'them'} with --crd`;
}

/** The one wording of an exceeded --max-warnings, for every output format. */
export function tooManyWarningsText(t: { readonly warnings: number; readonly max: number }): string {
  return `too many warnings (${t.warnings}, max ${t.max})`;
}

/** The one wording of baseline entries that no longer occur, for every output format. */
export function baselineFixedText(b: BaselineSummary): string {
  return `${b.fixed} finding${b.fixed === 1 ? '' : 's'} of the baseline ${b.file} no longer occur${b.fixed === 1 ? 's' : ''}: run with --update-baseline to remove ${b.fixed === 1 ? 'it' : 'them'}`;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sets an own, enumerable property, even for keys such as `__proto__`. */
export function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  // Object.prototype's only inherited setter is __proto__: every other key is an own data property
  // by plain assignment, which keeps objects in V8's fast mode (defineProperty on every key did not)
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

export function isArray(v: unknown): v is readonly unknown[] {
  return Array.isArray(v);
}
