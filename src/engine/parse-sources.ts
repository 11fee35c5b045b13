import type { Finding } from '../core/types.js';
import { parseFile, type Manifest, type SourceFile } from '../manifest/parse.js';

export const PARSE_RULE_ID = 'parse';

export interface ParsedSources {
  readonly manifests: Manifest[];
  /** Non-empty documents read. */
  readonly documents: number;
  /** YAML and document-shape problems, as findings of the reserved `parse` rule. */
  readonly findings: Finding[];
}

/** Parses every file, keeping the objects and turning what could not be read into findings. */
export function parseSources(files: readonly SourceFile[]): ParsedSources {
  const manifests: Manifest[] = [];
  const findings: Finding[] = [];
  let documents = 0;
  for (const file of files) {
    for (const doc of parseFile(file)) {
      if (!doc.empty) documents++;
      for (const p of doc.problems)
        findings.push({
          ruleId: PARSE_RULE_ID,
          severity: 'error',
          message: p.message,
          messageId: p.code,
          file: file.path,
          line: p.position.line,
          column: p.position.column,
          document: doc.docIndex,
          path: '',
          ...(p.fatal ? { fatal: true as const } : {}),
        });
      manifests.push(...doc.manifests);
    }
  }
  return { manifests, documents, findings };
}
