/**
 * `kubectl crdx default`: every custom resource of the input, created the way the API server
 * creates it (src/cr/create.ts), with its findings in lint's shape (the custom-resource and
 * custom-resource-warnings rules). Pure: the CLI reads the files and prints.
 */
import type { CelEngine } from '../core/cel-engine.js';
import { parseSources } from './parse-sources.js';
import { KUBECTL_FIELD_VALIDATION, type FieldValidation } from '../core/field-validation.js';
import type { KubeVersion } from '../core/kube-version.js';
import type { Finding } from '../core/types.js';
import { isBuiltinApiVersion } from '../cr/builtin.js';
import { CrdCatalog, type LookupFailure } from '../cr/catalog.js';
import { simulateCreate, type CreateResult } from '../cr/create.js';
import { wireValue } from '../cr/wire.js';
import { buildCrd, isCrdManifest, type Crd } from '../crd/model.js';
import { parseFile, type Manifest, type SourceFile } from '../manifest/parse.js';
import { celNotEvaluated } from '../rules/cel-not-evaluated.js';
import { customResource } from '../rules/custom-resource.js';
import { customResourceWarnings } from '../rules/custom-resource-warnings.js';
import type { ResourceRuleContext, Rule } from '../rules/types.js';
import { toFinding } from './finding.js';
import { PARSE_RULE_ID } from './parse-sources.js';
import { installedCrdsRejected, type VerdictStore } from './crd-verdict.js';
import { finalize } from './results.js';

export interface DefaultOptions {
  readonly kubeVersion: KubeVersion;
  /** The CEL engine (core/cel-engine.ts); undefined: no input holds a CEL rule (meeting one throws). */
  readonly cel: CelEngine | undefined;
  /** CRDs already built (e.g. shared by many runs), used after those of the inputs and crdFiles. */
  readonly crds?: readonly Crd[];
  /** The request's fieldValidation (kubectl's --validate); default kubectl's, Strict. */
  readonly fieldValidation?: FieldValidation;
  /** Verdicts of the CRDs kept between runs (crd-verdict.ts). */
  readonly verdicts?: VerdictStore;
  /** Files of CRDs read from a cluster (--cluster): served there, so their objects are created under them. */
  readonly served?: readonly SourceFile[];
}

export interface DefaultedObject {
  readonly manifest: Manifest;
  readonly result: CreateResult;
  /** Errors (the server rejects the object) and warnings, as lint reports them. */
  readonly findings: readonly Finding[];
  /** The server refuses the request (the object may still be shown: see `result.strictError`). */
  readonly rejected: boolean;
}

interface UnmatchedObject {
  readonly manifest: Manifest;
  readonly code: LookupFailure;
  readonly message: string;
}

interface DefaultRun {
  /** YAML problems of the inputs (fatal: nothing of that document could be read). */
  readonly parseFindings: readonly Finding[];
  readonly objects: readonly DefaultedObject[];
  readonly unmatched: readonly UnmatchedObject[];
  /** Objects of built-in kinds (ConfigMap, Deployment …) that no CRD of the input defines: skipped. */
  readonly skipped: readonly Manifest[];
  readonly documents: number;
}

const RULES: readonly Rule[] = [customResource, customResourceWarnings, celNotEvaluated] as Rule[];

function parseAll(files: readonly SourceFile[], parseFindings: Finding[] | undefined, crds: readonly Manifest[] = []): { manifests: Manifest[]; documents: number } {
  const parsed = parseSources(files, crds);
  parseFindings?.push(...parsed.findings);
  return { manifests: parsed.manifests, documents: parsed.documents };
}

export function defaultSources(files: readonly SourceFile[], crdFiles: readonly SourceFile[], opts: DefaultOptions): DefaultRun {
  const parseFindings: Finding[] = [];
  const refs = parseAll(crdFiles, parseFindings).manifests;
  const { manifests, documents } = parseAll(files, parseFindings, [...refs.filter(isCrdManifest), ...(opts.crds ?? []).map((c) => c.manifest)]);
  const crds: Crd[] = [...[...refs, ...manifests].filter(isCrdManifest).map((m) => buildCrd(m, opts.kubeVersion, opts.cel)), ...(opts.crds ?? [])];
  // an object of a CRD the server would not create is not created either (crd-verdict.ts)
  const catalog = new CrdCatalog(crds, installedCrdsRejected(crds, { fieldValidation: opts.fieldValidation ?? KUBECTL_FIELD_VALIDATION, cel: opts.cel, store: opts.verdicts, served: opts.served }));
  const objects: DefaultedObject[] = [];
  const unmatched: UnmatchedObject[] = [];
  const skipped: Manifest[] = [];
  for (const m of manifests) {
    if (isCrdManifest(m)) continue;
    const lookup = catalog.lookup(m.apiVersion ?? '', m.kind ?? '');
    if (!lookup.ok && lookup.code === 'no-crd-found' && isBuiltinApiVersion(m.apiVersion)) {
      skipped.push(m);
      continue;
    }
    if (!lookup.ok) {
      unmatched.push({ manifest: m, code: lookup.code, message: lookup.message });
      continue;
    }
    const fieldValidation = opts.fieldValidation ?? KUBECTL_FIELD_VALIDATION;
    const result = simulateCreate(wireValue(m), lookup.served, { kube: opts.kubeVersion, fieldValidation });
    const ctx: ResourceRuleContext = { manifest: m, lookup, result: () => result, fieldValidation };
    const findings: Finding[] = [];
    for (const rule of RULES) for (const r of rule.checkResource!(ctx)) findings.push(toFinding(rule, r, m, rule.meta.defaultSeverity));
    objects.push({ manifest: m, result, findings: finalize(findings), rejected: result.value === undefined || result.strictError !== undefined });
  }
  return { parseFindings, objects, unmatched, skipped, documents };
}
