/**
 * `kubectl crdx status` and `kubectl crdx scale`: the objects of the input matched with their CRDs
 * (and, for status, with their stored versions), run through src/cr/update.ts and
 * src/cr/scale-rest.ts, with the server's errors as findings at their input positions. Pure: the
 * CLI reads the files and prints.
 */
import type { CelEngine } from '../core/cel-engine.js';
import { KUBECTL_FIELD_VALIDATION, type FieldValidation } from '../core/field-validation.js';
import type { KubeVersion } from '../core/kube-version.js';
import { formatPath } from '../core/path.js';
import type { Finding, JsonPath } from '../core/types.js';
import { isBuiltinApiVersion } from '../cr/builtin.js';
import { CrdCatalog, splitApiVersion, type LookupFailure, type ServedVersion } from '../cr/catalog.js';
import { simulateCreate, stripGenerated, type CreateResult } from '../cr/create.js';
import { scaleGet, scaleUpdate, type Scale } from '../cr/scale-rest.js';
import { simulateUpdate, type ServerFailure, type UpdateResult, type Via } from '../cr/update.js';
import { wireValue } from '../cr/wire.js';
import { buildCrd, isCrdManifest, type Crd } from '../crd/model.js';
import type { Manifest, SourceFile } from '../manifest/parse.js';
import type { CelSkip } from '../schema/cel-eval.js';
import { celNotEvaluated, celSkipReports } from '../rules/cel-not-evaluated.js';
import { customResource } from '../rules/custom-resource.js';
import type { Rule } from '../rules/types.js';
import { serverReport } from '../rules/types.js';
import { installedCrdsRejected, type VerdictStore } from './crd-verdict.js';
import { objectRefOf, toFinding } from './finding.js';
import { parseSources } from './parse-sources.js';
import { finalize } from './results.js';

export interface Unmatched {
  readonly manifest: Manifest;
  readonly code: LookupFailure | 'no-old-object';
  readonly message: string;
}

interface Prepared {
  readonly parseFindings: Finding[];
  readonly objects: Manifest[];
  readonly olds: Manifest[];
  readonly catalog: CrdCatalog;
  readonly documents: number;
}

function prepare(files: readonly SourceFile[], oldFiles: readonly SourceFile[], crdFiles: readonly SourceFile[], kube: KubeVersion, cel: CelEngine | undefined, extra: readonly Crd[], fieldValidation: FieldValidation, store: VerdictStore | undefined, served: readonly SourceFile[] = []): Prepared {
  const a = parseSources(files);
  const b = parseSources(oldFiles);
  const c = parseSources(crdFiles);
  const all = [...c.manifests, ...a.manifests, ...b.manifests];
  const crds = [...all.filter(isCrdManifest).map((m) => buildCrd(m, kube, cel)), ...extra];
  return {
    parseFindings: [...a.findings, ...b.findings, ...c.findings],
    objects: a.manifests.filter((m) => !isCrdManifest(m)),
    olds: b.manifests.filter((m) => !isCrdManifest(m)),
    // an object of a CRD the server would not create is not created either (crd-verdict.ts)
    catalog: new CrdCatalog(crds, installedCrdsRejected(crds, { fieldValidation, cel, store, served })),
    documents: a.documents + b.documents,
  };
}

const RULE = customResource as unknown as Rule;

/**
 * The findings of the custom-resource rule for a server failure other than field causes: one, or
 * for a strict field validation failure one per unknown field, at its key (as lint reports them).
 */
function failureFindings(m: Manifest, f: ServerFailure): Finding[] {
  const response = { code: f.code, reason: f.reason, message: f.message };
  if (f.unknownFields && f.unknownFields.length > 0)
    return f.unknownFields.map((u) => toFinding(RULE, { messageId: 'strict', data: { text: u.text }, path: u.path, at: 'key', response }, m, 'error'));
  const pos = m.locate(f.at ?? [], 'value');
  return [
    {
      ruleId: RULE.id,
      severity: 'error',
      message: `${f.message} (the server answers ${f.code}${f.reason !== '' ? ` ${f.reason}` : ''})${f.why ? `: ${f.why}` : ''}`,
      messageId: 'failure',
      file: m.file.path,
      line: pos.line,
      column: pos.column,
      document: m.docIndex,
      object: objectRefOf(m),
      path: formatPath([...m.base, ...(f.at ?? [])]),
      ...(f.reason !== '' ? { response } : {}),
    },
  ];
}

function errorFindings(m: Manifest, errors: UpdateResult['errors']): Finding[] {
  return errors.map((e) => toFinding(RULE, serverReport(e), m, 'error'));
}

function lookup(catalog: CrdCatalog, m: Manifest): { served: ServedVersion } | Unmatched | 'builtin' {
  const l = catalog.lookup(m.apiVersion ?? '', m.kind ?? '');
  if (!l.ok && l.code === 'no-crd-found' && isBuiltinApiVersion(m.apiVersion)) return 'builtin';
  if (!l.ok) return { manifest: m, code: l.code, message: l.message };
  return { served: l.served };
}

