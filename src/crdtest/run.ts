/**
 * Runs the cases of a test file on the simulations the `default`, `status` and `scale` commands
 * use (src/cr/create.ts, update.ts, scale-rest.ts) and compares each outcome with what the case
 * expects. Pure: the CLI reads the files a test file names and passes them in; results are data.
 *
 * What a case does, as the server sees it (the conformance suite replays each one):
 *  - create: POST of the object;
 *  - update: the oldObject is created, then the object is PUT through the main endpoint (with the
 *    stored object's resourceVersion unless the object gives one);
 *  - status: the oldObject (else the object itself) is created, then the object is PUT to /status;
 *  - scale-get: the object is created, then GET /scale;
 *  - scale-update: the object is created, then PUT /scale with spec.replicas: replicas.
 * A namespaced object without a namespace goes to `default` (kubectl's default context namespace).
 */
import type { CelEngine } from '../core/cel-engine.js';
import { KUBECTL_FIELD_VALIDATION, type FieldValidation } from '../core/field-validation.js';
import { DEFAULT_KUBE_VERSION, formatKubeVersion, type KubeVersion } from '../core/kube-version.js';
import { toCause, type FieldError } from '../core/field-error.js';
import { isRecord, type JsonPath } from '../core/types.js';
import { CrdCatalog, type ServedVersion } from '../cr/catalog.js';
import { simulateCreate, stripGenerated, type CreateResult } from '../cr/create.js';
import { scaleGet, scaleUpdate } from '../cr/scale-rest.js';
import { simulateUpdate, type ServerFailure, type UpdateResult } from '../cr/update.js';
import { wireValue } from '../cr/wire.js';
import { buildCrd, isCrdManifest, type Crd } from '../crd/model.js';
import { parseFile, type Manifest, type SourceFile } from '../manifest/parse.js';
import { compare } from './expect.js';
import { CrdVerdicts } from '../engine/crd-verdict.js';
import { toFinding } from '../engine/finding.js';
import { ruleText } from '../rules/cel-not-evaluated.js';
import { rules as allRules } from '../rules/index.js';
import { analyzeCrdSchemas, type SchemaAnalysis } from '../schema/analyze.js';
import type { Cause, CaseResult, FileResult, ObjectSource, Outcome, TestCase, TestFile, TestFileError } from './types.js';

/** The files a test file names, read by the CLI: the files of each `crds:` pattern, and object files. */
export interface LoadedFiles {
  /** By pattern as written; [] when it matched nothing. */
  readonly crdFiles: ReadonlyMap<string, readonly SourceFile[]>;
  /** By path as written; absent when unreadable (`problems` says why). */
  readonly objectFiles: ReadonlyMap<string, SourceFile>;
  /** Unreadable files, by path as written. */
  readonly problems: ReadonlyMap<string, string>;
}

export interface RunOptions {
  /** The Kubernetes version of cases without kubeVersion. */
  readonly kubeVersion?: KubeVersion;
  /** The CEL engine (core/cel-engine.ts); undefined: no CRD under test holds a CEL rule (meeting one throws). */
  readonly cel: CelEngine | undefined;
  /** Only cases whose name contains this text. */
  readonly filter?: string;
  /** The fieldValidation of cases without one (kubectl's --validate); default kubectl's, Strict. */
  readonly fieldValidation?: FieldValidation;
  /** Called for every simulated case with what it sent (for --coverage). */
  readonly onCase?: (c: SimulatedCase) => void;
}

/** A simulated case: the version that served it, the object as sent, and its result. */
export interface SimulatedCase {
  readonly testCase: TestCase;
  readonly served: ServedVersion;
  readonly body: Record<string, unknown>;
  readonly result: CaseResult;
}

/** A view of a part of a document as an object of its own, positions in the same file. */
function partOf(root: Manifest, path: JsonPath, value: Record<string, unknown>): Manifest {
  const md = isRecord(value['metadata']) ? value['metadata'] : {};
  const s = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    file: root.file,
    docIndex: root.docIndex,
    base: [...root.base, ...path],
    value,
    apiVersion: s(value['apiVersion']),
    kind: s(value['kind']),
    name: s(md['name']),
    namespace: s(md['namespace']),
    locate: (p, at) => root.locate([...path, ...p], at),
  };
}

class FileProblem extends Error {
  constructor(readonly error: TestFileError) {
    super(error.message);
  }
}

/** Reads the CRDs and object files of a test file; a problem makes the whole file unrunnable. */
class Inputs {
  private readonly catalogs = new Map<string, CrdCatalog>();
  private readonly objects = new Map<string, Manifest>();
  readonly crdManifests: Manifest[] = [];

