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
import { evaluateCelOnDefault } from './cel-eval.js';
import type { CelUnchecked } from './walk.js';
import { compileExpression, GO_LITERAL_CHECKS, syntaxErrorDetail } from './cel/compile.js';
import { schemaDeclType, type DeclType } from './cel/decl.js';

/**
 * `requirePruned`: false on an update of a CRD whose stored schemas already hold defaults that
 * pruning changes. `unchecked` collects the CEL rules crdx could not evaluate on a default.
 */
export function validateDefaults(root: Structural, loc: Loc, kubeMinor: number, cel: CelEngine | undefined, requirePruned = true, unchecked: CelUnchecked[] = []): FieldError[] {
  const out: FieldError[] = [];
  const vopts = { structural: true, listTypes: false, kubeMinor } as const;
  const rootAsResource = asEmbeddedResource(root);
  visit(rootAsResource, rootAsResource, loc, false, [], out, vopts, { cel, kubeMinor, unchecked }, requirePruned);
  return out;
}

/** What the CEL step of the default checks needs. */
interface DefaultCel {
  readonly cel: CelEngine | undefined;
  readonly kubeMinor: number;
  readonly unchecked: CelUnchecked[];
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
  cel: DefaultCel,
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
      const ve = co.error ? [] : validateObjectMeta(nil, obj, root, true, cel.kubeMinor);
      if (co.error) out.push(invalid(dl, def, `must result in valid metadata: ${errorText(co.error)}`));
      else if (ve.length > 0) out.push(invalid(dl, def, `must result in valid metadata: ${aggregate(ve)}`));
      else out.push(...orCel(validateValue(def, s, dl, vopts), def, s, loc, isResourceRoot, cel));
    } else {
      const pr = prune(def, s, { isResourceRoot: embedded });
      if (requirePruned && !deepEqual(pr.value, def)) out.push(invalid(dl, def, 'must not have unknown fields'));
      const co = coerceObjectMeta(dl, def, s, embedded, { dropInvalidFields: false, returnUnknownFieldPaths: false });
      const ve = co.error ? [] : validateObjectMeta(dl, def, s, embedded, cel.kubeMinor);
      if (co.error) out.push(co.error);
      else if (ve.length > 0) out.push(...ve);
      else out.push(...orCel(validateValue(def, s, dl, vopts), def, s, loc, isResourceRoot, cel));
    }
  }
  if (s.items !== undefined) visit(s.items, root, loc.child('items'), inMeta, [...mPath, '[]'], out, vopts, cel, requirePruned);
  for (const [k, p] of sortedProperties(s)) {
    const subMeta = inMeta || (isResourceRoot && META_FIELDS.has(k));
    visit(p, root, loc.child('properties').key(k), subMeta, subMeta ? [...mPath, k] : mPath, out, vopts, cel, requirePruned);
  }
}

/**
 * When schema validation passed, the CEL rules at and below the node run on the default: a rule
 * that does not compile gives "rule compile error" (syntax errors are reproduced), the others are
 * evaluated; those crdx cannot evaluate are collected in `unchecked`, never passed silently.
 */
function orCel(errs: FieldError[], value: unknown, s: Structural, nodeLoc: Loc, isResourceRoot: boolean, dc: DefaultCel): FieldError[] {
  if (errs.length > 0) return errs;
  const dl = nodeLoc.child('default');
  const compile = celCompileErrors(value, s, dl, isResourceRoot, dc);
  if (!s.facts.celBelow) return compile;
  if (!dc.cel) throw celMissing('CRD default check');
  // the evaluator does not type-check: where a rule does not compile, the others are not evaluated
  // here either (the CRD is rejected for the compile error; its other verdicts on this default are unknown)
  if (compile.length > 0) {
    dc.unchecked.push({ at: nodeLoc.at, field: dl.field, rule: '', why: 'a rule at or below it does not compile, and crdx evaluates none of the others on this default', onDefault: dl.at });
    return compile;
  }
  const r = evaluateCelOnDefault(value, s, dl, isResourceRoot, dc.cel, { major: 1, minor: dc.kubeMinor });
  for (const k of r.skipped) dc.unchecked.push({ at: [...nodeLoc.at, ...k.schemaAt], field: dl.field, rule: k.rule, why: k.why, onDefault: dl.at });
  return r.errors;
}

/**
 * cel.Validator over a value: every rule that does not compile (in the stored-expressions
 * environment, as the validator compiles) gives "rule compile error" where the value is.
 */
function celCompileErrors(value: unknown, s: Structural, loc: Loc, isResourceRoot: boolean, dc: DefaultCel): FieldError[] {
  const out: FieldError[] = [];
  let decl: DeclType | undefined | null = null;
  for (const r of s.extensions.validations) {
    const rule = isRecord(r) && typeof r['rule'] === 'string' ? r['rule'] : '';
    if (rule.trim() === '') continue;
    if (!dc.cel) throw celMissing('CRD default check');
    const cel = dc.cel;
    const err = syntaxErrorDetail(rule, dc.kubeMinor, dc.kubeMinor, (t) => cel.syntaxError(t));
    if (err !== undefined) {
      out.push(invalid(loc, s.generic.type, `rule compile error: compilation failed: ${err}`));
      continue;
    }
    if (decl === null) decl = schemaDeclType(s, isResourceRoot, dc.kubeMinor);
    if (decl === undefined) continue;
    const v = compileExpression(rule, decl, { compat: dc.kubeMinor, server: dc.kubeMinor, optionalOldSelf: isRecord(r) && r['optionalOldSelf'] === true, literals: GO_LITERAL_CHECKS }, 'bool');
    if (v.kind === 'error') out.push(invalid(loc, s.generic.type, `rule compile error: ${v.detail}`));
  }
  if (Array.isArray(value)) {
    const it = s.items;
    if (it) value.forEach((v, i) => out.push(...celCompileErrors(v, it, loc.index(i), it.extensions.embeddedResource, dc)));
  } else if (isRecord(value)) {
    const ap = s.additionalProperties?.schema;
    for (const k of Object.keys(value).sort()) {
      const ps = s.properties.get(k);
      if (ps) out.push(...celCompileErrors(value[k], ps, loc.child(k), ps.extensions.embeddedResource, dc));
      else if (ap) out.push(...celCompileErrors(value[k], ap, loc.key(k), ap.extensions.embeddedResource, dc));
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
