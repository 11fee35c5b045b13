/**
 * What the API server does with a custom resource on create (POST, as `kubectl create`/`apply` of a
 * new object, and a dry-run create), step by step in the server's order:
 *
 *  1. request decoding in the URL's version (customresource_handler.go: unstructuredSchemaCoercer.apply
 *     then unstructuredDefaulter; src/simulate/pipeline.ts), unknown fields reported as warnings;
 *  2. the create handler (apiserver endpoints/handlers/create.go): WipeObjectMetaSystemFields,
 *     EnsureObjectNamespaceMatchesRequestNamespace (a cluster-scoped object loses its namespace),
 *     dedupOwnerReferences;
 *  3. the store (registry/generic/registry/store.go, rest.BeforeCreate): name generation, strategy
 *     PrepareForCreate (status dropped when the status subresource is on, generation 1);
 *  4. strategy.Validate (pkg/registry/customresource/strategy.go, validator.go): root ObjectMeta,
 *     the schema, the scale paths, embedded resources, list types, then the CEL rules (src/schema/cel-eval.ts;
 *     rules it cannot evaluate faithfully leave `celNotEvaluated` set);
 *  5. WarningsOnCreate (finalizer names);
 *  6. the write and the read-back (DryRunnableStorage.copyInto through the storage codec): conversion
 *     to the storage version and apply there, storage decoding (apply with malformed metadata
 *     dropped, defaults of the storage version), conversion back to the request version and apply.
 *
 * The result is the object the server returns, minus what the server generates (uid,
 * resourceVersion, creationTimestamp, generation, managedFields), with every change attributed to
 * the step that made it.
 */
import { deepEqual } from '../go/equal.js';
import { withLegacyValues, type FieldError } from '../core/field-error.js';
import { kubeMinor, type KubeVersion } from '../core/kube-version.js';
import { Loc } from '../core/path.js';
import { isRecord, type JsonPath } from '../core/types.js';
import { validateObjectMeta } from '../schema/objectmeta.js';
import { getObjectMeta } from '../schema/objectmeta/decode.js';
import type { CelSkip } from '../schema/cel-eval.js';
import { celStage } from './cel-stage.js';
import { validateListTypes, validateSchema } from '../schema/value-validate.js';
import { decode, type PipelineOptions } from '../simulate/pipeline.js';
import type { ChangeKind } from '../schema/behaviours/types.js';
import type { ServedVersion } from './catalog.js';
import { objectMetaHooks } from './meta-hooks.js';
import { finalizerWarnings, generatedName, validateRootObjectMeta } from './root-meta.js';
import { validateScaleSpec, validateScaleStatus } from './scale.js';
import { SERVER_FIELD_VALIDATION, type FieldValidation } from '../core/field-validation.js';
import { strictFailure, unknownFields, type StrictDecodingFailure, type UnknownField } from './field-validation.js';

export type CrChangeKind = ChangeKind | 'server-managed' | 'namespace-cleared' | 'owner-reference-deduplicated';

export interface CrChange {
  readonly kind: CrChangeKind;
  /** Path in the object (the input's coordinates). */
  readonly path: JsonPath;
  readonly before?: unknown;
  readonly after?: unknown;
  /** request: decoding the body; create: handler and strategy; storage: the write and read-back. */
  readonly stage: 'request' | 'create' | 'storage';
  /** The version whose schema made the change. */
  readonly version: string;
}

type CrWarningKind = 'deprecated' | 'unknown-field' | 'finalizer' | 'owner-references' | 'ratcheted';

export interface CrWarning {
  readonly kind: CrWarningKind;
  /** The server's warning text (HTTP Warning header). */
  readonly text: string;
  /** Where it points in the object, when it points somewhere. */
  readonly path?: JsonPath;
}

