/**
 * CEL types as cel-go's checker sees them (common/types Type): a kind, a type name and type
 * parameters, plus the declared fields of the object types built from a CRD schema. Printed as
 * cel-go's checker prints them in error messages (checker/format.go FormatCELType), e.g.
 * `list(int)`, `map(string, dyn)`, `optional_type(string)`, `type(int)`, `!error!`, `null`.
 *
 * For the cost estimator: compare kinds (`t.kind === 'list'`), read `t.params[0]` for a list's
 * element, `t.params[0]`/`t.params[1]` for a map's key/value, `t.params[0]` of an
 * `optional_type`; `formatType(t)` is the text cel-go prints.
 */

export type CelKind =
  | 'bool'
  | 'bytes'
  | 'double'
  | 'int'
  | 'uint'
  | 'string'
  | 'null'
  | 'dyn'
  | 'any'
  | 'error'
  | 'timestamp'
  | 'duration'
  | 'list'
  | 'map'
  /** A named object type (cel-go StructKind): a schema object, or a library's (kubernetes.Quantity …). */
  | 'struct'
  /** An opaque parameterized type: optional_type(T), net.IP, net.CIDR, function. */
  | 'opaque'
  /** A type value: type, type(T). */
  | 'type'
  | 'typeParam';

export interface CelType {
  readonly kind: CelKind;
  /** cel-go's TypeName(): `int`, `list`, `google.protobuf.Timestamp`, the struct or opaque name, a type parameter's name. */
  readonly name: string;
  readonly params: readonly CelType[];
  /**
   * For the struct types of a CRD schema: the declared (escaped) field names and their types;
   * undefined for library struct types (kubernetes.URL, …), which declare no fields.
   */
  readonly fields?: ReadonlyMap<string, CelType>;
}

function simple(kind: CelKind, name: string): CelType {
  return { kind, name, params: [] };
}

export const BOOL = simple('bool', 'bool');
export const BYTES = simple('bytes', 'bytes');
export const DOUBLE = simple('double', 'double');
export const INT = simple('int', 'int');
export const UINT = simple('uint', 'uint');
export const STRING = simple('string', 'string');
export const NULL = simple('null', 'null_type');
export const DYN = simple('dyn', 'dyn');
export const ANY = simple('any', 'google.protobuf.Any');
export const ERROR = simple('error', 'error');
export const TIMESTAMP = simple('timestamp', 'google.protobuf.Timestamp');
export const DURATION = simple('duration', 'google.protobuf.Duration');
export const TYPE = simple('type', 'type');

export function listOf(elem: CelType): CelType {
  return { kind: 'list', name: 'list', params: [elem] };
}
export function mapOf(key: CelType, value: CelType): CelType {
  return { kind: 'map', name: 'map', params: [key, value] };
}
export function optionalOf(t: CelType): CelType {
  return { kind: 'opaque', name: 'optional_type', params: [t] };
}
export function typeOf(t: CelType): CelType {
  return { kind: 'type', name: 'type', params: [t] };
}
export function typeParam(name: string): CelType {
  return { kind: 'typeParam', name, params: [] };
}
export function opaque(name: string, ...params: CelType[]): CelType {
  return { kind: 'opaque', name, params };
}
/** A named object type; `fields` for schema objects (escaped names). */
export function struct(name: string, fields?: ReadonlyMap<string, CelType>): CelType {
  return fields ? { kind: 'struct', name, params: [], fields } : { kind: 'struct', name, params: [] };
}

/** The Kubernetes library types (apiserver pkg/cel: URLType, QuantityType, … are object types; IP and CIDR opaque). */
export const K8S_URL = struct('kubernetes.URL');
export const K8S_QUANTITY = struct('kubernetes.Quantity');
export const K8S_SEMVER = struct('kubernetes.Semver');
export const K8S_FORMAT = struct('kubernetes.NamedFormat');
export const NET_IP = opaque('net.IP');
export const NET_CIDR = opaque('net.CIDR');

/** dyn, any or a type parameter (types.Type isDyn). */
function isDynLike(t: CelType): boolean {
  return t.kind === 'dyn' || t.kind === 'any' || t.kind === 'typeParam';
}

/** The text cel-go's checker prints for a type (FormatCELType). */
export function formatType(t: CelType): string {
  switch (t.kind) {
    case 'any':
      return 'any';
    case 'duration':
      return 'duration';
    case 'error':
      return '!error!';
    case 'null':
      return 'null';
    case 'timestamp':
      return 'timestamp';
    case 'typeParam':
      return t.name;
    default:
      break;
  }
  if (t.kind === 'opaque' && t.name === 'function') {
    return `(${t.params.slice(1).map(formatType).join(', ')}) -> ${formatType(t.params[0]!)}`;
  }
  if (t.params.length === 0) return t.name;
  return `${t.name}(${t.params.map(formatType).join(', ')})`;
}

/** Type.IsExactType: same kind, name and parameters (type parameters by name). */
export function isExactType(a: CelType, b: CelType): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || a.params.length !== b.params.length || a.name !== b.name) return false;
  return a.params.every((p, i) => isExactType(p, b.params[i]!));
}

/** Type.IsAssignableType(from): the target is dynamic, or the same type with assignable parameters. */
export function isAssignableType(target: CelType, from: CelType): boolean {
  if (target === from || isDynLike(target)) return true;
  if (target.kind !== from.kind || target.name !== from.name || target.params.length !== from.params.length) return false;
  return target.params.every((p, i) => isAssignableType(p, from.params[i]!));
}

const typeIds = new WeakMap<CelType, number>();
const idsByShape = new Map<string, number>();

/**
 * A number that is the same for two types exactly when they are the same type (kind, name,
 * parameters and declared fields, recursively): what a cache of checked expressions keys on, so
 * that versions of a CRD whose schemas agree share their compilations.
 */
export function celTypeId(t: CelType): number {
  const hit = typeIds.get(t);
  if (hit !== undefined) return hit;
  let shape = `${t.kind}\0${t.name}\0${t.params.map(celTypeId).join(',')}`;
  if (t.fields) for (const [f, ft] of t.fields) shape += `\0${f}=${celTypeId(ft)}`;
  let id = idsByShape.get(shape);
  if (id === undefined) idsByShape.set(shape, (id = idsByShape.size + 1));
  typeIds.set(t, id);
  return id;
}
