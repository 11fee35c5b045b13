import { baselineFixedText, tooManyWarningsText, uncheckedText, updateSummaryText, type Finding } from '../core/types.js';
import type { Formatter } from './types.js';

/** Control characters from manifests must not reach the terminal (no escape injection, no overwritten lines). */
export function printable(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).replace(/\n/g, '\\n');
}

/** Human output grouped by file, ESLint-style. */
export const stylish: Formatter = (findings, ctx) => {
  const { style } = ctx;
  const byFile = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = byFile.get(f.file) ?? [];
    list.push(f);
    byFile.set(f.file, list);
  }
  let out = '';
  for (const [file, list] of byFile) {
    out += `\n${style.underline(printable(file))}\n`;
    const rows = list.map((f) => {
      const sev = f.severity === 'error' ? style.red('error') : f.severity === 'warning' ? style.yellow('warning') : style.blue('info');
      const where = `${f.line}:${f.column}`;
      const obj = f.object?.name ? `${f.object.kind ?? ''}/${f.object.name}` : `doc ${f.document}`;
      return { where, sev, sevLen: f.severity.length, text: printable(f.message), rule: f.ruleId, obj: printable(obj) };
    });
    const w = Math.max(...rows.map((r) => r.where.length));
    for (const r of rows) {
      out += `  ${style.dim(r.where.padEnd(w))}  ${r.sev}${' '.repeat(8 - r.sevLen)}${r.text}  ${style.dim(`${r.rule} (${r.obj})`)}\n`;
    }
  }
  const { errors, warnings, documents, files, tooManyWarnings, suppressed, baseline, updates, unchecked } = ctx.summary;
  // lint --old: the server's verdict on each update, before the totals
  if (updates && updates.length > 0) {
    out += '\n';
    for (const u of updates) {
      const text = `${u.accepted ? '\u2714' : '\u2716'} ${printable(updateSummaryText(u))}`;
      out += `${u.accepted ? text : style.red(text)}\n`;
    }
  }
  const total = errors + warnings;
  // suppressed and baselined findings are not problems: only their number is said
  const hidden = [
    ...(suppressed ? [`${suppressed} suppressed`] : []),
    ...(baseline && baseline.matched > 0 ? [`${baseline.matched} in the baseline`] : []),
  ];
  const also = hidden.length > 0 ? ` (${hidden.join(', ')})` : '';
  if (total === 0 && tooManyWarnings) {
    out += `${out ? '\n' : ''}${files} file${files === 1 ? '' : 's'}, ${documents} document${documents === 1 ? '' : 's'}: no errors${also}\n`;
  } else if (total === 0) {
    out += `${out ? '\n' : ''}${files} file${files === 1 ? '' : 's'}, ${documents} document${documents === 1 ? '' : 's'}: no problems${also}\n`;
  } else {
    const line = `\u2716 ${total} problem${total === 1 ? '' : 's'} (${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}) in ${files} file${files === 1 ? '' : 's'}, ${documents} document${documents === 1 ? '' : 's'}`;
    out += `\n${errors > 0 ? style.bold(style.red(line)) : style.bold(style.yellow(line))}${hidden.length > 0 ? style.dim(`; ${hidden.join(', ')}`) : ''}\n`;
  }
  if (unchecked) out += `${style.yellow(`\u26a0 ${printable(uncheckedText(unchecked))}`)}\n`;
  if (baseline && baseline.fixed > 0) out += `${style.blue(`\u2139 ${baselineFixedText(baseline)}`)}\n`;
  if (tooManyWarnings) out += `${style.bold(style.red(`\u2716 ${tooManyWarningsText(tooManyWarnings)}`))}\n`;
  return out;
};
