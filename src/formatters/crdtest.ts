/**
 * Output of `kubectl crdx test`: text (one line per case, expected and actual under a failure,
 * then `N passed, N failed`), json, junit and tap. Formatters decide nothing: they render the
 * results the runner returns; the CLI picks the exit code.
 */
import type { CaseResult, CrdCoverage, FileResult, Mismatch, TestRun } from '../crdtest/types.js';
import { jsonText } from '../core/json-text.js';
import { escapeAttr, escapeText } from './junit.js';
import { printable } from './stylish.js';
import type { Style } from './types.js';

const TEST_FORMATS = ['text', 'json', 'junit', 'tap'] as const;
type TestFormat = (typeof TEST_FORMATS)[number];

interface TestFormatContext {
  readonly style: Style;
  readonly toolVersion: string;
}

/** The summary line, exactly. */
function summaryLine(run: TestRun): string {
  return `${run.summary.passed} passed, ${run.summary.failed} failed`;
}

function mismatchLines(m: Mismatch, style: Style, indent: string): string {
  const exp = printable(m.expected);
  const act = printable(m.actual);
  return `${indent}${style.bold(printable(m.what))} ${style.dim(`(line ${m.line}:${m.column})`)}\n${indent}  expected: ${style.blue(exp)}\n${indent}  actual:   ${style.red(act)}\n`;
}

function caseText(f: FileResult, c: CaseResult, style: Style): string {
  if (c.passed) return `${style.blue('PASS')} ${printable(c.name)}\n`;
  let out = `${style.red('FAIL')} ${printable(c.name)} ${style.dim(`(${printable(f.file)}:${c.line}:${c.column}, ${c.operation})`)}\n`;
  if (c.error !== undefined) out += `    ${printable(c.error)}\n`;
  for (const m of c.mismatches) out += mismatchLines(m, style, '    ');
  return out;
}

/** Text: the file, then one line per case; file errors are the CLI's to print (stderr). */
export function formatText(run: TestRun, ctx: TestFormatContext): string {
  let out = '';
  for (const f of run.files) {
    if (f.errors.length > 0) continue;
    out += `${ctx.style.bold(printable(f.file))}\n`;
    for (const c of f.cases) out += caseText(f, c, ctx.style);
  }
  if (run.coverage) out += formatCoverage(run.coverage, ctx.style);
  return `${out}${summaryLine(run)}\n`;
}

/**
 * Coverage per CRD: each constraint at its position in the CRD, how many passing cases it held in
 * and refused a value in, and whether both happened.
 */
export function formatCoverage(coverage: readonly CrdCoverage[], style: Style): string {
  let out = '';
  for (const c of coverage) {
    const both = c.constraints.filter((k) => k.held > 0 && k.violated > 0).length;
    out += `${style.bold(`coverage of ${printable(c.crd)}`)} ${style.dim(`(${printable(c.file)})`)}: ${both}/${c.constraints.length} constraints exercised both ways\n`;
    const rows = c.constraints.map((k) => ({
      where: `${k.line}:${k.column}`,
      what: `${k.kind} ${printable(k.node)}: ${printable(k.detail.length > 60 ? `${k.detail.slice(0, 59)}…` : k.detail)}`,
      counts: `held ${k.held}, refused ${k.violated}`,
      verdict: k.held > 0 && k.violated > 0 ? style.blue('both') : k.held === 0 && k.violated === 0 ? style.red('not exercised') : k.violated === 0 ? style.yellow('never refused') : style.yellow('never held'),
    }));
    const w1 = Math.max(0, ...rows.map((r) => r.where.length));
    const w2 = Math.max(0, ...rows.map((r) => r.what.length));
    const w3 = Math.max(0, ...rows.map((r) => r.counts.length));
    for (const r of rows) out += `  ${style.dim(r.where.padEnd(w1))}  ${r.what.padEnd(w2)}  ${r.counts.padEnd(w3)}  ${r.verdict}\n`;
  }
  return out;
}

/** `file:line:col: message` for each file that could not be run. */
export function fileErrorLines(run: TestRun): string[] {
  return run.files.flatMap((f) => f.errors.map((e) => `${printable(e.file)}:${e.line}:${e.column}: ${printable(e.message)}`));
}

export function formatJson(run: TestRun): string {
  return `${jsonText({ files: run.files.map((f) => ({ file: f.file, errors: f.errors, cases: f.cases })), summary: run.summary, ...(run.coverage ? { coverage: run.coverage } : {}) }, 2)}\n`;
}

