import type { Finding } from '../core/types.js';

/**
 * De-duplicates (same rule, file, document, path, message, server cause) and sorts deterministically.
 * A custom resource's server causes are kept as many times as they occur: the server lists each
 * failing rule's cause, two equal ones twice (two rules with the same message, the same rule text twice).
 */
export function finalize(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const f of findings) {
    if (f.ruleId === 'custom-resource' && f.server !== undefined) {
      out.push(f);
      continue;
    }
    const key = JSON.stringify([f.ruleId, f.file, f.document, f.path, f.message, f.server?.field ?? '', f.line, f.column]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f);
  }
  return out.sort(compareFindings);
}

function cmp(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareFindings(a: Finding, b: Finding): number {
  return (
    cmp(a.file, b.file) ||
    cmp(a.document, b.document) ||
    cmp(a.line, b.line) ||
    cmp(a.column, b.column) ||
    cmp(a.ruleId, b.ruleId) ||
    cmp(a.path, b.path) ||
    cmp(a.message, b.message)
  );
}
