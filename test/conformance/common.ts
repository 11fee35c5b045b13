import { goCompare } from '../../src/core/go.js';
import { isRecord } from '../../src/core/types.js';
import type { Crd } from '../../src/crd/model.js';

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
