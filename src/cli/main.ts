import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { CrdxError, ExitCode } from '../core/errors.js';
import { DEFAULT_KUBE_VERSION, MIN_KUBE_VERSION, formatKubeVersion } from '../core/kube-version.js';
import { FORMAT_NAMES, type FormatName } from '../formatters/index.js';
import { addClusterOptions, readClusterOptions } from './cluster-options.js';
import {
  addColorOptions,
  addCrdOption,
  addExplainOptions,
  addFilenameOption,
  addKubeVersionOption,
  addOutputOption,
  collect,
  readColor,
  readCrdOption,
  readExplain,
  readKubeVersion,
  readPaths,
} from './common-options.js';
import type { Io } from './io.js';
import type { DefaultCliOptions, LintCliOptions, RulesRunOptions, ScaleCliOptions, StatusCliOptions, TestCliOptions } from './options.js';
import { addValidateOption, bareValidate, readValidateOption } from './validate-option.js';
import { VERSION } from './version.js';

function parseReplicas(v: string): number {
  if (!/^-?\d+$/.test(v)) throw new InvalidArgumentError('expected an integer');
  const n = Number(v);
  // autoscaling/v1 Scale spec.replicas is an int32
  if (n < -2147483648 || n > 2147483647) throw new InvalidArgumentError('out of the int32 range of autoscaling/v1 Scale spec.replicas');
  return n;
}

