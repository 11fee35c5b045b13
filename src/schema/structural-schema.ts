/**
 * The typed structural schema (apiextensions pkg/apiserver/schema types.go `Structural`, built as
 * convert.go NewStructural reads a JSONSchemaProps): Generic, Extensions and ValueValidation of a
 * node, with Properties, Items and AdditionalProperties as typed children. Built once per schema
 * (the CRD model builds one per CRD version, see SchemaTarget.structural), with the facts later
 * stages need precomputed on each node, so no stage derives them again.
 *
 * Every lookup by a name from user input is own-key: properties are a Map, and the raw record is
 * only read through own keys. The raw record stays on the node (`raw`): the CRD validation rules
 * check the wire form (unsupported fields, Go zero values) and the validator still reads it.
 *
 * Only the forms pruning, defaulting and the path lookups read are typed children: `items` as a
 * single schema (an array form has no structural items), `additionalProperties` as a schema or a
 * bool (the bool forms carry no schema), `properties` entries whose value is an object.
 */
import { isRecord } from '../core/types.js';

type Raw = Record<string, unknown>;

export interface Generic {
  /** `type` when it is a string, else "". */
  readonly type: string;
  readonly title: string | undefined;
  readonly description: string | undefined;
  /** Generic.Default.Object != nil: `default: null` is no default. */
  readonly hasDefault: boolean;
  readonly default: unknown;
  readonly nullable: boolean;
}

export interface Extensions {
  readonly preserveUnknownFields: boolean;
  readonly embeddedResource: boolean;
  readonly intOrString: boolean;
  readonly listType: string | undefined;
  readonly listMapKeys: readonly string[] | undefined;
  readonly mapType: string | undefined;
  /** x-kubernetes-validations as written (a list of rule records), empty when absent. */
  readonly validations: readonly unknown[];
}

/** NestedValueValidation: the value validations of allOf/anyOf/oneOf/not members (raw children kept as they are). */
export interface NestedValueValidation {
  readonly validation: ValueValidation;
  readonly raw: Raw;
}

export interface ValueValidation {
  readonly format: string | undefined;
  readonly maximum: number | bigint | undefined;
  readonly exclusiveMaximum: boolean;
  readonly minimum: number | bigint | undefined;
  readonly exclusiveMinimum: boolean;
  readonly maxLength: number | bigint | undefined;
  readonly minLength: number | bigint | undefined;
  readonly pattern: string | undefined;
  readonly maxItems: number | bigint | undefined;
  readonly minItems: number | bigint | undefined;
  readonly uniqueItems: boolean;
  readonly multipleOf: number | bigint | undefined;
  readonly enum: readonly unknown[] | undefined;
  readonly maxProperties: number | bigint | undefined;
  readonly minProperties: number | bigint | undefined;
  readonly required: readonly string[];
  readonly allOf: readonly NestedValueValidation[];
  readonly anyOf: readonly NestedValueValidation[];
  readonly oneOf: readonly NestedValueValidation[];
  readonly not: NestedValueValidation | undefined;
}

/** StructuralOrBool: `schema` is undefined for the bool forms (`true` and `false`). */
export interface AdditionalProperties {
  readonly schema: Structural | undefined;
  readonly bool: boolean | undefined;
}

/** Facts about a node and everything below it through properties, additionalProperties and items. */
export interface Facts {
  /** A `default` sits at this node or below. */
  readonly defaultsBelow: boolean;
  /** A set or map list type sits at this node or below. */
  readonly listTypesBelow: boolean;
  /** An x-kubernetes-embedded-resource sits at this node or below. */
  readonly embeddedBelow: boolean;
  /** x-kubernetes-validations sit at this node or below. */
  readonly celBelow: boolean;
}

export interface Structural {
  readonly generic: Generic;
  readonly extensions: Extensions;
  readonly valueValidation: ValueValidation;
  /** Declared properties in the order written (Object.keys order of the decoded record). */
  readonly properties: ReadonlyMap<string, Structural>;
  readonly items: Structural | undefined;
  readonly additionalProperties: AdditionalProperties | undefined;
  readonly facts: Facts;
  /** The JSONSchemaProps record this node was built from. */
  readonly raw: Raw;
}

