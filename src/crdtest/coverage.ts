/**
 * `kubectl crdx test --coverage`: which CEL rules and schema constraints (enum, pattern, bounds,
 * lengths, item and property counts, required) of the CRDs under test the passing cases exercised
 * both ways: a value that held (the constraint applied and the server raised nothing for it) and
 * one that was refused (a cause of the answer comes from it). Pure: fed by the runner's onCase.
 *
 * A constraint applies where the case's object has a value at its schema node: the object as
 * stored when the request succeeds, else the object as sent. Constraints under `status` apply only
 * to /status writes when the status subresource is on (and only they do then); transition rules
 * (oldSelf) only to updates; CEL rules not when the answer says they were not checked. Scale
 * operations count only the causes they raise. Causes are mapped back to constraints by field
 * path and by the server's wording of each kind of error.
 */
import { isRecord, type JsonPath } from '../core/types.js';
import { schemaTargetFor, type Crd } from '../crd/model.js';
import type { SimulatedCase } from './run.js';
import type { Cause, ConstraintCoverage, CrdCoverage } from './types.js';

type Schema = Record<string, unknown>;

const BOUNDS = ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'] as const;
const NOT_CHECKED = 'some validation rules were not checked';

interface Constraint {
  readonly key: string;
  readonly kind: string;
  readonly node: string;
  readonly detail: string;
  readonly at: JsonPath;
  held: number;
  violated: number;
}

/** A data path with list indexes and map keys as `*`, printed. */
function show(segs: readonly string[]): string {
  let out = '';
  for (const s of segs) out += s === '*' ? '[*]' : out === '' ? s : `.${s}`;
  return out === '' ? '<root>' : out;
}

function rules(s: Schema): { rule: string; message?: string; messageExpression?: boolean }[] {
  const v = s['x-kubernetes-validations'];
  if (!Array.isArray(v)) return [];
  return v.filter(isRecord).map((r) => ({
    rule: String(r['rule'] ?? ''),
    ...(typeof r['message'] === 'string' && r['message'].trim() !== '' ? { message: r['message'].trim() } : {}),
    ...(typeof r['messageExpression'] === 'string' ? { messageExpression: true } : {}),
  }));
}

/** The child schema of a data segment (a property, else additionalProperties; `*` of a list: items). */
function child(s: Schema, seg: string, list: boolean): Schema | undefined {
  if (list) return isRecord(s['items']) ? s['items'] : undefined;
  const props = isRecord(s['properties']) ? s['properties'] : undefined;
  if (props && isRecord(props[seg])) return props[seg];
  return isRecord(s['additionalProperties']) ? s['additionalProperties'] : undefined;
}

/** The schema-path segments from a node to a child (for positions in the CRD). */
function childPath(s: Schema, seg: string, list: boolean): JsonPath {
  if (list) return ['items'];
  const props = isRecord(s['properties']) ? s['properties'] : undefined;
  return props && isRecord(props[seg]) ? ['properties', seg] : ['additionalProperties'];
}

/** `spec.ports[1].name`, `spec.labels[a.b]`, `<nil>` → segments with list indexes marked. */
function fieldSegments(field: string): { seg: string; list: boolean }[] | undefined {
  if (field === '<nil>' || field === '') return [];
  const out: { seg: string; list: boolean }[] = [];
  const re = /([^.[\]]+)|\[([^\]]*)\]/g;
  for (const m of field.matchAll(re)) {
    if (m[1] !== undefined) out.push({ seg: m[1], list: false });
    else out.push({ seg: m[2]!, list: /^\d+$/.test(m[2]!) });
  }
  return out;
}

class Tracker {
  readonly byKey = new Map<string, Constraint>();
  readonly byNode = new Map<string, Constraint[]>();

  constructor(readonly crd: Crd) {
    for (const t of crd.schemas) this.collect(t.schema, [], t.loc.at);
  }

