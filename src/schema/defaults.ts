/**
 * Validation of defaults (apiextensions pkg/apiserver/schema/defaulting/validation.go):
 * a default must survive pruning against its own node's schema, produce valid metadata inside
 * embedded resources, and validate against the node's schema. Defaults under
 * additionalProperties are never visited (the server does not descend there).
 */
import { invalid, required, type FieldError, errorText } from '../core/field-error.js';
import { Loc } from '../core/path.js';
import { isRecord } from '../core/types.js';
import { dns1035LabelErrors, dns1123SubdomainErrors } from '../crd/dns.js';
import { prune } from './prune.js';
import { flag, props, type Schema, META_FIELDS } from './raw.js';
import { validateValue, type ValueValidateOptions } from './value-validate.js';

export function validateDefaults(root: Schema, loc: Loc, kubeMinor = 36): FieldError[] {
  const out: FieldError[] = [];
  const vopts = { structural: true, listTypes: false, kubeMinor } as const;
  const rootAsResource = flag(root, 'x-kubernetes-embedded-resource') ? root : { ...root, 'x-kubernetes-embedded-resource': true };
  visit(rootAsResource, rootAsResource, loc, false, [], out, vopts);
  return out;
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
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
    if (inMeta) {
      const obj = placeAt(mPath, def);
      const errs = typeMetaAndObjectMeta(obj, new Loc('', []));
      if (errs.length > 0) out.push(invalid(dl, def, `must result in valid metadata: ${aggregate(errs)}`));
      else out.push(...validateValue(def, s, dl, vopts));
    } else {
      const pr = prune(def, s, flag(s, 'x-kubernetes-embedded-resource'));
      if (!deepEqual(pr.value, def)) out.push(invalid(dl, def, 'must not have unknown fields'));
      const metaErrs = flag(s, 'x-kubernetes-embedded-resource') && isRecord(def) ? typeMetaAndObjectMeta(def, dl) : [];
      if (metaErrs.length > 0) out.push(...metaErrs);
      else out.push(...validateValue(def, s, dl, vopts));
    }
  }
  const items = s['items'];
  if (isRecord(items)) visit(items, root, loc.child('items'), inMeta, [...mPath, '[]'], out, vopts);
  for (const [k, p] of props(s)) {
    const subMeta = inMeta || (isResourceRoot && META_FIELDS.has(k));
    visit(p, root, loc.child('properties').key(k), subMeta, subMeta ? [...mPath, k] : mPath, out, vopts);
  }
}

/** The synthetic object the server validates a default inside resource meta with. */
function placeAt(path: readonly string[], value: unknown): Record<string, unknown> {
  const obj: Record<string, unknown> = { apiVersion: 'validation/v1', kind: 'Validation' };
  if (path.length === 0) return obj;
  let cur: Record<string, unknown> = obj;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i]!;
    const next: Record<string, unknown> = isRecord(cur[k]) ? { ...(cur[k] as Record<string, unknown>) } : {};
    cur[k] = next;
    cur = next;
  }
  cur[path[path.length - 1]!] = value;
  return obj;
}

function aggregate(errs: readonly FieldError[]): string {
  const texts = [...new Set(errs.map(errorText))];
  return texts.length === 1 ? texts[0]! : `[${texts.join(', ')}]`;
}

const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** TypeMeta and ObjectMeta checks of an embedded resource value (objectmeta Coerce + Validate). */
export function typeMetaAndObjectMeta(obj: Record<string, unknown>, loc: Loc): FieldError[] {
  const errs: FieldError[] = [];
  const av = obj['apiVersion'];
  const kind = obj['kind'];
  if (av !== undefined && typeof av !== 'string') errs.push(invalid(loc.child('apiVersion'), av, 'must be a string'));
  if (kind !== undefined && typeof kind !== 'string') errs.push(invalid(loc.child('kind'), kind, 'must be a string'));
  const md = obj['metadata'];
  if (md !== undefined && md !== null && !isRecord(md)) errs.push(invalid(loc.child('metadata'), md, 'must be an object'));
  if (errs.length > 0) return errs;
  if (typeof kind !== 'string' || kind === '') errs.push(required(loc.child('kind'), ''));
  else {
    const e = dns1035LabelErrors(kind.toLowerCase());
    if (e.length > 0) errs.push(invalid(loc.child('kind'), kind, `may have mixed case, but should otherwise match: ${e.join(',')}`));
  }
  if (typeof av !== 'string' || av === '') errs.push(required(loc.child('apiVersion'), ''));
  else if (av.split('/').length > 2) errs.push(invalid(loc.child('apiVersion'), av, `unexpected GroupVersion string: ${av}`));
  if (isRecord(md)) errs.push(...objectMetaErrors(md, loc.child('metadata')));
  return errs;
}

function objectMetaErrors(md: Record<string, unknown>, loc: Loc): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of ['name', 'generateName', 'namespace']) {
    const v = md[k];
    if (v !== undefined && v !== null && typeof v !== 'string') errs.push(invalid(loc.child(k), v, 'must be a string'));
  }
  const name = md['name'];
  if (typeof name === 'string' && name !== '') {
    if (name === '.' || name === '..') errs.push(invalid(loc.child('name'), name, `may not be '${name}'`));
    else if (name.includes('/') || name.includes('%')) errs.push(invalid(loc.child('name'), name, `may not contain '${name.includes('/') ? '/' : '%'}'`));
  }
  const ns = md['namespace'];
  if (typeof ns === 'string' && ns !== '') {
    const e = dns1123SubdomainErrors(ns);
    if (e.length > 0) errs.push(invalid(loc.child('namespace'), ns, e.join(',')));
  }
  const labels = md['labels'];
  if (labels !== undefined && labels !== null) {
    if (!isRecord(labels)) errs.push(invalid(loc.child('labels'), labels, 'must be a map of strings'));
    else
      for (const [k, v] of Object.entries(labels)) {
        if (typeof v !== 'string') errs.push(invalid(loc.child('labels'), labels, 'must be a map of strings'));
        else if (v.length > 63 || !LABEL_VALUE.test(v))
          errs.push(
            invalid(
              loc.child('labels'),
              v,
              v.length > 63
                ? 'must be no more than 63 characters'
                : "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
            ),
          );
        const name = k.includes('/') ? k.slice(k.lastIndexOf('/') + 1) : k;
        if (!QUALIFIED_NAME.test(name) || name.length > 63) errs.push(invalid(loc.child('labels'), k, 'name part must be valid'));
      }
  }
  return errs;
}
