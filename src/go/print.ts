/** fmt's %v of a decoded JSON value. */
import { formatFloatV } from './float.js';
import { asBig, asFloat, kindOf, sortedKeys } from './value.js';

/** %v of a decoded JSON value (only used for texts that never reach the user, e.g. the enum message). */
export function formatV(v: unknown): string {
  switch (kindOf(v)) {
    case 'null':
      return '<nil>';
    case 'bool':
    case 'string':
      return String(v);
    case 'int':
      return asBig(v).toString();
    case 'float':
      return formatFloatV(asFloat(v));
    case 'slice':
      return `[${(v as unknown[]).map(formatV).join(' ')}]`;
    case 'map': {
      const o = v as Record<string, unknown>;
      return `map[${sortedKeys(o)
        .map((k) => `${k}:${formatV(o[k])}`)
        .join(' ')}]`;
    }
  }
}
