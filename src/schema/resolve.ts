import { isRecord } from '../core/types.js';
import { addl, flag, prop, type Schema } from './raw.js';

export type Resolved =
  | { readonly kind: 'found'; readonly schema: Schema }
  | { readonly kind: 'preserved' }
  | { readonly kind: 'missing'; readonly at: string }
  | { readonly kind: 'array-notation' };

/** Resolves a simple dotted path (.spec.replicas) in a CRD schema, as the /scale handler reads it. */
export function resolveDotted(root: Schema, path: string): Resolved {
  if (path.includes('[')) return { kind: 'array-notation' };
  const segs = path.replace(/^\./, '').split('.');
  let s: Schema = root;
  for (const seg of segs) {
    const p = prop(s, seg);
    if (p) {
      s = p;
      continue;
    }
    const ap = addl(s);
    if (isRecord(ap)) {
      s = ap;
      continue;
    }
    if (flag(s, 'x-kubernetes-preserve-unknown-fields') || ap === true) return { kind: 'preserved' };
    return { kind: 'missing', at: seg };
  }
  return { kind: 'found', schema: s };
}
