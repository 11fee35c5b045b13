/**
 * Embedded ObjectMeta/TypeMeta handling of custom resources, as the API server does it
 * (apiextensions-apiserver `pkg/apiserver/schema/objectmeta`):
 *
 *  - `coerceObjectMeta` is `CoerceWithOptions`: at every embedded resource (`x-kubernetes-embedded-resource`,
 *    and the root when `isResourceRoot`) `apiVersion`/`kind` must be strings and `metadata` is decoded into a
 *    `metav1.ObjectMeta` (Go `encoding/json` rules, case-sensitive) and re-encoded: unknown metadata fields are
 *    dropped (and reported as `<path>.metadata.<field>` when asked), a zero `creationTimestamp` disappears,
 *    timestamps are normalised to UTC RFC 3339 without fractions, empty strings/maps/lists are omitted.
 *    With `dropInvalidFields`, malformed fields are dropped instead of failing.
 *  - `validateObjectMeta` is `Validate`: `apiVersion`/`kind` Required/Invalid (group-version parsing, DNS-1035
 *    kind check) and `metav1.ObjectMeta` validation (`ValidateObjectMeta` with path-segment names).
 *
 * Upstream quirks kept on purpose:
 *  - JSON decoding errors are Go's texts (`json: cannot unmarshal number into Go struct field ObjectMeta.name of
 *    type string`); the metadata is decoded in sorted key order, the first type error wins, except that a
 *    timestamp error aborts decoding at once and wins over an earlier type error;
 *  - timestamps are parsed with Go's `time.Parse(time.RFC3339, …)`, which is lenient (one-digit hours, `,` as
 *    fraction separator, fractions of any length) and reports Go's parse error texts;
 *  - `metadata.name` is never Required (the server substitutes a fake name); a namespace is validated only when set;
 *  - finalizer errors carry no index (`metadata.finalizers`), nor do owner reference errors before 1.37
 *    (`metadata.ownerReferences.uid`; `metadata.ownerReferences[0].uid` from 1.37), label and annotation errors
 *    no key (`metadata.labels`);
 *  - `Coerce` stops at the first error; Go iterates maps in random order, so which error wins between sibling
 *    fields is not deterministic on the server. Here keys are visited in sorted (code point) order.
 *
 * Manifest positions: every error's `at` points at the offending value (a JSON decoding error at the value that
 * failed inside `metadata`), missing fields at their would-be key with `atKey`.
 */
import { since } from '../core/version-gates.js';
import { dns1035LabelErrors, dns1123LabelErrors } from '../crd/dns.js';
import type { FieldError } from '../core/field-error.js';
import { OMIT } from '../core/field-error.js';
import { Loc } from '../core/path.js';
import type { JsonPath, ServerErrorType } from '../core/types.js';
import { isRecord } from '../core/types.js';
import { getObjectMeta, objectMetaToUnstructured, ownerRefJSON, type ObjectMeta } from './objectmeta/decode.js';
import { isPathSegmentName, isPathSegmentPrefix, isQualifiedName, isValidLabelValue, parseGroupVersion } from './objectmeta/names.js';
import { asEmbeddedResource, emptyStructural, type Structural } from '../crd/structural-schema.js';
import { goCompare, goSortedKeys, toLower, utf8Len } from '../go/strings.js';
import { deepCopy } from '../go/copy.js';
import { isPrint } from '../go/quote.js';
import { structOrdered } from '../go/json.js';
import { int64Value } from '../go/value.js';

type Raw = Record<string, unknown>;

interface CoerceObjectMetaOptions {
  /** Drop malformed apiVersion/kind and metadata fields instead of failing (the server's unknown-field pruning path). */
  readonly dropInvalidFields: boolean;
  /** Collect the unknown metadata fields (`<path>.metadata.<field>`), as reported in `unknown field` warnings. */
  readonly returnUnknownFieldPaths: boolean;
}