  constructor(
    private readonly model: TestFile,
    private readonly loaded: LoadedFiles,
    private readonly prebuilt: readonly Crd[],
    kube: KubeVersion,
    private readonly cel: CelEngine | undefined,
  ) {
    const errAt = (path: JsonPath, message: string) => {
      const p = model.root.locate(path);
      return new FileProblem({ file: model.file, line: p.line, column: p.column, message });
    };
    for (const c of model.crds) {
      if (c.inline) {
        this.crdManifests.push(partOf(model.root, c.path, c.value));
        continue;
      }
      const files = loaded.crdFiles.get(c.pattern) ?? [];
      const problem = loaded.problems.get(c.pattern);
      if (problem !== undefined) throw errAt(c.path, problem);
      if (files.length === 0) throw errAt(c.path, `no file matches ${JSON.stringify(c.pattern)}`);
      for (const f of files) {
        const docs = parseFile(f);
        for (const d of docs) {
          const bad = d.problems.find((p) => p.fatal || p.severity !== 'warning');
          if (bad) throw new FileProblem({ file: f.path, line: bad.position.line, column: bad.position.column, message: bad.message });
          for (const m of d.manifests) if (isCrdManifest(m)) this.crdManifests.push(m);
        }
      }
    }
    if (this.crdManifests.length === 0 && prebuilt.length === 0) throw errAt(['crds'], 'no CustomResourceDefinition in crds');
    const refused = refusedCrd(this.crdManifests, kube, cel);
    if (refused) throw new FileProblem(refused);
    // object files are read once, up front: an unreadable one stops the file
    for (const tc of model.cases) for (const o of [tc.object, tc.oldObject]) if (o && !o.inline) this.objectFile(o.file, o.path);
  }

  catalog(kube: KubeVersion): CrdCatalog {
    const key = formatKubeVersion(kube);
    let c = this.catalogs.get(key);
    if (!c) this.catalogs.set(key, (c = new CrdCatalog([...this.crdManifests.map((m) => buildCrd(m, kube, this.cel)), ...this.prebuilt])));
    return c;
  }

  private objectFile(path: string, at: JsonPath): Manifest {
    const known = this.objects.get(path);
    if (known) return known;
    const pos = this.model.root.locate(at);
    const fail = (message: string) => new FileProblem({ file: this.model.file, line: pos.line, column: pos.column, message });
    const f = this.loaded.objectFiles.get(path);
    if (!f) throw fail(this.loaded.problems.get(path) ?? `cannot read ${JSON.stringify(path)}`);
    const docs = parseFile(f).filter((d) => !d.empty || d.problems.length > 0);
    const bad = docs.flatMap((d) => d.problems).find((p) => p.fatal || p.severity !== 'warning');
    if (bad) throw new FileProblem({ file: f.path, line: bad.position.line, column: bad.position.column, message: bad.message });
    const ms = docs.flatMap((d) => d.manifests);
    if (ms.length !== 1) throw fail(`${JSON.stringify(path)} must hold exactly one object (it has ${ms.length})`);
    this.objects.set(path, ms[0]!);
    return ms[0]!;
  }

  manifest(o: ObjectSource): Manifest {
    return o.inline ? partOf(this.model.root, o.path, o.value) : this.objectFile(o.file, o.path);
  }
}

/**
 * The first CRD under test the API server would refuse (or never serve), by lint's rules that
 * reproduce the server's verdict: testing objects against it would mean nothing.
 */
function refusedCrd(manifests: readonly Manifest[], kube: KubeVersion, cel: CelEngine | undefined): TestFileError | undefined {
  const crds = manifests.map((m) => buildCrd(m, kube, cel));
  // installed as kubectl installs it (strict field validation: an unknown field is refused too)
  const verdicts = new CrdVerdicts(allRules, KUBECTL_FIELD_VALIDATION, (c) => analyzeCrdSchemas(c));
  for (const crd of crds) {
    let analysis: readonly SchemaAnalysis[] | undefined;
    verdicts.context(crd, { crd, allCrds: crds, schemaAnalysis: () => (analysis ??= analyzeCrdSchemas(crd)), fieldValidation: KUBECTL_FIELD_VALIDATION });
  }
  for (const crd of crds) {
    const f = verdicts.rejection(crd)?.first;
    if (f) return { file: f.file, line: f.line, column: f.column, message: `the API server would refuse or not serve CustomResourceDefinition ${JSON.stringify(crd.name)}: ${f.message}` };
  }
  return undefined;
}

