/**
 * kube-openapi pkg/validation/validate `SchemaValidator`: the type, schema-props, slice and object
 * validators (the scalar ones are in scalar.ts).
 */
import { quote } from '../../go/quote.js';
import { reMatch } from '../../go/regexp.js';
import { asFloat, kindOf, type GoKind } from '../../go/value.js';
import { AtLink, IN, Result, invalidType, plain, type At, type VErr } from './errors.js';
import { byIndex, byKey, type Corr } from './ratchet.js';
import { commonValidator, formatValidator, isFloat64AJSONInteger, numberValidator, stringValidator } from './scalar.js';
import { normalizeFormat } from '../formats/index.js';
import type { Ctx, OSchema } from './schema.js';
import { deepEqual } from '../../go/equal.js';
import { goSortedKeys } from '../../go/strings.js';

/** validate.SchemaValidator.Validate: the validators in order, each applied when it applies to the value's kind. */
export function validateAgainst(s: OSchema, data: unknown, path: string, at: At, ctx: Ctx, corr?: Corr, ratchet = false): Result {
  const result = validateNode(s, data, path, at, ctx, corr);
  // ratchetingValueValidator.Validate: the errors of an unchanged (correlated and deep-equal) value become warnings
  if (ratchet && corr !== undefined && !result.valid && corr.deepEqual()) {
    const r = new Result();
    r.matchCount = result.matchCount;
    return r;
  }
  return result;
}

function validateNode(s: OSchema, data: unknown, path: string, at: At, ctx: Ctx, corr: Corr | undefined): Result {
  const result = new Result();
  const kind = kindOf(data);
  if (kind === 'null') {
    addType(result, typeError(s, data, kind, path, at));
    result.merge(commonValidator(s, data, path, at));
    return result;
  }
  if (s.type.length > 0 || s.format !== '') {
    addType(result, typeError(s, data, kind, path, at));
    result.inc();
  }
  result.merge(schemaPropsValidator(s, data, kind, path, at, ctx, corr));
  result.inc();
  if (kind === 'string') {
    result.merge(stringValidator(s, data as string, path, at));
    result.inc();
    if (s.format !== '' && ctx.registry.has(normalizeFormat(s.format))) {
      result.merge(formatValidator(s.format, data as string, path, at));
      result.inc();
    }
  }
  if (kind === 'int' || kind === 'float') {
    result.merge(numberValidator(s, data, kind, path, at, ctx.numberRanges));
    result.inc();
  }
  if (kind === 'slice') {
    result.merge(sliceValidator(s, data as unknown[], path, at, ctx, corr));
    result.inc();
  }
  result.merge(commonValidator(s, data, path, at));
  result.inc();
  if (kind === 'map') {
    result.merge(objectValidator(s, data as Record<string, unknown>, path, at, ctx, corr));
    result.inc();
  }
  result.inc();
  return result;
}

/** Merges typeValidator's result: its error, else its one match. */
function addType(result: Result, e: VErr | undefined): void {
  if (e === undefined) result.inc();
  else result.add(e);
}

/** schemaInfoForType: the schema type and format of a Go kind. */
const SCHEMA_INFO = {
  bool: ['boolean', ''],
  string: ['string', ''],
  int: ['integer', 'int64'],
  float: ['number', 'float64'],
  slice: ['array', ''],
  map: ['object', ''],
} as const;

/**
 * typeValidator (type.go): its error, or undefined when it matches (the caller adds the error, or
 * counts the match: the validator's result has one or the other).
 */
function typeError(s: OSchema, data: unknown, kind: GoKind, path: string, at: At): VErr | undefined {
  const types = s.type;
  if (kind === 'null') {
    if (types.length > 0 && !types.includes('null') && !s.nullable) {
      return invalidType(path, types.join(','), 'null', at);
    }
    return undefined;
  }
  const [schType, format] = SCHEMA_INFO[kind];
  const isFloatInt = schType === 'number' && isFloat64AJSONInteger(asFloat(data)) && types.includes('integer');
  const isIntFloat = schType === 'integer' && types.includes('number');
  const stringOrSlice = kind === 'string' || kind === 'slice';

  if (!stringOrSlice && s.format !== '' && !(types.includes(schType) || format === s.format || isFloatInt || isIntFloat)) {
    return invalidType(path, s.format, format, at);
  }
  if (!(types.includes('number') || types.includes('integer')) && s.format !== '' && stringOrSlice) {
    return undefined;
  }
  if (!(types.includes(schType) || isFloatInt || isIntFloat)) {
    return invalidType(path, types.join(','), schType, at);
  }
  return undefined;
}

