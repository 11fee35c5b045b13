/**
 * Expressions recorded with cel-go's answers by test/apiserver/celeval/record.mjs (the API server's
 * CEL environment): each with values for s, t, u (string), i, j (int) and d (double).
 */
import { readFileSync } from 'node:fs';

export interface CelGoCase {
  readonly expr: string;
  readonly s: string;
  readonly t: string;
  readonly u: string;
  readonly i: number;
  readonly j: number;
  readonly d: number;
  /** cel-go's answer: a value (its type, fmt's %v), an evaluation error, or a compile or program error. */
  readonly go: { type?: string; value?: string; err?: string; compile?: string; program?: string };
}

/** The cases of a recorded file beside the test (`url`: new URL('./x.json', import.meta.url)). */
export function celGoCases(url: URL): CelGoCase[] {
  return (JSON.parse(readFileSync(url, 'utf8')) as { cases: CelGoCase[] }).cases;
}

/** The variables a case's expression is evaluated with (ints as the evaluator's bigints). */
export function celGoVars(c: CelGoCase): Record<string, unknown> {
  return { s: c.s, t: c.t, u: c.u, i: BigInt(c.i), j: BigInt(c.j), d: c.d };
}
