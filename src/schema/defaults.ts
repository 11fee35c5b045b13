/**
 * Validation of defaults (apiextensions pkg/apiserver/schema/defaulting/validation.go):
 * a default must survive pruning against its own node's schema, produce valid metadata inside
 * embedded resources, and validate against the node's schema. Defaults under
 * additionalProperties are never visited (the server does not descend there).
 */
import { deepEqual } from '../go/equal.js';
import { invalid, type FieldError, errorText } from '../core/field-error.js';
import { Loc } from '../core/path.js';
import { isRecord } from '../core/types.js';
import { prune } from '../simulate/prune.js';
import { celSyntaxError } from './cel-syntax.js';
import { addl, flag, itemsSchema, prop, props, sType, type Schema, META_FIELDS } from './raw.js';
import { coerceObjectMeta, validateObjectMeta } from './objectmeta.js';
import { validateValue, type ValueValidateOptions } from './value-validate.js';

export function validateDefaults(root: Schema, loc: Loc, kubeMinor = 36): FieldError[] {
  const out: FieldError[] = [];
  const vopts = { structural: true, listTypes: false, kubeMinor } as const;
  const rootAsResource = flag(root, 'x-kubernetes-embedded-resource') ? root : { ...root, 'x-kubernetes-embedded-resource': true };
  visit(rootAsResource, rootAsResource, loc, false, [], out, vopts);
  return out;
}

function visit(
  s: Schema,
  rootSchema: Schema,
  loc: Loc,
  insideMeta: boolean,
  metaPath: readonly string[],
  out: FieldError[],
  vopts: ValueValidateOptions,
): void {
  let root = rootSchema;
  let inMeta = insideMeta;
  let mPath = metaPath;
  if (flag(s, 'x-kubernetes-embedded-resource')) {
    root = s;
    inMeta = false;
    mPath = [];
  }
  const isResourceRoot = s === root;
  if ('default' in s && s['default'] !== null && s['default'] !== undefined) {
    const def = s['default'];
    const dl = loc.child('default');
    const embedded = flag(s, 'x-kubernetes-embedded-resource');
    if (inMeta) {
      // spliced into a synthetic resource and checked as TypeMeta/ObjectMeta (nil field path)
      const obj = placeAt(mPath, def);
      const nil = new Loc('', dl.at);
      const co = coerceObjectMeta(nil, obj, root, true, { dropInvalidFields: false, returnUnknownFieldPaths: false });
      const ve = co.error ? [] : validateObjectMeta(nil, obj, root, true);
      if (co.error) out.push(invalid(dl, def, `must result in valid metadata: ${errorText(co.error)}`));
      else if (ve.length > 0) out.push(invalid(dl, def, `must result in valid metadata: ${aggregate(ve)}`));
      else out.push(...orCel(validateValue(def, s, dl, vopts), def, s, dl));
    } else {
      const pr = prune(def, s, { isResourceRoot: embedded });
      if (!deepEqual(pr.value, def)) out.push(invalid(dl, def, 'must not have unknown fields'));
      const co = coerceObjectMeta(dl, def, s, embedded, { dropInvalidFields: false, returnUnknownFieldPaths: false });
      const ve = co.error ? [] : validateObjectMeta(dl, def, s, embedded);
      if (co.error) out.push(co.error);
      else if (ve.length > 0) out.push(...ve);
      else out.push(...orCel(validateValue(def, s, dl, vopts), def, s, dl));
    }
  }
  const items = s['items'];
  if (isRecord(items)) visit(items, root, loc.child('items'), inMeta, [...mPath, '[]'], out, vopts);
  for (const [k, p] of props(s)) {
    const subMeta = inMeta || (isResourceRoot && META_FIELDS.has(k));
    visit(p, root, loc.child('properties').key(k), subMeta, subMeta ? [...mPath, k] : mPath, out, vopts);
  }
}

/** When schema validation passed, the node's CEL rules run on the default (only compilation is reproduced). */
function orCel(errs: FieldError[], value: unknown, s: Schema, loc: Loc): FieldError[] {
  return errs.length > 0 ? errs : celCompileErrors(value, s, loc);
}

/** cel.Validator over a value: every rule that does not compile gives "rule compile error" where the value is. */
function celCompileErrors(value: unknown, s: Schema, loc: Loc): FieldError[] {
  const out: FieldError[] = [];
  const rules = Array.isArray(s['x-kubernetes-validations']) ? s['x-kubernetes-validations'] : [];
  for (const r of rules) {
    const rule = isRecord(r) && typeof r['rule'] === 'string' ? r['rule'] : '';
    const err = rule.trim() === '' ? undefined : celSyntaxError(rule);
    if (err !== undefined) out.push(invalid(loc, sType(s), `rule compile error: compilation failed: ERROR: <input>: Syntax error: ${err}`));
  }
  if (Array.isArray(value)) {
    const it = itemsSchema(s);
    if (it) value.forEach((v, i) => out.push(...celCompileErrors(v, it, loc.index(i))));
  } else if (isRecord(value)) {
    const ap = addl(s);
    for (const k of Object.keys(value).sort()) {
      const ps = prop(s, k);
      if (ps) out.push(...celCompileErrors(value[k], ps, loc.child(k)));
      else if (isRecord(ap)) out.push(...celCompileErrors(value[k], ap, loc.key(k)));
    }
  }
  return out;
}

/** The synthetic object the server validates a default inside resource meta with. */
function placeAt(path: readonly string[], value: unknown): Record<string, unknown> {
  // built inside out: each property segment wraps in an object, each '[]' in a one-item list
  let v: unknown = value;
  for (let i = path.length - 1; i >= 0; i--) v = path[i] === '[]' ? [v] : { [path[i]!]: v };
  const obj: Record<string, unknown> = { apiVersion: 'validation/v1', kind: 'Validation' };
  return isRecord(v) ? { ...obj, ...v } : obj;
}

function aggregate(errs: readonly FieldError[]): string {
  const texts = [...new Set(errs.map(errorText))];
  return texts.length === 1 ? texts[0]! : `[${texts.join(', ')}]`;
}
