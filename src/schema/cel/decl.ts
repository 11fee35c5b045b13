/**
 * The CEL declared type of a schema node, as the apiserver builds it for x-kubernetes-validations
 * (apiserver pkg/cel/common/schemas.go SchemaDeclType over apiextensions' structural adaptor,
 * pkg/cel/types.go DeclType, MaybeAssignTypeName; pkg/cel/escaping.go Escape):
 *
 * - x-kubernetes-int-or-string: dyn; otherwise by `type`:
 * - array with items: list of the items' type (no list when the items have none);
 * - object with an additionalProperties schema: map(string, T) (none when T is none);
 * - other objects: an object type with one field per property whose name escapes and whose type
 *   exists (at a resource root or embedded resource: apiVersion, kind and a metadata holding only
 *   name and generateName, unless the schema already declares all of them as strings/objects;
 *   from 1.37 that name and generateName hold at most 253 and 252 characters, or the user's
 *   maxLength when it is smaller: apiextensions schema/cel/model WithTypeAndObjectMeta);
 * - string: bytes / duration / timestamp for format byte / duration / date, date-time; else string;
 * - boolean, number, integer: bool, double, int; anything else (no type): none.
 *
 * Every declared type carries maxElements and minSerializedSize exactly as upstream computes them
 * (the 3 MiB request-size fallbacks where no maxItems/maxLength/maxProperties is declared); the
 * static cost estimator reads them. Object types are unnamed ("object") until `scopedType` names
 * them after the rule's self type (`selfType0`, `selfType0.spec`, `….@idx`, `….@elem`): the server
 * uses `selfType<UnixNano>`, a number that changes on every CRD write, so messages that print an
 * object type differ from the server's in that number only.
 */
import { since } from '../../core/version-gates.js';
import type { Structural } from '../../crd/structural-schema.js';
import { utf8Len } from '../../go/strings.js';
import { escapeProperty } from './escape.js';
import { BOOL, BYTES, DOUBLE, DURATION, DYN, INT, STRING, TIMESTAMP, listOf, mapOf, struct, type CelType } from './types.js';

/** The request size the fallbacks assume (apiserver pkg/apis/cel config.go MaxRequestSizeBytes). */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
const MAX_DURATION_SIZE_JSON = 32;
const MAX_DATETIME_SIZE_JSON = 32;
const MIN_DURATION_SIZE_JSON = 3;
const JSON_DATE_SIZE = 12;
const MIN_DATETIME_SIZE_JSON = 21;
const MIN_STRING_SIZE = 2;
const MIN_BOOL_SIZE = 4;
const MIN_NUMBER_SIZE = 1;

/** The name the server gives a rule's self type is `selfType<UnixNano>`; ours is fixed. */
export const SELF_TYPE_NAME = 'selfType0';

export interface DeclField {
  /** The escaped name (the name CEL sees). */
  readonly name: string;
  readonly type: DeclType;
  readonly required: boolean;
}

export interface DeclType {
  readonly kind: 'object' | 'map' | 'list' | 'scalar';
  /** For scalars: the CEL type; for objects "object" until named by scopedType. */
  readonly name: string;
  readonly scalar?: CelType;
  /** Object fields by escaped name. */
  readonly fields?: ReadonlyMap<string, DeclField>;
  /** List element / map value type. */
  readonly elem?: DeclType;
  /** Map key type (string). */
  readonly key?: DeclType;
  /** DeclType.MaxElements: the most items, properties or characters ×4 (bytes for format: byte) a value may hold. */
  readonly maxElements: number;
  /** DeclType.MinSerializedSize: the fewest bytes the value takes in JSON. */
  readonly minSerializedSize: number;
}

function num(v: number | bigint | undefined): number | undefined {
  return v === undefined ? undefined : Number(v);
}
function zeroIfNegative(v: number): number {
  return v < 0 ? 0 : v;
}

function scalar(name: string, t: CelType, minSize: number, maxElements = 0): DeclType {
  return { kind: 'scalar', name, scalar: t, minSerializedSize: minSize, maxElements };
}

const PLAIN_STRING: DeclType = scalar('string', STRING, MIN_STRING_SIZE, MAX_REQUEST_SIZE_BYTES - 2);

