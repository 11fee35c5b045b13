import type { Finding, SuppressedFinding, Summary } from '../core/types.js';

export interface RuleDocs {
  readonly description: string;
  readonly serverFaithful: boolean;
}

/** Colouring functions; identity functions when colour is off. */
export interface Style {
  readonly red: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly blue: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly bold: (s: string) => string;
  readonly underline: (s: string) => string;
}

export interface FormatterContext {
  readonly style: Style;
  readonly cwd: string;
  readonly rules: ReadonlyMap<string, RuleDocs>;
  readonly summary: Summary;
  readonly toolVersion: string;
  /** Every input file that was read, as given (formatters list clean files too). */
  readonly files: readonly string[];
  /** Findings covered by a suppression comment: JSON and SARIF list them, the others only count them (summary.suppressed). */
  readonly suppressed?: readonly SuppressedFinding[];
}

export type Formatter = (findings: readonly Finding[], ctx: FormatterContext) => string;

const id = (s: string): string => s;
export const PLAIN_STYLE: Style = { red: id, yellow: id, blue: id, dim: id, bold: id, underline: id };
