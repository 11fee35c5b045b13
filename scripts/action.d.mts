// Types of scripts/action.mjs (the GitHub Action's logic), for its tests.
export declare class ActionInputError extends Error {}

export interface ActionInputs {
  readonly paths: readonly string[];
  readonly kubeVersion: string | undefined;
  readonly maxWarnings: number | undefined;
  readonly baseline: string | undefined;
  readonly validate: string;
  readonly sarifFile: string | undefined;
}

export interface ExecResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface SarifCounts {
  readonly errors: number;
  readonly warnings: number;
  readonly notes: number;
  readonly suppressed: number;
  readonly notifications: readonly string[];
}

export declare function readInputs(env: Readonly<Record<string, string | undefined>>): ActionInputs;
export declare function lintArgs(inputs: ActionInputs, format: 'sarif' | 'github'): string[];
export declare function summarizeSarif(text: string): SarifCounts | undefined;
export declare function runAction(o: {
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  exec: (args: readonly string[]) => ExecResult;
  write: (s: string) => void;
}): number;
