/**
 * Decoding of a CustomResourceDefinition into the apiextensions.k8s.io/v1 Go types, as the API
 * server's JSON decoder (and kubectl's strict field validation) sees it: values of the wrong JSON
 * type make the request fail with 400 BadRequest before any validation; unknown fields fail with
 * `strict decoding error: unknown field` under kubectl's default --validate=strict.
 */
import { isRecord, setOwn, type JsonPath } from '../core/types.js';
import { base64ErrorOffset } from '../go/base64.js';
import { jsonFloat } from '../go/json.js';
import { goSortedKeys } from '../go/strings.js';
import { kindOf } from '../go/value.js';

type Shape =
  | 'string'
  | 'bool'
  | 'int'
  | 'int32'
  | 'number'
  | 'any'
  | 'bytes'
  /** go: the Go struct's name; types: the Go types of fields whose type has a name of its own. */
  | { readonly obj: Readonly<Record<string, Shape | (() => Shape)>>; readonly open?: boolean; readonly go?: string; readonly types?: Readonly<Record<string, string>> }
  | { readonly list: Shape | (() => Shape) }
  | { readonly map: Shape | (() => Shape) }
  | { readonly oneOfBoolSchema: true }
  | { readonly schemaOrList: true }
  | { readonly schemaOrStrings: true };

export interface DecodeProblem {
  /**
   * `dropped-field`: an unknown field below the object form of additionalProperties, additionalItems,
   * items or a dependencies value, which the server drops without an error or a warning (scan).
   */
  readonly kind: 'type' | 'unknown-field' | 'dropped-field' | 'dropped-value';
  readonly path: JsonPath;
  /** Go's type name, for type mismatches. */
  readonly expected?: string;
  readonly got?: string;
  /** The fields the enclosing object has, for a dropped field (to name the one that was meant). */
  readonly fields?: readonly string[];
  /** For a type problem: the error as the server's decoder words it (see serverDecodeError). */
  readonly text?: string;
  /**
   * The same before sigs.k8s.io/json of mid-2025 (Kubernetes 1.34 and earlier), where the error of a
   * field below a lax form is named by the lax field alone (`…items`, not `…items.maxLength`).
   */
  readonly textBefore135?: string;
  /** An error that ends the decoding at once (see serverDecodeError). */
  readonly hard?: boolean;
  /** The lax forms the problem is below (see scan). */
  readonly lax?: readonly number[];
}

const STR_LIST: Shape = { list: 'string' };
const STR_MAP: Shape = { map: 'string' };

const VALIDATION_RULE: Shape = {
  go: 'ValidationRule',
  types: { reason: 'v1.FieldValueErrorReason' },
  obj: { rule: 'string', message: 'string', messageExpression: 'string', reason: 'string', fieldPath: 'string', optionalOldSelf: 'bool' },
};

export const SCHEMA: Shape = {
  go: 'JSONSchemaProps',
  types: {
    $schema: 'v1.JSONSchemaURL',
    enum: '[]v1.JSON',
    dependencies: 'v1.JSONSchemaDependencies',
    definitions: 'v1.JSONSchemaDefinitions',
    'x-kubernetes-validations': 'v1.ValidationRules',
  },
  obj: {
    id: 'string',
    $schema: 'string',
    $ref: 'string',
    description: 'string',
    type: 'string',
    format: 'string',
    title: 'string',
    default: 'any',
    maximum: 'number',
    exclusiveMaximum: 'bool',
    minimum: 'number',
    exclusiveMinimum: 'bool',
    maxLength: 'int',
    minLength: 'int',
    pattern: 'string',
    maxItems: 'int',
    minItems: 'int',
    uniqueItems: 'bool',
    multipleOf: 'number',
    enum: { list: 'any' },
    maxProperties: 'int',
    minProperties: 'int',
    required: STR_LIST,
    items: { schemaOrList: true },
    allOf: { list: () => SCHEMA },
    oneOf: { list: () => SCHEMA },
    anyOf: { list: () => SCHEMA },
    not: () => SCHEMA,
    properties: { map: () => SCHEMA },
    additionalProperties: { oneOfBoolSchema: true },
    patternProperties: { map: () => SCHEMA },
    dependencies: { map: { schemaOrStrings: true } },
    additionalItems: { oneOfBoolSchema: true },
    definitions: { map: () => SCHEMA },
    externalDocs: { go: 'ExternalDocumentation', obj: { description: 'string', url: 'string' } },
    example: 'any',
    nullable: 'bool',
    'x-kubernetes-preserve-unknown-fields': 'bool',
    'x-kubernetes-embedded-resource': 'bool',
    'x-kubernetes-int-or-string': 'bool',
    'x-kubernetes-list-map-keys': STR_LIST,
    'x-kubernetes-list-type': 'string',
    'x-kubernetes-map-type': 'string',
    'x-kubernetes-validations': { list: VALIDATION_RULE },
  },
};

