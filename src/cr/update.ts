/**
 * What the API server does with a PUT of a custom resource, through the main endpoint or through
 * `/status` (apiextensions-apiserver pkg/registry/customresource strategy.go and status_strategy.go,
 * PrepareForUpdate and ValidateUpdate; k8s.io/apiserver pkg/endpoints/handlers/update.go), step by step in the server's order:
 *
 *  1. the stored object is read (storage decoding: malformed metadata dropped, generation repaired,
 *     defaults applied);
 *  2. the body is decoded in the URL's version (pruning, nulls, metadata, defaults), unknown fields
 *     reported as warnings; a body the decoder cannot handle is a 400;
 *  3. the update handler (endpoints/handlers/update.go): the namespace and name must match the URL
 *     (the stored object's);
 *  4. the store (registry/generic/registry/store.go Update): no resourceVersion is a 422 (custom
 *     resources do not allow unconditional updates), another one than the stored object's a 409;
 *  5. rest.BeforeUpdate: the stored generation is copied, then the strategy's PrepareForUpdate
 *     (main: status kept from the stored object when `/status` is on; generation + 1 when anything
 *     but metadata changed. `/status`: the stored object with the request's status), uid and
 *     creationTimestamp kept; common metadata validation, then the strategy's ValidateUpdate with
 *     validation ratcheting (pkg/registry/customresource/strategy.go, status_strategy.go,
 *     validator.go);
 *  6. warnings (finalizers added by a main-endpoint update);
 *  7. the write and the read-back.
 *
 * CEL rules are evaluated by src/schema/cel-eval.ts; those it cannot evaluate faithfully set `celNotEvaluated`.
 */
import { deepEqual } from '../go/equal.js';
import { invalid, withLegacyValues, type FieldError } from '../core/field-error.js';
import { kubeMinor, type KubeVersion } from '../core/kube-version.js';
import { Loc } from '../core/path.js';
import { isRecord, type JsonPath } from '../core/types.js';
import { validateObjectMeta } from '../schema/objectmeta.js';
import { getObjectMeta, type ObjectMeta } from '../schema/objectmeta/decode.js';
import type { CelSkip } from '../schema/cel-eval.js';
import { celStage } from './cel-stage.js';
import { validateListTypesUpdate, validateSchemaUpdate } from '../schema/value-validate.js';
import { decode } from '../simulate/pipeline.js';
import type { ServedVersion } from './catalog.js';
import { roundTrip, type CrChange, type CrChangeKind, type CrWarning } from './create.js';
import { strictFailure, unknownFields, type UnknownField } from './field-validation.js';
import { SERVER_FIELD_VALIDATION, type FieldValidation } from '../core/field-validation.js';
import { objectMetaHooks } from './meta-hooks.js';
import { finalizerWarnings, validateRootObjectMeta } from './root-meta.js';
import { validateScaleSpec, validateScaleStatus } from './scale.js';
import { quote } from '../go/quote.js';

export type Via = 'main' | 'status';

/** A failure the server answers with a Status other than 422 Invalid with field causes. */
export interface ServerFailure {
  readonly code: number;
  readonly reason: 'BadRequest' | 'Conflict' | 'Invalid' | 'NotFound' | 'InternalError' | '';
  readonly message: string;
  readonly at?: JsonPath;
  /** A strict field validation failure: the unknown fields it names, each at its place. */
  readonly unknownFields?: readonly UnknownField[];
  /** What the server's text does not say (e.g. why /scale is not found). */
  readonly why?: string;
}