function stringMaxPerRequest(s: Structural): number {
  if (s.extensions.intOrString) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (s.valueValidation.format) {
    case 'duration':
      return MAX_DURATION_SIZE_JSON;
    case 'date':
      return JSON_DATE_SIZE;
    case 'date-time':
      return MAX_DATETIME_SIZE_JSON;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2;
  }
}

/** The node declares string kind/apiVersion and an object metadata with string name and generateName. */
export function hasTypeAndObjectMeta(s: Structural): boolean {
  const p = s.properties;
  const meta = p.get('metadata');
  return (
    s.declaresProperties &&
    p.get('kind')?.generic.type === 'string' &&
    p.get('apiVersion')?.generic.type === 'string' &&
    meta?.generic.type === 'object' &&
    meta.declaresProperties &&
    meta.properties.get('name')?.generic.type === 'string' &&
    meta.properties.get('generateName')?.generic.type === 'string'
  );
}

const RESOURCE_METADATA: DeclType = objectType(
  new Map([
    ['name', { name: 'name', type: PLAIN_STRING, required: false }],
    ['generateName', { name: 'generateName', type: PLAIN_STRING, required: false }],
  ]),
  2,
);

/** DNS1123SubdomainMaxLength: the longest metadata.name (generateName one less: the suffix takes at least one byte). */
export const NAME_MAX_LENGTH = 253;

/** Whether the server's CEL view of a resource root caps metadata.name / generateName (from 1.37). */
export function capsMetadataNames(kubeMinor: number): boolean {
  return kubeMinor >= since('cel.metadata-name-bounds');
}

/**
 * cappedLengthStringType: the cap, or the user's maxLength on that metadata property when smaller
 * (`maxLength` replaces the declared one, for explanations).
 */
export function cappedNameLength(s: Structural, prop: 'name' | 'generateName', maxLength?: number): number {
  const cap = prop === 'name' ? NAME_MAX_LENGTH : NAME_MAX_LENGTH - 1;
  const user = maxLength ?? num(s.properties.get('metadata')?.properties.get(prop)?.valueValidation.maxLength);
  return user !== undefined && user < cap ? user : cap;
}

function cappedMetadata(s: Structural): DeclType {
  const str = (n: number): DeclType => scalar('string', STRING, MIN_STRING_SIZE, zeroIfNegative(n) * 4);
  return objectType(
    new Map([
      ['name', { name: 'name', type: str(cappedNameLength(s, 'name')), required: false }],
      ['generateName', { name: 'generateName', type: str(cappedNameLength(s, 'generateName')), required: false }],
    ]),
    2,
  );
}

function objectType(fields: ReadonlyMap<string, DeclField>, minSerializedSize: number): DeclType {
  return { kind: 'object', name: 'object', fields, maxElements: 0, minSerializedSize };
}

/**
 * SchemaDeclType(s, isResourceRoot) as a server of minor 1.`kubeMinor` builds it (the resource
 * roots' metadata differs from 1.37), once per node, flag and version.
 */
export function schemaDeclType(s: Structural, isResourceRoot: boolean, kubeMinor: number): DeclType | undefined {
  const capped = capsMetadataNames(kubeMinor);
  const key = `cel-decl${isResourceRoot ? '-root' : ''}${capped ? '-capped' : ''}`;
  return s.derive(key, (n) => build(n, isResourceRoot, kubeMinor));
}