/** schemaPropsValidator (schema_props.go): allOf, anyOf, oneOf, not, dependencies. */
function schemaPropsValidator(s: OSchema, data: unknown, kind: GoKind, path: string, at: At, ctx: Ctx, corr: Corr | undefined): Result {
  const main = new Result();

  if (s.anyOf.length > 0) {
    let bestFailures: Result | undefined;
    let firstSuccess: Result | undefined;
    let succeededOnce = false;
    for (const sch of s.anyOf) {
      const r = validateAgainst(sch, data, path, at, ctx, corr);
      if (r.valid) {
        bestFailures = undefined;
        succeededOnce = true;
        firstSuccess ??= r;
        break;
      }
      if (bestFailures === undefined || r.matchCount > bestFailures.matchCount) bestFailures = r;
    }
    if (!succeededOnce) main.add(plain(`${quote(path)} must validate at least one schema (anyOf)`, at));
    if (bestFailures !== undefined) main.merge(bestFailures);
    else if (firstSuccess !== undefined) main.merge(firstSuccess);
  }

  if (s.oneOf.length > 0) {
    let bestFailures: Result | undefined;
    let firstSuccess: Result | undefined;
    let validated = 0;
    for (const sch of s.oneOf) {
      const r = validateAgainst(sch, data, path, at, ctx, corr);
      if (r.valid) {
        validated++;
        bestFailures = undefined;
        firstSuccess ??= r;
        continue;
      }
      if (validated === 0 && (bestFailures === undefined || r.matchCount > bestFailures.matchCount)) bestFailures = r;
    }
    if (validated !== 1) {
      const additional = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
      main.add(plain(`${quote(path)} must validate one and only one schema (oneOf). ${additional}`, at));
      if (bestFailures !== undefined) main.merge(bestFailures);
    } else if (firstSuccess !== undefined) {
      main.merge(firstSuccess);
    }
  }

  if (s.allOf.length > 0) {
    let validated = 0;
    for (const sch of s.allOf) {
      const r = validateAgainst(sch, data, path, at, ctx, corr);
      if (r.valid) validated++;
      main.merge(r);
    }
    if (validated !== s.allOf.length) {
      const additional = validated === 0 ? '. None validated' : '';
      main.add(plain(`${quote(path)} must validate all the schemas (allOf)${additional}`, at));
    }
  }

  if (s.not !== undefined && validateAgainst(s.not, data, path, at, ctx, corr).valid) {
    main.add(plain(`${quote(path)} must not validate the schema (not)`, at));
  }

  if (s.dependencies !== undefined && s.dependencies.size > 0 && kind === 'map') {
    const val = data as Record<string, unknown>;
    for (const key of goSortedKeys(val)) {
      const dep = s.dependencies.get(key);
      if (dep === undefined) continue;
      if (dep.schema !== undefined) {
        main.merge(validateAgainst(dep.schema, data, `${path}.${key}`, at, ctx));
        continue;
      }
      for (const depKey of dep.property) {
        if (!Object.prototype.hasOwnProperty.call(val, depKey)) main.add(plain(`${quote(path)} has a dependency on ${depKey}`, at));
      }
    }
  }

  main.inc();
  return main;
}


/** schemaSliceValidator (slice_validator.go). */
function sliceValidator(s: OSchema, val: unknown[], path: string, at: At, ctx: Ctx, corr: Corr | undefined): Result {
  const result = new Result();
  const size = val.length;
  if (s.items !== undefined) {
    for (let i = 0; i < size; i++) result.merge(validateAgainst(s.items, val[i], `${path}[${i}]`, new AtLink(at, i), ctx, ...byIndex(corr, i)));
  }
  let itemsSize = 0;
  const tuple = s.itemsTuple ?? [];
  if (tuple.length > 0) {
    itemsSize = tuple.length;
    for (let i = 0; i < itemsSize && i < size; i++) {
      result.merge(validateAgainst(tuple[i]!, val[i], `${path}[${i}]`, new AtLink(at, i), ctx, ...byIndex(corr, i)));
    }
  }
  if (s.additionalItems !== undefined && itemsSize < size) {
    if (tuple.length > 0 && !s.additionalItems.allows) {
      result.add(plain("array doesn't allow for additional items", at));
    }
    const ai = s.additionalItems.schema;
    if (ai !== undefined) {
      // The upstream loop bound (size-itemsSize+1) is kept as is.
      for (let i = itemsSize; i < size - itemsSize + 1; i++) {
        result.merge(validateAgainst(ai, val[i], `${path}[${i}]`, new AtLink(at, i), ctx, ...byIndex(corr, i)));
      }
    }
  }
  if (s.minItems !== undefined && size < s.minItems) {
    result.add({
      code: 'minItems',
      name: path,
      value: size,
      valid: s.minItems,
      at,
      msg: `${path} in ${IN} should have at least ${s.minItems} items`,
    });
  }
  if (s.maxItems !== undefined && size > s.maxItems) {
    result.add({
      code: 'maxItems',
      name: path,
      value: size,
      valid: s.maxItems,
      at,
      msg: `${path} in ${IN} should have at most ${s.maxItems} items`,
    });
  }
  if (s.uniqueItems) {
    const seen: unknown[] = [];
    for (const v of val) {
      if (seen.some((u) => deepEqual(v, u))) {
        result.add({ code: 'unique', name: path, at, msg: `${path} in ${IN} shouldn't contain duplicates` });
        break;
      }
      seen.push(v);
    }
  }
  result.inc();
  return result;
}