/** Runs one parsed test file. `crds`: CRDs already built (shared by many runs, e.g. the bench), used after the file's. */
export function runTestFile(model: TestFile, loaded: LoadedFiles, opts: RunOptions, crds: readonly Crd[] = []): FileResult {
  const start = performance.now();
  let inputs: Inputs;
  try {
    inputs = new Inputs(model, loaded, crds, opts.kubeVersion ?? DEFAULT_KUBE_VERSION, opts.cel);
  } catch (e) {
    if (e instanceof FileProblem) return { file: model.file, errors: [e.error], cases: [], ms: performance.now() - start };
    throw e;
  }
  const filter = opts.filter;
  const cases = model.cases.filter((c) => filter === undefined || c.name.includes(filter)).map((c) => runCase(c, model, inputs, opts.kubeVersion ?? DEFAULT_KUBE_VERSION, opts.fieldValidation ?? KUBECTL_FIELD_VALIDATION, opts.onCase));
  return { file: model.file, errors: [], cases, ms: performance.now() - start };
}

/** The object as sent: a namespaced object without a namespace goes to `default`. */
function body(m: Manifest, served: ServedVersion): Record<string, unknown> {
  const v = structuredClone(wireValue(m));
  if (served.namespaced) {
    const md = isRecord(v['metadata']) ? v['metadata'] : (v['metadata'] = {});
    if (typeof (md as Record<string, unknown>)['namespace'] !== 'string' || (md as Record<string, unknown>)['namespace'] === '') (md as Record<string, unknown>)['namespace'] = 'default';
  }
  return v;
}

/** What of the stored object the server generates (and a test cannot know) is left out of results. */
export function withoutGenerated(o: unknown): unknown {
  if (!isRecord(o) || !isRecord(o['metadata'])) return o;
  const md = { ...o['metadata'] };
  for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'managedFields']) delete md[k];
  return { ...o, metadata: md };
}

