/**
 * Cost causes compared with the server's modulo the order of equal-cost contributors (used by
 * cel-cost.conformance and lint.conformance): the server names the four most expensive rules of a
 * schema whose total is over budget, and among rules of equal cost which are named varies from
 * request to request.
 */
import type { KubeVersion } from '../../src/core/kube-version.js';
import { buildCrd, isCrdManifest } from '../../src/crd/model.js';
import { parseFile } from '../../src/manifest/parse.js';
import { crdCosts } from '../../src/rules/cel-cost.js';
import { analyzeCrdSchemas } from '../../src/schema/analyze.js';
import { cel } from '../helpers/cel.js';

export const causeKey = (reason: string, field: string, message: string): string => `${reason} ${field}: ${message}`;
const CONTRIBUTED = ': Forbidden: contributed to estimated rule cost total';
const fieldOf = (k: string): string => k.slice(k.indexOf(' ') + 1, k.indexOf(': '));

/**
 * The server names the four most expensive contributors to a total over budget, walking
 * properties in Go map order (random): among contributors of equal cost, which are named varies
 * from request to request. Two cause sets agree modulo that order when they are equal but for
 * contributors whose cost equals the cheapest one named.
 */
export function equalModuloTies(ours: string[], theirs: string[], costs: ReadonlyMap<string, bigint>): boolean {
  const plain = (xs: string[]) => xs.filter((x) => !x.includes(CONTRIBUTED));
  if (JSON.stringify(plain(ours)) !== JSON.stringify(plain(theirs))) return false;
  const schemaOf = (f: string): string => f.slice(0, f.indexOf('openAPIV3Schema'));
  const contributors = (xs: string[]) => xs.filter((x) => x.includes(CONTRIBUTED)).map(fieldOf);
  const oc = contributors(ours);
  const tc = contributors(theirs);
  // each schema has its own total and names its own contributors
  for (const schema of new Set([...oc, ...tc].map(schemaOf))) {
    const o = oc.filter((f) => schemaOf(f) === schema);
    const t = tc.filter((f) => schemaOf(f) === schema);
    if (o.length !== t.length) return false;
    const named = o.map((f) => costs.get(f));
    if (named.some((c) => c === undefined)) return false;
    const least = named.reduce((a, b) => (a! < b! ? a : b))!;
    const diff = [...o.filter((f) => !t.includes(f)), ...t.filter((f) => !o.includes(f))];
    if (!diff.every((f) => costs.get(f) === least)) return false;
  }
  return true;
}

/** crdx's estimated cost of every rule of the CRDs in `text`, by the rule's field path. */
export function ruleCosts(text: string, kube: KubeVersion): Map<string, bigint> {
  const costs = new Map<string, bigint>();
  for (const m of parseFile({ path: 'crd.yaml', text }).flatMap((d) => d.manifests).filter(isCrdManifest)) {
    const crd = buildCrd(m, kube, cel);
    for (const { cost } of crdCosts({ crd, schemaAnalysis: () => analyzeCrdSchemas(crd) })) for (const x of cost.expressions) costs.set(x.loc.field, x.cost);
  }
  return costs;
}
