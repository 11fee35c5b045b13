/**
 * The decode pipeline of a custom resource, in the order of apiextensions-apiserver
 * pkg/apiserver/customresource_handler.go: the schema-coercing decoder
 * (unstructuredSchemaCoercer.apply) followed by the versioning codec's defaulter
 * (unstructuredDefaulter.Default). Pure: the input is never mutated, and the value decoded shares
 * no object with it (the caller may edit it).
 *
 * ObjectMeta handling lives in another module and is injected (`objectMeta`); without it the root
 * metadata is put back as it came in and embedded metadata is left alone.
 *
 * The schema is used as given. The server serves each version's schema after
 * structuraldefaulting.PruneDefaults (customresource_handler.go, when building the CRD's serving
 * info), which strips unknown/malformed ObjectMeta fields from defaults inside embedded resources
 * (vector V72); that needs objectmeta coercion and is expected to have been applied by the caller.
 */
import { goTypeOf, goValue } from '../go/print.js';
import { deepCopy, hasOwn, newObject, setOwn } from '../core/json-value.js';
import { isRecord, type JsonPath } from '../core/types.js';
import { applyDefaults } from '../schema/behaviours/default.js';
import { prune } from '../schema/behaviours/prune.js';
import { pruneNonNullableNullsWithoutDefaults } from '../schema/behaviours/prune-nulls.js';
import type { Change, StepResult, StepSchema } from '../schema/behaviours/types.js';
import { jsonText } from '../core/json-text.js';

/** A decode failure (the server answers 400 "cannot be handled as a <Kind>"). */
export interface DecodeError {
  readonly message: string;
  /** Where in the object the problem sits, when known. */
  readonly at?: JsonPath;
}

export interface MetaStepResult extends StepResult {
  /** Unknown-field paths in the server's notation (`metadata.foo`, `spec.x.metadata.foo`), sorted as the server returns them. */
  readonly unknownFieldPaths?: readonly string[];
  readonly error?: DecodeError;
}

/** The objectmeta package, injected. */
export interface ObjectMetaHooks {
  /**
   * objectmeta.GetObjectMetaWithOptions + SetObjectMeta on the root `metadata` value (present in
   * the input, possibly null): the normalized value to put back; changes relative to `metadata`.
   */
  readonly root?: (metadata: unknown, opts: { readonly dropMalformedFields: boolean }) => MetaStepResult;
  /**
   * objectmeta.CoerceWithOptions(nil, obj, schema, isResourceRoot=false): embedded TypeMeta and
   * ObjectMeta below the root; changes relative to the object.
   */
  readonly embedded?: (value: unknown, schema: StepSchema, opts: { readonly dropInvalidFields: boolean }) => MetaStepResult;
}

export interface PipelineOptions {
  /** CRD `spec.preserveUnknownFields: true` (v1beta1 only): no pruning and no null dropping. */
  readonly preserveUnknownFields?: boolean;
  readonly objectMeta?: ObjectMetaHooks;
  /** Storage reads (the etcd decoder): malformed metadata fields are dropped instead of failing. */
  readonly dropInvalidMetadata?: boolean;
  /** Storage reads: a root metadata.generation of 0 (or unset) becomes 1. */
  readonly repairGeneration?: boolean;
  /** Skip defaulting (converting a stored object to another version coerces but does not default). */
  readonly skipDefaulting?: boolean;
}

interface PipelineResult extends StepResult {
  /** In the order the server reports them: root metadata, pruned (sorted), embedded metadata (sorted). */
  readonly unknownFieldPaths: readonly string[];
  /** Set when decoding fails; `value` is then the input, unchanged. */
  readonly error?: DecodeError;
}

interface State {
  readonly value: unknown;
  readonly changes: readonly Change[];
  readonly unknownFieldPaths: readonly string[];
  /** The root apiVersion/kind/metadata saved before pruning (apply's "implicit meta fields"). */
  readonly saved: ReadonlyMap<string, unknown>;
  readonly error?: DecodeError;
}

interface Stage {
  readonly name: string;
  readonly run: (st: State, schema: StepSchema, opts: PipelineOptions) => State;
}

const ROOT_META = ['kind', 'apiVersion', 'metadata'] as const;