  private add(c: Omit<Constraint, 'held' | 'violated'>): void {
    if (this.byKey.has(c.key)) return;
    const full = { ...c, held: 0, violated: 0 };
    this.byKey.set(c.key, full);
    const list = this.byNode.get(c.node) ?? [];
    list.push(full);
    this.byNode.set(c.node, list);
  }

  private collect(s: Schema, data: readonly string[], at: JsonPath): void {
    const node = show(data);
    if (Array.isArray(s['enum'])) this.add({ key: `${node}\0enum`, kind: 'enum', node, detail: s['enum'].map((x) => JSON.stringify(x)).join(', '), at: [...at, 'enum'] });
    if (typeof s['pattern'] === 'string') this.add({ key: `${node}\0pattern`, kind: 'pattern', node, detail: s['pattern'], at: [...at, 'pattern'] });
    for (const b of BOUNDS) if (s[b] !== undefined) this.add({ key: `${node}\0${b}`, kind: b, node, detail: String(s[b]), at: [...at, b] });
    if (Array.isArray(s['required'])) s['required'].forEach((r, i) => this.add({ key: `${node}\0required\0${String(r)}`, kind: 'required', node, detail: String(r), at: [...at, 'required', i] }));
    rules(s).forEach((r, i) => this.add({ key: `${node}\0cel\0${r.rule}`, kind: 'cel', node, detail: r.rule, at: [...at, 'x-kubernetes-validations', i, 'rule'] }));
    const props = isRecord(s['properties']) ? s['properties'] : {};
    for (const [k, v] of Object.entries(props)) if (isRecord(v)) this.collect(v, [...data, k], [...at, 'properties', k]);
    if (isRecord(s['additionalProperties'])) this.collect(s['additionalProperties'], [...data, '*'], [...at, 'additionalProperties']);
    if (isRecord(s['items'])) this.collect(s['items'], [...data, '*'], [...at, 'items']);
  }