function build(s: Structural, isResourceRoot: boolean, kubeMinor: number): DeclType | undefined {
  const vv = s.valueValidation;
  if (s.extensions.intOrString) {
    const maxLength = num(vv.maxLength);
    return scalar('dyn', DYN, 1, maxLength !== undefined ? zeroIfNegative(maxLength) * 4 : stringMaxPerRequest(s));
  }
  switch (s.generic.type) {
    case 'array': {
      if (!s.items) return undefined;
      const items = schemaDeclType(s.items, s.items.extensions.embeddedResource, kubeMinor);
      if (!items) return undefined;
      const maxItems = num(vv.maxItems);
      const max = maxItems !== undefined ? zeroIfNegative(maxItems) : Math.trunc((MAX_REQUEST_SIZE_BYTES - 2) / (items.minSerializedSize + 1));
      return { kind: 'list', name: 'list', elem: items, maxElements: max, minSerializedSize: 2 };
    }
    case 'object': {
      const ap = s.additionalProperties?.schema;
      if (ap) {
        const values = schemaDeclType(ap, ap.extensions.embeddedResource, kubeMinor);
        if (!values) return undefined;
        const maxProps = num(vv.maxProperties);
        const max = maxProps !== undefined ? zeroIfNegative(maxProps) : Math.trunc((MAX_REQUEST_SIZE_BYTES - 2) / (values.minSerializedSize + 6));
        return { kind: 'map', name: 'map', key: PLAIN_STRING, elem: values, maxElements: max, minSerializedSize: 2 };
      }
      const required = new Set(vv.required);
      const props: [string, DeclType | undefined, boolean][] = [];
      const replaceMeta = isResourceRoot && !hasTypeAndObjectMeta(s);
      for (const [name, prop] of s.properties) {
        if (replaceMeta && (name === 'kind' || name === 'apiVersion' || name === 'metadata')) continue;
        props.push([name, schemaDeclType(prop, prop.extensions.embeddedResource, kubeMinor), prop.generic.hasDefault]);
      }
      if (replaceMeta) {
        props.push(['kind', PLAIN_STRING, false], ['apiVersion', PLAIN_STRING, false], ['metadata', capsMetadataNames(kubeMinor) ? cappedMetadata(s) : RESOURCE_METADATA, false]);
      }
      const fields = new Map<string, DeclField>();
      let minSize = 2;
      for (const [name, type, hasDefault] of props) {
        if (!type) continue;
        const escaped = escapeProperty(name);
        if (escaped !== undefined) fields.set(escaped, { name: escaped, type, required: required.has(name) });
        if (required.has(name) && !hasDefault) minSize += utf8Len(name) + type.minSerializedSize + 4;
      }
      return objectType(fields, minSize);
    }
    case 'string': {
      const maxLength = num(vv.maxLength);
      switch (vv.format) {
        case 'byte':
          return scalar('bytes', BYTES, MIN_STRING_SIZE, maxLength !== undefined ? zeroIfNegative(maxLength) : stringMaxPerRequest(s));
        case 'duration':
          return scalar('duration', DURATION, MIN_DURATION_SIZE_JSON, stringMaxPerRequest(s));
        case 'date':
          return scalar('timestamp', TIMESTAMP, JSON_DATE_SIZE, stringMaxPerRequest(s));
        case 'date-time':
          return scalar('timestamp', TIMESTAMP, MIN_DATETIME_SIZE_JSON, stringMaxPerRequest(s));
        default:
          break;
      }
      let max: number;
      if (maxLength !== undefined) max = zeroIfNegative(maxLength) * 4;
      else if ((vv.enum?.length ?? 0) > 0) max = Math.max(0, ...vv.enum!.map((e) => (typeof e === 'string' ? utf8Len(e) : 0)));
      else max = stringMaxPerRequest(s);
      return scalar('string', STRING, MIN_STRING_SIZE, max);
    }
    case 'boolean':
      return scalar('bool', BOOL, MIN_BOOL_SIZE);
    case 'number':
      return scalar('double', DOUBLE, MIN_NUMBER_SIZE);
    case 'integer':
      return scalar('int', INT, MIN_NUMBER_SIZE);
    default:
      return undefined;
  }
}

const named = new WeakMap<DeclType, Map<string, CelType>>();

/**
 * The CEL type of a declared type whose object types are named from `name` (MaybeAssignTypeName):
 * what `self` has in a rule (name SELF_TYPE_NAME).
 */
export function celTypeOf(t: DeclType, name: string = SELF_TYPE_NAME): CelType {
  let m = named.get(t);
  if (!m) named.set(t, (m = new Map()));
  const hit = m.get(name);
  if (hit) return hit;
  let out: CelType;
  switch (t.kind) {
    case 'scalar':
      out = t.scalar!;
      break;
    case 'list':
      out = listOf(celTypeOf(t.elem!, `${name}.@idx`));
      break;
    case 'map':
      out = mapOf(STRING, celTypeOf(t.elem!, `${name}.@elem`));
      break;
    case 'object': {
      const fields = new Map<string, CelType>();
      for (const [f, d] of t.fields!) fields.set(f, celTypeOf(d.type, `${name}.${f}`));
      out = struct(name, fields);
      break;
    }
  }
  m.set(name, out);
  return out;
}
