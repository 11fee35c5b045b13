/** Runs the CLI in-process (main() with an in-memory Io): what `node bin/kubectl-crdx` does, without a process. */
import { main, type Runners } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

/** `runners`: command runners replaced (see main), e.g. `default` with CRDs built once. */
export async function runCli(argv: readonly string[], stdin = '', runners: (io: Io) => Partial<Runners> = () => ({})): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: { write: (s: string) => (stdout += s), isTTY: false },
    stderr: { write: (s: string) => (stderr += s), isTTY: false },
    readStdin: async () => stdin,
    cwd: process.cwd(),
    env: { NO_COLOR: '1' },
  };
  const t0 = performance.now();
  const code = await main(argv, io, runners(io));
  return { code, stdout, stderr, ms: performance.now() - t0 };
}

/** A Node stack frame: users must never see one. */
export const STACK_FRAME = /^\s+at .+[:(]/m;

export interface JsonFinding {
  ruleId: string;
  severity: string;
  message: string;
  file: string;
  line: number;
  column: number;
  document: number;
  path: string;
  fatal?: true;
}

export interface JsonOutput {
  findings: JsonFinding[];
  summary: { files: number; documents: number; errors: number; warnings: number };
}
