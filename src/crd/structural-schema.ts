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
  /**
   * A form a later stage converts this node to (the value validator's kube-openapi schema, one per
   * format context), owned by the node: `build` runs on the first call with `key`, later calls
   * return the same value.
   */
  derive<T>(key: string, build: (node: Structural) => T): T;
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

  // The keywords read below are no names of Object.prototype, so a plain read is an own read.
  // Children's facts are OR-ed in as bits (FACT_*).
  let below = 0;
  let celInChildren = false;
  let properties: ReadonlyMap<string, Structural> = NO_PROPERTIES;
  const p = s['properties'];
  if (isRecord(p)) {
    const keys = Object.keys(p);
    if (keys.length > 0) {
      const m = new Map<string, Structural>();
      for (const k of keys) {
        const v = p[k];
        if (isRecord(v)) {
          const c = build(v, seen);
          below |= factBits(c.facts);
          m.set(k, c);
        } else celInChildren ||= hasKeyDeep(v, VALIDATIONS);
      }
      if (m.size > 0) properties = m;
    }
  }
  const i = s['items'];
  let items: Structural | undefined;
  if (isRecord(i)) {
    items = build(i, seen);
    below |= factBits(items.facts);
  } else celInChildren ||= hasKeyDeep(i, VALIDATIONS);
  const a = s['additionalProperties'];
  let additionalProperties: AdditionalProperties | undefined;
  if (isRecord(a)) {
    const c = build(a, seen);
    below |= factBits(c.facts);
    additionalProperties = { schema: c, bool: undefined };
  } else {
    if (typeof a === 'boolean') additionalProperties = a ? ADDITIONAL_TRUE : ADDITIONAL_FALSE;
    celInChildren ||= hasKeyDeep(a, VALIDATIONS);
  }
  celInChildren ||= (below & FACT_CEL) !== 0;

  const d = s['default'];
  const lt = optString(s['x-kubernetes-list-type']);
  const lmk = s['x-kubernetes-list-map-keys'];
  const vals = s[VALIDATIONS];
  const generic: Generic = {
    type: optString(s['type']) ?? '',
    title: optString(s['title']),
    description: optString(s['description']),
    hasDefault: d !== undefined && d !== null,
    default: d,
    nullable: s['nullable'] === true,
  };
  const preserveUnknownFields = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embeddedResource = s['x-kubernetes-embedded-resource'] === true;
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const mapType = optString(s['x-kubernetes-map-type']);
  const extensions: Extensions =
    !preserveUnknownFields && !embeddedResource && !intOrString && lt === undefined && lmk === undefined && mapType === undefined && vals === undefined
      ? NO_EXTENSIONS
      : {
          preserveUnknownFields,
          embeddedResource,
          intOrString,
          listType: lt,
          listMapKeys: Array.isArray(lmk) ? lmk.filter((x): x is string => typeof x === 'string') : undefined,
          mapType,
          validations: Array.isArray(vals) ? vals : [],
        };

  const celInNested = hasKeyDeep(s['allOf'], VALIDATIONS) || hasKeyDeep(s['anyOf'], VALIDATIONS) || hasKeyDeep(s['oneOf'], VALIDATIONS) || hasKeyDeep(s['not'], VALIDATIONS);
  let celBelow = celInNested || celInChildren || Object.prototype.hasOwnProperty.call(s, VALIDATIONS);
  if (!celBelow) {
    for (const k in s) {
      const v = s[k];
      // scalars (most keys) hold no keys; the typed children were looked at above
      if (typeof v === 'object' && v !== null && Object.prototype.hasOwnProperty.call(s, k) && !CHILD_KEYS.has(k) && hasKeyDeep(v, VALIDATIONS)) {
        celBelow = true;
        break;
      }
    }
  }

  let bits = below & (FACT_DEFAULTS | FACT_LIST_TYPES | FACT_EMBEDDED);
  if (generic.hasDefault) bits |= FACT_DEFAULTS;
  if (lt === 'set' || lt === 'map') bits |= FACT_LIST_TYPES;
  if (embeddedResource) bits |= FACT_EMBEDDED;
  if (celBelow) bits |= FACT_CEL;
  if (celInNested) bits |= FACT_CEL_NESTED;
  if (celInChildren) bits |= FACT_CEL_CHILDREN;
  const facts = FACTS[bits]!;
  const declaresProperties = isRecord(p);
  const node = new Node(
    s,
    generic,
    extensions,
    properties,
    items,
    additionalProperties,
    facts,
    celBinding(s, generic, extensions, properties, items, declaresProperties && isRecord(a) ? additionalProperties?.schema : undefined, additionalProperties?.schema),
    declaresProperties,
  );
  seen.set(s, node);
  return node;
}