export interface UpdateResult {
  readonly served: ServedVersion;
  readonly via: Via;
  /** The stored object as the server read it (storage decoding applied). */
  readonly old: Record<string, unknown>;
  /** The request body after decoding (what the client effectively sent). */
  readonly request?: Record<string, unknown>;
  /** The object the server stores and returns; absent when rejected. */
  readonly value?: Record<string, unknown>;
  readonly generation: { readonly before: number; readonly after: number };
  /** Nothing changes: the server writes nothing and the resourceVersion stays. */
  readonly noop: boolean;
  readonly changes: readonly CrChange[];
  readonly warnings: readonly CrWarning[];
  /** The unknown fields of the body, whatever the field validation (pruned in every mode). */
  readonly unknownFields: readonly UnknownField[];
  /** The causes of a 422 Invalid (`<Kind>.<group> "<name>" is invalid: …`). */
  readonly errors: readonly FieldError[];
  /** Any other failure (400, 409, 422 without a Kind, 500). */
  readonly failure?: ServerFailure;
  readonly celNotEvaluated: boolean;
  /** The rules behind `celNotEvaluated`: each with where it applies and why it was not evaluated. */
  readonly celSkipped?: readonly CelSkip[];
  readonly notes: readonly string[];
}

interface UpdateOptions {
  readonly kube: KubeVersion;
  readonly via: Via;
  /**
   * The new object did not come as a request body but was built by the server from the stored one
   * (the `/scale` update): no request decoding.
   */
  readonly serverBuilt?: boolean;
  /** Skip the write and read-back. */
  readonly skipStorage?: boolean;
  /** The request's fieldValidation; default the server's own (Warn). */
  readonly fieldValidation?: FieldValidation;
}

const NIL = new Loc('', []);
const META = new Loc('metadata', ['metadata']);
/** store.go OptimisticLockErrorMsg */
export const OPTIMISTIC_LOCK = 'the object has been modified; please apply your changes to the latest version and try again';

/** Storage decoding of an object read from etcd (GET semantics): malformed metadata dropped, generation 0 → 1, defaults. */
export function readStored(input: Record<string, unknown>, served: ServedVersion): { value: Record<string, unknown>; error?: string } {
  const r = decode(input, served.decodeStructural, {
    objectMeta: objectMetaHooks,
    preserveUnknownFields: served.crd.preserveUnknownFields,
    dropInvalidMetadata: true,
    repairGeneration: true,
  });
  if (r.error) return { value: input, error: r.error.message };
  const v = r.value as Record<string, unknown>;
  const md = isRecord(v['metadata']) ? v['metadata'] : undefined;
  if (md && typeof md['generation'] !== 'number' && typeof md['generation'] !== 'bigint') md['generation'] = 1;
  if (!md) v['metadata'] = { generation: 1 };
  return { value: v };
}

