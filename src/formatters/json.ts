import { tooManyWarningsText } from '../core/types.js';
import type { Formatter } from './types.js';

/** The machine contract: {findings, summary}. Later tools and the conformance suite rely on it. */
export const json: Formatter = (findings, ctx) =>
  JSON.stringify(
    {
      findings: findings.map((f) => ({
        ruleId: f.ruleId,
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
        ...(f.fatal ? { fatal: true } : {}),
      })),
      summary: ctx.summary.tooManyWarnings ? { ...ctx.summary, tooManyWarnings: { ...ctx.summary.tooManyWarnings, message: tooManyWarningsText(ctx.summary.tooManyWarnings) } } : ctx.summary,
    },
    null,
    2,
  ) + '\n';
