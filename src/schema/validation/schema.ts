/**
 * The kube-openapi schema the validator runs on, converted from a CRD's JSON schema the way the server
 * converts it (apiextensions-apiserver pkg/apiserver/validation `ConvertJSONSchemaPropsWithPostProcess`
 * with `StripUnsupportedFormatsPostProcessorForVersion`, or `Structural.ToKubeOpenAPI` for defaults).
 */
import { DEFAULT_KUBE_VERSION } from '../../core/kube-version.js';
import { since } from '../../core/version-gates.js';
import { isMap, normalizeValue } from '../../go/value.js';
import { formatsAt, normalizeFormat } from '../formats/index.js';
import { goSortedKeys } from '../../go/strings.js';
import type { Structural } from '../../crd/structural-schema.js';

export type Raw = Record<string, unknown>;

export interface ValueValidateOptions {
  /** Kubernetes minor version of the server (1.<minor>); default DEFAULT_KUBE_VERSION's. Formats are gated by its compatibility version (minor - 1). */
  readonly kubeMinor?: number;
  /**
   * Build the validator the way `defaulting.ValidateDefaults` does (`Structural.ToKubeOpenAPI()`) instead of the
   * request path (`ConvertJSONSchemaPropsWithPostProcess` + `StripUnsupportedFormatsPostProcessorForVersion`):
   * formats are not stripped (every registered format is checked whatever the type), and
   * `x-kubernetes-int-or-string` does not imply a type. Default false.
   */
  readonly structural?: boolean;
  /** Also run the `x-kubernetes-list-type` set/map uniqueness checks (validateValue only). Default true. */
  readonly listTypes?: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// The kube-openapi schema (spec.Schema after ConvertJSONSchemaProps / ToKubeOpenAPI)
// ---------------------------------------------------------------------------------------------------------------

interface SchemaOrBool {
  readonly allows: boolean;
  readonly schema: OSchema | undefined;
}

export interface OSchema {
  readonly type: readonly string[];
  readonly nullable: boolean;
  /** After the server's format post-processing (unsupported formats are ''). */
  readonly format: string;
  readonly maximum: number | undefined;
  readonly exclusiveMaximum: boolean;
  readonly minimum: number | undefined;
  readonly exclusiveMinimum: boolean;
  readonly multipleOf: number | undefined;
  readonly maxLength: number | undefined;
  readonly minLength: number | undefined;
  readonly pattern: string;
  readonly maxItems: number | undefined;
  readonly minItems: number | undefined;
  readonly uniqueItems: boolean;
  readonly maxProperties: number | undefined;
  readonly minProperties: number | undefined;
  readonly required: readonly string[];
  readonly enum: readonly unknown[];
  readonly allOf: readonly OSchema[];
  readonly anyOf: readonly OSchema[];
  readonly oneOf: readonly OSchema[];
  readonly not: OSchema | undefined;
  /** Sorted by key. */
  readonly properties: ReadonlyMap<string, OSchema> | undefined;
  readonly patternProperties: ReadonlyMap<string, OSchema> | undefined;
  readonly additionalProperties: SchemaOrBool | undefined;
  readonly items: OSchema | undefined;
  readonly itemsTuple: readonly OSchema[] | undefined;
  readonly additionalItems: SchemaOrBool | undefined;
  readonly dependencies: ReadonlyMap<string, { schema: OSchema | undefined; property: readonly string[] }> | undefined;
  /** x-kubernetes-list-type and -map-keys (ratcheting correlates map-list items by key). */
  readonly listType: string;
  readonly listMapKeys: readonly string[];
}

export interface Ctx {
  /** Names the converted schema this context gives (see validationSchema): mode and minor. */
  readonly key: string;
  readonly structural: boolean;
  /** Normalized names of the formats kept by the post-processor (request path only). */
  readonly supported: ReadonlySet<string>;
  /** Normalized names of the formats in strfmt.Default. */
  readonly registry: ReadonlySet<string>;
  /** The number validator knows the schema's type and format (checks their ranges): 'cr.number-format-ranges'. */
  readonly numberRanges: boolean;
}

/** The format context of a validation: a pure function of the minor and the mode (formatsAt returns shared sets). */
export function contextFor(opts: ValueValidateOptions): Ctx {
  const minor = opts.kubeMinor ?? DEFAULT_KUBE_VERSION.minor;
  const structural = opts.structural === true;
  return {
    key: `${minor}/${structural}`,
    structural,
    supported: formatsAt(minor - 1),
    registry: formatsAt(minor),
    numberRanges: minor >= since('cr.number-format-ranges'),
  };
}

/**
 * The validator's schema of a typed node in a format context: converted on first use and owned by
 * the node (one per context), so a served version's schema is converted once. The typed children
 * (properties, items, additionalProperties schemas) give their own converted forms; what Structural
 * does not type (allOf/anyOf/oneOf/not, patternProperties, tuple items, dependencies, ...) is
 * converted from the node's record.
 */
export function validationSchema(node: Structural, ctx: Ctx): OSchema {
  return node.derive(`validation/${ctx.key}`, (n) => convert(n.raw, ctx, n));
}

function num(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

function sub(v: unknown, ctx: Ctx): OSchema | undefined {
  return isMap(v) ? convert(v, ctx) : undefined;
}

function subList(v: unknown, ctx: Ctx): OSchema[] {
  return Array.isArray(v) ? v.filter(isMap).map((x) => convert(x, ctx)) : [];
}

/** A properties-like map; `typed` gives the typed child of a key whose value is an object, if there is one. */
function subMap(v: unknown, ctx: Ctx, typed?: ReadonlyMap<string, Structural>): Map<string, OSchema> | undefined {
  if (!isMap(v)) return undefined;
  const m = new Map<string, OSchema>();
  for (const k of goSortedKeys(v)) {
    const x = v[k];
    const t = typed?.get(k);
    m.set(k, t !== undefined ? validationSchema(t, ctx) : convert(isMap(x) ? x : {}, ctx));
  }
  return m;
}

function schemaOrBool(v: unknown, ctx: Ctx, typed?: Structural): SchemaOrBool | undefined {
  if (typeof v === 'boolean') return { allows: v, schema: undefined };
  if (isMap(v)) return { allows: true, schema: typed !== undefined ? validationSchema(typed, ctx) : convert(v, ctx) };
  return undefined;
}

/** ConvertJSONSchemaPropsWithPostProcess(StripUnsupportedFormatsPostProcessorForVersion), or ToKubeOpenAPI. */
function convert(raw: Raw, ctx: Ctx, node?: Structural): OSchema {
  let type: string[] = [];
  if (typeof raw.type === 'string' && raw.type !== '') type = [raw.type];
  else if (Array.isArray(raw.type)) type = raw.type.filter((t): t is string => typeof t === 'string');
  if (raw['x-kubernetes-int-or-string'] === true && !ctx.structural) type = ['integer', 'string'];

  let format = typeof raw.format === 'string' ? raw.format : '';
  if (format !== '' && !ctx.structural) format = stripUnsupportedFormat(format, type, ctx);

  let dependencies: Map<string, { schema: OSchema | undefined; property: readonly string[] }> | undefined;
  if (!ctx.structural && isMap(raw.dependencies)) {
    dependencies = new Map();
    for (const k of goSortedKeys(raw.dependencies)) {
      const d = raw.dependencies[k];
      dependencies.set(k, {
        schema: isMap(d) ? convert(d, ctx) : undefined,
        property: Array.isArray(d) ? d.filter((x): x is string => typeof x === 'string') : [],
      });
    }
  }

  return {
    type,
    nullable: raw.nullable === true,
    format,
    maximum: num(raw.maximum),
    exclusiveMaximum: raw.exclusiveMaximum === true,
    minimum: num(raw.minimum),
    exclusiveMinimum: raw.exclusiveMinimum === true,
    multipleOf: num(raw.multipleOf),
    maxLength: num(raw.maxLength),
    minLength: num(raw.minLength),
    pattern: typeof raw.pattern === 'string' ? raw.pattern : '',
    maxItems: num(raw.maxItems),
    minItems: num(raw.minItems),
    uniqueItems: raw.uniqueItems === true,
    maxProperties: num(raw.maxProperties),
    minProperties: num(raw.minProperties),
    required: Array.isArray(raw.required) ? raw.required.filter((x): x is string => typeof x === 'string') : [],
    enum: Array.isArray(raw.enum) ? raw.enum.map(normalizeValue) : [],
    allOf: subList(raw.allOf, ctx),
    anyOf: subList(raw.anyOf, ctx),
    oneOf: subList(raw.oneOf, ctx),
    not: sub(raw.not, ctx),
    properties: subMap(raw.properties, ctx, node?.properties),
    patternProperties: ctx.structural ? undefined : subMap(raw.patternProperties, ctx),
    additionalProperties: schemaOrBool(raw.additionalProperties, ctx, node?.additionalProperties?.schema),
    items: node?.items !== undefined ? validationSchema(node.items, ctx) : sub(raw.items, ctx),
    itemsTuple: !ctx.structural && Array.isArray(raw.items) ? subList(raw.items, ctx) : undefined,
    additionalItems: ctx.structural ? undefined : schemaOrBool(raw.additionalItems, ctx),
    dependencies,
    listType: typeof raw['x-kubernetes-list-type'] === 'string' ? raw['x-kubernetes-list-type'] : '',
    listMapKeys: Array.isArray(raw['x-kubernetes-list-map-keys']) ? raw['x-kubernetes-list-map-keys'].filter((x): x is string => typeof x === 'string') : [],
  };
}

/** StripUnsupportedFormatsPostProcessorForVersion (formats.go). */
function stripUnsupportedFormat(format: string, type: readonly string[], ctx: Ctx): string {
  const schemaType = type.length === 1 ? type[0] : '';
  switch (schemaType) {
    case '':
    case 'string':
      return ctx.supported.has(normalizeFormat(format)) ? format : '';
    case 'integer':
      return format === 'int32' || format === 'int64' ? format : '';
    case 'number':
      return format === 'float' || format === 'double' ? format : '';
    default:
      return '';
  }
}