/** The stages, in the server's order. Each one names the upstream code it imitates. */
export const DECODE_STAGES: readonly Stage[] = [
  {
    // unstructuredSchemaCoercer.apply: unstructured.NestedString(kind), NestedString(apiVersion),
    // schemaobjectmeta.GetObjectMetaWithOptions(u.Object, {DropMalformedFields, ReturnUnknownFieldPaths})
    name: 'save-root-meta',
    run: (st, _schema, opts) => {
      if (!isRecord(st.value)) return st;
      const obj = st.value;
      const saved = new Map<string, unknown>();
      for (const k of ['kind', 'apiVersion'] as const) {
        if (!hasOwn(obj, k)) continue;
        const v = obj[k];
        if (typeof v !== 'string') return { ...st, error: { message: `.${k} accessor error: ${goValue(v)} is of the type ${goTypeOf(v)}, expected string`, at: [k] } };
        saved.set(k, v);
      }
      let unknown: readonly string[] = [];
      const changes: Change[] = [];
      if (hasOwn(obj, 'metadata')) {
        const hook = opts.objectMeta?.root;
        if (hook) {
          const r = hook(deepCopy(obj['metadata']), { dropMalformedFields: opts.dropInvalidMetadata === true });
          if (r.error) return { ...st, error: r.error };
          saved.set('metadata', r.value);
          unknown = r.unknownFieldPaths ?? [];
          changes.push(...r.changes.map((c) => ({ ...c, path: ['metadata', ...c.path] })));
        } else {
          saved.set('metadata', deepCopy(obj['metadata']));
        }
        if (opts.repairGeneration === true) {
          const md = saved.get('metadata');
          const gen = isRecord(md) ? md['generation'] : undefined;
          if (isRecord(md) && (gen === undefined || gen === null || gen === 0)) {
            const next = deepCopy(md) as Record<string, unknown>;
            setOwn(next, 'generation', 1);
            saved.set('metadata', next);
            changes.push(gen === undefined ? { kind: 'metadata-coerced', path: ['metadata', 'generation'], after: 1 } : { kind: 'metadata-coerced', path: ['metadata', 'generation'], before: gen, after: 1 });
          }
        }
      }
      return { ...st, saved, unknownFieldPaths: [...st.unknownFieldPaths, ...unknown], changes: [...st.changes, ...changes] };
    },
  },
  {
    // unstructuredSchemaCoercer.apply → structuralpruning.PruneWithOptions(u.Object, schema, isResourceRoot=true, ...)
    name: 'prune',
    run: (st, schema, opts) => {
      if (opts.preserveUnknownFields === true) return st;
      const r = prune(st.value, schema, { isResourceRoot: true });
      return { ...st, value: r.value, changes: [...st.changes, ...r.changes], unknownFieldPaths: [...st.unknownFieldPaths, ...r.unknownFieldPaths] };
    },
  },
  {
    // unstructuredSchemaCoercer.apply → structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, schema)
    name: 'drop-nulls',
    run: (st, schema, opts) => {
      if (opts.preserveUnknownFields === true) return st;
      const r = pruneNonNullableNullsWithoutDefaults(st.value, schema);
      // the root meta fields are restored below: what happened to them here does not show
      const changes = r.changes.filter((c) => !(typeof c.path[0] === 'string' && st.saved.has(c.path[0])));
      return { ...st, value: r.value, changes: [...st.changes, ...changes] };
    },
  },
  {
    // unstructuredSchemaCoercer.apply → schemaobjectmeta.CoerceWithOptions(nil, u.Object, schema, false, ...)
    name: 'coerce-embedded-meta',
    run: (st, schema, opts) => {
      const hook = opts.objectMeta?.embedded;
      if (!hook) return st;
      const r = hook(st.value, schema, { dropInvalidFields: opts.dropInvalidMetadata === true });
      if (r.error) return { ...st, error: r.error };
      return { ...st, value: r.value, changes: [...st.changes, ...r.changes], unknownFieldPaths: [...st.unknownFieldPaths, ...(r.unknownFieldPaths ?? [])] };
    },
  },
  {
    // unstructuredSchemaCoercer.apply, "restore meta fields, starting clean": u.SetKind, u.SetAPIVersion,
    // schemaobjectmeta.SetObjectMeta (only for the fields that were found)
    name: 'restore-root-meta',
    run: (st) => {
      if (!isRecord(st.value) || st.saved.size === 0) return st;
      const out = newObject();
      for (const k of Object.keys(st.value)) setOwn(out, k, st.value[k]);
      for (const k of ROOT_META) if (st.saved.has(k)) setOwn(out, k, deepCopy(st.saved.get(k)));
      return { ...st, value: out };
    },
  },
  {
    // versioning codec → unstructuredDefaulter.Default → structuraldefaulting.Default(u.UnstructuredContent(), schema)
    name: 'default',
    run: (st, schema, opts) => {
      if (opts.skipDefaulting === true) return st;
      const r = applyDefaults(st.value, schema);
      return { ...st, value: r.value, changes: [...st.changes, ...r.changes] };
    },
  },
];

/**
 * Decodes a custom resource as the API server does for a request body (or, with
 * `dropInvalidMetadata`/`repairGeneration`, for a storage read) against one version's schema.
 */
export function decode(value: unknown, schema: StepSchema, opts: PipelineOptions = {}): PipelineResult {
  // the result shares nothing with the input: pruning makes a copy, and every later stage either
  // copies what it changes or hands back what it was given; without pruning, the copy is made here
  let st: State = { value: opts.preserveUnknownFields === true ? deepCopy(value) : value, changes: [], unknownFieldPaths: [], saved: new Map() };
  for (const stage of DECODE_STAGES) {
    st = stage.run(st, schema, opts);
    if (st.error) return { value: deepCopy(value), changes: [], unknownFieldPaths: [], error: st.error };
  }
  return { value: st.value, changes: st.changes, unknownFieldPaths: st.unknownFieldPaths };
}

