/** The key order of the server's JSON encoding of an unstructured object. */
import { goCompare } from '../go/strings.js';
import { isRecord } from './types.js';

/** Keys sorted at every level, as the server's JSON encoding of an unstructured object has them. */
export function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isRecord(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort(goCompare)) Object.defineProperty(out, k, { value: sortKeys(v[k]), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}
