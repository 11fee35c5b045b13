/**
 * The options several commands share, each declared once: -f/--filename, --crd, -o/--output,
 * --kube-version, --explain/--no-explain, --color/--no-color (--validate: validate-option.ts;
 * --cluster and the connection flags: cluster-options.ts), with the readers of their values.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { DEFAULT_KUBE_VERSION, formatKubeVersion, isSimulated, parseKubeVersion, simulatedRange, type KubeVersion } from '../core/kube-version.js';

/** A repeatable option's values, in order. */
export function collect(v: string, prev: string[]): string[] {
  return [...prev, v];
}

function parseKube(v: string): KubeVersion {
  const k = parseKubeVersion(v);
  if (!k) throw new InvalidArgumentError('expected MAJOR.MINOR, e.g. 1.36');
  if (!isSimulated(k))
    throw new InvalidArgumentError(`supported: ${simulatedRange()}`);
  return k;
}

/** -f, --filename <path> (repeatable), described for the command. */
export const addFilenameOption = (cmd: Command, description: string): Command => cmd.option('-f, --filename <path>', `${description} (repeatable)`, collect, []);

/** The CRDs of default, status and scale. */
const CRD_FILES = 'a file or directory with the CustomResourceDefinitions (repeatable; CRDs among the inputs are used too)';

/** --crd <path> (repeatable). */
export const addCrdOption = (cmd: Command, description: string = CRD_FILES): Command => cmd.option('--crd <path>', description, collect, []);

/** -o, --output <format>: one of `formats`, `fallback` when not given. */
export const addOutputOption = (cmd: Command, formats: readonly string[], fallback: string): Command =>
  cmd.addOption(new Option('-o, --output <format>', 'output format').choices(formats).default(fallback));

/** --kube-version <X.Y>: `what` is what the version is of. */
export const addKubeVersionOption = (cmd: Command, what = 'Kubernetes version whose API server is simulated'): Command =>
  cmd.option('--kube-version <X.Y>', `${what} (default ${formatKubeVersion(DEFAULT_KUBE_VERSION)})`, parseKube);

/** --explain / --no-explain (undefined when neither is given: explain when stderr is a terminal). */
export const addExplainOptions = (cmd: Command, explain: string, noExplain: string): Command => cmd.option('--explain', explain).option('--no-explain', noExplain);

/** --color / --no-color (undefined when neither is given: see terminal.ts decideColor). */
export const addColorOptions = (cmd: Command): Command => cmd.option('--color', 'force colours').option('--no-color', 'never use colours');

/** The paths: the arguments, then every -f. */
export const readPaths = (args: readonly string[], o: Record<string, unknown>): string[] => [...args, ...((o['filename'] as string[] | undefined) ?? [])];

export const readCrdOption = (o: Record<string, unknown>): string[] => (o['crd'] as string[] | undefined) ?? [];

/** The version given, else the default: the one place a command's Kubernetes version is decided. */
export const readKubeVersion = (o: Record<string, unknown>): KubeVersion => (o['kubeVersion'] as KubeVersion | undefined) ?? DEFAULT_KUBE_VERSION;

export const readColor = (o: Record<string, unknown>): boolean | undefined => o['color'] as boolean | undefined;

export const readExplain = (o: Record<string, unknown>): boolean | undefined => o['explain'] as boolean | undefined;