function uniqueCauses(causes: readonly Cause[]): Cause[] {
  const seen = new Set<string>();
  return causes.filter((c) => {
    const k = `${c.reason}\0${c.field ?? ''}\0${c.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

type CelSkips = Outcome['celSkipped'];
const skips = (s: CelSkips) => (s !== undefined && s.length > 0 ? { celSkipped: s } : {});

function denied(errors: readonly FieldError[], warnings: readonly string[], celNotEvaluated: boolean, celSkipped?: CelSkips): Outcome {
  return { allowed: false, code: 422, causes: uniqueCauses(errors.map(toCause)), warnings, celNotEvaluated, ...skips(celSkipped) };
}

function failed(f: ServerFailure, warnings: readonly string[]): Outcome {
  return { allowed: false, code: f.code, causes: [{ reason: f.reason, message: f.message }], warnings };
}

function ofCreate(r: CreateResult): Outcome {
  const warnings = r.warnings.map((w) => w.text);
  if (r.decodeError) return { allowed: false, code: 400, causes: [{ reason: 'BadRequest', message: r.decodeError.message }], warnings };
  if (r.strictError) return { allowed: false, code: 400, causes: [{ reason: 'BadRequest', message: r.strictError.message }], warnings };
  if (r.errors.length > 0 || !r.value) return denied(r.errors, warnings, r.celNotEvaluated, r.celSkipped);
  const md = isRecord(r.value['metadata']) ? r.value['metadata'] : {};
  return { allowed: true, code: 201, causes: [], warnings, result: { ...r.value, metadata: { ...md, generation: 1 } }, celNotEvaluated: r.celNotEvaluated, ...skips(r.celSkipped), notes: r.notes };
}

function ofUpdate(u: UpdateResult): Outcome {
  const warnings = u.warnings.map((w) => w.text);
  if (u.failure) return failed(u.failure, warnings);
  if (u.errors.length > 0 || !u.value) return denied(u.errors, warnings, u.celNotEvaluated, u.celSkipped);
  return { allowed: true, code: 200, causes: [], warnings, result: withoutGenerated(u.value), celNotEvaluated: u.celNotEvaluated, ...skips(u.celSkipped), notes: u.notes };
}

/** The object as stored after a create, as a later request finds it (generation 1, a resourceVersion). */
function stored(r: CreateResult): Record<string, unknown> {
  const v = stripGenerated(r.value!);
  const md = isRecord(v['metadata']) ? v['metadata'] : {};
  return { ...v, metadata: { ...md, generation: 1, resourceVersion: '1' } };
}

/**
 * What the server answers to the case's request(s), sent with the case's field validation (the
 * object created first for an update or /scale case is sent as a client that names none: Warn).
 */
function simulateCase(
  tc: TestCase,
  object: Manifest,
  oldObject: Manifest | undefined,
  served: ServedVersion,
  kube: KubeVersion,
  fieldValidation: FieldValidation = KUBECTL_FIELD_VALIDATION,
): { outcome?: Outcome; error?: string } {
  const obj = body(object, served);
  if (tc.operation === 'create') return { outcome: ofCreate(simulateCreate(obj, served, { kube, fieldValidation })) };
  const first = oldObject ? body(oldObject, served) : obj;
  const created = simulateCreate(first, served, { kube, fieldValidation: 'Warn' });
  if (!created.value) {
    const o = ofCreate(created);
    return { error: `the ${oldObject ? 'oldObject' : 'object'} cannot be created first: ${o.causes.map((c) => `${c.field !== undefined ? `${c.field}: ` : ''}${c.message}`).join('; ')}` };
  }
  const old = stored(created);
  if (tc.operation === 'scale-get') {
    const r = scaleGet(old, served);
    if (r.failure) return { outcome: failed(r.failure, []) };
    return { outcome: { allowed: true, code: 200, causes: [], warnings: [], result: withoutGenerated(r.scale) } };
  }
  if (tc.operation === 'scale-update') {
    const r = scaleUpdate(old, served, tc.replicas!, { kube });
    const warnings = r.update?.warnings.map((w) => w.text) ?? [];
    if (r.failure) return { outcome: failed(r.failure, warnings) };
    if (!r.scale) return { outcome: denied(r.update?.errors ?? [], warnings, r.update?.celNotEvaluated ?? false, r.update?.celSkipped) };
    return { outcome: { allowed: true, code: 200, causes: [], warnings, result: withoutGenerated(r.scale), celNotEvaluated: r.update?.celNotEvaluated ?? false, ...skips(r.update?.celSkipped) } };
  }
  const md = isRecord(obj['metadata']) ? (obj['metadata'] as Record<string, unknown>) : {};
  const next = md['resourceVersion'] === undefined ? { ...obj, metadata: { ...md, resourceVersion: '1' } } : obj;
  return { outcome: ofUpdate(simulateUpdate(old, next, served, { kube, via: tc.operation === 'status' ? 'status' : 'main', fieldValidation })) };
}

/**
 * Why crdx cannot tell the server's answer to a case, if it cannot: CEL rules it does not evaluate
 * faithfully, or a conversion webhook between the request's version and the storage version (the
 * server calls it to store the object, and to read the stored one for an update or /scale; a create
 * it refuses while validating never gets there).
 */
function undecided(tc: TestCase, o: Outcome, served: ServedVersion): string | undefined {
  if (o.celNotEvaluated === true) {
    const first = o.celSkipped?.[0];
    if (first === undefined) return 'crdx cannot evaluate every CEL rule of the CRD on this object as the server would';
    const rule = first.rule === '' ? 'rules of the CRD' : `rule ${ruleText(first.rule)}`;
    const more = o.celSkipped!.length > 1 ? ` (and ${o.celSkipped!.length - 1} more)` : '';
    return `crdx cannot evaluate the CEL ${rule} on this object as the server would: ${first.why}${more}`;
  }
  const storage = served.storage();
  if (served.conversion === 'Webhook' && storage !== undefined && storage !== served && (tc.operation !== 'create' || o.allowed))
    return `the object is stored as ${served.group}/${storage.version.name} through the CRD's conversion webhook, which crdx does not run`;
  return undefined;
}

function runCase(tc: TestCase, model: TestFile, inputs: Inputs, defaultKube: KubeVersion, defaultValidation: FieldValidation, onCase?: (c: SimulatedCase) => void): CaseResult {
  const base = { name: tc.name, index: tc.index, operation: tc.operation, line: tc.position.line, column: tc.position.column };
  const fail = (error: string): CaseResult => ({ ...base, passed: false, mismatches: [], error });
  const kube = tc.kubeVersion ?? defaultKube;
  const object = inputs.manifest(tc.object);
  const oldObject = tc.oldObject ? inputs.manifest(tc.oldObject) : undefined;
  const catalog = inputs.catalog(kube);
  const lookup = catalog.lookup(object.apiVersion ?? '', object.kind ?? '');
  if (!lookup.ok) return fail(`${object.kind ?? '(no kind)'} ${object.apiVersion ?? '(no apiVersion)'}: ${lookup.message.replace(' (give it with --crd)', ' (add it to crds)')}`);
  const r = simulateCase(tc, object, oldObject, lookup.served, kube, tc.fieldValidation ?? defaultValidation);
  if (!r.outcome) return fail(r.error ?? 'not simulated');
  const reason = undecided(tc, r.outcome, lookup.served);
  const outcome = reason !== undefined ? { ...r.outcome, undecided: reason } : r.outcome;
  const mismatches = compare(tc.expect, outcome, tc.path, model.root.locate);
  const result: CaseResult =
    reason !== undefined
      ? { ...base, passed: false, mismatches, outcome, error: `${reason}: the verdict is not decided offline` }
      : { ...base, passed: mismatches.length === 0, mismatches, outcome };
  onCase?.({ testCase: tc, served: lookup.served, body: body(object, lookup.served), result });
  return result;
}
