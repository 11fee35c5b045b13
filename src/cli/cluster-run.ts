/**
 * What `--cluster` does for the commands. Nothing here loads @kubernetes/client-node or
 * node:http(s): the cluster modules (src/io/cluster*.ts) are imported with `await import()` only
 * once a command runs with --cluster, and ora only when stderr is a terminal.
 */
import { ClusterError } from '../core/errors.js';
import { isRecord } from '../core/types.js';
import { splitApiVersion } from '../cr/catalog.js';
import { isCrdManifest } from '../crd/model.js';
import { parseSources } from '../engine/parse-sources.js';
import type { Cluster } from '../io/cluster.js';
import { importOra } from '../io/lazy-deps.js';
import type { SourceFile } from '../manifest/parse.js';
import type { ClusterCliOptions } from './cluster-options.js';
import type { Io } from './io.js';
import { VERSION } from './version.js';

/**
 * Runs `work` with an ora spinner on stderr, only when stderr is a terminal (never in pipes or CI
 * logs, so json and sarif output stay clean); the spinner is gone before `work`'s result is used.
 */
async function withSpinner<T>(io: Io, text: string, work: () => Promise<T>): Promise<T> {
  // ora 9.4.1 loops forever on a terminal that reports 0 columns (it clears Infinity lines), as a
  // pseudo-terminal without a size does: no spinner there
  const columns = (io.stderr as { columns?: unknown }).columns;
  if (io.stderr.isTTY !== true || typeof columns !== 'number' || columns <= 0) return work();
  const { default: ora } = await importOra();
  const spinner = ora({ text, stream: io.stderr as unknown as NodeJS.WritableStream, discardStdin: false }).start();
  try {
    return await work();
  } finally {
    spinner.stop();
  }
}

/** Connects (reads the kubeconfig), runs `work`, always releases the connection. */
async function withCluster<T>(c: ClusterCliOptions, io: Io, text: string, work: (cluster: Cluster) => Promise<T>): Promise<T> {
  return withSpinner(io, text, async () => {
    const { connect } = await import('../io/cluster.js');
    const cluster = await connect(c, { env: io.env, userAgent: `kubectl-crdx/${VERSION}` });
    try {
      return await work(cluster);
    } finally {
      cluster.close();
    }
  });
}

function wantedGroupKinds(inputs: readonly SourceFile[]): { group: string; kind: string }[] {
  return parseSources(inputs)
    .manifests.filter((m) => !isCrdManifest(m) && m.apiVersion !== undefined && m.kind !== undefined && m.apiVersion.includes('/'))
    .map((m) => ({ group: splitApiVersion(m.apiVersion!).group, kind: m.kind! }));
}

async function crdsFor(cluster: Cluster, inputs: readonly SourceFile[], localCrds: readonly SourceFile[]): Promise<SourceFile[]> {
  const wanted = wantedGroupKinds(inputs);
  if (wanted.length === 0) return [];
  const local = [...parseSources(localCrds).manifests, ...parseSources(inputs).manifests].filter(isCrdManifest);
  const { installedCrdsFor, notInstalledMessage } = await import('../io/cluster-source.js');
  const r = await installedCrdsFor(cluster, wanted);
  const servedLocally = (w: { group: string; kind: string }) =>
    local.some((m) => {
      const spec = m.value['spec'];
      return isRecord(spec) && spec['group'] === w.group && isRecord(spec['names']) && spec['names']['kind'] === w.kind;
    });
  const missing = r.missing.filter((w) => !servedLocally(w));
  if (missing.length > 0) throw new ClusterError(notInstalledMessage(cluster, missing));
  return r.files;
}

/** `RESOURCE/NAME` (e.g. widgets.example.com/foo) that is not a path: a live object for `default --cluster`. */
export function isObjectRef(arg: string, pathExists: (p: string) => boolean): boolean {
  return arg !== '-' && /^[A-Za-z0-9][A-Za-z0-9.-]*\/[A-Za-z0-9][A-Za-z0-9.:_-]*$/.test(arg) && !pathExists(arg);
}

/**
 * For `default --cluster`: the live objects named by `refs` (with their CRDs) and the installed
 * CRDs of the local objects, in one connection.
 */
export async function clusterSourcesForDefault(
  c: ClusterCliOptions,
  io: Io,
  refs: readonly string[],
  inputs: readonly SourceFile[],
  localCrds: readonly SourceFile[],
): Promise<{ objects: SourceFile[]; crds: SourceFile[] }> {
  return withCluster(c, io, 'reading from the cluster', async (cluster) => {
    const { getLiveObject } = await import('../io/cluster-source.js');
    const objects: SourceFile[] = [];
    const crds: SourceFile[] = [];
    for (const ref of refs) {
      const live = await getLiveObject(cluster, ref);
      objects.push(live.file);
      if (!crds.some((f) => f.path === live.crd.path)) crds.push(live.crd);
    }
    for (const f of await crdsFor(cluster, inputs, localCrds)) if (!crds.some((x) => x.path === f.path)) crds.push(f);
    return { objects, crds };
  });
}

/** For `lint --cluster`: every installed CRD, listed page by page, as sources. */
export async function installedCrdSources(c: ClusterCliOptions, io: Io, keepStatus = false): Promise<SourceFile[]> {
  return withCluster(c, io, 'listing CustomResourceDefinitions of the cluster', async (cluster) => {
    const { listInstalledCrds } = await import('../io/cluster-source.js');
    return listInstalledCrds(cluster, keepStatus);
  });
}

/** For `lint --old cluster`: the installed CRDs (with status) and the live objects of those the input updates. */
export async function installedCrdsAndObjects(c: ClusterCliOptions, io: Io, names: ReadonlySet<string>): Promise<{ crds: SourceFile[]; objects: SourceFile[] }> {
  return withCluster(c, io, 'listing CustomResourceDefinitions and their objects', async (cluster) => {
    const m = await import('../io/cluster-source.js');
    return m.installedCrdsAndObjects(cluster, names, c.namespace);
  });
}