const OBJECT_META: Shape = {
  go: 'ObjectMeta',
  types: { uid: 'types.UID', ownerReferences: '[]v1.OwnerReference', managedFields: '[]v1.ManagedFieldsEntry' },
  obj: {
    name: 'string',
    generateName: 'string',
    namespace: 'string',
    selfLink: 'string',
    uid: 'string',
    resourceVersion: 'string',
    generation: 'int',
    creationTimestamp: 'any',
    deletionTimestamp: 'any',
    deletionGracePeriodSeconds: 'int',
    labels: STR_MAP,
    annotations: STR_MAP,
    ownerReferences: { list: 'any' },
    finalizers: STR_LIST,
    managedFields: { list: 'any' },
  },
};

export const VERSION: Shape = {
  go: 'CustomResourceDefinitionVersion',
  obj: {
    name: 'string',
    served: 'bool',
    storage: 'bool',
    deprecated: 'bool',
    deprecationWarning: 'string',
    schema: { go: 'CustomResourceValidation', obj: { openAPIV3Schema: SCHEMA } },
    subresources: {
      go: 'CustomResourceSubresources',
      obj: {
        status: { go: 'CustomResourceSubresourceStatus', obj: {} },
        scale: { go: 'CustomResourceSubresourceScale', obj: { specReplicasPath: 'string', statusReplicasPath: 'string', labelSelectorPath: 'string' } },
      },
    },
    additionalPrinterColumns: {
      list: { go: 'CustomResourceColumnDefinition', obj: { name: 'string', type: 'string', format: 'string', description: 'string', priority: 'int32', jsonPath: 'string' } },
    },
    selectableFields: { list: { go: 'SelectableField', obj: { jsonPath: 'string' } } },
  },
};

const CRD_V1: Shape = {
  go: 'CustomResourceDefinition',
  obj: {
    apiVersion: 'string',
    kind: 'string',
    metadata: OBJECT_META,
    spec: {
      go: 'CustomResourceDefinitionSpec',
      types: { scope: 'v1.ResourceScope' },
      obj: {
        group: 'string',
        names: {
          go: 'CustomResourceDefinitionNames',
          obj: { plural: 'string', singular: 'string', shortNames: STR_LIST, kind: 'string', listKind: 'string', categories: STR_LIST },
        },
        scope: 'string',
        versions: { list: VERSION },
        conversion: {
          go: 'CustomResourceConversion',
          types: { strategy: 'v1.ConversionStrategyType' },
          obj: {
            strategy: 'string',
            webhook: {
              go: 'WebhookConversion',
              obj: {
                clientConfig: {
                  go: 'WebhookClientConfig',
                  obj: {
                    url: 'string',
                    caBundle: 'bytes',
                    service: { go: 'ServiceReference', obj: { namespace: 'string', name: 'string', path: 'string', port: 'int32' } },
                  },
                },
                conversionReviewVersions: STR_LIST,
              },
            },
          },
        },
        preserveUnknownFields: 'bool',
      },
    },
    status: 'any',
  },
};