export interface CreateResult {
  readonly served: ServedVersion;
  /** The object as the server returns it, server-generated metadata removed; absent when rejected. */
  readonly value?: Record<string, unknown>;
  readonly changes: readonly CrChange[];
  readonly warnings: readonly CrWarning[];
  /** The causes of a 422 Invalid, in the server's order. */
  readonly errors: readonly FieldError[];
  /** A 400 BadRequest while decoding the body ("cannot be handled as a <Kind>"). */
  readonly decodeError?: { readonly message: string; readonly at?: JsonPath };
  /**
   * Strict field validation and unknown fields: the request fails with this 400 BadRequest. The
   * rest of the result is what Warn would have given (the preview `default` shows), except that
   * `errors` is empty and `warnings` holds only what the server sends with the 400.
   */
  readonly strictError?: StrictDecodingFailure;
  /** The unknown fields of the body, whatever the field validation (pruned in every mode). */
  readonly unknownFields: readonly UnknownField[];
  /** The schema has CEL rules that the server would evaluate and we could not (src/schema/cel-eval.ts). */
  readonly celNotEvaluated: boolean;
  /** The rules behind `celNotEvaluated`: each with where it applies and why it was not evaluated. */
  readonly celSkipped?: readonly CelSkip[];
  /** Steps that could not be simulated. */
  readonly notes: readonly string[];
}

interface CreateOptions {
  readonly kube: KubeVersion;
  /** Skip the write and read-back (validation only, as lint needs). */
  readonly skipStorage?: boolean;
  /** Run the write and read-back even where they provably change nothing (tests). */
  readonly alwaysReadBack?: boolean;
  /** The request's fieldValidation; default the server's own (Warn). */
  readonly fieldValidation?: FieldValidation;
}