interface CoerceObjectMetaResult {
  /** The coerced copy of the value (the input is never modified). Meaningless when `error` is set. */
  readonly value: unknown;
  /** The first error, like Go's single `*field.Error`. */
  readonly error?: FieldError;
  /** Unknown metadata field paths, sorted like Go's sort.Strings. */
  readonly unknownFieldPaths: string[];
}

// ---------------------------------------------------------------------------------------------------------------
// Structural schema walking (the typed schema: properties by own key, additionalProperties' bool
// forms have no schema, a nil Structural)

function rootSchema(schema: Structural | undefined, isResourceRoot: boolean): Structural | undefined {
  if (!isResourceRoot) return schema;
  return asEmbeddedResource(schema ?? emptyStructural());
}

function fieldError(
  type: ServerErrorType,
  loc: Loc,
  value: unknown,
  detail: string,
  at: JsonPath = loc.at,
  atKey = false,
): FieldError {
  return atKey ? { type, field: loc.field, value, detail, at, atKey: true } : { type, field: loc.field, value, detail, at };
}

// ---------------------------------------------------------------------------------------------------------------
// Coerce

class Coercer {
  readonly unknown: string[] = [];
  constructor(readonly opts: CoerceObjectMetaOptions) {}

  /** Coerces `x` in place (x is a private copy); returns the first error. */
  coerce(loc: Loc, x: unknown, s: Structural | undefined): FieldError | undefined {
    if (s === undefined) return undefined;
    if (Array.isArray(x)) {
      const items = s.items;
      for (let i = 0; i < x.length; i++) {
        const err = this.coerce(loc.index(i), x[i], items);
        if (err !== undefined) return err;
      }
      return undefined;
    }
    if (!isRecord(x)) return undefined;
    for (const k of goSortedKeys(x)) {
      const v = x[k];
      if (s.extensions.embeddedResource) {
        if (k === 'apiVersion' || k === 'kind') {
          if (typeof v !== 'string' && this.opts.dropInvalidFields) delete x[k];
          else if (typeof v !== 'string') return fieldError('Invalid', loc.child(k), v, 'must be a string');
        } else if (k === 'metadata') {
          const r = getObjectMeta(x, loc, { drop: this.opts.dropInvalidFields, unknown: this.opts.returnUnknownFieldPaths });
          this.unknown.push(...r.unknown);
          if (r.error !== undefined) {
            if (!this.opts.dropInvalidFields) {
              const ml = loc.child('metadata');
              return fieldError('Invalid', ml, v, r.error.msg, r.error.at);
            }
          } else if (r.found && r.meta !== undefined) {
            // SetObjectMeta; the zero creationTimestamp is already omitted (omitzero)
            x['metadata'] = objectMetaToUnstructured(r.meta);
          }
        }
      }
      const p = s.properties.get(k);
      if (p !== undefined) {
        const err = this.coerce(loc.child(k), v, p);
        if (err !== undefined) return err;
        continue;
      }
      const a = s.additionalProperties;
      if (a !== undefined) {
        const err = this.coerce(loc.key(k), v, a.schema);
        if (err !== undefined) return err;
      }
    }
    return undefined;
  }
}

/**
 * objectmeta.CoerceWithOptions on a copy of `value`: the coerced value, the first error and the sorted unknown
 * metadata field paths.
 */
export function coerceObjectMeta(
  loc: Loc,
  value: unknown,
  schema: Structural | undefined,
  isResourceRoot: boolean,
  opts: CoerceObjectMetaOptions,
): CoerceObjectMetaResult {
  const s = rootSchema(schema, isResourceRoot);
  const copy = deepCopy(value);
  const c = new Coercer(opts);
  const error = c.coerce(loc, copy, s);
  const unknownFieldPaths = c.unknown.sort(goCompare);
  return error === undefined ? { value: copy, unknownFieldPaths } : { value: copy, error, unknownFieldPaths };
}

