/**
 * Suppression comments in YAML sources, matched against findings after linting:
 *
 *   # crdx-disable-next-line RULE[, RULE…] -- reason   the next line that holds YAML (not blank, not a comment)
 *   # crdx-disable RULE[, RULE…] -- reason             from the comment to the end of its YAML document
 *
 * A finding is covered when its rule is listed and its line is in the comment's range. Covered
 * findings are kept apart with the comment's reason (formatters list them, nothing counts them).
 * Comments without a reason, listing unknown rules, or covering nothing are findings of the
 * reserved rule `suppression` (warnings), positioned at the comment.
 */
import { CST, Lexer } from 'yaml';
import type { Finding, SuppressedFinding, Suppression } from '../core/types.js';
import { compactNesting, type SourceFile } from '../manifest/parse.js';

export const SUPPRESSION_RULE_ID = 'suppression';

interface Directive {
  readonly file: string;
  readonly kind: 'disable' | 'disable-next-line';
  readonly rules: readonly string[];
  /** The text after `--`, trimmed; '' when none. */
  readonly reason: string;
  /** The YAML document of the comment (0-based, as findings count them). */
  readonly document: number;
  /** Position of the `#`. */
  readonly line: number;
  readonly column: number;
  readonly endColumn: number;
  /** Lines covered, inclusive; `to` < `from` when nothing follows the comment. */
  readonly from: number;
  readonly to: number;
  /** Rules named that no rule or reserved id has. */
  readonly unknown: readonly string[];
  /** The comment names a directive that does not exist (`crdx-disable-line`, a typo). */
  readonly malformed?: string;
}

const DIRECTIVE = /^#\s*(crdx-[a-z-]*)(.*)$/;
const MARKERS = new Set(['\u0002', '\u0018', '\u001f']);

type Lexed = { readonly token: string; readonly offset: number };

/** The yaml lexer's tokens of a text (stream markers left out), with their offsets from `base`. */
function lexFrom(text: string, base: number, out: Lexed[]): void {
  let offset = base;
  for (const token of new Lexer().lex(text)) {
    if (MARKERS.has(token)) continue;
    out.push({ token, offset });
    offset += token.length;
  }
}

/**
 * The tokens of a whole text. The yaml lexer recurses on block nesting (`- - - …`), so hostile depth
 * overflows the stack (and more than MAX_DEPTH compact entries on a line take it quadratic time):
 * then each document, from one `---` line to the next, is lexed alone, and one that is hostile is left
 * out. The parser reports such a document as nested too deeply; its comments are not read.
 */
function lexTokens(text: string): Lexed[] {
  if (!compactNesting(text)) {
    const out: Lexed[] = [];
    try {
      lexFrom(text, 0, out);
      return out;
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
    }
  }
  const out: Lexed[] = [];
  const starts = [0];
  for (const m of text.matchAll(/^---(?=[ \t\r\n]|$)/gm)) if (m.index > 0) starts.push(m.index);
  starts.forEach((start, i) => {
    const chunk = text.slice(start, starts[i + 1] ?? text.length);
    const part: Lexed[] = [];
    try {
      if (!compactNesting(chunk)) {
        lexFrom(chunk, start, part);
        out.push(...part);
        return;
      }
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
    }
    // the document still starts at its `---` (documents after it keep their numbers)
    if (i > 0) out.push({ token: '---', offset: start });
  });
  return out;
}

/**
 * The suppression comments of a file, found with the yaml lexer (so `#` inside strings and block
 * scalars is not a comment). Files that do not mention `crdx-` are not lexed.
 */
