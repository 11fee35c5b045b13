import { baselineFixedText, tooManyWarningsText, uncheckedText, updateSummaryText, type Finding, type Severity } from '../core/types.js';
import { displayPath } from './sarif.js';
import type { Formatter } from './types.js';

const COMMAND: Record<Severity, 'error' | 'warning' | 'notice'> = { error: 'error', warning: 'warning', info: 'notice' };

/** Escaping of a workflow command's message, as the Actions runner decodes it. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escaping of a workflow command's property value: the message rules plus `:` and `,`. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function properties(f: Finding, cwd: string): string {
  const props: [string, string | number][] = [];
  // stdin has no file in the repository to annotate; the annotation then belongs to the run.
  if (f.file !== '-') {
    props.push(['file', displayPath(f.file, cwd)], ['line', f.line]);
    // GitHub honours columns only within one line.
    const oneLine = f.endLine === undefined || f.endLine === f.line;
    if (oneLine) props.push(['col', f.column]);
    if (f.endLine !== undefined) props.push(['endLine', f.endLine]);
    if (oneLine && f.endColumn !== undefined) props.push(['endColumn', f.endColumn]);
  }
  props.push(['title', `crdx ${f.ruleId}`]);
  return props.map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',');
}

/** GitHub Actions workflow commands: one annotation line per finding. */
export const github: Formatter = (findings, ctx) =>
  findings
    .map((f) => {
      const text = f.file === '-' ? `stdin:${f.line}:${f.column}: ${f.message}` : f.message;
      return `::${COMMAND[f.severity]} ${properties(f, ctx.cwd)}::${escapeData(text)}\n`;
    })
    .join('') +
  (ctx.summary.updates ?? [])
    .map((u) => `::${u.accepted ? 'notice' : 'error'} ${u.file !== '-' ? `file=${escapeProperty(displayPath(u.file, ctx.cwd))},line=${u.line},` : ''}title=${escapeProperty('crdx --old')}::${escapeData(updateSummaryText(u))}\n`)
    .join('') +
  (ctx.summary.unchecked ? `::warning title=${escapeProperty('crdx: objects not checked')}::${escapeData(uncheckedText(ctx.summary.unchecked))}\n` : '') +
  (ctx.summary.baseline && ctx.summary.baseline.fixed > 0 ? `::notice title=${escapeProperty('crdx --baseline')}::${escapeData(baselineFixedText(ctx.summary.baseline))}\n` : '') +
  (ctx.summary.tooManyWarnings ? `::error title=${escapeProperty('crdx --max-warnings')}::${escapeData(tooManyWarningsText(ctx.summary.tooManyWarnings))}\n` : '');
