/**
 * Objects of a live cluster as sources the engines read like files: each object is rendered as
 * YAML (keys sorted, as `kubectl get -o yaml` prints them) under a virtual file name
 * `cluster:<context>/<resource>/[<namespace>/]<name>`, so findings keep a file, line and column.
 *
 * What the server fills in itself is removed first (status, uid, resourceVersion, generation,
 * creationTimestamp, managedFields, deletion and selfLink fields): the server ignores or rejects
 * them when it creates an object, and linting them would report what nobody wrote.
 */
import { parse } from 'yaml';
import { ClusterError } from '../core/errors.js';
import { isRecord } from '../core/types.js';
import { sortKeys } from '../core/sort-keys.js';
import { jsonText } from '../core/json-text.js';
import type { SourceFile } from '../manifest/parse.js';
import type { Access, Cluster } from './cluster.js';
import { goYamlText } from '../go/yaml-emit.js';
import { goJsonIndent } from '../go/json.js';

const CRD_LIST_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CRD_RESOURCE = 'customresourcedefinitions.apiextensions.k8s.io';

/** Metadata the server generates; never part of what a user writes. */
const SERVER_METADATA = ['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'managedFields', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink'] as const;

export function stripServerFields(obj: Record<string, unknown>, opts: { readonly status: boolean }): Record<string, unknown> {
  const out: Record<string, unknown> = { ...obj };
  if (opts.status) delete out['status'];
  if (isRecord(obj['metadata'])) {
    const meta: Record<string, unknown> = { ...obj['metadata'] };
    for (const k of SERVER_METADATA) delete meta[k];
    out['metadata'] = meta;
  }
  return out;
}

function clusterFileName(context: string, ...segments: readonly string[]): string {
  return `cluster:${context}/${segments.join('/')}`;
}

/** YAML as kubectl get -o yaml prints it; JSON when YAML would not read back the same values (e.g. integers beyond 2^53). */
function renderSource(path: string, obj: Record<string, unknown>): SourceFile {
  const yaml = goYamlText(obj);
  let same = false;
  try {
    same = jsonText(sortKeys(parse(yaml, { version: '1.1' }))) === jsonText(sortKeys(obj));
  } catch {
    same = false;
  }
  return { path, text: same ? yaml : `${goJsonIndent(obj, '  ')}\n` };
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function metaOf(o: Record<string, unknown>): Record<string, unknown> {
  return isRecord(o['metadata']) ? o['metadata'] : {};
}

/** CRD objects as the cluster serves them, oldest first (the naming controller accepts names in that order). */
async function listCrdObjects(cluster: Cluster): Promise<Record<string, unknown>[]> {
  // the items of a list carry no apiVersion and kind of their own
  const items = (await cluster.list(CRD_LIST_PATH, { verb: 'list', resource: CRD_RESOURCE })).map((o) => ({
    ...o,
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
  }));
  return items
    .map((o, i) => ({ o, i, t: str(metaOf(o)['creationTimestamp']), n: str(metaOf(o)['name']) }))
    .sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : a.n < b.n ? -1 : a.n > b.n ? 1 : a.i - b.i))
    .map((x) => x.o);
}

function crdSource(cluster: Cluster, o: Record<string, unknown>, keepStatus = false): SourceFile {
  const name = str(metaOf(o)['name']);
  return renderSource(clusterFileName(cluster.context, 'customresourcedefinitions', name), stripServerFields(o, { status: !keepStatus }));
}

/**
 * Every installed CRD (apiextensions.k8s.io/v1), listed page by page; `keepStatus` (lint --old
 * cluster): with status, whose storedVersions and Established condition an update is checked against.
 */
export async function listInstalledCrds(cluster: Cluster, keepStatus = false): Promise<SourceFile[]> {
  return (await listCrdObjects(cluster)).map((o) => crdSource(cluster, o, keepStatus));
}

/**
 * lint --old cluster: every installed CRD with its status (OLD), and the live objects of those
 * named in `names` (the CRDs the input updates), each listed page by page (limit/continue) in the
 * CRD's storage version (else its first served one), in every namespace or in `namespace` only.
 * Each object becomes a source of its own: cluster:<context>/<plural.group>/[<namespace>/]<name>.
 */
