import { baselineFixedText, tooManyWarningsText, uncheckedText, updateSummaryText, type Finding, type Summary, type SuppressedFinding } from '../core/types.js';
import type { Formatter } from './types.js';

function findingJson(f: Finding): Record<string, unknown> {
  return {
    ruleId: f.ruleId,
    ...(f.messageId !== undefined ? { messageId: f.messageId } : {}),
    severity: f.severity,
    message: f.message,
    file: f.file,
    line: f.line,
    column: f.column,
    document: f.document,
    ...(f.object ? { object: f.object } : {}),
    path: f.path,
    ...(f.server ? { server: f.server } : {}),
    ...(f.response ? { response: f.response } : {}),
    ...(f.aborted !== undefined ? { aborted: f.aborted } : {}),
    ...(f.fatal ? { fatal: true } : {}),
    ...(f.old ? { old: f.old } : {}),
  };
}

function summaryJson(s: Summary): Record<string, unknown> {
  return {
    ...s,
    ...(s.baseline && s.baseline.fixed > 0 ? { baseline: { ...s.baseline, message: baselineFixedText(s.baseline) } } : {}),
    ...(s.tooManyWarnings ? { tooManyWarnings: { ...s.tooManyWarnings, message: tooManyWarningsText(s.tooManyWarnings) } } : {}),
    ...(s.updates ? { updates: s.updates.map((u) => ({ ...u, message: updateSummaryText(u) })) } : {}),
    ...(s.unchecked ? { unchecked: { ...s.unchecked, message: uncheckedText(s.unchecked) } } : {}),
  };
}

/**
 * The machine contract: {findings, suppressed?, summary}. Later tools and the conformance suite rely on it.
 * `suppressed` (present when a suppression comment covered a finding) lists those findings, each with
 * its `suppressions` (kind inSource, the justification, the comment's position).
 */
export const json: Formatter = (findings, ctx) =>
  JSON.stringify(
    {
      findings: findings.map(findingJson),
      ...(ctx.suppressed && ctx.suppressed.length > 0
        ? { suppressed: ctx.suppressed.map((f: SuppressedFinding) => ({ ...findingJson(f), suppressions: f.suppressions })) }
        : {}),
      summary: summaryJson(ctx.summary),
    },
    null,
    2,
  ) + '\n';
