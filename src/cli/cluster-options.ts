/**
 * `--cluster` and kubectl's connection flags, shared by every command (registered in main.ts; kept
 * small so the offline path loads nothing more). What they do lives in cluster-run.ts.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { parseRequestTimeout } from '../core/duration.js';
import { UsageError } from '../core/errors.js';

export interface ClusterCliOptions {
  readonly kubeconfig: string | undefined;
  readonly context: string | undefined;
  readonly namespace: string | undefined;
  readonly requestTimeoutMs: number;
  readonly chunkSize: number;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
/** kubectl's default --chunk-size. */
const DEFAULT_CHUNK_SIZE = 500;

function timeoutArg(v: string): number {
  const r = parseRequestTimeout(v);
  if (typeof r === 'string') throw new InvalidArgumentError(r);
  return r;
}

function chunkArg(v: string): number {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError('expected a whole number >= 1');
  return Number(v);
}

/** Adds --cluster, --kubeconfig, --context, -n/--namespace, --request-timeout (and the hidden --chunk-size). */
export function addClusterOptions(cmd: Command): Command {
  return cmd
    .option('--cluster', 'read CustomResourceDefinitions (and objects) from the cluster of the kubeconfig; read-only')
    .option('--kubeconfig <file>', 'kubeconfig file (with --cluster; default: KUBECONFIG, then ~/.kube/config)')
    .option('--context <name>', 'kubeconfig context (with --cluster; default: its current-context)')
    .option('-n, --namespace <ns>', 'namespace of live objects (with --cluster; default: the context\'s, else "default")')
    .option('--request-timeout <duration>', 'bound on each request to the cluster, e.g. 10s, 1m, 500ms (default 10s; 0 is refused)', timeoutArg)
    .addOption(new Option('--chunk-size <n>', 'items per page when listing (limit/continue)').argParser(chunkArg).hideHelp());
}

/** undefined without --cluster; the connection flags alone are a usage error (they would do nothing). */
export function readClusterOptions(o: Record<string, unknown>): ClusterCliOptions | undefined {
  const given = ['kubeconfig', 'context', 'namespace', 'requestTimeout', 'chunkSize'].filter((k) => o[k] !== undefined);
  if (o['cluster'] !== true) {
    if (given.length > 0) {
      const flag = given[0]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
      throw new UsageError(`--${flag} needs --cluster`);
    }
    return undefined;
  }
  return {
    kubeconfig: o['kubeconfig'] as string | undefined,
    context: o['context'] as string | undefined,
    namespace: o['namespace'] as string | undefined,
    requestTimeoutMs: (o['requestTimeout'] as number | undefined) ?? DEFAULT_REQUEST_TIMEOUT_MS,
    chunkSize: (o['chunkSize'] as number | undefined) ?? DEFAULT_CHUNK_SIZE,
  };
}