export function scanDirectives(file: SourceFile, known: ReadonlySet<string>): Directive[] {
  let text = file.text;
  if (!text.includes('crdx-')) return [];
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineOf = (offset: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  // comments and the lines holding YAML content, and where documents start (`---`) and end (`...`)
  const comments: { offset: number; text: string }[] = [];
  const contentLines = new Set<number>();
  const docBreaks: number[] = [];
  const docStarts: number[] = [];
  for (const { token, offset } of lexTokens(text)) {
    const type = CST.tokenType(token);
    if (type === 'comment') comments.push({ offset, text: token });
    else if (type === 'doc-start' || type === 'doc-end') {
      docBreaks.push(offset);
      if (type === 'doc-start') docStarts.push(offset);
    }
    else if (type !== 'newline' && type !== 'space' && type !== 'byte-order-mark' && type !== 'directive-line') {
      // a multi-line token (a block scalar, a quoted scalar) holds every line it spans
      const first = lineOf(offset);
      const last = lineOf(offset + Math.max(0, token.replace(/\s+$/, '').length - 1));
      for (let l = first; l <= last; l++) contentLines.add(l);
    } else if (type === 'space' && token.trim() !== '') {
      // block scalar bodies come as one token after their header
      const start = offset + (token.length - token.trimStart().length);
      const first = lineOf(start);
      const last = lineOf(offset + token.trimEnd().length - 1);
      for (let l = first; l <= last; l++) contentLines.add(l);
    }
  }
  const lastLine = lineStarts.length;
  const sortedContent = [...contentLines].sort((a, b) => a - b);
  const breakLines = docBreaks.map(lineOf);
  // a `---` with only comments and blank lines above it opens the first document
  const firstContent = sortedContent[0] ?? Infinity;
  const startLines = docStarts.map(lineOf).filter((l, i) => i > 0 || l > firstContent);
  const documentOf = (line: number): number => startLines.filter((l) => l <= line).length;
  const out: Directive[] = [];
  for (const c of comments) {
    const m = DIRECTIVE.exec(c.text);
    if (!m) continue;
    const line = lineOf(c.offset);
    const column = c.offset - lineStarts[line - 1]! + 1;
    const name = m[1]!;
    // the next line with YAML on it: a comment above a `---` belongs to the document after it
    const next = sortedContent.find((l) => l > line);
    const base = { file: file.path, document: documentOf(next ?? line), line, column, endColumn: column + c.text.length };
    if (name !== 'crdx-disable' && name !== 'crdx-disable-next-line') {
      out.push({ ...base, kind: 'disable', rules: [], reason: '', from: 1, to: 0, unknown: [], malformed: name });
      continue;
    }
    const rest = m[2]!;
    const sep = rest.indexOf('--');
    const ruleText = sep >= 0 ? rest.slice(0, sep) : rest;
    const reason = sep >= 0 ? rest.slice(sep + 2).trim() : '';
    const named = ruleText
      .split(',')
      .map((r) => r.trim())
      .filter((r) => r !== '');
    const rules = named.filter((r) => known.has(r));
    const unknown = named.filter((r) => !known.has(r));
    const kind = name === 'crdx-disable' ? 'disable' : 'disable-next-line';
    let from = line;
    let to: number;
    if (kind === 'disable-next-line') {
      from = next ?? lastLine + 1;
      to = next ?? lastLine;
    } else {
      // a comment above a document's `---` belongs to that document
      const end = breakLines.find((b) => b > line && next !== undefined && b > next);
      to = end !== undefined ? end - 1 : lastLine;
    }
    out.push({ ...base, kind, rules, reason, from, to, unknown, ...(named.length === 0 ? { malformed: name } : {}) });
  }
  return out;
}

interface SuppressResult {
  /** Findings still reported, with the findings about the comments themselves. */
  readonly findings: Finding[];
  readonly suppressed: SuppressedFinding[];
}

function directiveFinding(d: Directive, messageId: string, message: string): Finding {
  return {
    ruleId: SUPPRESSION_RULE_ID,
    severity: 'warning',
    message,
    messageId,
    file: d.file,
    line: d.line,
    column: d.column,
    endLine: d.line,
    endColumn: d.endColumn,
    document: d.document,
    path: '',
  };
}

/**
 * Applies the suppression comments of `files` to `findings`. A finding that could not be processed
 * (`fatal`) is never suppressed, and neither are findings of the `suppression` rule itself.
 * `known`: the rule ids a comment may name.
 */
export function applySuppressions(findings: readonly Finding[], files: readonly SourceFile[], known: ReadonlySet<string>): SuppressResult {
  const byFile = new Map<string, Directive[]>();
  for (const f of files) {
    const ds = scanDirectives(f, known);
    if (ds.length > 0) byFile.set(f.path, [...(byFile.get(f.path) ?? []), ...ds]);
  }
  if (byFile.size === 0) return { findings: [...findings], suppressed: [] };
  const used = new Set<string>(); // directive index + rule
  const kept: Finding[] = [];
  const suppressed: SuppressedFinding[] = [];
  const keyOf = (d: Directive, rule: string): string => `${d.file}\u0000${d.line}\u0000${rule}`;
  for (const f of findings) {
    const ds = f.fatal ? undefined : byFile.get(f.file);
    const covering = ds?.filter((d) => d.rules.includes(f.ruleId) && f.line >= d.from && f.line <= d.to) ?? [];
    if (covering.length === 0) {
      kept.push(f);
      continue;
    }
    for (const d of covering) used.add(keyOf(d, f.ruleId));
    const suppressions: Suppression[] = covering.map((d) => ({ kind: 'inSource', justification: d.reason, line: d.line, column: d.column }));
    suppressed.push({ ...f, suppressions });
  }
  for (const ds of byFile.values()) {
    for (const d of ds) {
      if (d.malformed !== undefined) {
        const what = d.malformed === 'crdx-disable' || d.malformed === 'crdx-disable-next-line'
          ? `${d.malformed} names no rule: write # ${d.malformed} RULE[, RULE…] -- reason`
          : `unknown directive ${d.malformed}: crdx knows crdx-disable and crdx-disable-next-line`;
        kept.push(directiveFinding(d, 'malformed', what));
        continue;
      }
      for (const r of d.unknown) kept.push(directiveFinding(d, 'unknownRule', `${d.kind === 'disable' ? 'crdx-disable' : 'crdx-disable-next-line'} names an unknown rule "${r}"`));
      if (d.rules.length > 0 && d.reason === '') kept.push(directiveFinding(d, 'missingReason', `suppression of ${d.rules.join(', ')} without a reason: add one after " -- "`));
      for (const r of d.rules) if (!used.has(keyOf(d, r))) kept.push(directiveFinding(d, 'unused', `unused suppression: no ${r} finding ${d.kind === 'disable' ? 'from here to the end of the document' : 'on the next line'}`));
    }
  }
  return { findings: kept, suppressed };
}
