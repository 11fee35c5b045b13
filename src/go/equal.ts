/**
 * Deep equality of decoded JSON values as the server sees them.
 *
 * Upstream compares decoded values with reflect.DeepEqual (validation ratcheting, uniqueItems, the
 * "must not have unknown fields" check of defaults) and with equality.Semantic.DeepEqual (a custom
 * resource's generation, immutable fields, CRD fields). On values that came out of a JSON decode
 * (map[string]interface{}, []interface{}, string, int64, float64, bool, nil) the two agree:
 * Semantic only adds equalities for typed fields (Quantity, Time, selectors) and treats nil and
 * empty slices and maps as equal, and a JSON decode never makes a nil slice or map (`null` is a nil
 * interface, which equals nothing but nil). So one function serves both.
 */
import { wellFormed } from './strings.js';
import { asBig, asFloat, kindOf } from './value.js';

/** reflect.DeepEqual (= equality.Semantic.DeepEqual) on decoded JSON values: int64 and float64 are different types; keys are own keys. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const ka = kindOf(a);
  if (ka !== kindOf(b)) return false;
  switch (ka) {
    case 'null':
      return true;
    case 'bool':
      return a === b;
    case 'string':
      // Go holds the decoded string: a lone surrogate reads U+FFFD there
      return a === b || wellFormed(a as string) === wellFormed(b as string);
    case 'int':
      return asBig(a) === asBig(b);
    case 'float':
      return asFloat(a) === asFloat(b);
    case 'slice': {
      const x = a as unknown[];
      const y = b as unknown[];
      return x.length === y.length && x.every((e, i) => deepEqual(e, y[i]));
    }
    case 'map': {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const kx = Object.keys(x);
      if (kx.length !== Object.keys(y).length) return false;
      return kx.every((k) => Object.prototype.hasOwnProperty.call(y, k) && deepEqual(x[k], y[k]));
    }
  }
}
