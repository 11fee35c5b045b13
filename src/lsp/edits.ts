/**
 * Mechanical fixes as text edits (pure): what the language server's code actions apply. Positions
 * are 0-based lines and UTF-16 columns, as in LSP.
 */

export interface TextEditAt {
  readonly range: { readonly start: { line: number; character: number }; readonly end: { line: number; character: number } };
  readonly newText: string;
}

const indentOf = (l: string): number => l.length - l.trimStart().length;

/**
 * Removes a block mapping entry whose key starts at (line, column): the key's line and the lines of
 * its value (indented deeper, or a sequence at the key's own indentation). Undefined when the key
 * does not start its line (a flow mapping, the first key of a sequence item `- key:`): no
 * mechanical edit is offered then.
 */
export function removeKeyEdit(text: string, line: number, column: number): TextEditAt | undefined {
  const lines = text.split('\n');
  const first = lines[line];
  if (first === undefined || first.slice(0, column).trim() !== '' || column >= first.length) return undefined;
  let last = line;
  for (let i = line + 1; i < lines.length; i++) {
    const l = lines[i]!.replace(/\r$/, '');
    if (l.trim() === '') continue;
    const ind = indentOf(l);
    if (ind > column || (ind === column && /^-(?:\s|$)/.test(l.trimStart()))) last = i;
    else break;
  }
  // the whole lines go, with the line break of the last one (or the one before, at the end of the text)
  if (last + 1 < lines.length) return { range: { start: { line, character: 0 }, end: { line: last + 1, character: 0 } }, newText: '' };
  if (line === 0) return { range: { start: { line: 0, character: 0 }, end: { line: last, character: lines[last]!.length } }, newText: '' };
  return { range: { start: { line: line - 1, character: lines[line - 1]!.replace(/\r$/, '').length }, end: { line: last, character: lines[last]!.length } }, newText: '' };
}

/**
 * Adds `key: value` to a mapping: the one whose key starts at (line, column) (`scale:` with its
 * entries on the following lines, or `scale: {…}`), or whose first entry or flow `{` is there. A
 * block entry becomes a line before the first entry, with its indentation.
 */
export function addKeyEdit(text: string, line: number, column: number, key: string, value: string): TextEditAt | undefined {
  const lines = text.split('\n');
  const l = lines[line]?.replace(/\r$/, '');
  if (l === undefined) return undefined;
  const keyed = /^(?:"[^"]*"|'[^']*'|[^\s:#{}[\],]+)[ \t]*:(?:[ \t]+|$)/.exec(l.slice(column));
  if (keyed && l.slice(0, column).trim() === '') {
    const after = l.slice(column + keyed[0].length);
    if (after.startsWith('{')) return addKeyEdit(text, line, column + keyed[0].length, key, value);
    if (after.trim() !== '' && !after.trim().startsWith('#')) return undefined;
    // the entries are on the next lines: the first one that is not blank or a comment
    for (let i = line + 1; i < lines.length; i++) {
      const n = lines[i]!.replace(/\r$/, '');
      if (n.trim() === '' || n.trim().startsWith('#')) continue;
      const ind = indentOf(n);
      return ind > column ? insertLine(lines, i, ind, key, value) : undefined;
    }
    return undefined;
  }
  const rest = l.slice(column);
  if (rest.startsWith('{')) {
    const empty = /^\{\s*\}/.test(rest);
    const at = { line, character: column + 1 };
    return { range: { start: at, end: at }, newText: empty ? `${key}: ${value}` : `${key}: ${value}, ` };
  }
  if (l.slice(0, column).trim() !== '' || rest.trim() === '') return undefined;
  return insertLine(lines, line, column, key, value);
}

function insertLine(lines: readonly string[], line: number, indent: number, key: string, value: string): TextEditAt {
  const at = { line, character: 0 };
  const eol = lines[line]!.endsWith('\r') ? '\r\n' : '\n';
  return { range: { start: at, end: at }, newText: `${' '.repeat(indent)}${key}: ${value}${eol}` };
}
