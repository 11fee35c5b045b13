/** kube-openapi pkg/validation/validate: the string, format, common (enum) and number validators. */
import { formatFloat } from '../../go/float.js';
import { compileRegex } from '../../go/regexp.js';
import { INT64_MAX, INT64_MIN, asBig, asFloat, goFloatToInt64, kindOf, type GoKind } from '../../go/value.js';
import { FORMAT_CHECKS, normalizeFormat } from '../formats/index.js';
import { IN, Result, invalidType, plain, single, type At, type VErr } from './errors.js';
import type { OSchema } from './schema.js';
import { deepEqual } from '../../go/equal.js';
import { goValue } from '../../go/print.js';
import { runeCount } from '../../go/strings.js';

/** stringValidator (validator.go): maxLength, then minLength, then pattern; stops at the first failure. */
export function stringValidator(s: OSchema, data: string, path: string, at: At): Result | undefined {
  if (s.maxLength !== undefined && runeCount(data) > s.maxLength) {
    return single({
      code: 'tooLong',
      name: path,
      value: data,
      valid: s.maxLength,
      at,
      msg: `${path} in ${IN} should be at most ${s.maxLength} chars long`,
    });
  }
  if (s.minLength !== undefined && runeCount(data) < s.minLength) {
    return single({
      code: 'tooShort',
      name: path,
      value: data,
      valid: s.minLength,
      at,
      msg: `${path} in ${IN} should be at least ${s.minLength} chars long`,
    });
  }
  if (s.pattern !== '') {
    const c = compileRegex(s.pattern);
    if (!c.ok) {
      return single({
        code: 'pattern',
        name: path,
        value: data,
        at,
        msg: `${path} in ${IN} should match '${s.pattern}, but pattern is invalid: ${c.message}'`,
      });
    }
    if (!c.re.matcher(data).find()) {
      return single({ code: 'pattern', name: path, value: data, at, msg: `${path} in ${IN} should match '${s.pattern}'` });
    }
  }
  return undefined;
}

/** formatValidator (formats.go) with strfmt.Default. */
export function formatValidator(format: string, data: string, path: string, at: At): Result | undefined {
  const check = FORMAT_CHECKS[normalizeFormat(format)];
  if (check === undefined || check(data)) return undefined;
  return single(invalidType(path, format, data, at));
}

/** commonValidator (validator.go basicCommonValidator): enum, with Go's reflect conversions. */
export function commonValidator(s: OSchema, data: unknown, path: string, at: At): Result | undefined {
  if (s.enum.length === 0) return undefined;
  for (const ev of s.enum) {
    if (enumMatches(data, ev)) return undefined;
  }
  return single({
    code: 'enum',
    name: path,
    value: data === undefined ? null : data,
    values: s.enum,
    at,
    msg: `${path} in ${IN} should be one of ${goValue(s.enum)}`,
  });
}

/** reflect.ValueOf(data).Type().ConvertibleTo(TypeOf(enumValue)) && DeepEqual(Convert(data), enumValue). */
function enumMatches(data: unknown, ev: unknown): boolean {
  const ek = kindOf(ev);
  const dk = kindOf(data);
  if (ek === 'null' || dk === 'null') return false;
  if (dk === ek) return deepEqual(data, ev);
  if (dk === 'int' && ek === 'float') return Number(asBig(data)) === asFloat(ev);
  if (dk === 'float' && ek === 'int') return goFloatToInt64(asFloat(data)) === asBig(ev);
  if (dk === 'int' && ek === 'string') return intToString(asBig(data)) === ev;
  return false;
}

/** Go's string(rune(i)) conversion of an int64. */
function intToString(i: bigint): string {
  if (i < 0n || i > 0x10ffffn || (i >= 0xd800n && i <= 0xdfffn)) return '\uFFFD';
  return String.fromCodePoint(Number(i));
}

/**
 * numberValidator (validator.go). `ranges`: it knows the schema's type and format (kube-openapi
 * from 2026-01, Kubernetes 1.36); before, both were empty, and no value or bound was out of range.
 */
export function numberValidator(s: OSchema, val: unknown, kind: GoKind, path: string, at: At, ranges = true): Result {
  let typeName = '';
  let format = '';
  if (ranges && s.type.length === 1) {
    if (s.type[0] === 'integer') {
      typeName = 'integer';
      if (s.format === 'int32' || s.format === 'int64') format = s.format;
    } else if (s.type[0] === 'number') {
      typeName = 'number';
      if (s.format === 'float' || s.format === 'double') format = s.format;
    }
  }
  const isInt = kind === 'int';
  const data = asFloat(val);
  const res = new Result();
  res.add(rangeCheck(val, isInt, typeName, format, 'Checked', path, at));

  const resMultiple = new Result();
  if (s.multipleOf !== undefined) {
    const f = s.multipleOf;
    resMultiple.add(rangeCheck(f, false, typeName, format, 'MultipleOf', path, at));
    const err = resMultiple.valid && isInt ? multipleOfInt(path, asBig(val), goFloatToInt64(f), at) : multipleOfFloat(path, data, f, at);
    if (err !== undefined) resMultiple.merge(single(err));
  }
  const resMaximum = new Result();
  if (s.maximum !== undefined) {
    const m = s.maximum;
    resMaximum.add(rangeCheck(m, false, typeName, format, 'Maximum boundary', path, at));
    const err =
      resMaximum.valid && isInt
        ? boundInt(path, asBig(val), goFloatToInt64(m), s.exclusiveMaximum, 'max', at)
        : boundFloat(path, resMaximum.valid ? val : data, data, m, s.exclusiveMaximum, 'max', at);
    if (err !== undefined) resMaximum.merge(single(err));
  }
  const resMinimum = new Result();
  if (s.minimum !== undefined) {
    const m = s.minimum;
    resMinimum.add(rangeCheck(m, false, typeName, format, 'Minimum boundary', path, at));
    const err =
      resMinimum.valid && isInt
        ? boundInt(path, asBig(val), goFloatToInt64(m), s.exclusiveMinimum, 'min', at)
        : boundFloat(path, resMinimum.valid ? val : data, data, m, s.exclusiveMinimum, 'min', at);
    if (err !== undefined) resMinimum.merge(single(err));
  }
  res.merge(resMultiple).merge(resMinimum).merge(resMaximum);
  res.inc();
  return res;
}

