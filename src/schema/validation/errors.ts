/**
 * kube-openapi validate.Result and go-openapi's errors, and their mapping to field errors
 * (apiextensions-apiserver pkg/apiserver/validation/validation.go `kubeOpenAPIResultToFieldErrors`).
 */
import { OMIT, type FieldError } from '../../core/field-error.js';
import type { Loc } from '../../core/path.js';
import type { JsonPath } from '../../core/types.js';
import { goJSON } from '../../go/json.js';
import { quote } from '../../go/quote.js';
import { sortedCopy } from '../../go/value.js';

/** The go-openapi error codes that ValidateCustomResource maps specially, and the rest. */
type Code =
  | 'invalidType'
  | 'required'
  | 'tooLong'
  | 'tooShort'
  | 'pattern'
  | 'enum'
  | 'multipleOf'
  | 'max'
  | 'min'
  | 'unique'
  | 'maxItems'
  | 'minItems'
  | 'tooFewProperties'
  | 'tooManyProperties'
  | 'unallowedProperty'
  | 'multipleOfMustBePositive'
  /** Not an *errors.Validation (composite errors, range-check errors): Invalid at the root path with value "". */
  | 'plain';

/**
 * Where a value sits: a path, or a step below another place. The validators make one step per member
 * they visit; the path is only spelled out for an error (pathOf).
 */
export type At = JsonPath | AtLink;
export class AtLink {
  constructor(
    readonly parent: At,
    readonly seg: string | number,
  ) {}
}

function pathOf(at: At): JsonPath {
  if (!(at instanceof AtLink)) return at;
  const segs: (string | number)[] = [];
  let x: At = at;
  for (; x instanceof AtLink; x = x.parent) segs.push(x.seg);
  return [...x, ...segs.reverse()];
}

export interface VErr {
  readonly code: Code;
  /** errors.Validation.Name: the openapi path ('' at the root, `.x` for required/additional properties at the root). */
  readonly name: string;
  readonly msg: string;
  /** errors.Validation.Value; undefined is Go's nil. */
  readonly value?: unknown;
  readonly valid?: number;
  readonly values?: readonly unknown[];
  readonly at: At;
  readonly atKey?: boolean;
}

export class Result {
  readonly errors: VErr[] = [];
  matchCount = 0;

  /** Texts of `errors` (a set: thousands of errors made the linear search quadratic); made on the first add. */
  private texts: Set<string> | undefined;

  /** AddErrors: skips errors whose text is already reported. */
  add(...errs: (VErr | undefined)[]): void {
    this.addAll(errs);
  }

  private addAll(errs: readonly (VErr | undefined)[]): void {
    let texts = this.texts;
    if (texts === undefined || texts.size !== this.errors.length) {
      // errors pushed directly (single)
      texts ??= this.texts = new Set<string>();
      for (const x of this.errors) texts.add(x.msg);
    }
    for (const e of errs) {
      if (e !== undefined && !texts.has(e.msg)) {
        this.errors.push(e);
        texts.add(e.msg);
      }
    }
  }

  merge(o: Result | undefined): this {
    if (o !== undefined) {
      // most results hold no error: nothing to add (and no set to make)
      if (o.errors.length > 0) this.addAll(o.errors);
      this.matchCount += o.matchCount;
    }
    return this;
  }

  inc(): void {
    this.matchCount++;
  }

  get valid(): boolean {
    return this.errors.length === 0;
  }
}

/** errorHelp.sErr: a result holding one error and no match. */
export function single(e: VErr): Result {
  const r = new Result();
  r.errors.push(e);
  return r;
}

export const IN = 'body';

export function invalidType(name: string, typeName: string, value: string, at: At): VErr {
  return { code: 'invalidType', name, value, at, msg: `${name} in ${IN} must be of type ${typeName}: ${quote(value)}` };
}

export function plain(msg: string, at: At): VErr {
  return { code: 'plain', name: '', msg, at };
}


// ---------------------------------------------------------------------------------------------------------------
// kubeOpenAPIResultToFieldErrors (apiextensions-apiserver pkg/apiserver/validation/validation.go)
// ---------------------------------------------------------------------------------------------------------------

function fieldPath(base: string, name: string): string {
  if (name.length > 0 && name !== '.') {
    const child = name.startsWith('.') ? name.slice(1) : name;
    return base === '' ? child : `${base}.${child}`;
  }
  return base === '' ? '<nil>' : base;
}

export function toFieldError(e: VErr, loc: Loc): FieldError {
  const at = pathOf(e.at);
  const atKey = e.atKey === true ? { atKey: true as const } : {};
  if (e.code === 'plain') {
    return { type: 'Invalid', field: loc.field === '' ? '<nil>' : loc.field, value: '', detail: e.msg, at };
  }
  const field = fieldPath(loc.field, e.name);
  const value = e.value === undefined ? '' : sortedCopy(e.value);
  switch (e.code) {
    case 'required':
      return { type: 'Required', field, value: OMIT, detail: '', at, ...atKey };
    case 'enum': {
      const values = (e.values ?? []).map((v) => (typeof v === 'string' ? v : goJSON(v)));
      const detail = values.length > 0 ? `supported values: ${values.map(quote).join(', ')}` : '';
      return { type: 'NotSupported', field, value: sortedCopy(e.value ?? null), detail, at };
    }
    case 'tooLong': {
      const max = e.valid ?? -1;
      const detail = max >= 0 ? `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` : 'value is too long';
      return { type: 'TooLong', field, value: OMIT, detail, at };
    }
    case 'maxItems':
    case 'tooManyProperties': {
      const max = e.valid ?? -1;
      const detail = max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items';
      return { type: 'TooMany', field, value: typeof e.value === 'number' ? e.value : OMIT, detail, at };
    }
    case 'invalidType':
      return { type: 'TypeInvalid', field, value, detail: e.msg, at };
    default:
      return { type: 'Invalid', field, value, detail: e.msg, at, ...atKey };
  }
}
