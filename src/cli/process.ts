import { fstatSync, realpathSync, statSync, writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { dirname, join } from 'node:path';
import type { ExitCode } from '../core/errors.js';
import type { CacheLocation, Io } from './io.js';
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
 * place that does). bin/load-bundle.cjs calls it, for bin/kubectl-crdx and for the single executable
 * (scripts/sea-main.cjs).
 */
export async function runProcess(argv: readonly string[] = process.argv.slice(2), cache?: CacheLocation): Promise<void> {
  let crashed = false;
  const crash = (e: unknown): void => {
    crashed = true;
    process.stderr.write(`internal error: ${(e as Error)?.message ?? String(e)}\nThis is a bug in kubectl-crdx; please report it.\n`);
    process.exitCode = 2;
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);

  const stdout = directOutput(1, () => process.stdout, crash);
  const stderr = directOutput(2, () => process.stderr, crash);
  const io: Io = {
    stdout,
    stderr,
    cwd: process.cwd(),
    env: process.env,
    docsDirs: docsDirs(),
    ...(cache ? { cache } : {}),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
  const code: ExitCode = await main(argv, io);
  // a crash elsewhere (exit 2) is never overwritten by a later 0 or 1
  if (!crashed) process.exitCode = code;
  // Everything is written (write(2) returned): the process ends now, not when the event loop has
  // drained. What is left there is V8's (a garbage collection it scheduled as a task, about 7 ms
  // after a lint of a 400 KB CRD) or a keep-alive socket of the cluster client. Output handed to a
  // stream (a full non-blocking pipe) may still be queued, so then the loop drains as before.
  // 'exit' listeners (the code cache bin/kubectl-crdx writes) still run.
  if (stdout.direct() && stderr.direct()) process.exit();
}

type DirectOutput = Io['stdout'] & {
  /** Whether everything was written with write(2) (or dropped after EPIPE): nothing is queued in a stream. */
  direct(): boolean;
};

/**
 * Standard output or error written with write(2) on the descriptor, without the stream Node builds
 * for it (process.stdout: a pipe's is a net.Socket, a few milliseconds of every cold start). A
 * descriptor that is non-blocking and full (EAGAIN) hands the rest, and everything after it, to the
 * stream, in order. A reader that stops early (`kubectl crdx --help | head`) is not a crash: the rest
 * of the output is dropped.
 */
function directOutput(fd: 1 | 2, stream: () => NodeJS.WriteStream, crash: (e: unknown) => void): DirectOutput {
  let mode: 'direct' | 'stream' | 'closed' = 'direct';
  let tty: boolean | undefined;
  const toStream = (s: string | Buffer): void => {
    if (mode !== 'stream') {
      mode = 'stream';
      stream().on('error', (e: NodeJS.ErrnoException) => {
        if (e.code !== 'EPIPE') crash(e);
      });
    }
    stream().write(s);
  };
  return {
    direct: () => mode !== 'stream',
    write(s: string): boolean {
      if (mode === 'closed' || s.length === 0) return true;
      if (mode === 'stream') {
        toStream(s);
        return true;
      }
      const buf = Buffer.from(s, 'utf8');
      let off = 0;
      try {
        while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EAGAIN') toStream(buf.subarray(off));
        else if (code === 'EPIPE') mode = 'closed';
        else throw e;
      }
      return true;
    },
    // a pipe or a file (CI, pre-commit, an editor), or /dev/null, is told by fstat, without loading node:tty
    get isTTY(): boolean {
      if (tty === undefined) {
        let maybe = true;
        try {
          const st = fstatSync(fd);
          maybe = st.isCharacterDevice() && st.rdev !== statSync('/dev/null', { throwIfNoEntry: false })?.rdev;
        } catch {
          // no descriptor to stat: isatty says
        }
        tty = maybe && isatty(fd);
      }
      return tty;
    },
  };
}
