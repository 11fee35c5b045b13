/**
 * The explanation of `kubectl crdx status`: for each object, the decoding changes of the request,
 * what the stored object kept, what of the request was ignored, what changed and how the
 * generation moved. Pure; colours are injected.
 */
import { deepEqual } from '../go/equal.js';
import { formatPath } from '../core/path.js';
import { isRecord, type JsonPath } from '../core/types.js';
import { printable } from './stylish.js';
import type { Style } from './types.js';
import type { Manifest } from '../manifest/parse.js';
import type { CreateResult } from '../cr/create.js';
import { describeChange, short as shortValue } from './objects.js';
import type { UpdateResult } from '../cr/update.js';
import { jsonText } from '../core/json-text.js';

interface StatusExplainEntry {
  readonly manifest: Manifest;
  readonly create?: CreateResult;
  readonly update?: UpdateResult;
  readonly rejected: boolean;
}

interface Difference {
  readonly path: JsonPath;
  readonly before?: unknown;
  readonly after?: unknown;
}

/** Metadata the server owns on every write: never "ignored" or "changed" in the explanation. */
const VOLATILE = new Set(['resourceVersion', 'managedFields', 'generation', 'uid', 'creationTimestamp']);

/** The leaves (or whole subtrees where one side is missing or of another shape) that differ. */
export function differences(a: unknown, b: unknown, path: JsonPath = []): Difference[] {
  if (isRecord(a) && isRecord(b)) {
    const out: Difference[] = [];
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      if (path.length === 1 && path[0] === 'metadata' && VOLATILE.has(k)) continue;
      const inA = Object.prototype.hasOwnProperty.call(a, k);
      const inB = Object.prototype.hasOwnProperty.call(b, k);
      if (inA && inB) out.push(...differences(a[k], b[k], [...path, k]));
      else if (inA) out.push({ path: [...path, k], before: a[k] });
      else out.push({ path: [...path, k], after: b[k] });
    }
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    const out: Difference[] = [];
    a.forEach((x, i) => out.push(...differences(x, b[i], [...path, i])));
    return out;
  }
  return deepEqual(a, b) ? [] : [{ path, before: a, after: b }];
}

function short(v: unknown): string {
  return shortValue(v, 60, '(absent)');
}

function startsWith(p: JsonPath, prefix: JsonPath): boolean {
  return prefix.every((x, i) => p[i] === x);
}

export function explainStatus(e: StatusExplainEntry, style: Style): string {
  const m = e.manifest;
  const start = m.locate([]);
  const who = printable(`${m.namespace ? `${m.namespace}/` : ''}${m.name ?? '<no name>'}`);
  const u = e.update;
  const what = u ? `update through ${u.via === 'status' ? '/status' : 'the main endpoint'}` : 'create';
  let out = `${style.bold(`${printable(m.file.path)}:${start.line}:${start.column}: ${printable(m.kind ?? '')} ${who} (${what})${e.rejected ? ` ${style.red('rejected')}` : ''}`)}\n`;
  const r = u ?? e.create;
  if (!r) return out;
  const unknown = new Set(r.unknownFields.map((u) => u.field));
  const rows: { where: string; text: string }[] = [];
  for (const c of r.changes) {
    const pos = m.locate(c.path, 'key');
    const text =
      c.kind === 'status-reset' && u
        ? `${style.red('-')} ${printable(formatPath(c.path))} (status subresource: the main endpoint keeps the stored status)`
        : describeChange(c, unknown, style);
    rows.push({ where: `${pos.line}:${pos.column}`, text });
  }
  for (const w of r.warnings) {
    if (w.kind === 'unknown-field') continue;
    const pos = m.locate(w.path ?? [], 'key');
    rows.push({ where: `${pos.line}:${pos.column}`, text: `${style.yellow('!')} ${printable(w.text)} (warning)` });
  }
  if (u && u.request && u.value) {
    const value = u.value;
    // ignored: what the request said that the stored object does not have
    const reset = u.changes.filter((c) => c.kind === 'status-reset').map((c) => c.path);
    for (const d of differences(u.request, value)) {
      if (reset.some((p) => startsWith(d.path, p))) continue;
      const pos = m.locate(d.path, 'key');
      if (d.before === undefined) {
        // not in the request, but in the stored object: kept
        rows.push({ where: `${pos.line}:${pos.column}`, text: `${style.dim('=')} ${printable(formatPath(d.path))}: ${short(d.after)} (kept from the stored object)` });
        continue;
      }
      const why = u.via === 'status' ? (d.path[0] === 'status' ? 'ignored' : 'ignored: /status writes only status') : 'ignored';
      const kept = d.after === undefined ? 'not stored' : `stored: ${short(d.after)}`;
      rows.push({ where: `${pos.line}:${pos.column}`, text: `${style.red('-')} ${printable(formatPath(d.path))}: ${short(d.before)} (${why}; ${kept})` });
    }
  }
  const width = Math.max(0, ...rows.map((x) => x.where.length));
  for (const x of rows) out += `  ${style.dim(x.where.padEnd(width))}  ${x.text}\n`;
  if (u && u.value) {
    const changed = differences(u.old, u.value);
    if (u.noop || changed.length === 0) out += `  ${style.dim('no change: the server writes nothing and the resourceVersion stays')}\n`;
    for (const d of changed) out += `  ${style.yellow('~')} ${printable(formatPath(d.path))}: ${short(d.before)} → ${short(d.after)}\n`;
    const g = u.generation;
    out += `  ${style.dim(`generation ${g.before} → ${g.after}${g.after === g.before ? (u.via === 'status' ? ' (never raised through /status)' : ' (only metadata changed, or nothing)') : ' (a change outside metadata' + (u.served.statusEnabled ? ' and status)' : ')')}`)}\n`;
  } else if (!u && e.create && !e.rejected) {
    out += `  ${style.dim('generation 1 (create)')}\n`;
  }
  for (const n of r.notes) out += `  ${style.dim(`note: ${n}`)}\n`;
  if (r.celNotEvaluated) out += `  ${style.dim('note: the CRD has CEL rules (x-kubernetes-validations) that could not all be evaluated')}\n`;
  return out;
}