// ---------------------------------------------------------------------------------------------------------------
// Validate

const FIELD_MANAGER_MAX = 128;
const MAX_SUBRESOURCE = 256;
const TOTAL_ANNOTATION_SIZE = 256 * 1024;

function tooLongError(loc: Loc, max: number, at: JsonPath): FieldError {
  return fieldError('TooLong', loc, '<value omitted>', `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}`, at);
}

function validateFieldManager(manager: string, loc: Loc): FieldError[] {
  const errs: FieldError[] = [];
  if (utf8Len(manager) > FIELD_MANAGER_MAX) errs.push(tooLongError(loc, FIELD_MANAGER_MAX, loc.at));
  let pos = 0;
  for (const ch of manager) {
    if (!isPrint(ch)) {
      const cp = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      errs.push(fieldError('Invalid', loc, manager, `invalid character U+${cp} (at position ${pos})`));
    }
    pos += utf8Len(ch);
  }
  return errs;
}

/** Whether the manifest object `o` has key `k` (errors about absent fields point at the would-be key). */
function has(o: unknown, k: string): boolean {
  return isRecord(o) && Object.prototype.hasOwnProperty.call(o, k);
}

/** metavalidation.ValidateObjectMeta(meta, len(namespace) > 0, path-segment names, loc) on a decoded ObjectMeta. */
export function validateDecodedObjectMeta(meta: ObjectMeta, loc: Loc, raw: unknown, kubeMinor: number): FieldError[] {
  const errs: FieldError[] = [];
  const sub = (k: string): Loc => loc.child(k);
  const rawField = (k: string): unknown => (isRecord(raw) ? raw[k] : undefined);

  if (meta.generateName !== '') {
    for (const m of isPathSegmentPrefix(meta.generateName)) errs.push(fieldError('Invalid', sub('generateName'), meta.generateName, m));
  }
  const name = meta.name === '' ? 'fakename' : meta.name;
  for (const m of isPathSegmentName(name)) errs.push(fieldError('Invalid', sub('name'), name, m));

  if (meta.namespace !== '') {
    for (const m of dns1123LabelErrors(meta.namespace)) errs.push(fieldError('Invalid', sub('namespace'), meta.namespace, m));
  }
  if (meta.generation < 0n) {
    errs.push(fieldError('Invalid', sub('generation'), int64Value(meta.generation), 'must be greater than or equal to 0'));
  }

  // labels
  if (meta.labels !== undefined) {
    const ll = sub('labels');
    for (const [k, v] of meta.labels) {
      const at = [...ll.at, k];
      for (const m of isQualifiedName(k)) errs.push(fieldError('Invalid', ll, k, m, at, true));
      for (const m of isValidLabelValue(v)) errs.push(fieldError('Invalid', ll, v, m, at));
    }
  }

  // annotations
  if (meta.annotations !== undefined) {
    const al = sub('annotations');
    let total = 0;
    for (const [k, v] of meta.annotations) {
      for (const m of isQualifiedName(toLower(k))) errs.push(fieldError('Invalid', al, k, m, [...al.at, k], true));
      total += utf8Len(k) + utf8Len(v);
    }
    if (total > TOTAL_ANNOTATION_SIZE) errs.push(tooLongError(al, TOTAL_ANNOTATION_SIZE, al.at));
  }

  // ownerReferences: before 1.37 the errors carry no index and every problem is Invalid; from 1.37
  // (validateOwnerReference) they are indexed, empty fields are Required and a malformed apiVersion has its own text
  if (meta.ownerReferences !== undefined) {
    const ol = sub('ownerReferences');
    const rawRefs = rawField('ownerReferences');
    const indexed = kubeMinor >= since('metadata.owner-ref-required');
    let firstController = '';
    meta.ownerReferences.forEach((ref, i) => {
      const rawRef = Array.isArray(rawRefs) ? rawRefs[i] : undefined;
      const at = (k: string): [JsonPath, boolean] => [[...ref.at, k], !has(rawRef, k)];
      const child = (k: string): Loc => (indexed ? ol.index(i).child(k) : new Loc(`${ol.field}.${k}`, [...ref.at, k]));
      const gv = parseGroupVersion(ref.apiVersion);
      const version = 'error' in gv ? '' : gv.version;
      const group = 'error' in gv ? '' : gv.group;
      const empty = (k: 'kind' | 'name' | 'uid'): void => {
        if (ref[k] !== '') return;
        if (indexed) errs.push(fieldError('Required', child(k), OMIT, 'must not be empty', ...at(k)));
        // before 1.34 the text named the field ("uid must not be empty")
        else errs.push(fieldError('Invalid', child(k), ref[k], kubeMinor >= since('metadata.owner-ref-short-texts') ? 'must not be empty' : `${k} must not be empty`, ...at(k)));
      };
      if (!indexed) {
        if (version === '') errs.push(fieldError('Invalid', child('apiVersion'), ref.apiVersion, 'version must not be empty', ...at('apiVersion')));
      } else if (ref.apiVersion === '') {
        errs.push(fieldError('Required', child('apiVersion'), OMIT, 'must not be empty', ...at('apiVersion')));
      } else if (version === '') {
        errs.push(fieldError('Invalid', child('apiVersion'), ref.apiVersion, 'must be <group>/<version> or <version>', ...at('apiVersion')));
      }
      empty('kind');
      empty('name');
      empty('uid');
      if (group === '' && version === 'v1' && ref.kind === 'Event') {
        errs.push(fieldError('Invalid', ol, structOrdered(ownerRefJSON(ref)), `/v1, Kind=Event is disallowed from being an owner`, ref.at));
      }
      if (ref.controller === true) {
        const cur = `${ref.kind}/${ref.name}`;
        if (firstController !== '') {
          errs.push(
            fieldError(
              'Invalid',
              ol,
              // []metav1.OwnerReference: structs, fields in declaration order
              structOrdered(meta.ownerReferences!.map(ownerRefJSON)),
              `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${cur}`,
              ref.at,
            ),
          );
        } else {
          firstController = cur;
        }
      }
    });
  }

  // finalizers: errors carry no index
  if (meta.finalizers !== undefined) {
    const fl = sub('finalizers');
    let orphan = false;
    let foreground = false;
    meta.finalizers.forEach((f, i) => {
      for (const m of isQualifiedName(f)) errs.push(fieldError('Invalid', fl, f, m, [...fl.at, i]));
      if (f === 'orphan') orphan = true;
      if (f === 'foregroundDeletion') foreground = true;
    });
    if (orphan && foreground) {
      errs.push(fieldError('Invalid', fl, [...meta.finalizers], 'finalizer orphan and foregroundDeletion cannot be both set'));
    }
  }

  // managedFields
  if (meta.managedFields !== undefined) {
    const rawMF = rawField('managedFields');
    meta.managedFields.forEach((e, i) => {
      const el = sub('managedFields').index(i);
      const rawE = Array.isArray(rawMF) ? rawMF[i] : undefined;
      if (e.operation !== 'Apply' && e.operation !== 'Update') {
        const l = el.child('operation');
        const missing = !has(rawE, 'operation');
        // 1.37: Required when empty, NotSupported otherwise (was one Invalid text)
        if (kubeMinor < since('metadata.managed-fields-operation')) errs.push(fieldError('Invalid', l, e.operation, 'must be `Apply` or `Update`', l.at, missing));
        else if (e.operation === '') errs.push(fieldError('Required', l, OMIT, 'must not be empty', l.at, missing));
        else errs.push(fieldError('NotSupported', l, e.operation, 'supported values: "Apply", "Update"', l.at));
      }
      if (e.fieldsType !== '' && e.fieldsType !== 'FieldsV1') {
        errs.push(fieldError('Invalid', el.child('fieldsType'), e.fieldsType, 'must be `FieldsV1`'));
      }
      errs.push(...validateFieldManager(e.manager, el.child('manager')));
      if (utf8Len(e.subresource) > MAX_SUBRESOURCE) {
        const l = el.child('subresource');
        errs.push(tooLongError(l, MAX_SUBRESOURCE, l.at));
      }
    });
  }
  return errs;
}