function caseFailureText(c: CaseResult): string {
  const lines: string[] = [];
  if (c.error !== undefined) lines.push(c.error);
  for (const m of c.mismatches) lines.push(`${m.what} (line ${m.line}:${m.column})\n  expected: ${m.expected}\n  actual:   ${m.actual}`);
  return lines.join('\n');
}

/** JUnit XML: a testsuite per file, a testcase per case; a file that cannot be read is a suite with one <error>. */
export function formatJunit(run: TestRun): string {
  let out = '<?xml version="1.0" encoding="UTF-8"?>\n';
  const total = run.summary.passed + run.summary.failed;
  out += `<testsuites name="kubectl crdx test" tests="${total}" failures="${run.summary.failed}" errors="${run.summary.errors}">\n`;
  for (const f of run.files) {
    const failures = f.cases.filter((c) => !c.passed).length;
    const time = (f.ms / 1000).toFixed(3);
    out += `  <testsuite name="${escapeAttr(f.file)}" tests="${f.errors.length > 0 ? 1 : f.cases.length}" failures="${failures}" errors="${f.errors.length > 0 ? 1 : 0}" time="${time}">\n`;
    if (f.errors.length > 0) {
      const text = f.errors.map((e) => `${e.file}:${e.line}:${e.column}: ${e.message}`).join('\n');
      out += `    <testcase name="${escapeAttr(f.file)}" classname="${escapeAttr(f.file)}">\n      <error message="${escapeAttr(f.errors[0]!.message)}">${escapeText(text)}</error>\n    </testcase>\n`;
    }
    for (const c of f.cases) {
      out += `    <testcase name="${escapeAttr(c.name)}" classname="${escapeAttr(f.file)}" file="${escapeAttr(f.file)}" line="${c.line}">`;
      if (c.passed) out += '</testcase>\n';
      else {
        const first = c.error ?? (c.mismatches[0] ? `${c.mismatches[0].what}: expected ${c.mismatches[0].expected}, actual ${c.mismatches[0].actual}` : 'failed');
        out += `\n      <failure message="${escapeAttr(first)}" type="${c.error !== undefined ? 'error' : 'mismatch'}">${escapeText(caseFailureText(c))}</failure>\n    </testcase>\n`;
      }
    }
    out += '  </testsuite>\n';
  }
  return `${out}</testsuites>\n`;
}

/** A YAML block scalar line of a TAP diagnostic: JSON strings are valid YAML flow scalars. */
function yamlString(s: string): string {
  return JSON.stringify(s);
}

/** TAP version 13: one test point per case (and one per file that cannot be read), diagnostics as YAML. */
export function formatTap(run: TestRun): string {
  const points: string[] = [];
  for (const f of run.files) {
    for (const e of f.errors) points.push(`not ok %N - ${tapName(f.file)}\n  ---\n  message: ${yamlString(e.message)}\n  severity: error\n  at: ${yamlString(`${e.file}:${e.line}:${e.column}`)}\n  ...`);
    for (const c of f.cases) {
      if (c.passed) {
        points.push(`ok %N - ${tapName(`${f.file}: ${c.name}`)}`);
        continue;
      }
      let d = `not ok %N - ${tapName(`${f.file}: ${c.name}`)}\n  ---\n  at: ${yamlString(`${f.file}:${c.line}:${c.column}`)}\n  operation: ${c.operation}\n`;
      if (c.error !== undefined) d += `  message: ${yamlString(c.error)}\n`;
      if (c.mismatches.length > 0) {
        d += '  mismatches:\n';
        for (const m of c.mismatches) d += `    - what: ${yamlString(m.what)}\n      line: ${m.line}\n      expected: ${yamlString(m.expected)}\n      actual: ${yamlString(m.actual)}\n`;
      }
      points.push(`${d}  ...`);
    }
  }
  let out = `TAP version 13\n1..${points.length}\n`;
  points.forEach((p, i) => (out += `${p.replace('%N', String(i + 1))}\n`));
  return `${out}# ${summaryLine(run)}\n`;
}

/** A TAP description cannot hold `#` (a directive) or a line break. */
function tapName(s: string): string {
  return printable(s).replace(/#/g, '\\#');
}

export function formatTestRun(run: TestRun, format: TestFormat, ctx: TestFormatContext): string {
  switch (format) {
    case 'text':
      return formatText(run, ctx);
    case 'json':
      return formatJson(run);
    case 'junit':
      return formatJunit(run);
    case 'tap':
      return formatTap(run);
  }
}