export async function installedCrdsAndObjects(cluster: Cluster, names: ReadonlySet<string>, namespace: string | undefined): Promise<{ crds: SourceFile[]; objects: SourceFile[] }> {
  const all = await listCrdObjects(cluster);
  const objects: SourceFile[] = [];
  for (const crd of all) {
    if (!names.has(str(metaOf(crd)['name']))) continue;
    const group = str(spec(crd)['group']);
    const plural = str(names_(crd)['plural']);
    const kind = str(names_(crd)['kind']);
    const version = servedVersion(crd);
    if (version === undefined || plural === '') continue;
    const namespaced = spec(crd)['scope'] !== 'Cluster';
    const ns = namespaced && namespace !== undefined ? namespace : undefined;
    const path = `/apis/${group}/${version}/${ns !== undefined ? `namespaces/${encodeURIComponent(ns)}/` : ''}${plural}`;
    const items = await cluster.list(path, { verb: 'list', resource: `${plural}.${group}`, ...(ns !== undefined ? { namespace: ns } : {}) });
    for (const it of items) {
      const o = { apiVersion: `${group}/${version}`, kind, ...it };
      const md = metaOf(o);
      // the stored object as the server holds it: resourceVersion and uid kept for the update
      const keep = { ...stripServerFields(o, { status: false }), metadata: { ...metaOf(stripServerFields(o, { status: false })), ...pick(md, ['resourceVersion', 'uid', 'generation', 'creationTimestamp']) } };
      const segs = [`${plural}.${group}`, ...(namespaced ? [str(md['namespace'])] : []), str(md['name'])];
      objects.push(renderSource(clusterFileName(cluster.context, ...segs), keep));
    }
  }
  return { crds: all.map((o) => crdSource(cluster, o, true)), objects };
}