/** A shape, or the shape a recursive reference stands for. */
const resolve = (x: Shape | (() => Shape)): Shape => (typeof x === 'function' ? x() : x);

/** The Go type (reflect's String) a shape decodes into. */
function goTypeOf(s: Shape): string {
  if (typeof s === 'string')
    return { string: 'string', bool: 'bool', int: 'int64', int32: 'int32', number: 'float64', any: 'interface {}', bytes: '[]uint8' }[s];
  if ('list' in s) return `[]${goTypeOf(resolve(s.list))}`;
  if ('map' in s) return `map[string]${goTypeOf(resolve(s.map))}`;
  if ('obj' in s) return s.go === undefined ? 'struct {}' : `v1.${s.go}`;
  if ('oneOfBoolSchema' in s) return 'v1.JSONSchemaPropsOrBool';
  if ('schemaOrList' in s) return 'v1.JSONSchemaPropsOrArray';
  return 'v1.JSONSchemaPropsOrStringArray';
}

/** The JSON kind encoding/json names in its errors. */
function jsType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  if (v === null) return 'null';
  if (typeof v === 'number' || typeof v === 'bigint') return 'number';
  return typeof v === 'object' ? 'object' : typeof v;
}

/**
 * The value as the Go types hold it after decoding: unknown fields dropped (what Warn and Ignore
 * field validation leave, and what the server compares when it hoists identical version fields).
 * Values of the wrong type are kept as they are (such a request fails anyway).
 */
export function withoutUnknownFields(value: unknown, shape: Shape): unknown {
  if (value === null || value === undefined || typeof shape === 'string') return value;
  if ('obj' in shape) {
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const cs = Object.hasOwn(shape.obj, k) ? shape.obj[k] : undefined;
      if (cs === undefined) {
        if (shape.open) setOwn(out, k, v);
        continue;
      }
      const d = withoutUnknownFields(v, resolve(cs));
      if (d !== undefined) setOwn(out, k, d);
    }
    return out;
  }
  if ('list' in shape) return Array.isArray(value) ? value.map((x) => withoutUnknownFields(x, resolve(shape.list))) : value;
  if ('map' in shape) {
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const d = withoutUnknownFields(v, resolve(shape.map));
      // a dependencies value that decodes to nothing is still there (empty)
      setOwn(out, k, d === undefined ? {} : d);
    }
    return out;
  }
  if ('oneOfBoolSchema' in shape) return isRecord(value) ? withoutUnknownFields(value, SCHEMA) : value;
  // items or a dependencies value that is neither an object nor a list decodes to nothing
  if ('schemaOrList' in shape) return Array.isArray(value) ? value.map((x) => withoutUnknownFields(x, SCHEMA)) : isRecord(value) ? withoutUnknownFields(value, SCHEMA) : undefined;
  if ('schemaOrStrings' in shape) return isRecord(value) ? withoutUnknownFields(value, SCHEMA) : Array.isArray(value) ? value : undefined;
  return value;
}

/**
 * A value to decode: its shape, its path, the lax forms it is below (an id per items /
 * additionalProperties / ... entered, outermost first; see scan), the Go field names that lead to
 * it (no map keys or list indices: encoding/json's error context), the Go struct that holds the
 * field, and the Go type it decodes into.
 */
interface Entry {
  readonly v: unknown;
  readonly s: Shape;
  readonly path: JsonPath;
  readonly lax: readonly number[];
  readonly fields: readonly string[];
  readonly struct: string;
  readonly goT: string;
  /** Below a lax form: the Go field names up to the outermost lax field. */
  readonly outer?: readonly string[] | undefined;
}

/** The problems in the order Go's decoder meets them in the body kubectl sends (keys sorted). */
export function decodeProblems(value: unknown, shape: Shape = CRD_V1): DecodeProblem[] {
  // nearly always there are none: a first pass without sorting keys or building paths tells
  return scan(value, shape, false).length === 0 ? [] : scan(value, shape, true);
}

