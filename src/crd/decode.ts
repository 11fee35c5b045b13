/**
 * Decoding of a CustomResourceDefinition into the apiextensions.k8s.io/v1 Go types, as the API
 * server's JSON decoder (and kubectl's strict field validation) sees it: values of the wrong JSON
 * type make the request fail with 400 BadRequest before any validation; unknown fields fail with
 * `strict decoding error: unknown field` under kubectl's default --validate=strict.
 */
import { isRecord, setOwn, type JsonPath } from '../core/types.js';
import { goSortedKeys } from '../go/strings.js';

type Shape =
  | 'string'
  | 'bool'
  | 'int'
  | 'number'
  | 'any'
  | 'bytes'
  | { readonly obj: Readonly<Record<string, Shape | (() => Shape)>>; readonly open?: boolean }
  | { readonly list: Shape | (() => Shape) }
  | { readonly map: Shape | (() => Shape) }
  | { readonly oneOfBoolSchema: true }
  | { readonly schemaOrList: true }
  | { readonly schemaOrStrings: true };

export interface DecodeProblem {
  readonly kind: 'type' | 'unknown-field';
  readonly path: JsonPath;
  /** Go's type name, for type mismatches. */
  readonly expected?: string;
  readonly got?: string;
}

const STR_LIST: Shape = { list: 'string' };
const STR_MAP: Shape = { map: 'string' };

const VALIDATION_RULE: Shape = {
  obj: { rule: 'string', message: 'string', messageExpression: 'string', reason: 'string', fieldPath: 'string', optionalOldSelf: 'bool' },
};

export const SCHEMA: Shape = {
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
    externalDocs: { obj: { description: 'string', url: 'string' } },
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
  obj: {
    name: 'string',
    served: 'bool',
    storage: 'bool',
    deprecated: 'bool',
    deprecationWarning: 'string',
    schema: { obj: { openAPIV3Schema: SCHEMA } },
    subresources: {
      obj: {
        status: { obj: {} },
        scale: { obj: { specReplicasPath: 'string', statusReplicasPath: 'string', labelSelectorPath: 'string' } },
      },
    },
    additionalPrinterColumns: {
      list: { obj: { name: 'string', type: 'string', format: 'string', description: 'string', priority: 'int', jsonPath: 'string' } },
    },
    selectableFields: { list: { obj: { jsonPath: 'string' } } },
  },
};

