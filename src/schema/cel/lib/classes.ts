/**
 * cel-js's value classes (Duration, UnsignedInt, Type), taken from values when an environment is
 * made (env.ts makeEnvs). Their names are no way to know them: the bundlers rename them (esbuild
 * writes `class _Duration` in the CLI bundle, the playground's minifier one letter), so a check of
 * `constructor.name` passed the tests, which run the sources, and failed in the built product.
 */
type Ctor = abstract new (...args: never[]) => unknown;

let duration: Ctor | undefined;
let uint: Ctor | undefined;
let type: Ctor | undefined;

/** Called by makeEnvs with a value of each class (the module is the same for every environment). */
export function registerCelClasses(values: { readonly duration: object; readonly uint: object; readonly type: object }): void {
  duration = values.duration.constructor as Ctor;
  uint = values.uint.constructor as Ctor;
  type = values.type.constructor as Ctor;
}

/** cel-go's names of a Kubernetes library value's type: its TypeName and its Go type (`%T`). */
export interface GoTypeNames {
  /** `kubernetes.Quantity`: what decls.MaybeNoSuchOverload prints. */
  readonly name: string;
  /** `cel.Quantity`: what `%T` prints (fold ranges, qualifiers, interface conversions). */
  readonly go: string;
}

/** The key of a library value class's GoTypeNames (quantity.ts, url.ts, ip.ts, cidr.ts, semver.ts, format.ts). */
export const GO_TYPE: unique symbol = Symbol('cel-go type');

/** A Kubernetes library value's type names (undefined for any other value). */
export function libraryType(v: object): GoTypeNames | undefined {
  return (v as { [GO_TYPE]?: GoTypeNames })[GO_TYPE];
}

/** A Kubernetes library value (quantity, URL, IP, CIDR, semver, format). */
export const isLibraryValue = (x: unknown): x is object => x !== null && typeof x === 'object' && libraryType(x) !== undefined;

/** A cel-js Duration. */
export const isDuration = (x: unknown): x is { readonly seconds: bigint; readonly nanos: number } => duration !== undefined && x instanceof duration;

/** A cel-js UnsignedInt (a uint). */
export const isUint = (x: unknown): x is { valueOf(): bigint } => uint !== undefined && x instanceof uint;

/** A cel-js Type (a type value: `int`, `type(x)`). */
export const isTypeValue = (x: unknown): x is { readonly name: string } => type !== undefined && x instanceof type;

/**
 * A name of a value's kind that survives bundling (the "same type" checks of sort() and sortBy()):
 * cel-js's classes and JavaScript's by what they are, crdx's own by their constructor (the same
 * name for every value of a class within one build).
 */
export function kindName(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v !== 'object') return typeof v;
  if (isUint(v)) return 'UnsignedInt';
  if (isDuration(v)) return 'Duration';
  if (isTypeValue(v)) return 'Type';
  if (v instanceof Date) return 'Date';
  if (v instanceof Uint8Array) return 'Uint8Array';
  if (v instanceof Map) return 'Map';
  if (Array.isArray(v)) return 'Array';
  return (v as object).constructor?.name ?? 'object';
}

/**
 * The Go type cel-go's value of `v` has, as `%T` prints it (`types.Int`, `*types.Type`), for the
 * scalars crdx binds and computes and the Kubernetes library values; undefined for lists, maps and
 * objects.
 */
export function goValueType(v: unknown): string | undefined {
  if (v === null) return 'types.Null';
  switch (typeof v) {
    case 'bigint':
      return 'types.Int';
    case 'number':
      return 'types.Double';
    case 'string':
      return 'types.String';
    case 'boolean':
      return 'types.Bool';
    case 'object':
      if (isUint(v)) return 'types.Uint';
      if (isDuration(v)) return 'types.Duration';
      if (isTypeValue(v)) return '*types.Type';
      if (v instanceof Date) return 'types.Timestamp';
      if (v instanceof Uint8Array) return 'types.Bytes';
      if (isOptionalValue(v)) return '*types.Optional';
      return libraryType(v)?.go;
    default:
      return undefined;
  }
}

/**
 * The name cel-go's `Type().TypeName()` gives a value crdx binds or computes (what
 * decls.MaybeNoSuchOverload prints in `no such overload: f(int, string)`): scalars, lists, maps
 * (cel-js's Map and its map literals), durations, timestamps, types, the Kubernetes library values;
 * undefined for optionals and anything else.
 */
export function goTypeName(v: unknown): string | undefined {
  if (v === null) return 'null_type';
  switch (typeof v) {
    case 'bigint':
      return 'int';
    case 'number':
      return 'double';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'object':
      if (isUint(v)) return 'uint';
      if (isDuration(v)) return 'google.protobuf.Duration';
      if (isTypeValue(v)) return 'type';
      if (v instanceof Date) return 'google.protobuf.Timestamp';
      if (v instanceof Uint8Array) return 'bytes';
      if (Array.isArray(v)) return 'list';
      if (v instanceof Map || isPlainObject(v)) return 'map';
      if (isOptionalValue(v)) return 'optional_type';
      return libraryType(v)?.name;
    default:
      return undefined;
  }
}

/** A cel-js optional value (optional.of(x), optional.none()). */
const isOptionalValue = (x: object): boolean => typeof (x as { hasValue?: unknown }).hasValue === 'function' && typeof (x as { orValue?: unknown }).orValue === 'function';

/** A map literal as cel-js holds it: a plain object (string keys). */
export const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && [Object.prototype, null].includes(Object.getPrototypeOf(x));

/** A key of a map literal that may have been an int or a bool (cel-js keeps every key as a string). */
export const mayBeNonStringKey = (k: string): boolean => /^(-?[0-9]+|true|false)$/.test(k);
