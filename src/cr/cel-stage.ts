/**
 * The CEL step of the custom-resource strategy's validation (apiextensions-apiserver
 * pkg/registry/customresource/strategy.go: customResourceStrategy.Validate/ValidateUpdate, which
 * skip the rules when an earlier error blocks them, hasBlockingErr; then cel.Validator.Validate).
 */
import { errorText, type FieldError } from '../core/field-error.js';
import { evaluateCel, type CelSkip } from '../schema/cel-eval.js';
import type { ServedVersion } from './catalog.js';

/** field.ErrorTypes that keep the server from evaluating CEL rules (hasBlockingErr). */
const BLOCKING: ReadonlySet<string> = new Set(['NotSupported', 'Required', 'TooLong', 'TooMany', 'TypeInvalid']);

export interface CelStage {
  /** Some rule the server evaluates was not evaluated here. */
  readonly celNotEvaluated: boolean;
  /** Which, and why (absent when none). */
  readonly celSkipped?: readonly CelSkip[];
  /** Failed rules on values the update leaves unchanged: the server's `299` warnings (ratcheting), text and place. */
  readonly celWarnings?: readonly { readonly text: string; readonly path: FieldError['at'] }[];
}

/**
 * Appends the CEL causes (or, when an earlier error blocks the rules, the server's "some validation
 * rules were not checked" cause) to `errors`; `old` is the stored object on an update.
 */
export function celStage(obj: Record<string, unknown>, old: Record<string, unknown> | undefined, served: ServedVersion, errors: FieldError[]): CelStage {
  if (!served.hasCel) return { celNotEvaluated: false };
  if (errors.some((e) => BLOCKING.has(e.type))) {
    errors.push({ type: 'Invalid', field: '<nil>', value: null, detail: 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation', at: [] });
    return { celNotEvaluated: false };
  }
  const cel = evaluateCel(obj, old, served.structural, served.crd.cel, served.crd.kube);
  errors.push(...cel.errors);
  return {
    celNotEvaluated: !cel.complete,
    ...(cel.skipped.length > 0 ? { celSkipped: cel.skipped } : {}),
    ...(cel.warnings !== undefined ? { celWarnings: cel.warnings.map((e) => ({ text: errorText(e), path: e.at })) } : {}),
  };
}