// ---------------------------------------------------------------------------------------------------------------
// status
// ---------------------------------------------------------------------------------------------------------------

interface StatusOptions {
  readonly kubeVersion: KubeVersion;
  /** The CEL engine (core/cel-engine.ts); undefined: no input holds a CEL rule (meeting one throws). */
  readonly cel: CelEngine | undefined;
  readonly via: Via;
  readonly crds?: readonly Crd[];
  /** The request's fieldValidation (kubectl's --validate); default kubectl's, Strict. */
  readonly fieldValidation?: FieldValidation;
  /** Verdicts of the CRDs kept between runs (crd-verdict.ts). */
  readonly verdicts?: VerdictStore;
  /** Files of CRDs read from a cluster (--cluster): served there, so their objects are written under them. */
  readonly served?: readonly SourceFile[];
}

interface StatusItem {
  readonly manifest: Manifest;
  readonly old?: Manifest;
  /** Without an old object: a create. */
  readonly create?: CreateResult;
  readonly update?: UpdateResult;
  /** The object as stored (metadata the server generates on create left out); absent when rejected. */
  readonly value?: Record<string, unknown>;
  readonly findings: readonly Finding[];
  readonly rejected: boolean;
}

/** One run of status or scale over the inputs. */
interface SubresourceRun<Item> {
  readonly parseFindings: readonly Finding[];
  readonly items: readonly Item[];
  readonly unmatched: readonly Unmatched[];
  /** Objects of built-in kinds (ConfigMap, Deployment …) that no CRD of the input defines: skipped. */
  readonly skipped: readonly Manifest[];
  readonly documents: number;
}

type StatusRun = SubresourceRun<StatusItem>;

function identity(m: Manifest): string {
  const { group } = splitApiVersion(m.apiVersion ?? '');
  return `${group}\0${m.kind ?? ''}\0${m.namespace ?? ''}\0${m.name ?? ''}`;
}

export function statusSources(files: readonly SourceFile[], oldFiles: readonly SourceFile[], crdFiles: readonly SourceFile[], opts: StatusOptions): StatusRun {
  const p = prepare(files, oldFiles, crdFiles, opts.kubeVersion, opts.cel, opts.crds ?? [], opts.fieldValidation ?? KUBECTL_FIELD_VALIDATION, opts.verdicts, opts.served);
  const byId = new Map<string, Manifest>();
  for (const m of p.olds) if (!byId.has(identity(m))) byId.set(identity(m), m);
  const withOld = oldFiles.length > 0;
  const fieldValidation = opts.fieldValidation ?? KUBECTL_FIELD_VALIDATION;
  const items: StatusItem[] = [];
  const unmatched: Unmatched[] = [];
  const skipped: Manifest[] = [];
  for (const m of p.objects) {
    const l = lookup(p.catalog, m);
    if (l === 'builtin') {
      skipped.push(m);
      continue;
    }
    if (!('served' in l)) {
      unmatched.push(l);
      continue;
    }
    if (!withOld) {
      const create = simulateCreate(wireValue(m), l.served, { kube: opts.kubeVersion, fieldValidation });
      let findings: Finding[] = [];
      if (create.decodeError) findings = failureFindings(m, { code: 400, reason: 'BadRequest', message: create.decodeError.message, ...(create.decodeError.at ? { at: create.decodeError.at } : {}) });
      else if (create.strictError) findings = failureFindings(m, { code: 400, reason: 'BadRequest', message: create.strictError.message, unknownFields: create.strictError.fields });
      else findings = [...errorFindings(m, create.errors), ...celFindings(m, l.served, create.celSkipped)];
      const value = create.value && !create.strictError ? withGeneration(create.value, 1) : undefined;
      items.push({ manifest: m, create, ...(value ? { value } : {}), findings: finalize(findings), rejected: value === undefined });
      continue;
    }
    const old = byId.get(identity(m)) ?? (p.olds.length === 1 && p.objects.length === 1 ? p.olds[0] : undefined);
    if (!old) {
      unmatched.push({ manifest: m, code: 'no-old-object', message: `no object with the same group, kind, namespace and name in --old` });
      continue;
    }
    const update = simulateUpdate(wireValue(old), wireValue(m), l.served, { kube: opts.kubeVersion, via: opts.via, fieldValidation });
    const findings = update.failure ? failureFindings(m, update.failure) : [...errorFindings(m, update.errors), ...celFindings(m, l.served, update.celSkipped)];
    const value = update.value ? stripVolatile(update.value, !update.noop) : undefined;
    items.push({ manifest: m, old, update, ...(value ? { value } : {}), findings: finalize(findings), rejected: value === undefined });
  }
  return { parseFindings: p.parseFindings, items, unmatched, skipped, documents: p.documents };
}

