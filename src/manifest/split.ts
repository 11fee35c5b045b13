/** One `---`-separated part of a stream. */
export interface Chunk {
  readonly text: string;
  /** Offsets of the chunk in the stream. */
  readonly start: number;
  readonly end: number;
  /** Lines of the stream before the chunk. */
  readonly lineOffset: number;
}

/**
 * Splits a stream before every line that starts with `---`, as kubectl's YAMLReader does; a head of
 * comments, blank lines and directives belongs to the first document.
 */
export function splitDocuments(text: string): Chunk[] {
  const chunks: Chunk[] = [];
  const sep = /^---(?=[ \t\r\n]|$)/gm;
  let start = 0;
  let line = 0;
  const push = (end: number): void => {
    const t = text.slice(start, end);
    if (chunks.length === 0 && end < text.length && /^(?:[ \t]*(?:[#%].*)?\r?\n)*$/.test(t)) return;
    chunks.push({ text: t, start, end, lineOffset: line });
    line += countLines(t);
    start = end;
  };
  for (let m = sep.exec(text); m !== null; m = sep.exec(text)) if (m.index > start) push(m.index);
  if (start < text.length || chunks.length === 0) push(text.length);
  return chunks;
}

/** The number of line breaks in a text. */
export function countLines(t: string): number {
  let n = 0;
  for (let i = t.indexOf('\n'); i >= 0; i = t.indexOf('\n', i + 1)) n++;
  return n;
}
