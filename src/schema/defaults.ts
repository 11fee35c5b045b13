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
import { prune } from './behaviours/prune.js';
import { celMissing, type CelEngine } from '../core/cel-engine.js';
import { coerceObjectMeta, validateObjectMeta } from './objectmeta.js';
import { META_FIELDS, asEmbeddedResource, type Structural } from '../crd/structural-schema.js';
import { validateValue, type ValueValidateOptions } from './value-validate.js';

/** `requirePruned`: false on an update of a CRD whose stored schemas already hold defaults that pruning changes. */
export function validateDefaults(root: Structural, loc: Loc, kubeMinor: number, cel: CelEngine | undefined, requirePruned = true): FieldError[] {
  const out: FieldError[] = [];
  const vopts = { structural: true, listTypes: false, kubeMinor } as const;
  const rootAsResource = asEmbeddedResource(root);
  visit(rootAsResource, rootAsResource, loc, false, [], out, vopts, cel, requirePruned);
  return out;
}

/** Properties in the order the server visits them (sorted keys). */
function sortedProperties(s: Structural): [string, Structural][] {
  return [...s.properties].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function visit(
  s: Structural,
  rootSchema: Structural,
  loc: Loc,
  insideMeta: boolean,
  metaPath: readonly string[],
  out: FieldError[],
  vopts: ValueValidateOptions,
  cel: CelEngine | undefined,
  requirePruned: boolean,
): void {
  // nothing to check where no default sits at or below the node
  if (!s.facts.defaultsBelow) return;
  let root = rootSchema;
  let inMeta = insideMeta;
  let mPath = metaPath;
  if (s.extensions.embeddedResource) {
    root = s;
    inMeta = false;
    mPath = [];
  }
  const isResourceRoot = s === root;
  if (s.generic.hasDefault) {
    const def = s.generic.default;
    const dl = loc.child('default');
    const embedded = s.extensions.embeddedResource;
    if (inMeta) {
      // spliced into a synthetic resource and checked as TypeMeta/ObjectMeta (nil field path)
      const obj = placeAt(mPath, def);
      const nil = new Loc('', dl.at);
      const co = coerceObjectMeta(nil, obj, root, true, { dropInvalidFields: false, returnUnknownFieldPaths: false });
      const ve = co.error ? [] : validateObjectMeta(nil, obj, root, true);
      if (co.error) out.push(invalid(dl, def, `must result in valid metadata: ${errorText(co.error)}`));
      else if (ve.length > 0) out.push(invalid(dl, def, `must result in valid metadata: ${aggregate(ve)}`));
      else out.push(...orCel(validateValue(def, s, dl, vopts), def, s, dl, cel));
    } else {
      const pr = prune(def, s, { isResourceRoot: embedded });
      if (requirePruned && !deepEqual(pr.value, def)) out.push(invalid(dl, def, 'must not have unknown fields'));
      const co = coerceObjectMeta(dl, def, s, embedded, { dropInvalidFields: false, returnUnknownFieldPaths: false });
      const ve = co.error ? [] : validateObjectMeta(dl, def, s, embedded);
      if (co.error) out.push(co.error);
      else if (ve.length > 0) out.push(...ve);
      else out.push(...orCel(validateValue(def, s, dl, vopts), def, s, dl, cel));
    }
  }
  if (s.items !== undefined) visit(s.items, root, loc.child('items'), inMeta, [...mPath, '[]'], out, vopts, cel, requirePruned);
  for (const [k, p] of sortedProperties(s)) {
    const subMeta = inMeta || (isResourceRoot && META_FIELDS.has(k));
    visit(p, root, loc.child('properties').key(k), subMeta, subMeta ? [...mPath, k] : mPath, out, vopts, cel, requirePruned);
  }
}

/** When schema validation passed, the node's CEL rules run on the default (only compilation is reproduced). */
function orCel(errs: FieldError[], value: unknown, s: Structural, loc: Loc, cel: CelEngine | undefined): FieldError[] {
  return errs.length > 0 ? errs : celCompileErrors(value, s, loc, cel);
}

/** cel.Validator over a value: every rule that does not compile gives "rule compile error" where the value is. */
function celCompileErrors(value: unknown, s: Structural, loc: Loc, cel: CelEngine | undefined): FieldError[] {
  const out: FieldError[] = [];
  for (const r of s.extensions.validations) {
    const rule = isRecord(r) && typeof r['rule'] === 'string' ? r['rule'] : '';
    let err: string | undefined;
    if (rule.trim() !== '') {
      if (!cel) throw celMissing('CRD default check');
      err = cel.syntaxError(rule);
    }
    if (err !== undefined) out.push(invalid(loc, s.generic.type, `rule compile error: compilation failed: ERROR: <input>: Syntax error: ${err}`));
  }
  if (Array.isArray(value)) {
    const it = s.items;
    if (it) value.forEach((v, i) => out.push(...celCompileErrors(v, it, loc.index(i), cel)));
  } else if (isRecord(value)) {
    const ap = s.additionalProperties?.schema;
    for (const k of Object.keys(value).sort()) {
      const ps = s.properties.get(k);
      if (ps) out.push(...celCompileErrors(value[k], ps, loc.child(k), cel));
      else if (ap) out.push(...celCompileErrors(value[k], ap, loc.key(k), cel));
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