/** The warnings for CEL rules the server evaluates on this request and crdx did not (cel-not-evaluated). */
function celFindings(m: Manifest, served: ServedVersion, skipped: readonly CelSkip[] | undefined): Finding[] {
  const rule = celNotEvaluated as unknown as Rule;
  return celSkipReports(served, skipped ?? []).map((r) => toFinding(rule, r, m, rule.meta.defaultSeverity));
}

function withGeneration(o: Record<string, unknown>, g: number): Record<string, unknown> {
  const md = typeof o['metadata'] === 'object' && o['metadata'] !== null ? (o['metadata'] as Record<string, unknown>) : {};
  return { ...o, metadata: { ...md, generation: g } };
}

/**
 * managedFields are the field manager's business; after a write the resourceVersion is a new one the
 * server assigns (left out), after a no-op it stays; an unset creationTimestamp is not printed.
 */
function stripVolatile(o: Record<string, unknown>, written = true): Record<string, unknown> {
  const md = typeof o['metadata'] === 'object' && o['metadata'] !== null ? { ...(o['metadata'] as Record<string, unknown>) } : {};
  delete md['managedFields'];
  if (written) delete md['resourceVersion'];
  if (md['creationTimestamp'] === null) delete md['creationTimestamp'];
  return { ...o, metadata: md };
}

// ---------------------------------------------------------------------------------------------------------------
// scale
// ---------------------------------------------------------------------------------------------------------------

interface ScaleOptions {
  readonly kubeVersion: KubeVersion;
  /** The CEL engine (core/cel-engine.ts); undefined: no input holds a CEL rule (meeting one throws). */
  readonly cel: CelEngine | undefined;
  /** Undefined: GET /scale. */
  readonly replicas?: number;
  readonly resourceVersion?: string;
  readonly crds?: readonly Crd[];
  /** Verdicts of the CRDs kept between runs (crd-verdict.ts). */
  readonly verdicts?: VerdictStore;
  /** Files of CRDs read from a cluster (--cluster): served there, so their objects are written under them. */
  readonly served?: readonly SourceFile[];
}

interface ScaleItem {
  readonly manifest: Manifest;
  readonly scale?: Scale;
  /** After an update: the custom resource as stored. */
  readonly object?: Record<string, unknown>;
  readonly update?: UpdateResult;
  readonly failure?: ServerFailure;
  readonly findings: readonly Finding[];
  readonly rejected: boolean;
}

type ScaleRun = SubresourceRun<ScaleItem>;

export function scaleSources(files: readonly SourceFile[], crdFiles: readonly SourceFile[], opts: ScaleOptions): ScaleRun {
  const p = prepare(files, [], crdFiles, opts.kubeVersion, opts.cel, opts.crds ?? [], KUBECTL_FIELD_VALIDATION, opts.verdicts, opts.served);
  const items: ScaleItem[] = [];
  const unmatched: Unmatched[] = [];
  const skipped: Manifest[] = [];
  for (const m of p.objects) {
    const l = lookup(p.catalog, m);
    if (l === 'builtin') {
      skipped.push(m);
      continue;
    }
    if (!('served' in l)) {
      unmatched.push(l);
      continue;
    }
    const cr = wireValue(m);
    if (opts.replicas === undefined) {
      const r = scaleGet(cr, l.served);
      const findings = r.failure ? failureFindings(m, failureAt(r.failure, l.served)) : [];
      items.push({ manifest: m, ...(r.scale ? { scale: r.scale } : {}), ...(r.failure ? { failure: r.failure } : {}), findings, rejected: r.scale === undefined });
      continue;
    }
    const r = scaleUpdate(cr, l.served, opts.replicas, { kube: opts.kubeVersion, ...(opts.resourceVersion !== undefined ? { resourceVersion: opts.resourceVersion } : {}) });
    let findings: Finding[] = [];
    if (r.failure) findings = failureFindings(m, failureAt(r.failure, l.served));
    else if (r.update) findings = [...errorFindings(m, r.update.errors), ...celFindings(m, l.served, r.update.celSkipped)];
    const object = r.update?.value ? stripVolatile(r.update.value, false) : undefined;
    items.push({
      manifest: m,
      ...(r.scale ? { scale: r.scale } : {}),
      ...(object && r.scale ? { object } : {}),
      ...(r.update ? { update: r.update } : {}),
      ...(r.failure ? { failure: r.failure } : {}),
      findings: finalize(findings),
      rejected: r.scale === undefined,
    });
  }
  return { parseFindings: p.parseFindings, items, unmatched, skipped, documents: p.documents };
}

/** Scale failures point at the spec replicas path of the object when they are about it. */
function failureAt(f: ServerFailure, served: ServedVersion): ServerFailure {
  if (f.at || !served.scale) return f;
  const path = served.scale.specReplicasPath.replace(/^\./, '').split('.') as JsonPath;
  return f.code === 404 ? { ...f, at: ['apiVersion'] } : { ...f, at: path };
}

export type { CreateResult };
export { stripGenerated };
