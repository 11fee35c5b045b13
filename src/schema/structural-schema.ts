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
  /**
   * An x-kubernetes-validations key sits anywhere in the node's record as written: its own, in its
   * properties, additionalProperties and items (whatever their form), in allOf/anyOf/oneOf/not, or
   * anywhere else in it. Where none does, the CEL validator has nothing to run.
   */
  readonly celBelow: boolean;
  /** ... in the raw allOf/anyOf/oneOf/not of this node (rules the CEL walk does not reach). */
  readonly celInNested: boolean;
  /** ... in the raw properties, additionalProperties or items of this node, whatever their form. */
  readonly celInChildren: boolean;
}

/** How cel-go binds a value of this node (apiextensions schema/cel/model): the CEL evaluator's facts. */
export interface CelBindingFacts {
  /** The node's value type (or one below it) cannot be bound as cel-go binds it. */
  readonly unsupported: boolean;
  /** Some list at or below the node is a set or map list (cel-go compares those unordered). */
  readonly unorderedLists: boolean;
  /** Some value at or below the node is a double. */
  readonly numbers: boolean;
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
  readonly celBinding: CelBindingFacts;
  /** `properties` is written as an object (even an empty one, which has no typed children). */
  readonly declaresProperties: boolean;
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

  const celInNested = NESTED.some((k) => hasKeyDeep(own(s, k), VALIDATIONS));
  const childHas = (v: unknown, node: Structural | undefined): boolean => (node !== undefined ? node.facts.celBelow : hasKeyDeep(v, VALIDATIONS));
  let celInChildren = childHas(a, additionalProperties?.schema) || childHas(i, items);
  if (!celInChildren && isRecord(p)) for (const k of Object.keys(p)) if (childHas(p[k], properties.get(k))) celInChildren = true;
  let celBelow = celInNested || celInChildren || Object.prototype.hasOwnProperty.call(s, VALIDATIONS);
  if (!celBelow) for (const k of Object.keys(s)) if (!CHILD_KEYS.has(k) && hasKeyDeep(s[k], VALIDATIONS)) celBelow = true;

  let facts: Facts = {
    defaultsBelow: generic.hasDefault,
    listTypesBelow: lt === 'set' || lt === 'map',
    embeddedBelow: extensions.embeddedResource,
    celBelow,
    celInNested,
    celInChildren,
  };
  const children = [...properties.values()];
  if (additionalProperties?.schema) children.push(additionalProperties.schema);
  if (items) children.push(items);
  for (const c of children) facts = orFacts(facts, c.facts);

  const declaresProperties = isRecord(p);
  const node: Structural = {
    generic,
    extensions,
    valueValidation: valueValidation(s),
    properties,
    items,
    additionalProperties,
    facts,
    celBinding: celBinding(s, generic, extensions, properties, items, declaresProperties && isRecord(a) ? additionalProperties?.schema : undefined, additionalProperties?.schema),
    declaresProperties,
    raw: s,
  };
  seen.set(s, node);
  return node;
}

/** Children's facts: defaults, list types and embedded resources below; the CEL facts are the node's own. */
function orFacts(a: Facts, b: Facts): Facts {
  return {
    ...a,
    defaultsBelow: a.defaultsBelow || b.defaultsBelow,
    listTypesBelow: a.listTypesBelow || b.listTypesBelow,
    embeddedBelow: a.embeddedBelow || b.embeddedBelow,
  };
}

const VALIDATIONS = 'x-kubernetes-validations';
const NESTED = ['allOf', 'anyOf', 'oneOf', 'not'] as const;
const CHILD_KEYS: ReadonlySet<string> = new Set(['properties', 'additionalProperties', 'items', ...NESTED, VALIDATIONS]);

/** Whether an own key `key` sits anywhere in a decoded JSON value. */
function hasKeyDeep(v: unknown, key: string): boolean {
  if (Array.isArray(v)) return v.some((x) => hasKeyDeep(x, key));
  if (!isRecord(v)) return false;
  if (Object.prototype.hasOwnProperty.call(v, key)) return true;
  for (const k of Object.keys(v)) if (hasKeyDeep(v[k], key)) return true;
  return false;
}

/**
 * The CEL binding facts: an int-or-string, preserve-unknown or embedded node, a string with a
 * date-time/duration/byte/date format, an array without items, an object with both properties and
 * additionalProperties, or any other type than the plain ones is unsupported; facts of items (arrays)
 * and of properties and additionalProperties (objects) carry up.
 */
function celBinding(
  s: Raw,
  generic: Generic,
  ext: Extensions,
  properties: ReadonlyMap<string, Structural>,
  items: Structural | undefined,
  bothPropsAndAdditional: Structural | undefined,
  additional: Structural | undefined,
): CelBindingFacts {
  let unsupported = false;
  let unorderedLists = false;
  let numbers = false;
  const t = generic.type;
  const carry = (c: Structural): void => {
    unsupported ||= c.celBinding.unsupported;
    unorderedLists ||= c.celBinding.unorderedLists;
    numbers ||= c.celBinding.numbers;
  };
  if (ext.intOrString || ext.preserveUnknownFields || ext.embeddedResource) unsupported = true;
  else if (t === 'string') {
    const f = own(s, 'format');
    if (f === 'date-time' || f === 'duration' || f === 'byte' || f === 'date') unsupported = true;
  } else if (t === 'number') numbers = true;
  else if (t === 'array') {
    if (ext.listType === 'set' || ext.listType === 'map') unorderedLists = true;
    if (items === undefined) unsupported = true;
    else carry(items);
  } else if (t === 'object') {
    if (bothPropsAndAdditional !== undefined) unsupported = true;
    for (const c of properties.values()) carry(c);
    if (additional !== undefined) carry(additional);
  } else if (t !== 'integer' && t !== 'boolean') unsupported = true;
  return { unsupported, unorderedLists, numbers };
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
