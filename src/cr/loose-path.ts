import type { JsonPath } from '../core/types.js';

/** `spec.a[0].b` → ['spec', 'a', 0, 'b'] (unknown-field paths whose change was not recorded). */
export function parseLoosePath(p: string): JsonPath {
  const out: (string | number)[] = [];
  for (const part of p.split('.')) {
    const m = /^([^[]*)((?:\[[^\]]*\])*)$/.exec(part);
    if (!m) {
      out.push(part);
      continue;
    }
    if (m[1] !== '') out.push(m[1]!);
    for (const idx of m[2]!.matchAll(/\[([^\]]*)\]/g)) out.push(/^\d+$/.test(idx[1]!) ? Number(idx[1]) : idx[1]!);
  }
  return out;
}

