/** Deep equality of decoded JSON values as Go's reflect.DeepEqual sees them. */
import { asBig, asFloat, kindOf } from './value.js';

/** reflect.DeepEqual on decoded JSON values (int64 and float64 are different types). */
export function goDeepEqual(a: unknown, b: unknown): boolean {
  const ka = kindOf(a);
  if (ka !== kindOf(b)) return false;
  switch (ka) {
    case 'null':
      return true;
    case 'bool':
    case 'string':
      return a === b;
    case 'int':
      return asBig(a) === asBig(b);
    case 'float':
      return asFloat(a) === asFloat(b);
    case 'slice': {
      const x = a as unknown[];
      const y = b as unknown[];
      return x.length === y.length && x.every((e, i) => goDeepEqual(e, y[i]));
    }
    case 'map': {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const kx = Object.keys(x);
      if (kx.length !== Object.keys(y).length) return false;
      return kx.every((k) => Object.prototype.hasOwnProperty.call(y, k) && goDeepEqual(x[k], y[k]));
    }
  }
}