/**
 * all: every problem, in order, with its path; else only whether there is one (a problem without a
 * meaningful path or order).
 *
 * The object forms of additionalProperties, additionalItems, items and dependencies' values are
 * JSONSchemaPropsOrBool / OrArray / OrStringArray, whose UnmarshalJSON decodes the schema with the
 * plain (not strict) JSON decoder: below them, wrong types still fail the request, but unknown
 * fields are dropped without a word, under every field validation (a `lax` entry; `dropped-field`).
 * Their other forms: items and a dependencies value that are neither an object nor a list are
 * dropped as well (`dropped-value`); additionalProperties and additionalItems that are neither an
 * object nor a bool fail with `boolean or JSON schema expected`.
 */
function scan(value: unknown, shape: Shape, all: boolean): DecodeProblem[] {
  const out: DecodeProblem[] = [];
  const sortedKeys = all ? goSortedKeys : Object.keys;
  const at = (path: JsonPath, k: string | number): JsonPath => (all ? [...path, k] : path);
  const field = (fields: readonly string[], k: string): readonly string[] => (all ? [...fields, k] : fields);
  let laxIds = 0;
  const enter = (lax: readonly number[]): readonly number[] => (all ? [...lax, ++laxIds] : lax);
  const outerOf = (e: Entry): readonly string[] | undefined => e.outer ?? (all ? e.fields : undefined);
  // explicit stack (deep schemas must not overflow the call stack), children pushed last-first so
  // that they are visited in document order; an unknown field waits on the stack at its place
  const stack: (Entry | DecodeProblem)[] = [{ v: value, s: shape, path: [], lax: [], fields: [], struct: '', goT: all ? goTypeOf(shape) : '' }];
  const pushAll = (items: (Entry | DecodeProblem)[]) => {
    for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]!);
  };
  while (stack.length > 0) {
    if (!all && out.length > 0) return out;
    const item = stack.pop()!;
    if (!('s' in item)) {
      out.push(item);
      continue;
    }
    const { v, s, path, lax, fields, struct, goT, outer } = item;
    if (v === null || v === undefined) continue;
    const bad = (got = jsType(v)) => {
      // below a lax form the error comes back through the enclosing field's UnmarshalJSON, which
      // encoding/json names by the struct that holds that field: always a JSONSchemaProps
      const text = all ? goTypeErrorText(got, lax.length > 0 ? 'JSONSchemaProps' : struct, fields, goT) : '';
      const before = all && outer !== undefined ? goTypeErrorText(got, 'JSONSchemaProps', outer, goT) : undefined;
      out.push({ kind: 'type', path, expected: goT, got: got.split(' ')[0]!, text, ...(before !== undefined && before !== text ? { textBefore135: before } : {}), lax });
    };
    if (typeof s === 'string') {
      switch (s) {
        case 'any':
          break;
        case 'string':
          if (typeof v !== 'string') bad();
          break;
        case 'bytes': {
          if (typeof v !== 'string') bad();
          else {
            const at64 = base64ErrorOffset(v);
            if (at64 !== undefined) out.push({ kind: 'type', path, expected: goT, got: 'string', text: `illegal base64 data at input byte ${at64}`, lax });
          }
          break;
        }
        case 'bool':
          if (typeof v !== 'boolean') bad();
          break;
        case 'int':
        case 'int32':
          if (typeof v === 'number' || typeof v === 'bigint') {
            const ok = kindOf(v) === 'int' && (s === 'int' || (Number(v) >= -0x80000000 && Number(v) <= 0x7fffffff));
            if (!ok) bad(`number ${typeof v === 'bigint' ? v.toString() : jsonFloat(v)}`);
          } else bad();
          break;
        case 'number':
          if (typeof v !== 'number' && typeof v !== 'bigint') bad();
          break;
      }
      continue;
    }
    if ('obj' in s) {
      if (!isRecord(v)) {
        bad();
        continue;
      }
      // kubectl sends the YAML as JSON with each mapping's keys in Go's sorted order
      const items: (Entry | DecodeProblem)[] = [];
      for (const k of sortedKeys(v)) {
        const child = v[k];
        const cs = Object.hasOwn(s.obj, k) ? s.obj[k] : undefined;
        if (cs === undefined) {
          if (s.open) continue;
          items.push(lax.length > 0 ? { kind: 'dropped-field', path: at(path, k), fields: Object.keys(s.obj) } : { kind: 'unknown-field', path: at(path, k) });
          continue;
        }
        const c = resolve(cs);
        items.push({ v: child, s: c, path: at(path, k), lax, fields: field(fields, k), struct: all ? (s.go ?? struct) : '', goT: all ? (s.types?.[k] ?? goTypeOf(c)) : '', outer });
      }
      pushAll(items);
    } else if ('list' in s) {
      if (!Array.isArray(v)) {
        bad();
        continue;
      }
      const is = resolve(s.list);
      const t = all ? goTypeOf(is) : '';
      pushAll(v.map((x, i) => ({ v: x, s: is, path: at(path, i), lax, fields, struct, goT: t, outer })));
    } else if ('map' in s) {
      if (!isRecord(v)) {
        bad();
        continue;
      }
      const ms = resolve(s.map);
      const t = all ? goTypeOf(ms) : '';
      pushAll(sortedKeys(v).map((k) => ({ v: v[k], s: ms, path: at(path, k), lax, fields, struct, goT: t, outer })));
    } else if ('oneOfBoolSchema' in s) {
      if (typeof v === 'boolean') continue;
      if (!isRecord(v)) out.push({ kind: 'type', path, expected: goT, got: jsType(v), text: 'boolean or JSON schema expected', hard: true, lax });
      else stack.push({ v, s: SCHEMA, path, lax: enter(lax), fields, struct, goT: 'v1.JSONSchemaProps', outer: outerOf(item) });
    } else if ('schemaOrList' in s || 'schemaOrStrings' in s) {
      const inner = enter(lax);
      const o = outerOf(item);
      const es: Shape = 'schemaOrList' in s ? SCHEMA : 'string';
      if (Array.isArray(v)) pushAll(v.map((x, i) => ({ v: x, s: es, path: at(path, i), lax: inner, fields, struct, goT: all ? goTypeOf(es) : '', outer: o })));
      else if (isRecord(v)) stack.push({ v, s: SCHEMA, path, lax: inner, fields, struct, goT: 'v1.JSONSchemaProps', outer: o });
      // anything else: UnmarshalJSON leaves the field empty, without an error
      else out.push({ kind: 'dropped-value', path, got: jsType(v) });
    }
  }
  return out;
}

