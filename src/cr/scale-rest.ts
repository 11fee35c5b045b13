/**
 * The `/scale` subresource of a custom resource (apiextensions-apiserver
 * pkg/registry/customresource/etcd.go ScaleREST): GET builds an
 * `autoscaling/v1` Scale from the stored object; an update copies `spec.replicas` of the Scale to
 * the CRD's specReplicasPath and updates the custom resource through the main endpoint's strategy,
 * then answers with the Scale of the stored result.
 */
import { quote } from '../go/quote.js';
import type { KubeVersion } from '../core/kube-version.js';
import { isRecord } from '../core/types.js';
import type { ServedVersion } from './catalog.js';
import { fieldsOf as fields, nestedInt64, nestedString, type ScaleSpec } from './scale.js';
import { OPTIMISTIC_LOCK, groupResource, readStored, simulateUpdate, type ServerFailure, type UpdateResult } from './update.js';

/** autoscaling/v1 Scale, in the typed struct's field order. */
export interface Scale {
  readonly kind: 'Scale';
  readonly apiVersion: 'autoscaling/v1';
  readonly metadata: Record<string, unknown>;
  readonly spec: { replicas?: number };
  readonly status: { replicas: number; selector?: string };
}

interface ScaleGetResult {
  readonly scale?: Scale;
  readonly failure?: ServerFailure;
}

interface ScaleUpdateResult {
  readonly scale?: Scale;
  readonly failure?: ServerFailure;
  /** The custom resource update behind it (absent when the Scale could not be built). */
  readonly update?: UpdateResult;
}

/** A version without the scale subresource: the request is routed as a get of the object named "<name>/scale"... and answered as the object not found. */
function notFound(served: ServedVersion, cr: Record<string, unknown>): ServerFailure {
  const name = isRecord(cr['metadata']) && typeof cr['metadata']['name'] === 'string' ? cr['metadata']['name'] : '';
  return {
    code: 404,
    reason: 'NotFound',
    message: `${groupResource(served)} ${quote(name)} not found`,
    why: `version ${served.version.name} of ${served.crd.name} has no scale subresource (subresources.scale), so there is no /scale endpoint`,
  };
}

/** int32(x) in Go: the low 32 bits, signed. */
function int32(v: number): number {
  return Number(BigInt.asIntN(32, BigInt(Math.trunc(v))));
}

/** scaleFromCustomResource */
export function scaleFromCustomResource(cr: Record<string, unknown>, spec: ScaleSpec): { scale?: Scale; found: boolean; error?: string } {
  const sr = nestedInt64(cr, fields(spec.specReplicasPath));
  if (sr.error !== undefined) return { found: false, error: sr.error };
  const st = nestedInt64(cr, fields(spec.statusReplicasPath));
  if (st.error !== undefined) return { found: false, error: st.error };
  let selector = '';
  if (spec.labelSelectorPath !== undefined && spec.labelSelectorPath !== '') {
    const r = nestedString(cr, fields(spec.labelSelectorPath));
    if (r.error !== undefined) return { found: false, error: r.error };
    selector = r.value;
  }
  const md = isRecord(cr['metadata']) ? cr['metadata'] : {};
  const metadata: Record<string, unknown> = {};
  for (const k of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp']) {
    const v = md[k];
    if (typeof v === 'string' && v !== '') metadata[k] = v;
  }
  const replicas = int32(Number(sr.value));
  return {
    found: sr.found,
    scale: {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata,
      spec: replicas === 0 ? {} : { replicas },
      status: { replicas: int32(Number(st.value)), ...(selector !== '' ? { selector } : {}) },
    },
  };
}

