import { isDeepStrictEqual } from 'node:util';
import { fastDocuments } from '../../src/manifest/fast.js';
import { LARGE_BYTES, MAX_DEPTH, parseFile, plainScalarValue, type ParsedDocument, type SourceFile } from '../../src/manifest/parse.js';
import type { JsonPath } from '../../src/core/types.js';

export interface ParseComparison {
  /** The fast path read the file (at least one document came from it). */
  readonly fast: boolean;
  /** Differences between the fast and the full path; empty when they agree. */
  readonly differences: string[];
}

/**
 * Reads a file with the fast path and with the full path and lists where they differ: documents, their
 * indexes, emptiness, problems, objects (values compared with their types: 1 is not '1', a Date is not
 * its text), and the positions of every path of every object (key and value).
 */
export function compareParse(file: SourceFile, opts: { largeBytes?: number; positions?: boolean; maxPaths?: number; firstRequests?: boolean } = {}): ParseComparison {
  const full = parseFile(file, { fast: false, ...(opts.largeBytes !== undefined ? { largeBytes: opts.largeBytes } : {}) });
  const fastDocs = parseFile(file, { fast: true, ...(opts.largeBytes !== undefined ? { largeBytes: opts.largeBytes } : {}) });
  const differences: string[] = [];
  const text = file.text.charCodeAt(0) === 0xfeff ? file.text.slice(1) : file.text;
  const fast = fastDocuments(text, plainScalarValue, MAX_DEPTH) !== undefined;
  // both sides went the full path: nothing to compare (and how deep the yaml package gets before its
  // stack runs out depends on the stack it is called with)
  if (!fast && text.length < (opts.largeBytes ?? LARGE_BYTES)) return { fast, differences };
  // the yaml package runs out of stack on some nesting (from ~450 levels, with the stack it is given) that
  // the fast path reads (up to MAX_DEPTH): a known limit of the full path, not a difference to report
  if (fast && full.some((d) => d.problems.some((p) => p.code === 'too-deep')) && fastDocs.every((d) => d.problems.length === 0)) return { fast, differences };
  const a = shape(full);
  const b = shape(fastDocs);
  if (!isDeepStrictEqual(a, b)) {
    const [x, y] = [show(a), show(b)];
    let i = 0;
    while (i < x.length && x[i] === y[i]) i++;
    const at = Math.max(0, i - 200);
    differences.push(`documents differ at character ${i}:\n full: …${x.slice(at, i + 300)}\n fast: …${y.slice(at, i + 300)}`);
  }
  if (opts.positions !== false && differences.length === 0) {
    for (const [i, d] of full.entries()) {
      for (const [j, m] of d.manifests.entries()) {
        const fm = fastDocs[i]!.manifests[j]!;
        for (const path of paths(m.value, opts.maxPaths)) {
          for (const at of ['key', 'value'] as const) {
            const p1 = m.locate(path, at);
            const p2 = fm.locate(path, at);
            if (!isDeepStrictEqual(p1, p2)) differences.push(`doc ${i} object ${j} ${JSON.stringify(path)} ${at}: full ${JSON.stringify(p1)} fast ${JSON.stringify(p2)}`);
          }
        }
      }
    }
  }
  if (opts.positions !== false && opts.firstRequests !== false && differences.length === 0 && fast) {
    // the first position asked of a document the fast path read is found by a reading that stops
    // early (fast-locate.ts): each such path asked first, of a fresh reading
    for (const [i, d] of full.entries()) {
      for (const [j, m] of d.manifests.entries()) {
        for (const path of firstPaths(m.value)) {
          for (const at of ['key', 'value'] as const) {
            const fm = parseFile(file, { fast: true, ...(opts.largeBytes !== undefined ? { largeBytes: opts.largeBytes } : {}) })[i]!.manifests[j]!;
            const p2 = fm.locate(path, at);
            const p1 = m.locate(path, at);
            if (!isDeepStrictEqual(p1, p2)) differences.push(`doc ${i} object ${j} ${JSON.stringify(path)} ${at}, asked first: full ${JSON.stringify(p1)} fast ${JSON.stringify(p2)}`);
          }
        }
      }
    }
  }
  return { fast, differences };
}

/** Paths to ask first of a fresh reading: each top-level entry, and up to four entries below metadata. */
function firstPaths(v: Record<string, unknown>): JsonPath[] {
  const out: JsonPath[] = Object.keys(v).map((k) => [k]);
  const meta = v['metadata'];
  if (meta !== null && typeof meta === 'object' && !Array.isArray(meta)) out.push(...Object.keys(meta).slice(0, 4).map((k) => ['metadata', k]));
  out.push(['nosuch'], ['metadata', 'nosuch']);
  return out;
}

function shape(docs: readonly ParsedDocument[]): unknown {
  return docs.map((d) => ({
    docIndex: d.docIndex,
    empty: d.empty,
    problems: d.problems,
    deferred: d.deferred !== undefined,
    manifests: d.manifests.map((m) => ({ base: m.base, value: m.value, apiVersion: m.apiVersion, kind: m.kind, name: m.name, namespace: m.namespace, partial: m.partial })),
  }));
}

function show(v: unknown): string {
  return JSON.stringify(v, (_, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x instanceof Date ? `Date(${x.toISOString()})` : x)) ?? 'undefined';
}

/** Every path of a value, a bounded number of them. */
function paths(v: unknown, max = 400): JsonPath[] {
  const out: JsonPath[] = [];
  const walk = (x: unknown, p: JsonPath): void => {
    if (out.length >= max) return;
    out.push(p);
    if (Array.isArray(x)) x.forEach((y, i) => walk(y, [...p, i]));
    else if (x !== null && typeof x === 'object' && !(x instanceof Date)) for (const [k, y] of Object.entries(x)) walk(y, [...p, k]);
  };
  walk(v, []);
  return out;
}