function validateEmbeddedResource(loc: Loc, x: Raw, kubeMinor: number): FieldError[] {
  const errs: FieldError[] = [];
  if (!has(x, 'apiVersion')) errs.push(fieldError('Required', loc.child('apiVersion'), OMIT, '', loc.child('apiVersion').at, true));
  if (!has(x, 'kind')) errs.push(fieldError('Required', loc.child('kind'), OMIT, '', loc.child('kind').at, true));
  for (const k of goSortedKeys(x)) {
    const v = x[k];
    if (k === 'apiVersion') {
      const l = loc.child(k);
      if (typeof v !== 'string') errs.push(fieldError('Invalid', l, v ?? null, 'must be a string'));
      else if (v.length === 0) errs.push(fieldError('Invalid', l, v, 'must not be empty'));
      else {
        const gv = parseGroupVersion(v);
        if ('error' in gv) errs.push(fieldError('Invalid', l, v, gv.error));
      }
    } else if (k === 'kind') {
      const l = loc.child(k);
      if (typeof v !== 'string') errs.push(fieldError('Invalid', l, v ?? null, 'must be a string'));
      else if (v.length === 0) errs.push(fieldError('Invalid', l, v, 'must not be empty'));
      else {
        const e = dns1035LabelErrors(toLower(v));
        if (e.length > 0) errs.push(fieldError('Invalid', l, v, `may have mixed case, but should otherwise match: ${e.join(',')}`));
      }
    } else if (k === 'metadata') {
      const r = getObjectMeta(x, loc, { drop: false, unknown: false });
      const ml = loc.child('metadata');
      if (r.error !== undefined) errs.push(fieldError('Invalid', ml, v ?? null, r.error.msg, r.error.at));
      else if (r.meta !== undefined) errs.push(...validateDecodedObjectMeta(r.meta, ml, v, kubeMinor));
    }
  }
  return errs;
}

