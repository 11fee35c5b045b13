/**
 * The CEL engine as a value: what checks x-kubernetes-validations rules receives it (on the CRD,
 * Crd.cel; in the engines' options) instead of reaching for a global. Loading it is
 * src/schema/cel-syntax.ts (loadCel, celFor).
 */
import { InternalError } from './errors.js';

export type CelModule = typeof import('@marcbachmann/cel-js');

export interface CelEngine {
  /** The CEL module (Environment, Optional), for the evaluator. */
  readonly module: CelModule;
  /** The syntax error of a CEL expression (first line of the parser's message), or undefined. */
  syntaxError(expr: string): string | undefined;
}

/** How a caller gets the engine: `loadCel`, or a test's own. */
export type CelLoader = () => Promise<CelEngine>;

/** The failure of a rule met without an engine: a wiring bug, never a reason to skip the rule. */
export function celMissing(where: string): InternalError {
  return new InternalError(`${where}: a CEL rule (x-kubernetes-validations) was met, but no CEL engine was passed in (the caller must load it: celFor/loadCel)`);
}
