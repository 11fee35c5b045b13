import { isRecord } from '../../src/core/types.js';
import type { Crd } from '../../src/crd/model.js';
import type { DefaultedObject } from '../../src/engine/default.js';
import { goCompare } from '../../src/go/strings.js';

/**
 * The message of every x-kubernetes-validations rule of the CRDs, as the server words a failure
 * (`failed rule: <rule>` when the rule has no message): which causes of an answer come from CEL.
 */
export function celMessages(...crds: readonly Crd[]): string[] {
  const out: string[] = [];
  for (const c of crds)
    JSON.stringify(c.spec, (k, v: unknown) => {
      if (k === 'x-kubernetes-validations' && Array.isArray(v))
        for (const r of v) if (isRecord(r)) out.push(typeof r['message'] === 'string' && r['message'].trim() !== '' ? r['message'].trim() : `failed rule: ${String(r['rule'] ?? '')}`);
      return v;
    });
  return out;
}

/** A JSON value with its object keys in Go's order (as the server's encoder writes them). */
export function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isRecord(v)) return Object.fromEntries(Object.keys(v).sort(goCompare).map((k) => [k, sortKeys(v[k])]));
  return v;
}

/** The server's object without what it generates, and without what the request (not the body) decided. */
export function normalizeServer(body: Record<string, unknown>, input: Record<string, unknown>): Record<string, unknown> {
  const md = { ...(body['metadata'] as Record<string, unknown>) };
  for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields']) delete md[k];
  const inMd = isRecord(input['metadata']) ? input['metadata'] : {};
  if (typeof inMd['namespace'] !== 'string' || inMd['namespace'] === '') delete md['namespace'];
  if ((typeof inMd['name'] !== 'string' || inMd['name'] === '') && typeof inMd['generateName'] === 'string') delete md['name'];
  return { ...body, metadata: md };
}

/** Failure texts of CEL rules evaluated at run time (cost, missing keys, evaluation errors). */
export const CEL_RUNTIME = /failed rule: |cost budget|call cost exceeds|no such key|evaluation error/;

/** The collection URL a simulated create was sent to. */
export function resourcePath(o: DefaultedObject): string {
  const sv = o.result.served;
  const md = isRecord(o.manifest.value['metadata']) ? o.manifest.value['metadata'] : {};
  const ns = typeof md['namespace'] === 'string' && md['namespace'] !== '' ? md['namespace'] : 'default';
  return `/apis/${sv.group}/${sv.version.name}/${sv.namespaced ? `namespaces/${encodeURIComponent(ns)}/` : ''}${sv.crd.names.plural}`;
}