function parseCount(v: string): number {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError('expected a whole number >= 0');
  return Number(v);
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
are evaluated where crdx is sure to agree with the server; otherwise a note says so. With
kubectl's default --validate=strict an unknown field fails the request (400 BadRequest): the
object is still printed as --validate=warn would store it, and the 400 is reported as an error.

Exit codes:
  0  every object would be accepted
  1  the server would reject an object (its errors are printed as lint prints them; an
     unknown field under --validate=strict is such an error), or a
     document, file or object among others cannot be read or matched (listed with the errors)
  2  usage or input failure: no object at all could be created (unreadable file, no CRD for
     an object, version not served)`;

const STATUS_EPILOG = `
Output: the object the server stores after the update (after the same decoding as "default"),
with metadata.generation as the server sets it. Without --old: a create (status dropped when the
status subresource is on, generation 1). The explanation on stderr (on a terminal or with
--explain) lists what was kept from the stored object, what of the request was ignored and what
changed. CEL rules (x-kubernetes-validations) are evaluated where crdx is sure to agree with the
server; otherwise a note says so.

Exit codes:
  0  the server would accept the update
  1  the server would reject it (422 Invalid, 409 Conflict, 400 BadRequest)
  2  usage or input failure (unreadable file, no CRD or no old object for an object)`;

const SCALE_EPILOG = `
Without --replicas: the autoscaling/v1 Scale that GET /scale returns for the object as stored.
With --replicas N: the update round trip (PUT /scale): the Scale the server returns after copying
N to the CRD's specReplicasPath; --show-object also prints the custom resource as stored.

Exit codes:
  0  the server would answer 200
  1  the server would fail (no scale subresource, missing or non-integer replicas, a rejected update)
  2  usage or input failure`;

const TEST_EPILOG = `
A test file (*.crdx-test.yaml) lists the CRDs under test (crds: paths or globs relative to the
file, or inline CRDs) and cases: an object (inline or a path), an operation (create, update with
an oldObject, status, scale-get, scale-update with replicas) and what the server answers:
allowed: true or denied: [causes], warnings, result (the object as stored, partially). Each case
is simulated as the API server handles it; the summary line is "N passed, N failed".

Exit codes:
  0  every case passed
  1  a case failed
  2  a test file cannot be read (its error is printed with its position; the others still run),
     or a usage failure`;

export interface Runners {
  readonly lint: (o: LintCliOptions) => Promise<ExitCode>;
  readonly default: (o: DefaultCliOptions) => Promise<ExitCode>;
  readonly status: (o: StatusCliOptions) => Promise<ExitCode>;
  readonly scale: (o: ScaleCliOptions) => Promise<ExitCode>;
  readonly rules: (o: RulesRunOptions) => Promise<ExitCode>;
  readonly test: (o: TestCliOptions) => Promise<ExitCode>;
  readonly lsp: () => Promise<ExitCode>;
}

function createProgram(io: Io, run: Runners, setCode: (c: ExitCode) => void): Command {
  const program = new Command()
    .name('kubectl crdx')
    .description('Tell, before anything reaches a cluster, what the real kube-apiserver will do with your CRDs and custom resources.')
    .version(VERSION, '--version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EPILOG);

  const rules = program
    .command('rules')
    .description('list the rules, or print the page of one (its details, server reference and examples)')
    .argument('[id]', 'a rule id');
  addOutputOption(rules, ['text', 'json'], 'text').action(async (id: string | undefined, o: Record<string, unknown>) => {
    setCode(await run.rules({ id, output: o['output'] as 'text' | 'json' }));
  });
  program
    .command('version')
    .description('print the version of kubectl-crdx and the Kubernetes version it simulates by default')
    .action(() => {
      io.stdout.write(`kubectl-crdx ${VERSION}\nsimulates Kubernetes ${formatKubeVersion(DEFAULT_KUBE_VERSION)} by default (--kube-version ${formatKubeVersion(MIN_KUBE_VERSION)} to ${formatKubeVersion(DEFAULT_KUBE_VERSION)})\n`);
      setCode(ExitCode.Ok);
    });
  program
    .command('lsp')
    .description('run the language server (LSP 3.17 over stdin/stdout): lint\'s findings as editor diagnostics, hover, quick fixes')
    .option('--stdio', 'talk over stdin/stdout (the default and only transport)')
    // editors add their own arguments (--clientProcessId=N …)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(async () => {
      setCode(await run.lsp());
    });
  const lint = program
    .command('lint')
    .description('check CustomResourceDefinitions the way the API server validates them (files, directories, - for stdin)')
    .argument('[paths...]', 'files or directories (*.yaml, *.yml, *.json, recursively); - reads stdin');
  addFilenameOption(lint, 'a file or directory to lint');
  addOutputOption(lint, FORMAT_NAMES, 'stylish');
  addKubeVersionOption(lint)
    .option('--max-warnings <n>', 'exit 1 when there are more warnings than this', parseCount)
    .option('--rule <id=severity>', 'override a rule severity: error, warning, info or off; ID/CHECK for one check of a rule (repeatable)', collect, []);
  addCrdOption(lint, 'CRDs to validate the custom resources of the input against, without linting them (repeatable)');
  lint.option(
    '--old <path>',
    'the installed CRDs (files or directories, as kubectl get crd -o yaml prints them; git:REV reads the input paths at a git revision; cluster, with --cluster, the installed ones): input CRDs of the same name are checked as updates (repeatable)',
    collect,
    [],
  );
  lint.option(
    '--objects <path>',
    'with --old: custom resources stored under the installed CRDs (files, directories or - for stdin; any kinds): those of updated CRDs are checked on their next write under the new CRD (rule stored-objects; others are ignored). --old cluster reads the live objects of the updated CRDs itself (repeatable)',
    collect,
    [],
  );
  addColorOptions(lint)
    .option('-q, --quiet', 'report errors only (--max-warnings still counts the warnings)')
    .option('--allow-empty', 'exit 0 when the input holds no document at all (default: exit 2)')
    .option('--baseline <file>', 'report only findings this baseline file does not hold (JSON; see the README)')
    .option('--update-baseline', 'write the current findings to the --baseline file and exit 0')
    .option('--explain-cost', 'report the estimated cost of every CEL rule and messageExpression (info findings of cel-cost-explanation), not only of those over budget');
  addValidateOption(lint);
  addClusterOptions(lint)
    .addHelpText('after', EPILOG)
    .action(async (paths: string[], o: Record<string, unknown>) => {
      const cluster = readClusterOptions(o);
      setCode(
        await run.lint({
          paths: readPaths(paths, o),
          format: o['output'] as FormatName,
          kubeVersion: readKubeVersion(o),
          maxWarnings: o['maxWarnings'] as number | undefined,
          color: readColor(o),
          quiet: o['quiet'] === true,
          allowEmpty: o['allowEmpty'] === true,
          rule: (o['rule'] as string[]) ?? [],
          crd: readCrdOption(o),
          cluster,
          fieldValidation: readValidateOption(o),
          baseline: o['baseline'] as string | undefined,
          updateBaseline: o['updateBaseline'] === true,
          old: (o['old'] as string[] | undefined) ?? [],
          objects: (o['objects'] as string[] | undefined) ?? [],
          explainCost: o['explainCost'] === true,
        }),
      );
    });
  const def = program
    .command('default')
    .description('show custom resources as the API server will store them: pruned, defaulted, validated')
    .argument('[paths...]', 'files or directories with custom resources (and CRDs); - reads stdin');
  addFilenameOption(def, 'a file or directory of custom resources');
  addCrdOption(def);
  addOutputOption(def, ['yaml', 'json'], 'yaml');
  addKubeVersionOption(def);
  addExplainOptions(def, 'explain every change on stderr (default when stderr is a terminal)', 'print only the server\'s warnings on stderr');
  addColorOptions(def);
  addValidateOption(def);
  addClusterOptions(def)
    .addHelpText('after', DEFAULT_EPILOG)
    .action(async (paths: string[], o: Record<string, unknown>) => {
      const cluster = readClusterOptions(o);
      setCode(
        await run.default({
          paths: readPaths(paths, o),
          crd: readCrdOption(o),
          output: o['output'] as 'yaml' | 'json',
          kubeVersion: readKubeVersion(o),
          explain: readExplain(o),
          color: readColor(o),
          cluster,
          fieldValidation: readValidateOption(o),
        }),
      );
    });
  const status = program
    .command('status')
    .description('dry-run an update through the main endpoint or /status: what is stored, kept, ignored; generation')
    .argument('[paths...]', 'files with the new custom resources (and CRDs); - reads stdin');
  addFilenameOption(status, 'a file or directory with the new objects').option('--old <path>', 'the stored objects, as read from the server (repeatable); none: a create', collect, []);
  addCrdOption(status).addOption(new Option('--via <endpoint>', 'the endpoint written to').choices(['status', 'main']).default('status'));
  addOutputOption(status, ['yaml', 'json'], 'yaml');
  addKubeVersionOption(status);
  addExplainOptions(status, 'explain on stderr what was kept, ignored and changed (default when stderr is a terminal)', 'print only the server\'s warnings and errors on stderr');
  addColorOptions(status);
  addValidateOption(status);
  addClusterOptions(status)
    .addHelpText('after', STATUS_EPILOG)
    .action(async (paths: string[], o: Record<string, unknown>) => {
      const cluster = readClusterOptions(o);
      setCode(
        await run.status({
          paths: readPaths(paths, o),
          old: (o['old'] as string[]) ?? [],
          crd: readCrdOption(o),
          via: o['via'] as 'status' | 'main',
          output: o['output'] as 'yaml' | 'json',
          kubeVersion: readKubeVersion(o),
          explain: readExplain(o),
          color: readColor(o),
          cluster,
          fieldValidation: readValidateOption(o),
        }),
      );
    });
  const scale = program
    .command('scale')
    .description('dry-run GET /scale, or with --replicas the /scale update round trip (autoscaling/v1 Scale)')
    .argument('[paths...]', 'files with the custom resources as stored (and CRDs); - reads stdin');
  addFilenameOption(scale, 'a file or directory with the objects');
  addCrdOption(scale)
    .option('--replicas <n>', 'simulate PUT /scale with spec.replicas N', parseReplicas)
    .option('--resource-version <rv>', 'metadata.resourceVersion of the Scale sent (a precondition; default: none, unconditional)')
    .option('--show-object', 'with --replicas: also print the custom resource as stored');
  addOutputOption(scale, ['yaml', 'json'], 'yaml');
  addKubeVersionOption(scale);
  addColorOptions(scale);
  // accepted as by the other commands; the Scale body is built from --replicas and the stored object
  // is read from storage, so no field can be unknown and every mode gives the same answer
  addValidateOption(scale);
  addClusterOptions(scale)
    .addHelpText('after', SCALE_EPILOG)
    .action(async (paths: string[], o: Record<string, unknown>) => {
      const cluster = readClusterOptions(o);
      setCode(
        await run.scale({
          paths: readPaths(paths, o),
          crd: readCrdOption(o),
          replicas: o['replicas'] as number | undefined,
          resourceVersion: o['resourceVersion'] as string | undefined,
          output: o['output'] as 'yaml' | 'json',
          showObject: o['showObject'] === true,
          kubeVersion: readKubeVersion(o),
          color: readColor(o),
          cluster,
        }),
      );
    });
  const testCmd = program
    .command('test')
    .description('run test files (*.crdx-test.yaml): cases of custom resources and what the API server answers to each')
    .argument('[paths...]', 'test files or directories (default: the current directory)');
  addOutputOption(testCmd, ['text', 'json', 'junit', 'tap'], 'text')
    .option('--filter <text>', 'run only the cases whose name contains this text')
    .option('--init <crd.yaml>', 'write a starter test file (<crd>.crdx-test.yaml beside it) for the CRDs of a file: one allowed case per served version, one denied case per CEL rule to fill in')
    .option('--coverage', 'report, per CRD, which CEL rules and schema constraints the passing cases exercised with a value that held and one that was refused')
    .option('--update', 'rewrite the expectations of failing cases with what the server answers (comments and order kept), then run them again');
  addKubeVersionOption(testCmd, 'Kubernetes version of the cases without kubeVersion');
  addColorOptions(testCmd).addHelpText('after', TEST_EPILOG);
  addValidateOption(testCmd).action(async (paths: string[], o: Record<string, unknown>) => {
    setCode(
      await run.test({
        paths,
        output: o['output'] as TestCliOptions['output'],
        filter: o['filter'] as string | undefined,
        kubeVersion: readKubeVersion(o),
        color: readColor(o),
        update: o['update'] === true,
        coverage: o['coverage'] === true,
        init: o['init'] as string | undefined,
        fieldValidation: readValidateOption(o),
      }),
    );
  });
  return program;
}

/**
 * The one entry point: returns the exit code, never exits. `runners` replaces command runners (an
 * in-process caller such as the fuzz suite passing CRDs it built once); the CLI passes none.
 */
export async function main(argv: readonly string[], io: Io, runners: Partial<Runners> = {}): Promise<ExitCode> {
  let code: ExitCode = ExitCode.Ok;
  const run: Runners = {
    lint: async (o: LintCliOptions): Promise<ExitCode> => (await import('./lint-command.js')).runLint(o, io),
    default: async (o: DefaultCliOptions): Promise<ExitCode> => (await import('./default-command.js')).runDefault(o, io),
    status: async (o: StatusCliOptions): Promise<ExitCode> => (await import('./status-command.js')).runStatus(o, io),
    scale: async (o: ScaleCliOptions): Promise<ExitCode> => (await import('./scale-command.js')).runScale(o, io),
    rules: async (o: RulesRunOptions): Promise<ExitCode> => (await import('./rules-command.js')).runRules(o, io),
    test: async (o: TestCliOptions): Promise<ExitCode> => (await import('./test-command.js')).runTest(o, io),
    lsp: async (): Promise<ExitCode> => (await import('./lsp-command.js')).runLsp(),
    ...runners,
  };
  const program = createProgram(io, run, (c) => (code = c));
  // no command is a usage error: the help goes to stderr and the exit code is 2, as for any other
  // usage error (`--help` prints it on stdout and exits 0)
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return ExitCode.Failure;
  }
  try {
    await program.parseAsync(bareValidate(argv), { from: 'user' });
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
