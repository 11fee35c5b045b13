import { isRecord, type Finding } from '../core/types.js';
import { parseFile, type Manifest, type ParsedDocument, type SourceFile } from '../manifest/parse.js';

export const PARSE_RULE_ID = 'parse';

/**
 * Where a text uses a Helm or Go template action outside comments and quoted strings
 * (`{{- if .Values.x }}`, `name: {{ .Release.Name }}`): YAML cannot read such a line as meant.
 */
export function templateAction(text: string): { line: number; column: number } | undefined {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const at = l.indexOf('{{');
    if (at < 0 || l.indexOf('}}', at + 2) < 0) continue;
    const before = l.slice(0, at);
    if (before.includes('#') || (before.split('"').length - 1) % 2 === 1 || (before.split("'").length - 1) % 2 === 1) continue;
    return { line: i + 1, column: at + 1 };
  }
  return undefined;
}

interface ParsedSources {
  readonly manifests: Manifest[];
  /** Non-empty documents read. */
  readonly documents: number;
  /** YAML and document-shape problems, as findings of the reserved `parse` rule. */
  readonly findings: Finding[];
}

/**
 * Parses every file, keeping the objects and turning what could not be read into findings.
 * Large documents read only for their apiVersion and kind are read in full when a CRD of the input
 * (or of `crds`, e.g. --crd files) defines that group and kind. `parsed`: the files already parsed.
 */
export function parseSources(
  files: readonly SourceFile[],
  crds: readonly Manifest[] = [],
  parsed: readonly ParsedDocument[][] = files.map((f) => parseFile(f)),
): ParsedSources {
  const manifests: Manifest[] = [];
  const findings: Finding[] = [];
  let documents = 0;
  const known = new Set<string>();
  for (const m of [...crds, ...parsed.flat().flatMap((d) => d.manifests)]) {
    if (m.kind !== 'CustomResourceDefinition' || !isRecord(m.value['spec'])) continue;
    const spec = m.value['spec'];
    const names = isRecord(spec['names']) ? spec['names'] : {};
    known.add(`${String(spec['group'])}/${String(names['kind'])}`);
  }
  parsed.forEach((docs, fileIndex) => {
    // a template the YAML reader stumbled over is one finding, not one per token
    const file = files[fileIndex];
    const broken = docs.some((d) => d.problems.some((p) => p.fatal || p.code === 'yaml-map-key'));
    const tpl = broken && file ? templateAction(file.text) : undefined;
    if (file && tpl) {
      if (docs.some((d) => !d.empty)) documents++;
      findings.push({
        ruleId: PARSE_RULE_ID,
        severity: 'error',
        message: `this file is a Helm or Go template ({{ … }} at line ${tpl.line}), not YAML: render it first and lint the output, e.g. helm template ./chart | kubectl crdx lint -`,
        messageId: 'template',
        file: file.path,
        line: tpl.line,
        column: tpl.column,
        document: 0,
        path: '',
        fatal: true,
      });
      return;
    }
    for (const d of docs) {
      const m = d.manifests[0];
      const group = m?.apiVersion?.includes('/') ? m.apiVersion.slice(0, m.apiVersion.lastIndexOf('/')) : '';
      const all = d.deferred && m && known.has(`${group}/${m.kind}`) ? d.deferred() : [d];
      for (const doc of all) {
        if (!doc.empty) documents++;
        for (const p of doc.problems)
          findings.push({
            ruleId: PARSE_RULE_ID,
            severity: p.severity ?? 'error',
            message: p.message,
            messageId: p.code,
            file: doc.file.path,
            line: p.position.line,
            column: p.position.column,
            document: doc.docIndex,
            path: '',
            ...(p.fatal ? { fatal: true as const } : {}),
          });
        manifests.push(...doc.manifests);
      }
    }
  });
  return { manifests, documents, findings };
}
