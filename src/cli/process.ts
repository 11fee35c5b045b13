import { realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ExitCode } from '../core/errors.js';
import type { Io } from './io.js';
import { main } from './main.js';

/** docs/rules/ of the package the bin belongs to, and beside the single executable (krew archive). */
function docsDirs(): string[] {
  const dirs: string[] = [];
  const bin = process.argv[1];
  if (bin) {
    try {
      dirs.push(join(dirname(realpathSync(bin)), '..', 'docs', 'rules'));
    } catch {
      // a bin that cannot be resolved: no package beside it
    }
  }
  dirs.push(join(dirname(process.execPath), 'docs', 'rules'));
  return dirs;
}

/**
 * Runs the CLI as this process: wires the real stdio, and sets `process.exitCode` once (the only
 * place that does). Used by bin/kubectl-crdx and by the single executable (src/cli/sea-entry.ts).
 */
export async function runProcess(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  let crashed = false;
  const crash = (e: unknown): void => {
    crashed = true;
    process.stderr.write(`internal error: ${(e as Error)?.message ?? String(e)}\nThis is a bug in kubectl-crdx; please report it.\n`);
    process.exitCode = 2;
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  // a reader that stops early (`kubectl crdx --help | head`) is not a crash: the rest of the output is dropped
  for (const s of [process.stdout, process.stderr])
    s.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') crash(e);
    });

  const io: Io = {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    env: process.env,
    docsDirs: docsDirs(),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
  const code: ExitCode = await main(argv, io);
  // a crash elsewhere (exit 2) is never overwritten by a later 0 or 1
  if (!crashed) process.exitCode = code;
}