function own(o: Raw, k: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

function optString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function optNumber(v: unknown): number | bigint | undefined {
  return typeof v === 'number' || typeof v === 'bigint' ? v : undefined;
}

function nested(v: unknown): NestedValueValidation {
  const raw = isRecord(v) ? v : {};
  return { validation: valueValidation(raw), raw };
}

function valueValidation(s: Raw): ValueValidation {
  const list = (k: string): NestedValueValidation[] => {
    const v = own(s, k);
    return Array.isArray(v) ? v.map(nested) : [];
  };
  const en = own(s, 'enum');
  const req = own(s, 'required');
  const not = own(s, 'not');
  return {
    format: optString(own(s, 'format')),
    maximum: optNumber(own(s, 'maximum')),
    exclusiveMaximum: own(s, 'exclusiveMaximum') === true,
    minimum: optNumber(own(s, 'minimum')),
    exclusiveMinimum: own(s, 'exclusiveMinimum') === true,
    maxLength: optNumber(own(s, 'maxLength')),
    minLength: optNumber(own(s, 'minLength')),
    pattern: optString(own(s, 'pattern')),
    maxItems: optNumber(own(s, 'maxItems')),
    minItems: optNumber(own(s, 'minItems')),
    uniqueItems: own(s, 'uniqueItems') === true,
    multipleOf: optNumber(own(s, 'multipleOf')),
    enum: Array.isArray(en) ? en : undefined,
    maxProperties: optNumber(own(s, 'maxProperties')),
    minProperties: optNumber(own(s, 'minProperties')),
    required: Array.isArray(req) ? req.filter((x): x is string => typeof x === 'string') : [],
    allOf: list('allOf'),
    anyOf: list('anyOf'),
    oneOf: list('oneOf'),
    not: isRecord(not) ? nested(not) : undefined,
  };
}

/**
 * Builds the typed schema of a decoded JSONSchemaProps. A record reached twice (YAML aliases) is
 * built once and its node shared; a cycle (impossible in decoded JSON) ends in an empty node.
 */
export function buildStructural(raw: Raw): Structural {
  return build(raw, new Map());
}

function build(s: Raw, seen: Map<Raw, Structural | null>): Structural {
  const done = seen.get(s);
  if (done) return done;
  if (done === null) return build({}, new Map());
  seen.set(s, null);

  const properties = new Map<string, Structural>();
  const p = own(s, 'properties');
  if (isRecord(p)) {
    for (const k of Object.keys(p)) {
      const v = p[k];
      if (isRecord(v)) properties.set(k, build(v, seen));
    }
  }
  const i = own(s, 'items');
  const items = isRecord(i) ? build(i, seen) : undefined;
  const a = own(s, 'additionalProperties');
  const additionalProperties: AdditionalProperties | undefined = isRecord(a)
    ? { schema: build(a, seen), bool: undefined }
    : typeof a === 'boolean'
      ? { schema: undefined, bool: a }
      : undefined;

  const d = own(s, 'default');
  const lt = optString(own(s, 'x-kubernetes-list-type'));
  const lmk = own(s, 'x-kubernetes-list-map-keys');
  const vals = own(s, 'x-kubernetes-validations');
  const generic: Generic = {
    type: optString(own(s, 'type')) ?? '',
    title: optString(own(s, 'title')),
    description: optString(own(s, 'description')),
    hasDefault: d !== undefined && d !== null,
    default: d,
    nullable: own(s, 'nullable') === true,
  };
  const extensions: Extensions = {
    preserveUnknownFields: own(s, 'x-kubernetes-preserve-unknown-fields') === true,
    embeddedResource: own(s, 'x-kubernetes-embedded-resource') === true,
    intOrString: own(s, 'x-kubernetes-int-or-string') === true,
    listType: lt,
    listMapKeys: Array.isArray(lmk) ? lmk.filter((x): x is string => typeof x === 'string') : undefined,
    mapType: optString(own(s, 'x-kubernetes-map-type')),
    validations: Array.isArray(vals) ? vals : [],
  };

  let facts: Facts = {
    defaultsBelow: generic.hasDefault,
    listTypesBelow: lt === 'set' || lt === 'map',
    embeddedBelow: extensions.embeddedResource,
    celBelow: extensions.validations.length > 0,
  };
  const children = [...properties.values()];
  if (additionalProperties?.schema) children.push(additionalProperties.schema);
  if (items) children.push(items);
  for (const c of children) facts = orFacts(facts, c.facts);

  const node: Structural = { generic, extensions, valueValidation: valueValidation(s), properties, items, additionalProperties, facts, raw: s };
  seen.set(s, node);
  return node;
}

function orFacts(a: Facts, b: Facts): Facts {
  return {
    defaultsBelow: a.defaultsBelow || b.defaultsBelow,
    listTypesBelow: a.listTypesBelow || b.listTypesBelow,
    embeddedBelow: a.embeddedBelow || b.embeddedBelow,
    celBelow: a.celBelow || b.celBelow,
  };
}

/** The schema of key `k` of an object: the declared property, else the additionalProperties schema. */
export function fieldSchema(s: Structural | undefined, k: string): Structural | undefined {
  if (s === undefined) return undefined;
  return s.properties.get(k) ?? s.additionalProperties?.schema;
}

/** The node as an embedded resource (pruning and defaults validation treat a resource root so). */
export function asEmbeddedResource(s: Structural): Structural {
  if (s.extensions.embeddedResource) return s;
  return {
    ...s,
    extensions: { ...s.extensions, embeddedResource: true },
    facts: { ...s.facts, embeddedBelow: true },
    raw: { ...s.raw, 'x-kubernetes-embedded-resource': true },
  };
}

/** The empty schema (`{}`): no properties, no items, nothing preserved. */
export function emptyStructural(): Structural {
  return buildStructural({});
}
