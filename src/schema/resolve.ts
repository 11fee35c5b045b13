import type { Structural } from '../crd/structural-schema.js';

type Resolved =
  | { readonly kind: 'found'; readonly schema: Structural }
  | { readonly kind: 'preserved' }
  | { readonly kind: 'missing'; readonly at: string }
  | { readonly kind: 'array-notation' };

/**
 * Resolves a simple dotted path (.spec.replicas) in a CRD schema, as the /scale handler reads it:
 * each segment is a declared property (own keys only: `.spec.__proto__` is not in the schema
 * unless declared), else the additionalProperties schema.
 */
export function resolveDotted(root: Structural, path: string): Resolved {
  if (path.includes('[')) return { kind: 'array-notation' };
  const segs = path.replace(/^\./, '').split('.');
  let s: Structural = root;
  for (const seg of segs) {
    const next = s.properties.get(seg) ?? s.additionalProperties?.schema;
    if (next !== undefined) {
      s = next;
      continue;
    }
    if (s.extensions.preserveUnknownFields || s.additionalProperties?.bool === true) return { kind: 'preserved' };
    return { kind: 'missing', at: seg };
  }
  return { kind: 'found', schema: s };
}