/** IsValueValidAgainstRange: a plain error when the value (or a bound) does not fit the type and format. */
function rangeCheck(
  v: unknown,
  isInt: boolean,
  typeName: string,
  format: string,
  prefix: string,
  path: string,
  at: At,
): VErr | undefined {
  let ok = true;
  if (typeName === 'integer') {
    // ParseInt(FormatFloat(v, 'f', -1, 64) or FormatInt(v), 10, 32|64)
    let i: bigint | undefined;
    if (isInt) i = asBig(v);
    else {
      // FormatFloat's shortest digits, not the float's exact value: -2^63 prints as -9223372036854776000 (out of range)
      const f = asFloat(v);
      if (Number.isInteger(f)) i = BigInt(formatFloat(f, 'f'));
    }
    if (i === undefined) ok = false;
    else if (format === 'int32') ok = i >= -(2n ** 31n) && i < 2n ** 31n;
    else ok = i >= INT64_MIN && i <= INT64_MAX;
  } else if (format === 'float' || format === 'float32') {
    // ParseFloat(s, 32) fails when the value rounds to ±Inf in float32.
    ok = Math.abs(asFloat(v)) < 2 ** 128 - 2 ** 103;
  }
  if (ok) return undefined;
  const msg =
    format !== ''
      ? `${prefix} value must be of type ${typeName} with format ${format} in ${path}`
      : `${prefix} value must be of type ${typeName} (default format) in ${path}`;
  return plain(msg, at);
}

function multipleOfInt(path: string, data: bigint, factor: bigint, at: At): VErr | undefined {
  if (factor <= 0n) {
    return {
      code: 'multipleOfMustBePositive',
      name: path,
      value: bigOut(factor),
      at,
      msg: `factor MultipleOf declared for ${path} must be positive: ${factor}`,
    };
  }
  if (data % factor === 0n) return undefined;
  return { code: 'multipleOf', name: path, value: bigOut(data), at, msg: `${path} in ${IN} should be a multiple of ${factor}` };
}

function multipleOfFloat(path: string, data: number, factor: number, at: At): VErr | undefined {
  if (factor <= 0) {
    return {
      code: 'multipleOfMustBePositive',
      name: path,
      value: factor,
      at,
      msg: `factor MultipleOf declared for ${path} must be positive: ${formatFloat(factor, 'g')}`,
    };
  }
  const mult = factor < 1 ? (1 / factor) * data : data / factor;
  if (isFloat64AJSONInteger(mult)) return undefined;
  return { code: 'multipleOf', name: path, value: data, at, msg: `${path} in ${IN} should be a multiple of ${formatFloat(factor, 'g')}` };
}

function boundText(path: string, which: 'max' | 'min', exclusive: boolean, bound: string): string {
  if (which === 'max') return `${path} in ${IN} should be less than${exclusive ? '' : ' or equal to'} ${bound}`;
  return `${path} in ${IN} should be greater than${exclusive ? '' : ' or equal to'} ${bound}`;
}

/** MaximumInt / MinimumInt: the bound was truncated to an int64. */
function boundInt(path: string, data: bigint, bound: bigint, exclusive: boolean, which: 'max' | 'min', at: At): VErr | undefined {
  const fails =
    which === 'max' ? (exclusive ? data >= bound : data > bound) : exclusive ? data <= bound : data < bound;
  if (!fails) return undefined;
  return { code: which, name: path, value: bigOut(data), at, msg: boundText(path, which, exclusive, bound.toString()) };
}

/** Maximum / Minimum on float64s. `value` is what the error carries (the original value or its float64). */
function boundFloat(
  path: string,
  value: unknown,
  data: number,
  bound: number,
  exclusive: boolean,
  which: 'max' | 'min',
  at: At,
): VErr | undefined {
  const fails =
    which === 'max' ? (exclusive ? data >= bound : data > bound) : exclusive ? data <= bound : data < bound;
  if (!fails) return undefined;
  return { code: which, name: path, value, at, msg: boundText(path, which, exclusive, formatFloat(bound, 'g')) };
}

/** An int64 handed back as a JS number when that is exact, else as a bigint. */
function bigOut(b: bigint): number | bigint {
  const n = Number(b);
  return BigInt(n) === b ? n : b;
}

/** swag.IsFloat64AJSONInteger (go-openapi/swag v0.23.0). */
export function isFloat64AJSONInteger(f: number): boolean {
  const maxJSON = 9007199254740991;
  if (!Number.isFinite(f) || f < -maxJSON || f > maxJSON) return false;
  const t = Math.trunc(f);
  // float64(uint64(f)) on amd64: a negative value wraps around 2^64.
  const g = t >= 0 ? t : Number(2n ** 64n + BigInt(t));
  const fa = Math.abs(f);
  const ga = Math.abs(g);
  const diff = Math.abs(f - g);
  if (f === g) return true;
  if (f === t || f === g) return true;
  const eps = 1e-9;
  const smallest = Number.MIN_VALUE;
  if (f === 0 || g === 0 || diff < smallest) return diff < eps * smallest;
  return diff / Math.min(fa + ga, Number.MAX_VALUE) < eps;
}
