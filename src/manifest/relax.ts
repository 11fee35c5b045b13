/**
 * go-yaml (what kubectl and the API server decode YAML with) accepts quoted scalars whose
 * continuation lines are indented no deeper than their key, as YAML emitters produce for long
 * CEL rules (gateway-api's install manifests have them). The YAML 1.2 parser rejects them.
 * As a fallback after a failed parse, this re-indents such continuation lines by the minimum
 * needed, leaving every line number unchanged.
 */
// The line shapes, after the leading spaces (matched apart: a leading ` *` in these patterns made the
// regex engine retry every split of the indentation, cubic in the indentation of a nested document):
// `- - key: 'open quote…` and `- key: |` (a block scalar header).
/** Optional `key:` then an opening quote. */
const KEY_QUOTE = /^(?:[^'"#\s][^#]*?:[ \t]+)?(['"])/;
/** A key reaching an opening quote, the key starting anywhere (see openQuote). */
const ANY_KEY_QUOTE = /^[^#]*?:[ \t]+(['"])/;
/** `- ` entries taken whole (a lookahead is atomic: no retrying of how many), then `key: |` or `|`. */
const BLOCK = /^(?=((?:- +)*))\1(?:[^#]*?:[ \t]+)?[|>][-+0-9]*[ \t]*(?:#.*)?$/;

interface Open {
  readonly quote: string;
  /** Index of the opening quote in the line. */
  readonly at: number;
  /** Column of the scalar's key: the leading spaces and the last `- ` entry before it. */
  readonly base: number;
}

/**
 * The opening quote of a scalar on a line: what `^( *)(- +)*((?:[^'"#\s][^#]*?):[ \t]+)?(['"])`
 * matches, with base = group 1 + group 2, in linear time. With k `- ` entries that fail to match, the
 * pattern would retry k-1, k-2, … entries: all succeed or fail alike (the key then starts with `-`
 * and reaches the same `: '`), and the first of them, k-1, is the one reported.
 */
function openQuote(line: string): Open | undefined {
  const spaces = leadingSpaces(line);
  let i = spaces;
  const entries: number[] = [];
  while (line[i] === '-' && line[i + 1] === ' ') {
    const start = i++;
    while (line.charCodeAt(i) === 32) i++;
    entries.push(i - start);
  }
  const rest = line.slice(i);
  const m = KEY_QUOTE.exec(rest);
  if (m) return { quote: m[1]!, at: i + m[0].length - 1, base: spaces + (entries.at(-1) ?? 0) };
  const k = entries.length > 0 ? ANY_KEY_QUOTE.exec(rest) : null;
  if (k) return { quote: k[1]!, at: i + k[0].length - 1, base: spaces + (entries.at(-2) ?? 0) };
  return undefined;
}

/** Index just after the closing quote of a scalar starting at `from` (the opening quote), or -1. */
function closeAt(line: string, from: number, q: string): number {
  for (let i = from; i < line.length; i++) {
    const c = line[i];
    if (q === "'" && c === "'") {
      if (line[i + 1] === "'") {
        i++;
        continue;
      }
      return i + 1;
    }
    if (q === '"') {
      if (c === '\\') {
        i++;
        continue;
      }
      if (c === '"') return i + 1;
    }
  }
  return -1;
}

function leadingSpaces(line: string): number {
  let i = 0;
  while (line.charCodeAt(i) === 32) i++;
  return i;
}

export function relaxQuotedIndentation(text: string): string | undefined {
  const lines = text.split('\n');
  let changed = false;
  let quote: string | undefined;
  let base = 0;
  let blockIndent = -1;
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    const indent = line.length - line.trimStart().length;
    if (quote === undefined) {
      if (blockIndent >= 0) {
        if (line.trim() === '' || indent > blockIndent) continue;
        blockIndent = -1;
      }
      if (BLOCK.test(line.slice(leadingSpaces(line)))) {
        blockIndent = indent;
        continue;
      }
      const o = openQuote(line);
      if (!o) continue;
      if (closeAt(line, o.at + 1, o.quote) >= 0) continue;
      quote = o.quote;
      base = o.base;
      continue;
    }
    // inside a multi-line quoted scalar
    let l = line;
    if (l.trim() !== '' && indent <= base) {
      l = ' '.repeat(base + 1) + l.trimStart();
      lines[n] = l;
      changed = true;
    }
    if (closeAt(l, 0, quote) >= 0) quote = undefined;
  }
  return changed ? lines.join('\n') : undefined;
}
