/**
 * go-yaml (what kubectl and the API server decode YAML with) accepts quoted scalars whose
 * continuation lines are indented no deeper than their key, as YAML emitters produce for long
 * CEL rules (gateway-api's install manifests have them). The YAML 1.2 parser rejects them.
 * As a fallback after a failed parse, this re-indents such continuation lines by the minimum
 * needed, leaving every line number unchanged.
 */
const OPEN = /^( *)(- +)*((?:[^'"#\s][^#]*?):[ \t]+)?(['"])/;
const BLOCK = /^( *)(?:- +)*(?:[^#]*?:[ \t]+)?[|>][-+0-9]*[ \t]*(#.*)?$/;

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
      const b = BLOCK.exec(line);
      if (b) {
        blockIndent = indent;
        continue;
      }
      const m = OPEN.exec(line);
      if (!m) continue;
      const qpos = m[0].length - 1;
      if (closeAt(line, qpos + 1, m[4]!) >= 0) continue;
      quote = m[4];
      base = m[1]!.length + (m[2]?.length ?? 0);
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
