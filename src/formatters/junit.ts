import { baselineFixedText, tooManyWarningsText, uncheckedText, updateSummaryText, type Finding } from '../core/types.js';
import { displayPath } from './sarif.js';
import type { Formatter, FormatterContext } from './types.js';

/**
 * Characters XML 1.0 allows: tab, LF, CR, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF.
 * Anything else cannot appear even as a character reference, so it is shown as `\uXXXX`.
 */
function allowed(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || cp >= 0x10000;
}

function escapeXml(s: string, attribute: boolean): string {
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (!allowed(cp)) {
      out += `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
      continue;
    }
    switch (ch) {
      case '&':
        out += '&amp;';
        break;
      case '<':
        out += '&lt;';
        break;
      case '>':
        out += '&gt;';
        break;
      case '"':
        out += attribute ? '&quot;' : ch;
        break;
      case "'":
        out += attribute ? '&apos;' : ch;
        break;
      // attribute-value normalisation would turn these into spaces
      case '\t':
        out += attribute ? '&#9;' : ch;
        break;
      case '\n':
        out += attribute ? '&#10;' : ch;
        break;
      case '\r':
        out += '&#13;';
        break;
      default:
        out += ch;
    }
  }
  return out;
}

export const escapeAttr = (s: string): string => escapeXml(s, true);
export const escapeText = (s: string): string => escapeXml(s, false);

function attrs(a: Readonly<Record<string, string | number>>): string {
  return Object.entries(a)
    .map(([k, v]) => ` ${k}="${escapeAttr(String(v))}"`)
    .join('');
}

/** The list of checked files, if the CLI supplies one (`ctx.files`); otherwise only files with findings are known. */
function checkedFiles(ctx: FormatterContext): readonly string[] | undefined {
  return ctx.files.length > 0 ? ctx.files : undefined;
}

function details(f: Finding, file: string): string {
  const lines = [f.message, `rule: ${f.ruleId}`, `severity: ${f.severity}`, `location: ${file}:${f.line}:${f.column}`];
  if (f.path !== '') lines.push(`path: ${f.path}`);
  if (f.object?.name !== undefined) lines.push(`object: ${f.object.kind ?? ''}/${f.object.name} (document ${f.document})`);
  else lines.push(`document: ${f.document}`);
  if (f.server) lines.push(`server: ${f.server.reason} at ${f.server.field}`);
  if (f.response) lines.push(`server: ${f.response.code} ${f.response.reason}: ${f.response.message}`);
  if (f.aborted !== undefined) lines.push(`server: no answer (it panics on ${f.aborted})`);
  return lines.join('\n');
}

interface Suite {
  readonly name: string;
  readonly findings: Finding[];
}

function testcase(f: Finding, file: string): { xml: string; failure: boolean; error: boolean } {
  const name = `${file}:${f.line}:${f.column}${f.path !== '' ? ` ${f.path}` : ''}`;
  const open = `    <testcase${attrs({ classname: f.ruleId, name })}>`;
  const body = escapeText(details(f, file));
  if (f.fatal) {
    // The input could not be processed at all: a JUnit error rather than a failed check.
    return { xml: `${open}\n      <error${attrs({ type: f.severity, message: f.message })}>${body}</error>\n    </testcase>`, failure: false, error: true };
  }
  if (f.severity === 'info') {
    return { xml: `${open}\n      <system-out>${body}</system-out>\n    </testcase>`, failure: false, error: false };
  }
  return { xml: `${open}\n      <failure${attrs({ type: f.severity, message: f.message })}>${body}</failure>\n    </testcase>`, failure: true, error: false };
}

/** JUnit XML: a <testsuite> per file, a <testcase> per finding, a passing <testcase> per clean file. */
export const junit: Formatter = (findings, ctx) => {
  const suites = new Map<string, Suite>();
  for (const file of checkedFiles(ctx) ?? []) {
    const name = displayPath(file, ctx.cwd);
    if (!suites.has(name)) suites.set(name, { name, findings: [] });
  }
  for (const f of findings) {
    const name = displayPath(f.file, ctx.cwd);
    const s = suites.get(name) ?? { name, findings: [] };
    s.findings.push(f);
    suites.set(name, s);
  }
  // Nothing known by name (no findings, no file list): one passing case that says what was checked.
  const placeholder = suites.size === 0;
  if (placeholder) suites.set('kubectl-crdx', { name: 'kubectl-crdx', findings: [] });

  let tests = 0;
  let failures = 0;
  let errors = 0;
  const parts: string[] = [];
  for (const s of suites.values()) {
    const cases: string[] = [];
    let sf = 0;
    let se = 0;
    for (const f of s.findings) {
      const tc = testcase(f, s.name);
      cases.push(tc.xml);
      if (tc.failure) sf++;
      if (tc.error) se++;
    }
    if (s.findings.length === 0) {
      const { files, documents } = ctx.summary;
      const name = placeholder ? `${files} file${files === 1 ? '' : 's'}, ${documents} document${documents === 1 ? '' : 's'}: no problems` : s.name;
      cases.push(`    <testcase${attrs({ classname: 'kubectl-crdx', name })}/>`);
    }
    tests += cases.length;
    failures += sf;
    errors += se;
    parts.push(`  <testsuite${attrs({ name: s.name, tests: cases.length, failures: sf, errors: se, skipped: 0 })}>\n${cases.join('\n')}\n  </testsuite>`);
  }
  const bl = ctx.summary.baseline;
  if (bl && bl.fixed > 0) {
    // not a failure: the baseline holds findings that are gone, and can shrink
    const text = baselineFixedText(bl);
    parts.push(
      `  <testsuite${attrs({ name: 'kubectl-crdx --baseline', tests: 1, failures: 0, errors: 0, skipped: 0 })}>\n    <testcase${attrs({ classname: 'kubectl-crdx', name: 'baseline' })}>\n      <system-out>${escapeText(text)}</system-out>\n    </testcase>\n  </testsuite>`,
    );
    tests++;
  }
  const ups = ctx.summary.updates ?? [];
  if (ups.length > 0) {
    // lint --old: one case per update; a rejected update fails (its causes are the findings above)
    const rejected = ups.filter((u) => !u.accepted).length;
    const cases = ups.map((u) => {
      const text = escapeText(updateSummaryText(u));
      const name = { classname: 'kubectl-crdx', name: `update ${u.name}` };
      return u.accepted
        ? `    <testcase${attrs(name)}>\n      <system-out>${text}</system-out>\n    </testcase>`
        : `    <testcase${attrs(name)}>\n      <failure${attrs({ message: updateSummaryText(u), type: 'update-rejected' })}>${text}</failure>\n    </testcase>`;
    });
    parts.push(`  <testsuite${attrs({ name: 'kubectl-crdx --old', tests: ups.length, failures: rejected, errors: 0, skipped: 0 })}>\n${cases.join('\n')}\n  </testsuite>`);
    tests += ups.length;
    failures += rejected;
  }
  const un = ctx.summary.unchecked;
  if (un) {
    // objects left unchecked are neither passed nor failed: one skipped case says so
    const text = uncheckedText(un);
    parts.push(
      `  <testsuite${attrs({ name: 'kubectl-crdx unchecked objects', tests: 1, failures: 0, errors: 0, skipped: 1 })}>\n    <testcase${attrs({ classname: 'kubectl-crdx', name: 'objects without a CRD' })}>\n      <skipped${attrs({ message: text })}/>\n    </testcase>\n  </testsuite>`,
    );
    tests++;
  }
  const tm = ctx.summary.tooManyWarnings;
  if (tm) {
    // the run fails for its number of warnings: one failing case says so
    const text = tooManyWarningsText(tm);
    parts.push(
      `  <testsuite${attrs({ name: 'kubectl-crdx --max-warnings', tests: 1, failures: 1, errors: 0, skipped: 0 })}>\n    <testcase${attrs({ classname: 'kubectl-crdx', name: 'max-warnings' })}>\n      <failure${attrs({ message: text, type: 'max-warnings' })}>${escapeText(text)}</failure>\n    </testcase>\n  </testsuite>`,
    );
    tests++;
    failures++;
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attrs({ name: 'kubectl-crdx', tests, failures, errors })}>\n${parts.join('\n')}\n</testsuites>\n`;
};
