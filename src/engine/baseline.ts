/**
 * A baseline: the findings a repository accepted, so that a run reports only new ones. Entries are
 * matched by rule, file, object (apiVersion, kind, namespace, name), field path and message — never
 * by line or column, so edits elsewhere in a file do not break the match. Identical entries are
 * counted (`count`): a baseline with one entry absorbs one finding, a second identical one is new.
 */
import { posix } from 'node:path';
import { InputError } from '../core/errors.js';
import { isRecord, type Finding } from '../core/types.js';

const BASELINE_VERSION = 1;

interface BaselineObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly namespace?: string;
  readonly name?: string;
}

interface BaselineEntry {
  readonly ruleId: string;
  /** Relative to the working directory, forward slashes; `stdin` for `-`. */
  readonly file: string;
  readonly object?: BaselineObject;
  readonly path: string;
  readonly message: string;
  /** How many findings with exactly these fields the baseline accepts (>= 1). */
  readonly count: number;
}

export interface Baseline {
  readonly version: typeof BASELINE_VERSION;
  readonly findings: readonly BaselineEntry[];
}

/** The file of a finding as the baseline stores it: relative to cwd when inside it, forward slashes. */
export function baselineFile(file: string, cwd: string): string {
  if (file === '-') return 'stdin';
  const f = file.replace(/\\/g, '/');
  const base = cwd.replace(/\\/g, '/').replace(/\/+$/, '');
  if (base !== '' && f.startsWith(`${base}/`)) return posix.normalize(f.slice(base.length + 1));
  return posix.normalize(f);
}

function objectOf(f: Finding): BaselineObject | undefined {
  const o = f.object;
  if (!o) return undefined;
  const out = {
    ...(o.apiVersion !== undefined ? { apiVersion: o.apiVersion } : {}),
    ...(o.kind !== undefined ? { kind: o.kind } : {}),
    ...(o.namespace !== undefined ? { namespace: o.namespace } : {}),
    ...(o.name !== undefined ? { name: o.name } : {}),
  };
  return Object.keys(out).length > 0 ? out : undefined;
}

function keyOf(e: Omit<BaselineEntry, 'count'>): string {
  const o = e.object ?? {};
  return JSON.stringify([e.ruleId, e.file, o.apiVersion ?? null, o.kind ?? null, o.namespace ?? null, o.name ?? null, e.path, e.message]);
}

function entryOf(f: Finding, cwd: string): Omit<BaselineEntry, 'count'> {
  const object = objectOf(f);
  return { ruleId: f.ruleId, file: baselineFile(f.file, cwd), ...(object ? { object } : {}), path: f.path, message: f.message };
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The baseline of these findings, entries sorted by file, rule, object, path and message. */
export function buildBaseline(findings: readonly Finding[], cwd: string): Baseline {
  const byKey = new Map<string, BaselineEntry>();
  for (const f of findings) {
    const e = entryOf(f, cwd);
    const k = keyOf(e);
    const prev = byKey.get(k);
    byKey.set(k, { ...e, count: (prev?.count ?? 0) + 1 });
  }
  const sortKey = (e: BaselineEntry): string[] => {
    const o = e.object ?? {};
    return [e.file, e.ruleId, o.apiVersion ?? '', o.kind ?? '', o.namespace ?? '', o.name ?? '', e.path, e.message];
  };
  const entries = [...byKey.values()].sort((a, b) => {
    const ka = sortKey(a);
    const kb = sortKey(b);
    for (let i = 0; i < ka.length; i++) {
      const c = cmp(ka[i]!, kb[i]!);
      if (c !== 0) return c;
    }
    return 0;
  });
  return { version: BASELINE_VERSION, findings: entries };
}

/** The file's text: stable (sorted entries, fixed key order, two-space indent, final newline). */
export function serializeBaseline(b: Baseline): string {
  return JSON.stringify({ version: b.version, findings: b.findings }, null, 2) + '\n';
}

const OBJECT_KEYS = new Set(['apiVersion', 'kind', 'namespace', 'name']);

/** Reads a baseline file; anything else than the documented format is an input failure (exit 2). */
export function parseBaseline(text: string, name: string): Baseline {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new InputError('unreadable', `baseline ${name}: not JSON (${(e as Error).message})`);
  }
  const bad = (why: string): never => {
    throw new InputError('unreadable', `baseline ${name}: ${why} (rewrite it with --update-baseline)`);
  };
  if (!isRecord(v)) return bad('expected an object {version, findings}');
  if (v['version'] !== BASELINE_VERSION) return bad(`unsupported version ${JSON.stringify(v['version'])}, expected ${BASELINE_VERSION}`);
  const list = v['findings'];
  if (!Array.isArray(list)) return bad('findings must be an array');
  const findings = list.map((e: unknown, i): BaselineEntry => {
    if (!isRecord(e)) return bad(`findings[${i}] must be an object`);
    for (const k of ['ruleId', 'file', 'path', 'message'] as const) if (typeof e[k] !== 'string') bad(`findings[${i}].${k} must be a string`);
    const count = e['count'] ?? 1;
    if (typeof count !== 'number' || !Number.isInteger(count) || count < 1) bad(`findings[${i}].count must be a whole number >= 1`);
    const o = e['object'];
    if (o !== undefined && (!isRecord(o) || Object.entries(o).some(([k, x]) => !OBJECT_KEYS.has(k) || typeof x !== 'string')))
      bad(`findings[${i}].object may only hold the strings apiVersion, kind, namespace, name`);
    return {
      ruleId: e['ruleId'] as string,
      file: e['file'] as string,
      ...(o !== undefined ? { object: o as BaselineObject } : {}),
      path: e['path'] as string,
      message: e['message'] as string,
      count: count as number,
    };
  });
  return { version: BASELINE_VERSION, findings };
}

interface BaselineResult {
  /** Findings the baseline does not hold: the ones reported. */
  readonly findings: Finding[];
  /** Findings the baseline holds (not reported). */
  readonly matched: number;
  /** Accepted findings that no longer occur (sum of unused counts). */
  readonly fixed: number;
}

export function applyBaseline(findings: readonly Finding[], baseline: Baseline, cwd: string): BaselineResult {
  const left = new Map<string, number>();
  for (const e of baseline.findings) {
    const k = keyOf(e);
    left.set(k, (left.get(k) ?? 0) + e.count);
  }
  const out: Finding[] = [];
  let matched = 0;
  for (const f of findings) {
    const k = keyOf(entryOf(f, cwd));
    const n = left.get(k) ?? 0;
    if (n > 0) {
      left.set(k, n - 1);
      matched++;
    } else out.push(f);
  }
  let fixed = 0;
  for (const n of left.values()) fixed += n;
  return { findings: out, matched, fixed };
}
