/** What default, status and scale share about their inputs: objects without a CRD, CRDs from the cluster. */
import { InputError } from '../core/errors.js';
import type { Finding } from '../core/types.js';
import type { Unmatched } from '../engine/subresources.js';
import { printable } from '../formatters/stylish.js';
import { celNotEvaluated } from '../rules/cel-not-evaluated.js';
import type { SourceFile } from '../manifest/parse.js';
import type { ClusterCliOptions } from './cluster-options.js';
import type { Io } from './io.js';

/** The input error for objects no CRD (or no old object) matches: one line per object, at its position. */
export function unmatchedError(unmatched: readonly Unmatched[]): InputError {
  const lines = unmatched.map((u) => {
    const pos = u.manifest.locate(u.code === 'no-old-object' ? [] : ['apiVersion']);
    return `${printable(u.manifest.file.path)}:${pos.line}:${pos.column}: ${printable(`${u.manifest.kind ?? '(no kind)'} ${u.manifest.apiVersion ?? '(no apiVersion)'}`)}: ${printable(u.message)}`;
  });
  return new InputError(unmatched[0]!.code, lines.join('\n'));
}

/** CRDs read from the cluster with --cluster (lazily: the client is only loaded then). */
export async function clusterCrdFiles(cluster: ClusterCliOptions | undefined, io: Io, objectFiles: readonly SourceFile[], crdFiles: readonly SourceFile[]): Promise<SourceFile[]> {
  if (!cluster) return [];
  const clusterRun = await import('./cluster-run.js');
  const r = await clusterRun.clusterSourcesForDefault(cluster, io, [], objectFiles, crdFiles);
  return [...r.crds];
}

/**
 * The findings default and status print after the objects: the errors, and the CEL rules crdx could
 * not evaluate (never a silent "accepted"); the server's warnings go out as kubectl's Warning: lines.
 */
export function printedWithObjects(f: Finding): boolean {
  return f.severity === 'error' || f.ruleId === celNotEvaluated.id;
}