/** encoding/json's UnmarshalTypeError text. */
function goTypeErrorText(got: string, struct: string, fields: readonly string[], goT: string): string {
  if (struct === '' && fields.length === 0) return `json: cannot unmarshal ${got} into Go value of type ${goT}`;
  return `json: cannot unmarshal ${got} into Go struct field ${struct}.${fields.join('.')} of type ${goT}`;
}

/**
 * The one error the server's decoder answers with (400), among the type problems in document
 * order: encoding/json keeps the first type error and goes on, but an error an UnmarshalJSON
 * returns ends the decoding at once; items, additionalProperties and the like return the first
 * error below them (by the same rule, one level down), and additionalProperties and
 * additionalItems one of their own for a value that is neither a bool nor a schema.
 */
export function serverDecodeError(problems: readonly DecodeProblem[]): DecodeProblem | undefined {
  let types = problems.filter((p) => p.kind === 'type');
  for (let depth = 0; ; depth++) {
    const first = types.find((p) => p.hard === true || (p.lax?.length ?? 0) > depth);
    if (first === undefined) return types[0];
    if (first.hard === true && (first.lax?.length ?? 0) === depth) return first;
    const id = first.lax![depth];
    types = types.filter((p) => p.lax !== undefined && p.lax[depth] === id);
  }
}