/** objectValidator (object_validator.go). */
function objectValidator(s: OSchema, val: Record<string, unknown>, path: string, at: At, ctx: Ctx, corr: Corr | undefined): Result {
  const res = new Result();
  const props = s.properties;
  const has = (k: string): boolean => Object.prototype.hasOwnProperty.call(val, k);
  // the keys in Go's order are only walked when additionalProperties or patternProperties is set
  // (else the loop below finds nothing for any key): most objects are never sorted
  const ap = s.additionalProperties;
  const keys = ap !== undefined || s.patternProperties !== undefined ? goSortedKeys(val) : Object.keys(val);
  const numKeys = keys.length;

  if (s.minProperties !== undefined && numKeys < s.minProperties) {
    res.add({
      code: 'tooFewProperties',
      name: path,
      value: numKeys,
      valid: s.minProperties,
      at,
      msg: `${path} in ${IN} should have at least ${s.minProperties} properties`,
    });
  }
  if (s.maxProperties !== undefined && numKeys > s.maxProperties) {
    res.add({
      code: 'tooManyProperties',
      name: path,
      value: numKeys,
      valid: s.maxProperties,
      at,
      msg: `${path} in ${IN} should have at most ${s.maxProperties} properties`,
    });
  }

  if (ap !== undefined && !ap.allows) {
    for (const k of keys) {
      const regular = props?.has(k) ?? false;
      let matched = false;
      for (const pk of s.patternProperties?.keys() ?? []) {
        if (reMatch(pk, k)) {
          matched = true;
          break;
        }
      }
      if (!regular && !matched) {
        res.add({
          code: 'unallowedProperty',
          name: path,
          value: k,
          at: new AtLink(at, k),
          atKey: true,
          msg: `${path}.${k} in ${IN} is a forbidden property`,
        });
      }
    }
  } else if (s.patternProperties !== undefined || ap?.schema !== undefined) {
    for (const key of keys) {
      const regular = props?.has(key) ?? false;
      const { matched } = validatePatternProperty(s, key, val[key], res, path, at, ctx, corr);
      if (!(regular || matched) && ap?.schema !== undefined) {
        res.merge(validateAgainst(ap.schema, val[key], `${path}.${key}`, new AtLink(at, key), ctx, ...byKey(corr, key, path)));
      }
    }
  }

  if (props !== undefined) {
    for (const [pName, pSchema] of props) {
      if (!has(pName)) continue;
      const rName = path !== '' ? `${path}.${pName}` : pName;
      res.merge(validateAgainst(pSchema, val[pName], rName, new AtLink(at, pName), ctx, ...byKey(corr, pName, path)));
    }
  }

  for (const k of s.required) {
    if (!has(k)) {
      res.add({ code: 'required', name: `${path}.${k}`, at: new AtLink(at, k), atKey: true, msg: `${path}.${k} in ${IN} is required` });
    }
  }

  if (s.patternProperties !== undefined) {
    for (const key of keys) {
      const regular = props?.has(key) ?? false;
      const { matched, patterns } = validatePatternProperty(s, key, val[key], res, path, at, ctx, corr);
      if (!regular && matched) {
        for (const pName of patterns) {
          const ps = s.patternProperties.get(pName);
          if (ps !== undefined) res.merge(validateAgainst(ps, val[key], `${path}.${key}`, new AtLink(at, key), ctx, ...byKey(corr, key, path)));
        }
      }
    }
  }
  return res;
}

function validatePatternProperty(
  s: OSchema,
  key: string,
  value: unknown,
  result: Result,
  path: string,
  at: At,
  ctx: Ctx,
  corr: Corr | undefined,
): { matched: boolean; patterns: string[] } {
  const patterns: string[] = [];
  for (const [k, sch] of s.patternProperties ?? []) {
    if (reMatch(k, key)) {
      patterns.push(k);
      result.merge(validateAgainst(sch, value, `${path}.${key}`, new AtLink(at, key), ctx, ...byKey(corr, key, path)));
    }
  }
  return { matched: patterns.length > 0, patterns };
}
