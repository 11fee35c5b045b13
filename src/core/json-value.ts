/** Plain-JSON helpers for the simulation steps: deep copies and own-key access that is safe for any key. */
import { setOwn } from './types.js';

/** Defined in core/types (the YAML reader and printer use it too); re-exported for the schema behaviours. */
export { setOwn };

export type JsonObject = Record<string, unknown>;

/** A fresh object (ordinary prototype) to build step outputs in. */
export function newObject(): JsonObject {
  return {};
}


export function hasOwn(o: object, k: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, k);
}

/** The own property `k` of `o`, or undefined (never something inherited from Object.prototype). */
export function getOwn(o: JsonObject, k: string): unknown {
  return hasOwn(o, k) ? o[k] : undefined;
}

/** runtime.DeepCopyJSONValue, for the simulation steps. */
export { deepCopy } from '../go/copy.js';