/** A node; its value validations are read from the record when first asked for, the forms later stages derive when first derived. */
class Node implements Structural {
  #valueValidation: ValueValidation | undefined;
  #derived: Map<string, unknown> | undefined;
  constructor(
    readonly raw: Raw,
    readonly generic: Generic,
    readonly extensions: Extensions,
    readonly properties: ReadonlyMap<string, Structural>,
    readonly items: Structural | undefined,
    readonly additionalProperties: AdditionalProperties | undefined,
    readonly facts: Facts,
    readonly celBinding: CelBindingFacts,
    readonly declaresProperties: boolean,
  ) {}
  get valueValidation(): ValueValidation {
    return (this.#valueValidation ??= valueValidation(this.raw));
  }
  derive<T>(key: string, build: (node: Structural) => T): T {
    const m = (this.#derived ??= new Map());
    if (m.has(key)) return m.get(key) as T;
    const v = build(this);
    m.set(key, v);
    return v;
  }
}

const VALIDATIONS = 'x-kubernetes-validations';

// Shared values for what most nodes have (no typed children, no extensions, the same facts), so a
// large schema allocates little.
const NO_PROPERTIES: ReadonlyMap<string, Structural> = new Map();
const ADDITIONAL_TRUE: AdditionalProperties = Object.freeze({ schema: undefined, bool: true });
const ADDITIONAL_FALSE: AdditionalProperties = Object.freeze({ schema: undefined, bool: false });
const NO_EXTENSIONS: Extensions = Object.freeze({
  preserveUnknownFields: false,
  embeddedResource: false,
  intOrString: false,
  listType: undefined,
  listMapKeys: undefined,
  mapType: undefined,
  validations: Object.freeze([]),
});
const FACT_DEFAULTS = 1;
const FACT_LIST_TYPES = 2;
const FACT_EMBEDDED = 4;
const FACT_CEL = 8;
const FACT_CEL_NESTED = 16;
const FACT_CEL_CHILDREN = 32;
/** Every combination of facts, indexed by its bits. */
const FACTS: readonly Facts[] = Array.from({ length: 64 }, (_, b) =>
  Object.freeze({
    defaultsBelow: (b & FACT_DEFAULTS) !== 0,
    listTypesBelow: (b & FACT_LIST_TYPES) !== 0,
    embeddedBelow: (b & FACT_EMBEDDED) !== 0,
    celBelow: (b & FACT_CEL) !== 0,
    celInNested: (b & FACT_CEL_NESTED) !== 0,
    celInChildren: (b & FACT_CEL_CHILDREN) !== 0,
  }),
);
function factBits(f: Facts): number {
  return (
    (f.defaultsBelow ? FACT_DEFAULTS : 0) |
    (f.listTypesBelow ? FACT_LIST_TYPES : 0) |
    (f.embeddedBelow ? FACT_EMBEDDED : 0) |
    (f.celBelow ? FACT_CEL : 0) |
    (f.celInNested ? FACT_CEL_NESTED : 0) |
    (f.celInChildren ? FACT_CEL_CHILDREN : 0)
  );
}
/** The three CEL binding facts, every combination. */
const BINDINGS: readonly CelBindingFacts[] = Array.from({ length: 4 }, (_, b) => Object.freeze({ unsupported: (b & 1) !== 0, unorderedLists: (b & 2) !== 0 }));
function binding(unsupported: boolean, unorderedLists: boolean): CelBindingFacts {
  return BINDINGS[(unsupported ? 1 : 0) | (unorderedLists ? 2 : 0)]!;
}
const CHILD_KEYS: ReadonlySet<string> = new Set(['properties', 'additionalProperties', 'items', 'allOf', 'anyOf', 'oneOf', 'not', VALIDATIONS]);

/** Whether an own key `key` sits anywhere in a decoded JSON value. */
export function hasKeyDeep(v: unknown, key: string): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) return v.some((x) => hasKeyDeep(x, key));
  if (Object.prototype.hasOwnProperty.call(v, key)) return true;
  const o = v as Raw;
  for (const k of Object.keys(o)) if (hasKeyDeep(o[k], key)) return true;
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
  const t = generic.type;
  const carry = (c: Structural): void => {
    unsupported ||= c.celBinding.unsupported;
    unorderedLists ||= c.celBinding.unorderedLists;
  };
  if (ext.intOrString || ext.preserveUnknownFields || ext.embeddedResource) unsupported = true;
  else if (t === 'string') {
    const f = own(s, 'format');
    if (f === 'date-time' || f === 'duration' || f === 'byte' || f === 'date') unsupported = true;
  } else if (t === 'array') {
    if (ext.listType === 'set' || ext.listType === 'map') unorderedLists = true;
    if (items === undefined) unsupported = true;
    else carry(items);
  } else if (t === 'object') {
    if (bothPropsAndAdditional !== undefined) unsupported = true;
    for (const c of properties.values()) carry(c);
    if (additional !== undefined) carry(additional);
  } else if (t !== 'integer' && t !== 'number' && t !== 'boolean') unsupported = true;
  return binding(unsupported, unorderedLists);
}

/** The fields of a resource root (the root, an embedded resource) that are TypeMeta and ObjectMeta. */
export const META_FIELDS: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata']);

/** The schema of key `k` of an object: the declared property, else the additionalProperties schema. */
export function fieldSchema(s: Structural | undefined, k: string): Structural | undefined {
  if (s === undefined) return undefined;
  return s.properties.get(k) ?? s.additionalProperties?.schema;
}

/** The node as an embedded resource (pruning and defaults validation treat a resource root so). */
export function asEmbeddedResource(s: Structural): Structural {
  if (s.extensions.embeddedResource) return s;
  return new Node(
    { ...s.raw, 'x-kubernetes-embedded-resource': true },
    s.generic,
    { ...s.extensions, embeddedResource: true },
    s.properties,
    s.items,
    s.additionalProperties,
    FACTS[factBits(s.facts) | FACT_EMBEDDED]!,
    // an embedded resource cannot be bound by CEL
    binding(true, s.celBinding.unorderedLists),
    s.declaresProperties,
  );
}

/** The empty schema (`{}`): no properties, no items, nothing preserved. */
export function emptyStructural(): Structural {
  return buildStructural({});
}