const NIL = new Loc('', []);
/** Metadata the server sets itself; the output leaves it out. */
const GENERATED = ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields'] as const;
/** WipeObjectMetaSystemFields (creationTimestamp and uid are also in GENERATED). */
const WIPED = ['creationTimestamp', 'uid', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink'] as const;
/** Both, once each, in that order. */
const SERVER_MANAGED: readonly string[] = [...new Set<string>([...WIPED, ...GENERATED])];

/** The result without its CEL skips (a request that fails before validation evaluates no rule). */
function withoutCelSkipped<T extends { readonly celSkipped?: unknown }>(r: T): Omit<T, 'celSkipped'> {
  const out: Record<string, unknown> = { ...r };
  delete out['celSkipped'];
  return out as Omit<T, 'celSkipped'>;
}

export function simulateCreate(input: Record<string, unknown>, served: ServedVersion, opts: CreateOptions): CreateResult {
  const { crd, kind } = served;
  const version = served.version.name;
  const preserve = crd.preserveUnknownFields;
  const warnings: CrWarning[] = [];
  const changes: CrChange[] = [];
  const notes: string[] = [];
  const base = { served, celNotEvaluated: false, notes, unknownFields: [] as UnknownField[] };
  if (served.deprecationWarning !== undefined) warnings.push({ kind: 'deprecated', text: served.deprecationWarning });

  // 1. request decoding
  const req = decode(input, served.decodeStructural, { objectMeta: objectMetaHooks, preserveUnknownFields: preserve });
  if (req.error) {
    return {
      ...base,
      changes,
      warnings,
      errors: [],
      decodeError: { message: `${kind} in version "${version}" cannot be handled as a ${kind}: ${req.error.message}`, ...(req.error.at ? { at: req.error.at } : {}) },
    };
  }
  const add = (stage: CrChange['stage'], v: string, cs: readonly { kind: CrChangeKind; path: JsonPath; before?: unknown; after?: unknown }[]) => {
    for (const c of cs) changes.push({ ...c, stage, version: v });
  };
  add('request', version, req.changes);
  const unknown = unknownFields(req);
  const mode = opts.fieldValidation ?? SERVER_FIELD_VALIDATION;
  if (mode === 'Warn') for (const u of unknown) warnings.push({ kind: 'unknown-field', text: u.text, path: u.path });
  const strict = strictFailure(mode, kind, version, unknown);
  // the request ends with the 400: no validation, no warnings but the deprecation's
  const failed = (r: Omit<CreateResult, 'unknownFields'>): CreateResult =>
    strict ? { ...withoutCelSkipped(r), unknownFields: unknown, strictError: strict, errors: [], celNotEvaluated: false, warnings: r.warnings.filter((w) => w.kind === 'deprecated') } : { ...r, unknownFields: unknown };

  // 2. the create handler
  // req.value shares nothing with the input: it is ours to edit
  const obj = req.value as Record<string, unknown>;
  const md = isRecord(obj['metadata']) ? (obj['metadata'] as Record<string, unknown>) : undefined;
  if (md) {
    for (const k of SERVER_MANAGED) {
      if (!(k in md)) continue;
      if (!(k === 'creationTimestamp' && md[k] === null)) changes.push({ kind: 'server-managed', path: ['metadata', k], before: md[k], stage: 'create', version });
      if ((WIPED as readonly string[]).includes(k)) delete md[k];
    }
    if (!served.namespaced && typeof md['namespace'] === 'string' && md['namespace'] !== '') {
      changes.push({ kind: 'namespace-cleared', path: ['metadata', 'namespace'], before: md['namespace'], stage: 'create', version });
      delete md['namespace'];
    }
    const refs = md['ownerReferences'];
    if (Array.isArray(refs)) {
      const kept: unknown[] = [];
      const dups: string[] = [];
      refs.forEach((r, i) => {
        const uid = isRecord(r) ? r['uid'] : undefined;
        if (kept.some((k) => isRecord(k) && k['uid'] === uid && deepEqual(k, r))) {
          dups.push(String(uid ?? ''));
          changes.push({ kind: 'owner-reference-deduplicated', path: ['metadata', 'ownerReferences', i], before: r, stage: 'create', version });
        } else kept.push(r);
      });
      if (dups.length > 0) {
        md['ownerReferences'] = kept;
        warnings.push({
          kind: 'owner-references',
          text: `.metadata.ownerReferences contains duplicate entries; API server dedups owner references in 1.20+, and may reject such requests as early as 1.24; please fix your requests; duplicate UID(s) observed: ${dups.join(', ')}`,
          path: ['metadata', 'ownerReferences'],
        });
      }
    }
  }

  // 3. PrepareForCreate
  if (served.statusEnabled && 'status' in obj) {
    changes.push({ kind: 'status-reset', path: ['status'], before: obj['status'], stage: 'create', version });
    delete obj['status'];
  }

  // 4. strategy.Validate, on the object as the store holds it (generated name, request namespace, generation 1)
  const v = validationView(obj, served);
  const errors: FieldError[] = [];
  const meta = getObjectMeta(v, NIL, { drop: false, unknown: false }).meta;
  if (meta) {
    meta.generation = 1n;
    delete meta.managedFields;
    errors.push(...validateRootObjectMeta(meta, { namespaced: served.namespaced, raw: input['metadata'], kubeMinor: kubeMinor(opts.kube) }));
  }
  const minor = kubeMinor(opts.kube);
  if (served.structural) errors.push(...validateSchema(v, served.structural, NIL, { kubeMinor: minor }));
  errors.push(...validateScaleSpec(v, served.scale), ...validateScaleStatus(v, served.scale));
  errors.push(...validateObjectMeta(NIL, v, served.decodeStructural, false, minor));
  if (served.decodeStructural) errors.push(...validateListTypes(v, served.decodeStructural, NIL));
  // up to 1.33 the server prints map and list values with %#v (field-error.ts withLegacyValues)
  const result = { served, ...celStage(v, undefined, served, errors), notes, changes, warnings, errors: withLegacyValues(errors, minor) };
  if (errors.length > 0) return failed(result);

  // 5. WarningsOnCreate
  const fins = isRecord(obj['metadata']) ? obj['metadata']['finalizers'] : undefined;
  if (Array.isArray(fins))
    for (const w of finalizerWarnings(fins.filter((f): f is string => typeof f === 'string'), minor))
      warnings.push({ kind: 'finalizer', text: w, path: ['metadata', 'finalizers'] });

  // 6. write and read back
  let out: Record<string, unknown> = obj;
  if (opts.skipStorage !== true && (opts.alwaysReadBack === true || !served.readBackIsIdentity)) out = roundTrip(obj, served, changes, notes);
  return failed({ ...result, value: stripGenerated(out) });
}

/** The store's view at validation time: a generated name, the request namespace, generation 1. */
function validationView(obj: Record<string, unknown>, served: ServedVersion): Record<string, unknown> {
  const v = { ...obj };
  const md = isRecord(obj['metadata']) ? { ...obj['metadata'] } : {};
  const name = typeof md['name'] === 'string' ? md['name'] : '';
  const gen = typeof md['generateName'] === 'string' ? md['generateName'] : '';
  if (name === '' && gen !== '') md['name'] = generatedName(gen);
  // kubectl sends a namespaced object to its own namespace, else to the context's namespace
  if (served.namespaced && (typeof md['namespace'] !== 'string' || md['namespace'] === '')) md['namespace'] = 'default';
  md['generation'] = 1;
  v['metadata'] = md;
  return v;
}

/** The write to storage and the read-back (the store's generation is filled in first). */
export function roundTrip(obj: Record<string, unknown>, served: ServedVersion, changes: CrChange[], notes: string[], generation: number = 1): Record<string, unknown> {
  const storage = served.storage() ?? served;
  const { crd, group } = served;
  const preserve = crd.preserveUnknownFields;
  if (storage !== served && served.conversion === 'Webhook') {
    notes.push(`the object is stored as ${group}/${storage.version.name} through a conversion webhook, which is not simulated: defaults and pruning of the storage version are not shown`);
    return obj;
  }
  const po = (more: PipelineOptions): PipelineOptions => ({ objectMeta: objectMetaHooks, preserveUnknownFields: preserve, ...more });
  const record = (cs: readonly { kind: ChangeKind; path: JsonPath; before?: unknown; after?: unknown }[], v: string) => {
    for (const c of cs) if (!(c.kind === 'metadata-coerced' && c.path[0] === 'metadata' && (c.path[1] === 'generation' || c.path[1] === 'creationTimestamp'))) changes.push({ ...c, stage: 'storage', version: v });
  };
  // the store fills in what it generates before the write
  const filled = { ...obj, metadata: { ...(isRecord(obj['metadata']) ? obj['metadata'] : {}), generation } };
  const sv = storage.version.name;
  const toStorage = storage === served ? filled : { ...filled, apiVersion: `${group}/${sv}` };
  const enc = decode(toStorage, storage.decodeStructural, po({ skipDefaulting: true }));
  if (enc.error) return obj;
  record(enc.changes, sv);
  const read = decode(enc.value, storage.decodeStructural, po({ dropInvalidMetadata: true, repairGeneration: true }));
  if (read.error) return obj;
  record(read.changes, sv);
  const back = { ...(read.value as Record<string, unknown>), apiVersion: obj['apiVersion'] };
  const conv = decode(back, served.decodeStructural, po({ skipDefaulting: true }));
  if (conv.error) return obj;
  record(conv.changes, served.version.name);
  return conv.value as Record<string, unknown>;
}

/** Removes the metadata the server generates (and `creationTimestamp: null`). */
export function stripGenerated(obj: Record<string, unknown>): Record<string, unknown> {
  const md = obj['metadata'];
  if (!isRecord(md)) return obj;
  const m = { ...md };
  for (const k of GENERATED) delete m[k];
  return { ...obj, metadata: m };
}
