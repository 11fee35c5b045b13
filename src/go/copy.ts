/** runtime.DeepCopyJSONValue: a deep copy of a decoded JSON value. */
import { isRecord, setOwn } from '../core/types.js';

/** Objects and arrays are rebuilt (with own keys only, `__proto__` included as a key), scalars kept. */
export function deepCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(deepCopy);
  if (isRecord(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v)) setOwn(out, k, deepCopy(v[k]));
    return out;
  }
  return v;
}