function meta(o: Record<string, unknown>): Record<string, unknown> {
  return isRecord(o['metadata']) ? o['metadata'] : {};
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function gen(o: Record<string, unknown>): number {
  const g = meta(o)['generation'];
  return typeof g === 'number' ? g : typeof g === 'bigint' ? Number(g) : 0;
}

function withoutMetadata(o: Record<string, unknown>): Record<string, unknown> {
  const c = { ...o };
  delete c['metadata'];
  return c;
}

function groupResource(served: ServedVersion): string {
  return `${served.crd.names.plural}.${served.group}`;
}

function qualifiedKind(served: ServedVersion): string {
  return `${served.kind}.${served.group}`;
}

/** The message of a 422 Invalid, as errors.NewInvalid builds it. */
export function invalidMessage(kind: string, name: string, errs: readonly { text: string }[]): string {
  const uniq = [...new Set(errs.map((e) => e.text))];
  return `${kind} ${quote(name)} is invalid: ${uniq.length === 1 ? uniq[0] : `[${uniq.join(', ')}]`}`;
}

export function simulateUpdate(oldInput: Record<string, unknown>, newInput: Record<string, unknown>, served: ServedVersion, opts: UpdateOptions): UpdateResult {
  const via = opts.via;
  const version = served.version.name;
  const warnings: CrWarning[] = [];
  // the request's warning recorder keeps one of equal texts (endpoints/filters warning.go)
  const warn = (w: CrWarning): void => {
    if (!warnings.some((x) => x.text === w.text)) warnings.push(w);
  };
  const changes: CrChange[] = [];
  const notes: string[] = [];
  if (served.deprecationWarning !== undefined) warn({ kind: 'deprecated', text: served.deprecationWarning });

  // without the status subresource there is no /status endpoint
  if (via === 'status' && !served.statusEnabled) {
    const old0 = isRecord(oldInput) ? oldInput : {};
    return { served, via, old: old0, warnings, changes, notes, celNotEvaluated: false, errors: [], unknownFields: [], noop: false, generation: { before: gen(old0), after: gen(old0) }, failure: { code: 404, reason: 'NotFound', message: `${groupResource(served)} ${quote(str(meta(old0)['name']))} not found` } };
  }

  // 1. the stored object
  const stored = readStored(oldInput, served);
  const old = stored.value;
  const before = gen(old);
  const base = { served, via, old, warnings, changes, notes, celNotEvaluated: false, errors: [] as FieldError[], noop: false, unknownFields: [] as UnknownField[] };
  const fail = (f: ServerFailure, request?: Record<string, unknown>): UpdateResult => ({ ...base, ...(request ? { request } : {}), generation: { before, after: before }, failure: f });
  if (stored.error !== undefined) return fail({ code: 500, reason: 'InternalError', message: `the stored object cannot be decoded: ${stored.error}` });

  // 2. the body
  let obj: Record<string, unknown>;
  if (opts.serverBuilt === true) {
    obj = structuredClone(newInput);
  } else {
    const req = decode(newInput, served.decodeStructural, { objectMeta: objectMetaHooks, preserveUnknownFields: served.crd.preserveUnknownFields });
    if (req.error) {
      return fail({
        code: 400,
        reason: 'BadRequest',
        message: `${served.kind} in version "${version}" cannot be handled as a ${served.kind}: ${req.error.message}`,
        ...(req.error.at ? { at: req.error.at } : {}),
      });
    }
    for (const c of req.changes) changes.push({ ...c, stage: 'request', version });
    const unknown = unknownFields(req);
    const mode = opts.fieldValidation ?? SERVER_FIELD_VALIDATION;
    base.unknownFields.push(...unknown);
    if (mode === 'Warn') for (const u of unknown) warn({ kind: 'unknown-field', text: u.text, path: u.path });
    const strict = strictFailure(mode, served.kind, version, unknown);
    if (strict) return fail({ code: 400, reason: 'BadRequest', message: strict.message, at: strict.fields[0]!.path, unknownFields: strict.fields });
    obj = req.value as Record<string, unknown>;
  }
  const request = structuredClone(obj);
  const md = (isRecord(obj['metadata']) ? obj['metadata'] : (obj['metadata'] = {})) as Record<string, unknown>;
  const oldMd = meta(old);
  const urlName = str(oldMd['name']);
  const urlNamespace = served.namespaced ? str(oldMd['namespace']) || 'default' : '';

  // 3. the handler: namespace, then name
  if (opts.serverBuilt !== true) {
    const ns = str(md['namespace']);
    if (served.namespaced) {
      if (ns === '') md['namespace'] = urlNamespace;
      else if (ns !== urlNamespace) return fail({ code: 400, reason: 'BadRequest', message: 'the namespace of the provided object does not match the namespace sent on the request', at: ['metadata', 'namespace'] }, request);
    } else if (ns !== '') {
      changes.push({ kind: 'namespace-cleared', path: ['metadata', 'namespace'], before: ns, stage: 'create', version });
      delete md['namespace'];
    }
    const name = str(md['name']);
    if (name !== urlName) return fail({ code: 400, reason: 'BadRequest', message: `the name of the object (${name}) does not match the name on the URL (${urlName})`, at: ['metadata', 'name'] }, request);
  }

  // the object's uid is a precondition of the storage update (rest.defaultUpdatedObjectInfo.Preconditions)
  const uid = str(md['uid']);
  if (uid !== '' && uid !== str(oldMd['uid'])) {
    const key = `/registry/${served.group}/${served.crd.names.plural}/${served.namespaced ? `${urlNamespace}/` : ''}${urlName}`;
    return fail(
      {
        code: 409,
        reason: 'Conflict',
        message: `Operation cannot be fulfilled on ${groupResource(served)} ${quote(urlName)}: StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${uid}, UID in object meta: ${str(oldMd['uid'])}`,
        at: ['metadata', 'uid'],
      },
      request,
    );
  }

  // 4. the store: resourceVersion precondition
  const rv = str(md['resourceVersion']);
  const oldRv = str(oldMd['resourceVersion']);
  if (rv === '') {
    return fail(
      {
        code: 422,
        reason: 'Invalid',
        message: `${groupResource(served)} ${quote(urlName)} is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update`,
        at: ['metadata'],
      },
      request,
    );
  }
  if (rv !== oldRv) {
    return fail({ code: 409, reason: 'Conflict', message: `Operation cannot be fulfilled on ${groupResource(served)} ${quote(urlName)}: ${OPTIMISTIC_LOCK}`, at: ['metadata', 'resourceVersion'] }, request);
  }

  // 5. BeforeUpdate: generation from the stored object, then PrepareForUpdate
  md['generation'] = before;
  if (via === 'main') {
    if (served.statusEnabled) {
      if ('status' in old) {
        if (!('status' in obj) || !deepEqual(obj['status'], old['status'])) changes.push({ kind: 'status-reset', path: ['status'], before: obj['status'], after: old['status'], stage: 'create', version });
        obj['status'] = structuredClone(old['status']);
      } else if ('status' in obj) {
        changes.push({ kind: 'status-reset', path: ['status'], before: obj['status'], stage: 'create', version });
        delete obj['status'];
      }
    }
    if (!deepEqual(withoutMetadata(obj), withoutMetadata(old))) md['generation'] = before + 1;
  } else {
    const hasStatus = 'status' in obj;
    const status = obj['status'];
    const managed = md['managedFields'];
    for (const k of Object.keys(obj)) delete obj[k];
    Object.assign(obj, structuredClone(old));
    if (managed !== undefined) meta(obj)['managedFields'] = managed;
    if (hasStatus) obj['status'] = status;
    else delete obj['status'];
  }
  const nmd = meta(obj);
  if (str(nmd['uid']) === '' && oldMd['uid'] !== undefined) nmd['uid'] = oldMd['uid'];
  if (oldMd['creationTimestamp'] !== undefined && oldMd['creationTimestamp'] !== null) nmd['creationTimestamp'] = oldMd['creationTimestamp'];
  if (oldMd['deletionTimestamp'] !== undefined && oldMd['deletionTimestamp'] !== null) nmd['deletionTimestamp'] = oldMd['deletionTimestamp'];
  if (oldMd['deletionGracePeriodSeconds'] !== undefined && nmd['deletionGracePeriodSeconds'] === undefined) nmd['deletionGracePeriodSeconds'] = oldMd['deletionGracePeriodSeconds'];
  const after = gen(obj);

  // validation
  const errors = validateUpdate(obj, old, served, opts);
  const cel = celStage(obj, old, served, errors);
  // a failed rule on a value the update leaves unchanged comes back as a warning, with a 422 too
  for (const w of cel.celWarnings ?? []) warn({ kind: 'ratcheted', text: w.text, path: w.path });
  const result = { ...base, request, ...cel, errors: withLegacyValues(errors, kubeMinor(opts.kube)), generation: { before, after } };
  if (errors.length > 0) return result;

  // 6. warnings
  if (via === 'main') {
    const minor = kubeMinor(opts.kube);
    const oldFins = new Set(Array.isArray(oldMd['finalizers']) ? oldMd['finalizers'] : []);
    const fins = Array.isArray(nmd['finalizers']) ? nmd['finalizers'].filter((f): f is string => typeof f === 'string' && !oldFins.has(f)) : [];
    for (const w of finalizerWarnings(fins, minor)) warn({ kind: 'finalizer', text: w, path: ['metadata', 'finalizers'] });
  }

  // 7. the write and the read-back; an update that changes nothing is not written
  let out = obj;
  if (opts.skipStorage !== true && !served.readBackIsIdentity) out = roundTrip(obj, served, changes, notes, after);
  const noop = deepEqual(withoutVolatile(out), withoutVolatile(old));
  return { ...result, value: out, noop };
}

function withoutVolatile(o: Record<string, unknown>): Record<string, unknown> {
  const m = { ...meta(o) };
  delete m['managedFields'];
  delete m['resourceVersion'];
  return { ...o, metadata: m };
}

function immutable(loc: Loc, a: unknown, b: unknown): FieldError[] {
  return deepEqual(a ?? null, b ?? null) ? [] : [invalid(loc, a ?? null, 'field is immutable')];
}

/** validateCommonFields (rest/update.go) then the strategy's ValidateUpdate (strategy.go, status_strategy.go). */
function validateUpdate(obj: Record<string, unknown>, old: Record<string, unknown>, served: ServedVersion, opts: UpdateOptions): FieldError[] {
  const errs: FieldError[] = [];
  const minor = kubeMinor(opts.kube);
  const nm = getObjectMeta(obj, NIL, { drop: false, unknown: false }).meta;
  const om = getObjectMeta(old, NIL, { drop: false, unknown: false }).meta;
  const metaUpdate = (n: ObjectMeta, o: ObjectMeta): FieldError[] => {
    const e: FieldError[] = [];
    if (n.generation < o.generation) e.push(invalid(META.child('generation'), Number(n.generation), 'must not be decremented'));
    e.push(...immutable(META.child('name'), n.name, o.name));
    e.push(...immutable(META.child('namespace'), n.namespace, o.namespace));
    e.push(...immutable(META.child('uid'), n.uid, o.uid));
    e.push(...immutable(META.child('deletionGracePeriodSeconds'), n.deletionGracePeriodSeconds === undefined ? null : Number(n.deletionGracePeriodSeconds), o.deletionGracePeriodSeconds === undefined ? null : Number(o.deletionGracePeriodSeconds)));
    return e;
  };
  if (nm && om) {
    // ValidateObjectMetaAccessor (names as path segments; the stored name passed already) + ValidateObjectMetaAccessorUpdate
    errs.push(...validateRootObjectMeta(nm, { namespaced: served.namespaced, raw: obj['metadata'], kubeMinor: minor }), ...metaUpdate(nm, om));
  }
  // ValidateTypeMeta: when it fails nothing else of the strategy runs
  const typeErrs: FieldError[] = [];
  if (obj['kind'] !== served.kind) typeErrs.push(invalid(new Loc('kind', ['kind']), str(obj['kind']), `must be ${served.kind}`));
  const gv = `${served.group}/${served.version.name}`;
  if (obj['apiVersion'] !== gv) typeErrs.push(invalid(new Loc('apiVersion', ['apiVersion']), str(obj['apiVersion']), `must be ${gv}`));
  if (typeErrs.length > 0) return dedupe([...errs, ...typeErrs]);
  if (nm && om) errs.push(...metaUpdate(nm, om));

  if (opts.via === 'main') {
    if (served.structural) errs.push(...validateSchemaUpdate(obj, old, served.structural, NIL, { kubeMinor: minor }));
    errs.push(...validateScaleSpec(obj, served.scale), ...validateScaleStatus(obj, served.scale));
    errs.push(...validateObjectMeta(NIL, obj, served.decodeStructural, false, minor));
    if (served.decodeStructural) errs.push(...validateListTypesUpdate(obj, old, served.decodeStructural, NIL));
  } else {
    const statusSchema = served.structural?.properties.get('status');
    if ('status' in obj && statusSchema) errs.push(...validateSchemaUpdate(obj['status'], old['status'], statusSchema, new Loc('status', ['status']), { kubeMinor: minor }));
    errs.push(...validateScaleStatus(obj, served.scale));
    if (served.decodeStructural) errs.push(...validateListTypesUpdate(obj, old, served.decodeStructural, NIL));
  }
  return dedupe(errs);
}

/** The same cause reported twice (validateCommonFields and the strategy) is one line of the server's message. */
function dedupe(errs: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errs.filter((e) => {
    const k = `${e.type}\0${e.field}\0${e.detail}\0${JSON.stringify(e.value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Map ? Object.fromEntries(v) : v))}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export { qualifiedKind, groupResource };
export type { CrChangeKind };
