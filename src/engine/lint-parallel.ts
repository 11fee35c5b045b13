import type { CelEngine } from '../core/cel-engine.js';
import type { Finding, Summary, UncheckedSummary } from '../core/types.js';
import type { SourceFile } from '../manifest/parse.js';
import { lintSources, type LintOptions } from './lint.js';
import { SPELLING_ESCAPE } from './ref-crds.js';
import { finalize } from './results.js';

/**
 * Linting a large input on two threads. Custom resources are most of the work (each one decoded,
 * validated, defaulted as the server would), and they can be checked apart: the input files that cannot
 * hold a CRD are split in two; a worker lints one part with every file that may hold a CRD as reference
 * CRDs (--crd), this thread lints everything else. The findings are the same as one lintSources over
 * all the files (test/unit/lint-parallel.test.ts compares them).
 */

/** What a share of the work gives back (plain data: it crosses threads). */
export interface ShareResult {
  readonly findings: readonly Finding[];
  readonly documents: number;
  readonly checked: number;
  readonly unchecked?: UncheckedSummary;
}

export interface ShareRequest {
  readonly files: readonly SourceFile[];
  /** Plain data (it crosses threads): the CEL engine is the receiver's own (lintShare's `cel`). */
  readonly opts: Omit<LintOptions, 'rules' | 'cel' | 'verdicts'>;
}

/** Runs a share of the work somewhere (a worker thread in the product; in-process in tests). */
type ShareRunner = (req: ShareRequest) => Promise<ShareResult>;

interface ParallelResult {
  readonly findings: readonly Finding[];
  readonly summary: Pick<Summary, 'files' | 'documents' | 'errors' | 'warnings' | 'updates' | 'unchecked'>;
  readonly checked: number;
}

/**
 * A file may hold a CRD when its text names the kind, or could spell it with escapes (\x, \u, \U or an
 * escaped line break in a double-quoted scalar). Other files hold none: they only need the CRDs, never
 * add to them.
 */
export function mayHoldCrd(f: SourceFile): boolean {
  return f.text.includes('CustomResourceDefinition') || SPELLING_ESCAPE.test(f.text);
}

export interface Split {
  /** Files this thread lints (every file that may hold a CRD, and part of the others). */
  readonly here: SourceFile[];
  /** Files the worker lints. */
  readonly there: SourceFile[];
  /** Files that may hold a CRD: the worker's reference CRDs, before the --crd files. */
  readonly crdBearing: SourceFile[];
}

/** Splits the files that hold no CRD so that each side gets about half of all the bytes to read. */
export function splitFiles(files: readonly SourceFile[]): Split {
  const crdBearing: SourceFile[] = [];
  const rest: SourceFile[] = [];
  for (const f of files) (mayHoldCrd(f) ? crdBearing : rest).push(f);
  const total = files.reduce((n, f) => n + f.text.length, 0);
  const there: SourceFile[] = [];
  let bytes = 0;
  // from the end, so that this thread keeps the first files (and its share of the work starts at once)
  for (let i = rest.length - 1; i >= 0; i--) {
    const size = rest[i]!.text.length;
    if (there.length > 0 && bytes + size > total / 2) break;
    there.unshift(rest[i]!);
    bytes += size;
  }
  const inThere = new Set(there);
  return { here: files.filter((f) => !inThere.has(f)), there, crdBearing };
}

/**
 * Lints files on this thread and one worker; undefined when the split leaves the worker nothing (then
 * lintSources alone is the way). The worker's options: the files that may hold a CRD come first among
 * its reference files, as the CRDs of the input come before the --crd files in lintSources.
 */
export async function lintSplit(files: readonly SourceFile[], opts: Omit<LintOptions, 'rules'>, run: ShareRunner): Promise<ParallelResult | undefined> {
  const split = splitFiles(files);
  if (split.there.length === 0) return undefined;
  // the worker gets no CRD of the input, hence no update either (--old and the stored objects stay here)
  // nor the kept verdicts (functions do not cross threads: the worker checks its --crd CRDs itself)
  const { cel: _here, old: _old, objects: _objects, liveObjects: _live, verdicts: _verdicts, ...plain } = opts;
  const remote = run({ files: split.there, opts: { ...plain, crdFiles: [...split.crdBearing, ...(opts.crdFiles ?? [])] } });
  // let the worker start before this thread is busy
  await new Promise((r) => setImmediate(r));
  const local = lintSources(split.here, opts);
  const r = await remote;
  const findings = finalize([...local.findings, ...r.findings]);
  return {
    findings,
    summary: {
      files: files.length,
      documents: local.summary.documents + r.documents,
      errors: findings.filter((f) => f.severity === 'error').length,
      warnings: findings.filter((f) => f.severity === 'warning').length,
      ...(local.summary.updates ? { updates: local.summary.updates } : {}),
      ...uncheckedOf([local.summary.unchecked, r.unchecked]),
    },
    checked: local.checked + r.checked,
  };
}

/** One share linted with the given CEL engine (the worker runs this with its own, and tests). */
export function lintShare(req: ShareRequest, cel: CelEngine | undefined): ShareResult {
  const r = lintSources(req.files, { ...req.opts, cel });
  return { findings: r.findings, documents: r.summary.documents, checked: r.checked, ...(r.summary.unchecked ? { unchecked: r.summary.unchecked } : {}) };
}

/** Both shares' objects left unchecked, as one summary entry (none when neither has any). */
function uncheckedOf(parts: readonly (UncheckedSummary | undefined)[]): { unchecked?: UncheckedSummary } {
  const present = parts.filter((u): u is UncheckedSummary => u !== undefined);
  if (present.length === 0) return {};
  return { unchecked: { objects: present.reduce((n, u) => n + u.objects, 0), kinds: [...new Set(present.flatMap((u) => u.kinds))].sort() } };
}