function pick(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

function names_(o: Record<string, unknown>): Record<string, unknown> {
  return names(o);
}

interface GroupKind {
  readonly group: string;
  readonly kind: string;
}

function spec(o: Record<string, unknown>): Record<string, unknown> {
  return isRecord(o['spec']) ? o['spec'] : {};
}
function names(o: Record<string, unknown>): Record<string, unknown> {
  const s = spec(o);
  return isRecord(s['names']) ? s['names'] : {};
}

/**
 * The installed CRDs of the given groups and kinds; `missing` lists those no installed CRD serves.
 * One list of all CRDs (paged): a CRD's name holds its plural, which an object does not tell.
 */
export async function installedCrdsFor(cluster: Cluster, wanted: readonly GroupKind[]): Promise<{ files: SourceFile[]; missing: GroupKind[] }> {
  const uniq = new Map<string, GroupKind>();
  for (const w of wanted) uniq.set(`${w.kind}.${w.group}`, w);
  if (uniq.size === 0) return { files: [], missing: [] };
  const all = await listCrdObjects(cluster);
  const files: SourceFile[] = [];
  const missing: GroupKind[] = [];
  for (const w of uniq.values()) {
    const crd = all.find((o) => str(spec(o)['group']) === w.group && str(names(o)['kind']) === w.kind);
    if (crd) files.push(crdSource(cluster, crd));
    else missing.push(w);
  }
  return { files, missing };
}

export function notInstalledMessage(cluster: Cluster, missing: readonly GroupKind[]): string {
  const what = missing.map((m) => `${m.kind} in group "${m.group}"`).join(', ');
  return `no CustomResourceDefinition for ${what} is installed (server ${cluster.server}, context "${cluster.context}")`;
}

/** `plural.group/name`, `kind/name`, `shortname/name` … as kubectl get takes them. */
function parseObjectRef(ref: string): { resource: string; name: string } | undefined {
  const m = /^([A-Za-z0-9][A-Za-z0-9.-]*)\/([A-Za-z0-9][A-Za-z0-9.:_-]*)$/.exec(ref);
  return m ? { resource: m[1]!, name: m[2]! } : undefined;
}

function matchesResource(o: Record<string, unknown>, resource: string): boolean {
  const n = names(o);
  const group = str(spec(o)['group']);
  const words = [str(n['plural']), str(n['singular']), str(n['kind']).toLowerCase(), ...(Array.isArray(n['shortNames']) ? n['shortNames'].map(str) : [])].filter((w) => w !== '');
  const r = resource.toLowerCase();
  return words.some((w) => r === w || r === `${w}.${group}`);
}

function servedVersion(crd: Record<string, unknown>): string | undefined {
  const versions = Array.isArray(spec(crd)['versions']) ? (spec(crd)['versions'] as unknown[]).filter(isRecord) : [];
  const storage = versions.find((v) => v['storage'] === true && v['served'] === true);
  return str((storage ?? versions.find((v) => v['served'] === true))?.['name']) || undefined;
}

function statusEnabled(crd: Record<string, unknown>, version: string): boolean {
  const v = (Array.isArray(spec(crd)['versions']) ? (spec(crd)['versions'] as unknown[]) : []).filter(isRecord).find((x) => x['name'] === version);
  const sub = isRecord(v?.['subresources']) ? v['subresources'] : undefined;
  return sub !== undefined && sub['status'] !== undefined && sub['status'] !== null;
}

interface LiveObject {
  readonly file: SourceFile;
  readonly crd: SourceFile;
}

/**
 * A live custom resource (`default --cluster RESOURCE/NAME`), read in the CRD's storage version
 * (or its first served one), without the fields the server generates; `status` is left out when
 * the status subresource is on, since a write through the main resource never changes it.
 */
export async function getLiveObject(cluster: Cluster, ref: string): Promise<LiveObject> {
  const parsed = parseObjectRef(ref);
  if (!parsed) throw new ClusterError(`${ref}: expected RESOURCE/NAME, e.g. widgets.example.com/my-widget`);
  const { resource, name } = parsed;
  let crd: Record<string, unknown> | undefined;
  if (resource.includes('.')) {
    const got = await cluster.getOptional(`${CRD_LIST_PATH}/${encodeURIComponent(resource.toLowerCase())}`, { verb: 'get', resource: CRD_RESOURCE, name: resource.toLowerCase() });
    if (isRecord(got)) crd = got;
  }
  if (!crd) {
    const matches = (await listCrdObjects(cluster)).filter((o) => matchesResource(o, resource));
    if (matches.length > 1)
      throw new ClusterError(`${ref}: "${resource}" names several installed resources (${matches.map((o) => str(metaOf(o)['name'])).join(', ')}); write it as PLURAL.GROUP`);
    crd = matches[0];
  }
  if (!crd) throw new ClusterError(`${ref}: no CustomResourceDefinition for "${resource}" is installed (server ${cluster.server}, context "${cluster.context}")`);
  const group = str(spec(crd)['group']);
  const plural = str(names(crd)['plural']);
  const version = servedVersion(crd);
  if (!version) throw new ClusterError(`${ref}: ${str(metaOf(crd)['name'])} serves no version`);
  const namespaced = spec(crd)['scope'] !== 'Cluster';
  const ns = namespaced ? cluster.namespace : undefined;
  const path = `/apis/${group}/${version}/${ns !== undefined ? `namespaces/${encodeURIComponent(ns)}/` : ''}${plural}/${encodeURIComponent(name)}`;
  const access: Access = { verb: 'get', resource: `${plural}.${group}`, name, ...(ns !== undefined ? { namespace: ns } : {}) };
  const obj = await cluster.getOptional(path, access);
  if (!isRecord(obj))
    throw new ClusterError(`${plural}.${group} "${name}" not found${ns !== undefined ? ` in namespace "${ns}"` : ''} (server ${cluster.server}, context "${cluster.context}")`);
  const file = renderSource(
    clusterFileName(cluster.context, `${plural}.${group}`, ...(ns !== undefined ? [ns] : []), name),
    stripServerFields(obj, { status: statusEnabled(crd, version) }),
  );
  return { file, crd: crdSource(cluster, crd) };
}
