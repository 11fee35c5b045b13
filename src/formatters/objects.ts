/**
 * Text for `kubectl crdx default` (and `status`, the language server): the objects (YAML or JSON,
 * keys in the server's order) and the explanation of every change, positioned in the input. The
 * simulation (src/cr) returns data; this is its presentation. Pure; colours are injected.
 */
import { formatPath } from '../core/path.js';
import { isRecord } from '../core/types.js';
import type { Style } from './types.js';
import { printable } from './stylish.js';
import type { Manifest } from '../manifest/parse.js';
import type { CreateResult, CrChange } from '../cr/create.js';
import { jsonText } from '../core/json-text.js';
import { goCompare } from '../go/strings.js';
import { goJsonIndent } from '../go/json.js';
import { goYamlText } from '../go/yaml-emit.js';

type OutputFormat = 'yaml' | 'json';

/** One object prints as itself, several as a v1 List, as kubectl -o yaml / -o json print them. */
export function renderObjects(objects: readonly Record<string, unknown>[], format: OutputFormat): string {
  if (objects.length === 0) return '';
  const doc = objects.length === 1 ? objects[0] : { apiVersion: 'v1', items: objects, kind: 'List' };
  return format === 'json' ? `${goJsonIndent(doc)}\n` : goYamlText(doc);
}

/** A value as one short printable line of JSON: at most `width` characters, `absent` for undefined. */
export function short(v: unknown, width = 72, absent = ''): string {
  const s = v === undefined ? absent : (jsonText(v) ?? '');
  return printable(s.length > width ? `${s.slice(0, width - 1)}…` : s);
}

function isEmpty(v: unknown): boolean {
  return v === null || v === '' || v === 0 || (Array.isArray(v) && v.length === 0) || (isRecord(v) && Object.keys(v).length === 0);
}

/** One change as a line: `+ spec.replicas: 1 (default)`. */
export function describeChange(c: CrChange, unknown: ReadonlySet<string>, style: Style): string {
  const p = printable(formatPath(c.path));
  const inStorage = c.stage === 'storage' ? ` of storage version ${c.version}` : '';
  const plus = (text: string) => `${style.blue('+')} ${text}`;
  const minus = (text: string) => `${style.red('-')} ${text}`;
  const tilde = (text: string) => `${style.yellow('~')} ${text}`;
  switch (c.kind) {
    case 'defaulted':
      return plus(`${p}: ${short(c.after)} (default${inStorage}${'before' in c ? ', replacing null' : ''})`);
    case 'pruned':
      return minus(`${p} (${c.stage === 'storage' ? `unknown in storage version ${c.version}` : 'unknown field'}, pruned)`);
    case 'null-dropped':
      return minus(`${p} (null without default, dropped)`);
    case 'metadata-coerced':
      if (!('after' in c)) return minus(`${p} (${unknown.has(p) || unknown.has(c.path.join('.')) ? 'unknown metadata field' : isEmpty(c.before) ? 'empty' : 'malformed'}, dropped)`);
      if (!('before' in c)) return plus(`${p}: ${short(c.after)} (metadata normalised)`);
      return tilde(`${p}: ${short(c.after)} (was ${short(c.before)}; metadata normalised)`);
    case 'server-managed':
      return minus(`${p} (set by the server)`);
    case 'namespace-cleared':
      return minus(`${p} (cluster-scoped kind: cleared)`);
    case 'owner-reference-deduplicated':
      return minus(`${p} (duplicate owner reference, removed)`);
    case 'status-reset':
      return minus(`${p} (status subresource: not written on create)`);
    default:
      return tilde(`${p} (${c.kind})`);
  }
}

interface ExplainEntry {
  readonly manifest: Manifest;
  readonly result: CreateResult;
  readonly rejected: boolean;
}

/** The explanation of one object: a header, then each change at its input position. */
export function explainObject(e: ExplainEntry, style: Style): string {
  const m = e.manifest;
  const start = m.locate([]);
  const md = isRecord(m.value['metadata']) ? m.value['metadata'] : {};
  const name = m.name ?? (typeof md['generateName'] === 'string' ? `${md['generateName']}*` : '<no name>');
  const who = printable(`${m.namespace ? `${m.namespace}/` : ''}${name}`);
  const head = `${printable(m.file.path)}:${start.line}:${start.column}: ${printable(m.kind ?? '')} ${who} (${printable(m.apiVersion ?? '')})${e.rejected ? ` ${style.red('rejected')}` : ''}${
    e.result.strictError ? ' (400 BadRequest: strict field validation; shown as --validate=warn would store it)' : ''
  }`;
  const unknown = new Set(e.result.unknownFields.map((u) => u.field));
  const rows: { where: string; text: string }[] = [];
  for (const c of e.result.changes) {
    const pos = m.locate(c.path, 'key');
    rows.push({ where: `${pos.line}:${pos.column}`, text: describeChange(c, unknown, style) });
  }
  for (const w of e.result.warnings) {
    if (w.kind === 'unknown-field') continue;
    const pos = m.locate(w.path ?? [], 'key');
    rows.push({ where: `${pos.line}:${pos.column}`, text: `${style.yellow('!')} ${printable(w.text)} (warning)` });
  }
  const width = Math.max(0, ...rows.map((r) => r.where.length));
  let out = `${style.bold(head)}\n`;
  if (rows.length === 0 && !e.rejected) out += `  ${style.dim('(no changes)')}\n`;
  for (const r of rows) out += `  ${style.dim(r.where.padEnd(width))}  ${r.text}\n`;
  for (const n of e.result.notes) out += `  ${style.dim(`note: ${n}`)}\n`;
  if (e.result.celNotEvaluated) out += `  ${style.dim('note: the CRD has CEL rules (x-kubernetes-validations) that could not all be evaluated')}\n`;
  return out;
}
