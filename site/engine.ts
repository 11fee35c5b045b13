/**
 * The playground's check: the engine the CLI and the language server use (src/engine), run on the
 * page's three editors. Pure (text in, plain data out) so the Web Worker (worker.ts) and the tests
 * call the same function. Nothing here touches the DOM or Node.
 */
import type { CelEngine } from '../src/core/cel-engine.js';
import { KUBECTL_FIELD_VALIDATION, parseValidateFlag, type FieldValidation } from '../src/core/field-validation.js';
import { formatKubeVersion, parseKubeVersion, type KubeVersion } from '../src/core/kube-version.js';
import type { Finding } from '../src/core/types.js';
import { defaultSources } from '../src/engine/default.js';
import { lintSources, PARSE_RULE_ID } from '../src/engine/lint.js';
import { compareFindings } from '../src/engine/results.js';
import { scaleSources, statusSources } from '../src/engine/subresources.js';
import { applySuppressions } from '../src/engine/suppress.js';
import { renderObjects } from '../src/formatters/objects.js';
import { parseFile, type SourceFile } from '../src/manifest/parse.js';
import { rules } from '../src/rules/index.js';
import { formatPath } from '../src/core/path.js';
import type { JsonPath } from '../src/core/types.js';

/** The names the page gives its editors' texts (they appear in findings as `file`). */
export const CRD_FILE = 'crds.yaml';
export const OBJECT_FILE = 'object.yaml';
export const OLD_FILE = 'old.yaml';

export interface CheckInput {
  readonly crds: string;
  readonly object: string;
  /** The stored object an update replaces (status); '' for a create. */
  readonly old: string;
  /** "1.36" */
  readonly kubeVersion: string;
  /** kubectl's --validate: strict (kubectl's default, when absent), warn or ignore. */
  readonly validate?: string;
}

/** A line of the page's object panes to mark: the field the server added (or removed). */
export interface Mark {
  readonly line: number;
  readonly kind: 'added' | 'removed' | 'changed';
  readonly path: string;
  readonly text: string;
}

export interface ObjectView {
  /** YAML as `kubectl crdx default` prints it (a strict decoding failure: the preview it shows); '' when there is none. */
  readonly yaml: string;
  /** In `yaml` (added, changed) … */
  readonly marks: readonly Mark[];
  /** … and in the object editor (removed: pruned, dropped). */
  readonly inputMarks: readonly Mark[];
  readonly rejected: boolean;
}

export interface CheckResult {
  readonly kubeVersion: string;
  readonly fieldValidation: FieldValidation;
  /** lint of the CRDs and the object (as `kubectl crdx lint --explain-cost --validate=V crds.yaml object.yaml`), suppressions applied. */
  readonly findings: readonly Finding[];
  /** The documents lint read (0: nothing to check, which is not a verdict). */
  readonly documents: number;
  readonly stored?: ObjectView;
  /** `kubectl crdx status`: the object written through /status (an update of the old object when given). */
  readonly status?: { readonly yaml: string; readonly rejected: boolean; readonly findings: readonly Finding[] };
  /** `kubectl crdx scale`: GET /scale of the object. */
  readonly scale?: { readonly yaml: string; readonly rejected: boolean; readonly findings: readonly Finding[]; readonly failure?: string };
  /** Input problems of the object panes (no CRD for the kind, …). */
  readonly notes: readonly string[];
  readonly ms: number;
}

/** The CEL engine, loaded on first need (the CEL library is bundled into the worker: nothing is fetched). */
export type CelProvider = (files: readonly SourceFile[]) => Promise<CelEngine | undefined>;

const KNOWN = new Set([...rules.map((r) => r.id), PARSE_RULE_ID]);

export function kubeVersionOf(s: string): KubeVersion {
  const v = parseKubeVersion(s);
  if (!v) throw new Error(`not a Kubernetes version: ${s}`);
  return v;
}

/** The lint verdict the CLI gives (lint-command.ts): findings, suppressions applied, sorted. */
function lintVerdict(files: readonly SourceFile[], kube: KubeVersion, cel: CelEngine | undefined, fieldValidation: FieldValidation): { findings: Finding[]; documents: number } {
  const r = lintSources(files, { kubeVersion: kube, cel, explainCost: true, fieldValidation });
  const sup = applySuppressions([...r.findings], files, KNOWN);
  return { findings: [...sup.findings].sort(compareFindings), documents: r.summary.documents };
}