const CRD_V1: Shape = {
  obj: {
    apiVersion: 'string',
    kind: 'string',
    metadata: OBJECT_META,
    spec: {
      obj: {
        group: 'string',
        names: {
          obj: { plural: 'string', singular: 'string', shortNames: STR_LIST, kind: 'string', listKind: 'string', categories: STR_LIST },
        },
        scope: 'string',
        versions: { list: VERSION },
        conversion: {
          obj: {
            strategy: 'string',
            webhook: {
              obj: {
                clientConfig: {
                  obj: {
                    url: 'string',
                    caBundle: 'bytes',
                    service: { obj: { namespace: 'string', name: 'string', path: 'string', port: 'int' } },
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

function goType(s: Shape): string {
  if (typeof s === 'string')
    return { string: 'string', bool: 'bool', int: 'int64', number: 'float64', any: 'interface {}', bytes: '[]uint8' }[s];
  if ('list' in s) return '[]…';
  if ('map' in s) return 'map[string]…';
  if ('obj' in s) return 'struct';
  return 'JSONSchemaProps';
}

function jsType(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'number') return 'number';
  return typeof v === 'object' ? 'object' : typeof v;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The value as the Go types hold it after decoding: unknown fields dropped (what Warn and Ignore
 * field validation leave, and what the server compares when it hoists identical version fields).
 * Values of the wrong type are kept as they are (such a request fails anyway).
 */
export function withoutUnknownFields(value: unknown, shape: Shape): unknown {
  if (value === null || value === undefined || typeof shape === 'string') return value;
  const resolve = (x: Shape | (() => Shape)): Shape => (typeof x === 'function' ? x() : x);
  if ('obj' in shape) {
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const cs = Object.hasOwn(shape.obj, k) ? shape.obj[k] : undefined;
      if (cs === undefined) {
        if (shape.open) setOwn(out, k, v);
        continue;
      }
      setOwn(out, k, withoutUnknownFields(v, resolve(cs)));
    }
    return out;
  }
  if ('list' in shape) return Array.isArray(value) ? value.map((x) => withoutUnknownFields(x, resolve(shape.list))) : value;
  if ('map' in shape) {
    if (!isRecord(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, k, withoutUnknownFields(v, resolve(shape.map)));
    return out;
  }
  if ('oneOfBoolSchema' in shape) return isRecord(value) ? withoutUnknownFields(value, SCHEMA) : value;
  if ('schemaOrList' in shape) return Array.isArray(value) ? value.map((x) => withoutUnknownFields(x, SCHEMA)) : isRecord(value) ? withoutUnknownFields(value, SCHEMA) : value;
  if ('schemaOrStrings' in shape) return isRecord(value) ? withoutUnknownFields(value, SCHEMA) : value;
  return value;
}

/** The problems in the order Go's decoder meets them in the body kubectl sends (keys sorted). */
export function decodeProblems(value: unknown, shape: Shape = CRD_V1): DecodeProblem[] {
  // nearly always there are none: a first pass without sorting keys or building paths tells
  return scan(value, shape, false).length === 0 ? [] : scan(value, shape, true);
}

/** all: every problem, in order, with its path; else only whether there is one (a problem without a meaningful path or order). */
function scan(value: unknown, shape: Shape, all: boolean): DecodeProblem[] {
  const out: DecodeProblem[] = [];
  const sortedKeys = all ? goSortedKeys : Object.keys;
  const at = (path: JsonPath, k: string | number): JsonPath => (all ? [...path, k] : path);
  // explicit stack (deep schemas must not overflow the call stack), children pushed last-first so
  // that they are visited in document order; an unknown field waits on the stack at its place
  const stack: ([unknown, Shape, JsonPath] | DecodeProblem)[] = [[value, shape, []]];
  const pushAll = (items: ([unknown, Shape, JsonPath] | DecodeProblem)[]) => {
    for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]!);
  };
  while (stack.length > 0) {
    if (!all && out.length > 0) return out;
    const item = stack.pop()!;
    if (!Array.isArray(item)) {
      out.push(item);
      continue;
    }
    const [v, s0, path] = item;
    if (v === null || v === undefined) continue;
    const s = s0;
    const bad = () => out.push({ kind: 'type', path, expected: goType(s), got: jsType(v) });
    if (typeof s === 'string') {
      switch (s) {
        case 'any':
          break;
        case 'string':
          if (typeof v !== 'string') bad();
          break;
        case 'bytes':
          if (typeof v !== 'string' || !BASE64.test(v.replace(/\s/g, ''))) bad();
          break;
        case 'bool':
          if (typeof v !== 'boolean') bad();
          break;
        case 'int':
          if (typeof v !== 'number' || !Number.isInteger(v)) bad();
          break;
        case 'number':
          if (typeof v !== 'number') bad();
          break;
      }
      continue;
    }
    const resolve = (x: Shape | (() => Shape)): Shape => (typeof x === 'function' ? x() : x);
    if ('obj' in s) {
      if (!isRecord(v)) {
        bad();
        continue;
      }
      // kubectl sends the YAML as JSON with each mapping's keys in Go's sorted order
      const items: ([unknown, Shape, JsonPath] | DecodeProblem)[] = [];
      for (const k of sortedKeys(v)) {
        const child = v[k];
        const cs = Object.hasOwn(s.obj, k) ? s.obj[k] : undefined;
        if (cs === undefined) {
          if (!s.open) items.push({ kind: 'unknown-field', path: at(path, k) });
          continue;
        }
        items.push([child, resolve(cs), at(path, k)]);
      }
      pushAll(items);
    } else if ('list' in s) {
      if (!Array.isArray(v)) {
        bad();
        continue;
      }
      const is = resolve(s.list);
      pushAll(v.map((x, i) => [x, is, at(path, i)]));
    } else if ('map' in s) {
      if (!isRecord(v)) {
        bad();
        continue;
      }
      const ms = resolve(s.map);
      pushAll(sortedKeys(v).map((k) => [v[k], ms, at(path, k)]));
    } else if ('oneOfBoolSchema' in s) {
      if (typeof v === 'boolean') continue;
      if (!isRecord(v)) bad();
      else stack.push([v, SCHEMA, path]);
    } else if ('schemaOrList' in s) {
      if (Array.isArray(v)) pushAll(v.map((x, i) => [x, SCHEMA, at(path, i)]));
      else if (isRecord(v)) stack.push([v, SCHEMA, path]);
      else bad();
    } else if ('schemaOrStrings' in s) {
      if (Array.isArray(v)) pushAll(v.map((x, i) => [x, 'string', at(path, i)]));
      else if (isRecord(v)) stack.push([v, SCHEMA, path]);
      else bad();
    }
  }
  return out;
}
