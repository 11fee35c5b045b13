import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { CrdxError, ExitCode } from '../core/errors.js';
import { DEFAULT_KUBE_VERSION, MIN_KUBE_VERSION, atLeast, formatKubeVersion, parseKubeVersion, type KubeVersion } from '../core/kube-version.js';
import { FORMAT_NAMES, type FormatName } from '../formatters/index.js';
import type { Io } from './io.js';
import { VERSION } from './version.js';

export interface LintCliOptions {
  readonly paths: readonly string[];
  readonly format: FormatName;
  readonly kubeVersion: KubeVersion;
  readonly maxWarnings: number | undefined;
  readonly color: boolean | undefined;
  readonly quiet: boolean;
  readonly rule: readonly string[];
  /** Files or directories whose CRDs custom resources are validated against (not linted themselves). */
  readonly crd: readonly string[];
}

export interface DefaultCliOptions {
  readonly paths: readonly string[];
  readonly crd: readonly string[];
  readonly output: 'yaml' | 'json';
  readonly kubeVersion: KubeVersion;
  /** undefined: explain when stderr is a terminal. */
  readonly explain: boolean | undefined;
  readonly color: boolean | undefined;
}

function parseKube(v: string): KubeVersion {
  const k = parseKubeVersion(v);
  if (!k) throw new InvalidArgumentError('expected MAJOR.MINOR, e.g. 1.36');
  if (!atLeast(k, MIN_KUBE_VERSION.minor) || k.major !== 1)
    throw new InvalidArgumentError(`supported from ${formatKubeVersion(MIN_KUBE_VERSION)} (apiextensions.k8s.io/v1)`);
  return k;
}

function parseCount(v: string): number {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError('expected a whole number >= 0');
  return Number(v);
}

function collect(v: string, prev: string[]): string[] {
  return [...prev, v];
}

const EPILOG = `
Exit codes:
  0  no errors (and warnings within --max-warnings)
  1  errors found (or more warnings than --max-warnings)
  2  usage, input or internal failure (nothing could be checked)`;

const DEFAULT_EPILOG = `
Output: the object as the API server stores it on create (pruned, nulls dropped, metadata
normalised, defaulted, status dropped when the status subresource is on), without the metadata
the server generates; several objects print as a v1 List. CEL rules (x-kubernetes-validations)
are not evaluated.

Exit codes:
  0  every object would be accepted
  1  the server would reject an object (its errors are printed as lint prints them)
  2  usage or input failure (unreadable file, no CRD for an object, version not served)`;

export interface Runners {
  readonly lint: (o: LintCliOptions) => Promise<ExitCode>;
  readonly default: (o: DefaultCliOptions) => Promise<ExitCode>;
}

export function createProgram(io: Io, run: Runners, setCode: (c: ExitCode) => void): Command {
  const program = new Command()
    .name('kubectl crdx')
    .description('Tell, before anything reaches a cluster, what the real kube-apiserver will do with your CRDs and custom resources.')
    .version(VERSION, '--version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EPILOG);

  program
    .command('lint')
    .description('check CustomResourceDefinitions the way the API server validates them (files, directories, - for stdin)')
    .argument('[paths...]', 'files or directories (*.yaml, *.yml, *.json, recursively); - reads stdin')
    .option('-f, --filename <path>', 'a file or directory to lint (repeatable)', collect, [])
    .addOption(new Option('-o, --output <format>', 'output format').choices(FORMAT_NAMES).default('stylish'))
    .option('--kube-version <X.Y>', `Kubernetes version whose API server is simulated (default ${formatKubeVersion(DEFAULT_KUBE_VERSION)})`, parseKube)
    .option('--max-warnings <n>', 'exit 1 when there are more warnings than this', parseCount)
    .option('--rule <id=severity>', 'override a rule severity: error, warning, info or off (repeatable)', collect, [])
    .option('--crd <path>', 'CRDs to validate the custom resources of the input against, without linting them (repeatable)', collect, [])
    .option('--color', 'force colours')
    .option('--no-color', 'never use colours')
    .option('-q, --quiet', 'report errors only')
    .addHelpText('after', EPILOG)
    .action(async (paths: string[], o: Record<string, unknown>) => {
      const all = [...paths, ...((o['filename'] as string[]) ?? [])];
      setCode(
        await run.lint({
          paths: all,
          format: o['output'] as FormatName,
          kubeVersion: (o['kubeVersion'] as KubeVersion | undefined) ?? DEFAULT_KUBE_VERSION,
          maxWarnings: o['maxWarnings'] as number | undefined,
          color: o['color'] as boolean | undefined,
          quiet: o['quiet'] === true,
          rule: (o['rule'] as string[]) ?? [],
          crd: (o['crd'] as string[]) ?? [],
        }),
      );
    });
  program
    .command('default')
    .description('show custom resources as the API server will store them: pruned, defaulted, validated')
    .argument('[paths...]', 'files or directories with custom resources (and CRDs); - reads stdin')
    .option('-f, --filename <path>', 'a file or directory of custom resources (repeatable)', collect, [])
    .option('--crd <path>', 'a file or directory with the CustomResourceDefinitions (repeatable; CRDs among the inputs are used too)', collect, [])
    .addOption(new Option('-o, --output <format>', 'output format').choices(['yaml', 'json']).default('yaml'))
    .option('--kube-version <X.Y>', `Kubernetes version whose API server is simulated (default ${formatKubeVersion(DEFAULT_KUBE_VERSION)})`, parseKube)
    .option('--explain', 'explain every change on stderr (default when stderr is a terminal)')
    .option('--no-explain', 'print only the server\'s warnings on stderr')
    .option('--color', 'force colours')
    .option('--no-color', 'never use colours')
    .addHelpText('after', DEFAULT_EPILOG)
    .action(async (paths: string[], o: Record<string, unknown>) => {
      setCode(
        await run.default({
          paths: [...paths, ...((o['filename'] as string[]) ?? [])],
          crd: (o['crd'] as string[]) ?? [],
          output: o['output'] as 'yaml' | 'json',
          kubeVersion: (o['kubeVersion'] as KubeVersion | undefined) ?? DEFAULT_KUBE_VERSION,
          explain: o['explain'] as boolean | undefined,
          color: o['color'] as boolean | undefined,
        }),
      );
    });
  return program;
}

/** The one entry point: returns the exit code, never exits. */
export async function main(argv: readonly string[], io: Io): Promise<ExitCode> {
  let code: ExitCode = ExitCode.Ok;
  const run = {
    lint: async (o: LintCliOptions): Promise<ExitCode> => (await import('./lint-command.js')).runLint(o, io),
    default: async (o: DefaultCliOptions): Promise<ExitCode> => (await import('./default-command.js')).runDefault(o, io),
  };
  const program = createProgram(io, run, (c) => (code = c));
  if (argv.length === 0) {
    program.outputHelp();
    return ExitCode.Failure;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? ExitCode.Ok : ExitCode.Failure;
    if (e instanceof CrdxError) {
      io.stderr.write(`error: ${e.message}\n`);
      return ExitCode.Failure;
    }
    const debug = io.env['CRDX_DEBUG'] !== undefined;
    io.stderr.write(
      `internal error: ${(e as Error)?.message ?? String(e)}\nThis is a bug in kubectl-crdx; please report it.${debug ? `\n${(e as Error)?.stack ?? ''}` : ' (set CRDX_DEBUG=1 for a stack trace)'}\n`,
    );
    return ExitCode.Failure;
  }
  return code;
}
