/** A rule's report as a finding: its text, its position in the YAML source, its object. */
import { errorText, toCause } from '../core/field-error.js';
import { formatPath } from '../core/path.js';
import type { Finding, Severity } from '../core/types.js';
import type { Manifest } from '../manifest/parse.js';
import type { Report, Rule } from '../rules/types.js';

export function fill(template: string, data: Readonly<Record<string, string | number>> | undefined): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, k: string) => (data && k in data ? String(data[k]) : `{{${k}}}`));
}

/** The object a finding is about: its apiVersion, kind, name and namespace, those it has. */
export function objectRefOf(m: Manifest): NonNullable<Finding['object']> {
  return {
    ...(m.apiVersion !== undefined ? { apiVersion: m.apiVersion } : {}),
    ...(m.kind !== undefined ? { kind: m.kind } : {}),
    ...(m.name !== undefined ? { name: m.name } : {}),
    ...(m.namespace !== undefined ? { namespace: m.namespace } : {}),
  };
}

export function toFinding(rule: Rule, r: Report, m: Manifest, severity: Severity): Finding {
  const template = (rule.meta.messages as Record<string, string>)[r.messageId];
  if (template === undefined) throw new Error(`rule ${rule.id} reported unknown messageId ${r.messageId}`);
  const message = r.server ? errorText(r.server) : fill(template, r.data);
  const pos = m.locate(r.path, r.at ?? 'value');
  const object = objectRefOf(m);
  return {
    ruleId: rule.id,
    severity,
    message,
    messageId: r.messageId,
    file: m.file.path,
    line: pos.line,
    column: pos.column,
    ...(pos.endLine !== undefined ? { endLine: pos.endLine } : {}),
    ...(pos.endColumn !== undefined ? { endColumn: pos.endColumn } : {}),
    document: m.docIndex,
    object,
    path: formatPath([...m.base, ...r.path]),
    ...(r.server ? { server: toCause(r.server) } : {}),
    ...(r.response ? { response: r.response } : {}),
    ...(r.aborted !== undefined ? { aborted: r.aborted } : {}),
    ...(r.old ? { old: oldPosition(r.old.manifest, r.old.path) } : {}),
  };
}

function oldPosition(m: Manifest, path: readonly (string | number)[]): { file: string; line: number; column: number } {
  const pos = m.locate(path);
  return { file: m.file.path, line: pos.line, column: pos.column };
}
