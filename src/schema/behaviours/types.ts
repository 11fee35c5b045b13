/**
 * Shared shapes of the simulation steps (CONVENTIONS §3 "Simulation"): a step is a pure
 * `(value, schema, opts) => { value, changes }` that never mutates its input.
 */
import type { JsonPath } from '../../core/types.js';
import type { Structural } from '../../crd/structural-schema.js';

export type ChangeKind =
  | 'pruned'
  | 'null-dropped'
  | 'defaulted'
  | 'metadata-coerced'
  | 'status-reset'
  | 'status-kept'
  | 'spec-kept'
  | 'replicas-set';

/** One thing a step did, at a path relative to the object the step was given. */
export interface Change {
  readonly kind: ChangeKind;
  readonly path: JsonPath;
  /** The value before the change; absent when the key did not exist. */
  readonly before?: unknown;
  /** The value after the change; absent when the key was removed. */
  readonly after?: unknown;
}

export interface StepResult {
  /** A new value; shares no objects or arrays with the input. */
  readonly value: unknown;
  readonly changes: readonly Change[];
}

/** A typed structural schema, or undefined for "no schema" (Go's nil *Structural). */
export type StepSchema = Structural | undefined;

export type Step<O = unknown> = (value: unknown, schema: StepSchema, opts: O) => StepResult;