/** GET /scale */
export function scaleGet(crInput: Record<string, unknown>, served: ServedVersion): ScaleGetResult {
  if (!served.scale) return { failure: notFound(served, crInput) };
  const stored = readStored(crInput, served);
  if (stored.error !== undefined) return { failure: { code: 500, reason: 'InternalError', message: `the stored object cannot be decoded: ${stored.error}` } };
  const r = scaleFromCustomResource(stored.value, served.scale);
  if (r.error !== undefined) return { failure: { code: 500, reason: '', message: r.error } };
  if (!r.found) {
    return { failure: { code: 500, reason: 'InternalError', message: `Internal error occurred: the spec replicas field ${quote(served.scale.specReplicasPath)} does not exist` } };
  }
  return { scale: r.scale! };
}

interface ScaleUpdateOptions {
  readonly kube: KubeVersion;
  /** `metadata.resourceVersion` of the Scale sent: a precondition when set. */
  readonly resourceVersion?: string;
}

/** PUT /scale with `spec.replicas: replicas` */
export function scaleUpdate(crInput: Record<string, unknown>, served: ServedVersion, replicas: number, opts: ScaleUpdateOptions): ScaleUpdateResult {
  const spec = served.scale;
  if (!spec) return { failure: notFound(served, crInput) };
  const stored = readStored(crInput, served);
  if (stored.error !== undefined) return { failure: { code: 500, reason: 'InternalError', message: `the stored object cannot be decoded: ${stored.error}` } };
  const cr = structuredClone(stored.value);
  const built = scaleFromCustomResource(cr, spec);
  if (built.error !== undefined) return { failure: { code: 500, reason: '', message: built.error } };
  // the request's spec.replicas is an int32: the sentinel for "not set before" cannot survive a PUT that sets it
  // unstructured.SetNestedField: missing intermediate objects are created
  const fs = fields(spec.specReplicasPath);
  let m: Record<string, unknown> = cr;
  for (let i = 0; i < fs.length - 1; i++) {
    const f = fs[i]!;
    const v = m[f];
    if (v === undefined || v === null) m[f] = {};
    else if (!isRecord(v)) return { failure: { code: 500, reason: '', message: `value cannot be set because .${fs.slice(0, i + 1).join('.')} is not a map[string]interface{}` } };
    m = m[f] as Record<string, unknown>;
  }
  m[fs[fs.length - 1]!] = replicas;
  const oldRv = isRecord(stored.value['metadata']) ? stored.value['metadata']['resourceVersion'] : undefined;
  const crMd = cr['metadata'] as Record<string, unknown>;
  if (opts.resourceVersion !== undefined && opts.resourceVersion !== '') {
    crMd['resourceVersion'] = opts.resourceVersion;
  } else if (typeof oldRv !== 'string' || oldRv === '') {
    // an unconditional update: the store uses the current resourceVersion
    crMd['resourceVersion'] = 'current';
    (stored.value['metadata'] as Record<string, unknown>)['resourceVersion'] = 'current';
  }
  const update = simulateUpdate(stored.value, cr, served, { kube: opts.kube, via: 'main', serverBuilt: true });
  if (update.failure) {
    const f = update.failure.code === 409 ? { ...update.failure, message: `Operation cannot be fulfilled on ${groupResource(served)} ${quote(str(crMd['name']))}: ${OPTIMISTIC_LOCK}` } : update.failure;
    return { failure: f, update };
  }
  if (update.value === undefined) return { update };
  // a write gives the object a new resourceVersion (the server's to choose); a no-op keeps it
  const value = restoreRv(update.value, update.noop ? oldRv : undefined);
  const out = scaleFromCustomResource(value, spec);
  if (out.error !== undefined) return { failure: { code: 400, reason: 'BadRequest', message: out.error }, update };
  return { scale: out.scale!, update: { ...update, value } };
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function restoreRv(o: Record<string, unknown>, rv: unknown): Record<string, unknown> {
  const md = isRecord(o['metadata']) ? { ...o['metadata'] } : {};
  if (typeof rv === 'string' && rv !== '') md['resourceVersion'] = rv;
  else delete md['resourceVersion'];
  return { ...o, metadata: md };
}
