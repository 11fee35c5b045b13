/**
 * The JSON body kubectl sends for a manifest. kubectl converts YAML with sigs.k8s.io/yaml (go-yaml
 * v2), which keeps timestamp-looking plain scalars as the strings they were written as (`2024-01-01`
 * stays `"2024-01-01"`); the YAML 1.1 parser used here turns them into Dates, so they are put back
 * from the source text.
 */
import { isRecord, type JsonPath, type Position } from '../core/types.js';
import type { Manifest } from '../manifest/parse.js';

export function wireValue(m: Manifest): Record<string, unknown> {
  if (!hasDate(m.value)) return m.value;
  const v = convert(m.value, [], m);
  return isRecord(v) ? v : {};
}

function hasDate(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (v instanceof Date) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (hasDate(v[i])) return true;
    return false;
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (hasDate(o[k])) return true;
  return false;
}

function convert(v: unknown, path: JsonPath, m: Manifest): unknown {
  if (v instanceof Date) return sourceText(m, path) ?? v.toISOString();
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    v.forEach((x, i) => {
      const c = convert(x, [...path, i], m);
      if (c !== x) (out ??= [...v])[i] = c;
    });
    return out ?? v;
  }
  if (isRecord(v)) {
    let out: Record<string, unknown> | undefined;
    for (const k of Object.keys(v)) {
      const c = convert(v[k], [...path, k], m);
      if (c !== v[k]) {
        out ??= { ...v };
        Object.defineProperty(out, k, { value: c, enumerable: true, writable: true, configurable: true });
      }
    }
    return out ?? v;
  }
  return v;
}

/** The text of the scalar at `path`, from the node's range in the source. */
function sourceText(m: Manifest, path: JsonPath): string | undefined {
  const p: Position = m.locate(path, 'value');
  if (p.endLine === undefined || p.endColumn === undefined) return undefined;
  let text = m.file.text;
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const start = offsetOf(text, p.line, p.column);
  const end = offsetOf(text, p.endLine, p.endColumn);
  if (start === undefined || end === undefined || end <= start) return undefined;
  const s = text.slice(start, end).trim();
  return /^[0-9]/.test(s) ? s : undefined;
}

function offsetOf(text: string, line: number, column: number): number | undefined {
  let off = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', off);
    if (nl < 0) return undefined;
    off = nl + 1;
  }
  return off + column - 1;
}