function present(s: string): boolean {
  return s.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('#') && l.trim() !== '---');
}

/** Where a path of an object is in YAML text (its first line), undefined when absent. */
function lineOf(text: string, file: string, path: JsonPath): number | undefined {
  const docs = parseFile({ path: file, text });
  const m = docs.flatMap((d) => d.manifests)[0];
  if (!m) return undefined;
  return m.locate(path).line;
}

function objectView(value: Record<string, unknown> | undefined, rejected: boolean, changes: readonly { kind: string; path: JsonPath; before?: unknown; after?: unknown }[], input: string): ObjectView {
  const yaml = value ? renderObjects([value], 'yaml') : '';
  const marks: Mark[] = [];
  const inputMarks: Mark[] = [];
  for (const c of changes) {
    const path = formatPath(c.path);
    const text = `${c.kind} ${path}`;
    if (c.after === undefined) {
      const line = lineOf(input, OBJECT_FILE, c.path);
      if (line !== undefined) inputMarks.push({ line, kind: 'removed', path, text });
    } else if (yaml !== '') {
      const line = lineOf(yaml, 'stored.yaml', c.path);
      if (line !== undefined) marks.push({ line, kind: c.before === undefined ? 'added' : 'changed', path, text });
    }
  }
  return { yaml, marks, inputMarks, rejected };
}

/** A CLI hint reworded for the page, whose CRD pane is what --crd names. */
const printable = (m: string): string => m.replace('(give it with --crd)', '(paste it into the CRD pane)');

/** Everything the page shows, for one state of its editors. */
export async function check(input: CheckInput, celFor: CelProvider): Promise<CheckResult> {
  const t0 = performance.now();
  const kube = kubeVersionOf(input.kubeVersion);
  const fieldValidation = input.validate === undefined || input.validate === '' ? KUBECTL_FIELD_VALIDATION : parseValidateFlag(input.validate);
  if (!fieldValidation) throw new Error(`not a --validate value: ${input.validate}`);
  const crdFile: SourceFile = { path: CRD_FILE, text: input.crds };
  const objFile: SourceFile = { path: OBJECT_FILE, text: input.object };
  const oldFile: SourceFile = { path: OLD_FILE, text: input.old };
  const hasObject = present(input.object);
  const hasOld = present(input.old);
  const files = hasObject ? [crdFile, objFile] : [crdFile];
  const cel = await celFor([crdFile, objFile, oldFile]);
  const { findings, documents } = lintVerdict(files, kube, cel, fieldValidation);
  const notes: string[] = [];
  let stored: ObjectView | undefined;
  let status: CheckResult['status'];
  let scale: CheckResult['scale'];
  if (hasObject) {
    const d = defaultSources([objFile], [crdFile], { kubeVersion: kube, cel, fieldValidation });
    for (const u of d.unmatched) notes.push(`${u.manifest.kind ?? '(no kind)'} ${u.manifest.apiVersion ?? '(no apiVersion)'}: ${printable(u.message)}`);
    if (d.skipped.length > 0) notes.push(`${d.skipped.length} object(s) of built-in kinds skipped: only custom resources are simulated`);
    const x = d.objects[0];
    if (x) stored = objectView(x.result.value, x.rejected, x.result.changes, input.object);
    const s = statusSources([objFile], hasOld ? [oldFile] : [], [crdFile], { kubeVersion: kube, cel, via: 'status', fieldValidation });
    const si = s.items[0];
    if (si) status = { yaml: si.value ? renderObjects([si.value], 'yaml') : '', rejected: si.rejected, findings: si.findings };
    const g = scaleSources([objFile], [crdFile], { kubeVersion: kube, cel });
    const gi = g.items[0];
    if (gi)
      scale = {
        yaml: gi.scale ? renderObjects([gi.scale as unknown as Record<string, unknown>], 'yaml') : '',
        rejected: gi.rejected,
        findings: gi.findings,
        ...(gi.failure ? { failure: `${gi.failure.code} ${gi.failure.reason}: ${gi.failure.message}` } : {}),
      };
  }
  return { kubeVersion: formatKubeVersion(kube), fieldValidation, findings, documents, ...(stored ? { stored } : {}), ...(status ? { status } : {}), ...(scale ? { scale } : {}), notes, ms: performance.now() - t0 };
}