  /** The constraint a cause comes from, if it can be told. */
  private causeConstraint(c: Cause, root: Schema): Constraint | undefined {
    if (c.field === undefined) return undefined;
    const segs = fieldSegments(c.field);
    if (!segs) return undefined;
    let s: Schema | undefined = root;
    const data: string[] = [];
    const schemas: Schema[] = [root];
    for (const x of segs) {
      s = s ? child(s, x.seg, x.list) : undefined;
      data.push(x.list || (s !== undefined && schemas.at(-1)?.['additionalProperties'] === s) ? '*' : x.seg);
      if (s) schemas.push(s);
    }
    const node = show(data);
    const at = (kind: string, extra = '') => this.byKey.get(`${node}\0${kind}${extra}`);
    const m = c.message;
    if (c.reason === 'FieldValueRequired' && data.length > 0) {
      const parent = show(data.slice(0, -1));
      const r = this.byKey.get(`${parent}\0required\0${segs.at(-1)!.seg}`);
      if (r) return r;
    }
    if (c.reason === 'FieldValueNotSupported') return at('enum');
    if (/should match '/.test(m)) return at('pattern');
    if (/should be less than/.test(m)) return at('maximum');
    if (/should be greater than/.test(m)) return at('minimum');
    if (c.reason === 'FieldValueTooLong') return at('maxLength');
    if (/should be at least \d+ chars long/.test(m)) return at('minLength');
    if (/should have at least \d+ items/.test(m)) return at('minItems');
    if (/should have at least \d+ properties/.test(m)) return at('minProperties');
    if (c.reason === 'FieldValueTooMany') return at('maxItems') ?? at('maxProperties');
    // CEL: a rule of that node whose message (or failed rule text) the cause ends with
    const cel = (this.byNode.get(node) ?? []).filter((x) => x.kind === 'cel');
    const sch = schemas.length === segs.length + 1 ? schemas.at(-1)! : undefined;
    const rs = sch ? rules(sch) : [];
    for (const r of rs) if (m.endsWith(r.message ?? `failed rule: ${r.rule}`)) return at('cel', `\0${r.rule}`);
    const exprs = rs.filter((r) => r.messageExpression);
    if (exprs.length === 1) return at('cel', `\0${exprs[0]!.rule}`);
    return cel.length === 1 ? cel[0] : undefined;
  }

  record(sc: SimulatedCase): void {
    const { result, testCase: tc, served } = sc;
    const o = result.outcome;
    if (!result.passed || !o) return;
    const target = schemaTargetFor(this.crd, served.version);
    if (!target) return;
    const root = target.schema;
    const violated = new Set<Constraint>();
    for (const c of o.causes) {
      const k = this.causeConstraint(c, root);
      if (k) violated.add(k);
    }
    for (const k of violated) k.violated++;
    if (tc.operation === 'scale-get' || tc.operation === 'scale-update') return;
    const value = o.allowed ? o.result : sc.body;
    const celRuns = !o.causes.some((c) => c.message.includes(NOT_CHECKED));
    const applied = new Set<Constraint>();
    const statusOnly = tc.operation === 'status';
    const walk = (v: unknown, s: Schema, data: readonly string[]): void => {
      if (data.length === 1 && served.statusEnabled && (data[0] === 'status') !== statusOnly) return;
      if (v === undefined || v === null) return;
      const here = this.byNode.get(show(data)) ?? [];
      for (const k of here) {
        if (k.kind === 'cel') {
          if (celRuns && (!/\boldSelf\b/.test(k.detail) || tc.operation === 'update' || tc.operation === 'status')) applied.add(k);
        } else if (k.kind === 'required') {
          if (isRecord(v)) applied.add(k);
        } else if (k.kind === 'enum') applied.add(k);
        else if (k.kind === 'pattern' || k.kind === 'minLength' || k.kind === 'maxLength') {
          if (typeof v === 'string') applied.add(k);
        } else if (k.kind === 'minimum' || k.kind === 'maximum') {
          if (typeof v === 'number' || typeof v === 'bigint') applied.add(k);
        } else if (k.kind === 'minItems' || k.kind === 'maxItems') {
          if (Array.isArray(v)) applied.add(k);
        } else if (isRecord(v)) applied.add(k);
      }
      if (Array.isArray(v)) {
        const it = child(s, '*', true);
        if (it) for (const x of v) walk(x, it, [...data, '*']);
      } else if (isRecord(v)) {
        for (const [key, x] of Object.entries(v)) {
          if (data.length === 0 && (key === 'metadata' || key === 'apiVersion' || key === 'kind')) continue;
          const c = child(s, key, false);
          if (c) walk(x, c, [...data, isRecord(s['properties']) && isRecord(s['properties'][key]) ? key : '*']);
        }
      }
    };
    walk(value, root, []);
    for (const k of applied) if (!violated.has(k)) k.held++;
  }

  report(): CrdCoverage {
    const m = this.crd.manifest;
    const constraints: ConstraintCoverage[] = [...this.byKey.values()].map((k) => {
      const p = m.locate(k.at, 'value');
      return { kind: k.kind, node: k.node, detail: k.detail, file: m.file.path, line: p.line, column: p.column, held: k.held, violated: k.violated };
    });
    constraints.sort((a, b) => a.line - b.line || a.column - b.column);
    return { crd: this.crd.name, file: m.file.path, constraints };
  }
}

/** Collects coverage over runs: feed every simulated case, then read the report per CRD. */
export class Coverage {
  private readonly trackers = new Map<string, Tracker>();

  /** The RunOptions.onCase hook. */
  readonly onCase = (sc: SimulatedCase): void => {
    const crd = sc.served.crd;
    const key = `${crd.manifest.file.path}\0${crd.name}`;
    let t = this.trackers.get(key);
    if (!t) this.trackers.set(key, (t = new Tracker(crd)));
    t.record(sc);
  };

  report(): CrdCoverage[] {
    return [...this.trackers.values()].map((t) => t.report()).sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.crd < b.crd ? -1 : 1));
  }
}