/** Below a node where no embedded resource sits (facts.embeddedBelow), the walk finds nothing to check. */
function validateWalk(loc: Loc, x: unknown, s: Structural | undefined, kubeMinor: number, out: FieldError[]): void {
  if (s === undefined || !s.facts.embeddedBelow) return;
  if (Array.isArray(x)) {
    const items = s.items;
    x.forEach((v, i) => validateWalk(loc.index(i), v, items, kubeMinor, out));
    return;
  }
  if (!isRecord(x)) return;
  if (s.extensions.embeddedResource) out.push(...validateEmbeddedResource(loc, x, kubeMinor));
  for (const k of goSortedKeys(x)) {
    const p = s.properties.get(k);
    if (p !== undefined) {
      validateWalk(loc.child(k), x[k], p, kubeMinor, out);
      continue;
    }
    const a = s.additionalProperties;
    if (a !== undefined) validateWalk(loc.key(k), x[k], a.schema, kubeMinor, out);
  }
}

/**
 * objectmeta.Validate: TypeMeta and ObjectMeta checks of every embedded resource reachable through the schema
 * (and of the root when `isResourceRoot`).
 */
export function validateObjectMeta(
  loc: Loc,
  value: unknown,
  schema: Structural | undefined,
  isResourceRoot: boolean,
  kubeMinor: number,
): FieldError[] {
  const out: FieldError[] = [];
  validateWalk(loc, value, rootSchema(schema, isResourceRoot), kubeMinor, out);
  return out;
}
