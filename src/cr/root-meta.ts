/**
 * Root ObjectMeta validation of a custom resource on create: apimachinery
 * `validation.ValidateObjectMetaAccessor(obj, namespaceScoped, NameIsDNSSubdomain, field.NewPath("metadata"))`,
 * which the CR validator runs first (pkg/registry/customresource/validator.go). Names are DNS-1123
 * subdomains (not path segments as for embedded resources); a namespaced object needs a namespace,
 * which the request supplies when the object has none.
 *
 * The labels/annotations/ownerReferences/finalizers/managedFields part is the same code as for
 * embedded resources and is delegated to `validateDecodedObjectMeta`.
 */
import { since } from '../core/version-gates.js';
import { forbidden, invalid, required, type FieldError } from '../core/field-error.js';
import { Loc } from '../core/path.js';
import { dns1123LabelErrors, dns1123SubdomainErrors } from '../crd/dns.js';
import { validateDecodedObjectMeta } from '../schema/objectmeta.js';
import type { ObjectMeta } from '../schema/objectmeta/decode.js';
import { goCompare } from '../go/strings.js';
import { quote } from '../go/quote.js';

const META = new Loc('metadata', ['metadata']);

/** NameIsDNSSubdomain with prefix: maskTrailingDash (which, upstream, drops two characters). */
function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name;
}

interface RootMetaOptions {
  readonly namespaced: boolean;
  /** The raw `metadata` value of the manifest (for positions of missing keys). */
  readonly raw: unknown;
  /** The simulated minor (owner reference and managedFields texts changed in 1.37). */
  readonly kubeMinor: number;
}

export function validateRootObjectMeta(meta: ObjectMeta, opts: RootMetaOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (meta.generateName !== '') {
    for (const m of dns1123SubdomainErrors(maskTrailingDash(meta.generateName)))
      errs.push(invalid(META.child('generateName'), meta.generateName, m));
  }
  if (meta.name === '') errs.push(required(META.child('name'), 'name or generateName is required'));
  else for (const m of dns1123SubdomainErrors(meta.name)) errs.push(invalid(META.child('name'), meta.name, m));
  if (opts.namespaced) {
    if (meta.namespace === '') errs.push(required(META.child('namespace'), ''));
    else for (const m of dns1123LabelErrors(meta.namespace)) errs.push(invalid(META.child('namespace'), meta.namespace, m));
  } else if (meta.namespace !== '') {
    errs.push(forbidden(META.child('namespace'), 'not allowed on this type'));
  }
  // generation, labels, annotations, ownerReferences, finalizers, managedFields: the shared part
  // (a valid placeholder name and no namespace, so that only those checks report)
  errs.push(...validateDecodedObjectMeta({ ...meta, name: 'x', generateName: '', namespace: '' }, META, opts.raw, opts.kubeMinor));
  return errs;
}

/** names.SimpleNameGenerator: the base is cut to 58 characters and 5 random characters follow. */
export function generatedName(generateName: string): string {
  return `${generateName.slice(0, 58)}xxxxx`;
}

const STANDARD_FINALIZERS = new Set(['orphan', 'foregroundDeletion', 'kubernetes']);

/**
 * strategy.WarningsOnCreate → validateKubeFinalizerName for every finalizer (sorted, unique), kube 1.29+
 * (the "including a path" variant from 1.32). The qualified-name messages are left out: such a
 * finalizer fails validation anyway.
 */
export function finalizerWarnings(finalizers: readonly string[], kubeMinor: number): string[] {
  if (kubeMinor < since('cr.finalizer-warnings')) return [];
  const out: string[] = [];
  for (const f of [...new Set(finalizers)].sort(goCompare)) {
    if (f.split('/').length !== 1 || STANDARD_FINALIZERS.has(f)) continue;
    if (f.includes('.') && kubeMinor >= since('cr.finalizer-warning-path'))
      out.push(`metadata.finalizers: ${quote(f)}: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`);
    else out.push(`metadata.finalizers: ${quote(f)}: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`);
  }
  return out;
}
