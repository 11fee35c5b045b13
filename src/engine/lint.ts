import { gated } from '../core/version-gates.js';
import type { CelEngine } from '../core/cel-engine.js';
import { KUBECTL_FIELD_VALIDATION, type FieldValidation } from '../core/field-validation.js';
import type { KubeVersion } from '../core/kube-version.js';
import { type CrdUpdateSummary, type Finding, type Severity, type Summary, type UncheckedSummary } from '../core/types.js';
import { isBuiltinApiVersion } from '../cr/builtin.js';
import { CrdCatalog, splitApiVersion, type CrdRejected } from '../cr/catalog.js';
import { simulateCreate, type CreateResult } from '../cr/create.js';
import { groupKindOf, simulateNextWrite } from '../cr/next-write.js';
import { wireValue } from '../cr/wire.js';
import { installedCrd, type InstalledCrd } from '../crd/installed.js';
import { buildCrd, isCrdManifest, type Crd } from '../crd/model.js';
import { parseFile, type Manifest, type SourceFile } from '../manifest/parse.js';
import { analyzeCrdSchemas, type SchemaAnalysis } from '../schema/analyze.js';
import { updateSchemaOptions } from '../schema/update-options.js';
import { conflictingCrds } from '../rules/naming-conflicts.js';
import { caBundleError } from '../rules/conversion.js';
import { rec } from '../crd/json.js';
import { decodeFails } from '../rules/crd-decode.js';
import { rules as allRules } from '../rules/index.js';
import type { Report, ResourceRuleContext, Rule, RuleContext } from '../rules/types.js';
import { parseSources } from './parse-sources.js';
import { referenceCrds } from './ref-crds.js';
import { CrdVerdicts, crdRejected, previousMinor, type VerdictStore } from './crd-verdict.js';
import { toFinding } from './finding.js';
import { finalize } from './results.js';

export interface LintOptions {
  readonly kubeVersion: KubeVersion;
  /** The CEL engine (core/cel-engine.ts); undefined: no input holds a CEL rule (meeting one throws). */
  readonly cel: CelEngine | undefined;
  /** Per-rule severity overrides; 'off' disables a rule. */
  readonly ruleSeverity?: ReadonlyMap<string, Severity | 'off'>;
  readonly rules?: readonly Rule[];
  /** Files whose CRDs custom resources are checked against, without being linted themselves (--crd). */
  readonly crdFiles?: readonly SourceFile[];
  /** The requests' fieldValidation (kubectl's --validate); default kubectl's, Strict. */
  readonly fieldValidation?: FieldValidation;
  /**
   * lint --old: files holding the installed CRDs. A CRD of the input whose name is among them is
   * checked as the server checks an update of it; the others that the input does not replace still
   * hold their names (naming conflicts).
   */
  readonly old?: readonly SourceFile[];
  /** lint --explain-cost: every CEL expression's estimated cost is reported (cel-cost-explanation). */
  readonly explainCost?: boolean;
  /**
   * lint --old --objects: objects stored under the installed CRDs (files, or live ones rendered as
   * files). Those of an updated CRD are written under the new one (rule stored-objects); the
   * others are not checked.
   */
  readonly objects?: readonly SourceFile[];
  /** lint --old cluster: the live objects of the updated CRDs (their stored form is taken as read). */
  readonly liveObjects?: readonly SourceFile[];
  /** Verdicts of the --crd CRDs kept between runs (crd-verdict.ts). */
  readonly verdicts?: VerdictStore;
  /** Files of CRDs read from a cluster (--cluster), by path: served there, so their objects are checked against them. */
  readonly served?: readonly SourceFile[];
}

export interface LintResult {
  readonly findings: readonly Finding[];
  readonly summary: Summary;
  /** Documents that could be checked at all (CRDs and other objects). */
  readonly checked: number;
  readonly crds: readonly Crd[];
  readonly manifests: readonly Manifest[];
  /** The objects counted in summary.unchecked (a custom group, no CRD of the run defines the kind), in input order. */
  readonly unchecked: readonly Manifest[];
}

export { PARSE_RULE_ID } from './parse-sources.js';

export function lintSources(files: readonly SourceFile[], opts: LintOptions): LintResult {
  const inputs = files.map((f) => parseFile(f));
  // the --crd files after the input: only the CRDs the input's objects may need are read
  const refs = referenceCrds(opts.crdFiles ?? [], inputs);
  const parsed = parseSources(files, refs, inputs);
  const findings: Finding[] = [...parsed.findings];
  const { manifests, documents } = parsed;
  const crds = manifests.filter(isCrdManifest).map((m) => buildCrd(m, opts.kubeVersion, opts.cel));
  const rules = opts.rules ?? allRules;
  const fieldValidation = opts.fieldValidation ?? KUBECTL_FIELD_VALIDATION;
  const oldParsed = opts.old ? parseSources(opts.old) : undefined;
  // an OLD file that cannot be read is an error of its own: its CRDs would silently become creates
  if (oldParsed) findings.push(...oldParsed.findings);
  const installed = oldParsed ? installedCrds(oldParsed.manifests, opts) : new Map<string, InstalledCrd>();
  // the installed CRDs the input does not replace keep their names, and held them first
  const replaced = new Set(crds.map((c) => c.name));
  const allCrds = installed.size === 0 ? crds : [...[...installed.values()].filter((i) => !replaced.has(i.crd.name)).map((i) => i.crd), ...crds];
  const updated: Crd[] = [];
  // lint --old --objects: the objects of each updated CRD (by OLD's group and kind)
  const stored = opts.objects || opts.liveObjects ? storedObjectsOf([...(opts.liveObjects ?? []), ...(opts.objects ?? [])], crds, installed, findings) : undefined;
  const live = new Set(opts.liveObjects ?? []);
  // updates the decoder refuses (400 BadRequest): rejected whatever else is found
  const refused = new Set<Crd>();
  // whether the server creates (or updates) each CRD: its objects' kind is served only then
  const verdicts = new CrdVerdicts(rules, fieldValidation, (c) => analyzeCrdSchemas(c), previousMinor((m, kube) => buildCrd(m, kube, opts.cel)), opts.verdicts);
  for (const crd of crds) {
    let analysis: readonly SchemaAnalysis[] | undefined;
    const old = crd.name !== '' ? installed.get(crd.name) : undefined;
    if (old) updated.push(crd);
    const objects = old && stored ? (stored.get(crd) ?? []) : undefined;
    const ctx: RuleContext = {
      crd,
      allCrds,
      schemaAnalysis: () => (analysis ??= analyzeCrdSchemas(crd, old ? updateSchemaOptions(old.crd) : undefined)),
      fieldValidation,
      ...(old ? { update: { old, ...(objects ? { objects } : {}) } } : {}),
      ...(opts.explainCost ? { explainCost: true } : {}),
    };
    // a v1beta1 CRD on a server that no longer serves that API is never validated
    const notServed = crd.requestVersion === 'v1beta1' && gated(crd.kube, 'crd.v1beta1-not-served');
    // a request the decoder refuses (400) is answered with that alone: no validation, no warnings
    const undecodable = !notServed && decodeFails(crd, fieldValidation);
    if (undecodable) refused.add(crd);
    verdicts.context(crd, ctx);
    for (const rule of rules) {
      if (notServed && rule.id !== 'v1beta1-crd') continue;
      if (undecodable && rule.meta.serverFaithful && rule.id !== 'crd-decode') continue;
      const sev = severityOf(rule, opts.ruleSeverity);
      if (!sev.on) continue;
      const reports = [...rule.check(ctx)];
      verdicts.record(crd, rule, reports);
      for (const r of reports) {
        const s = sev.of(r.messageId);
        if (s !== 'off') findings.push(toFinding(rule, r, crd.manifest, s));
      }
    }
  }
  // a custom resource is written under the CRD as the server leaves it: a refused update keeps the installed one
  const serving = crds.map((c) => {
    const old = c.name !== '' ? installed.get(c.name) : undefined;
    return old && verdicts.rejection(c) ? old.crd : c;
  });
  const kept = new Set(serving.filter((c) => !crds.includes(c)));
  const fromCluster = new Set((opts.served ?? []).map((f) => f.path));
  const resources = lintResources(manifests, serving, refs, rules, opts, crdRejected(verdicts, (c) => kept.has(c) || fromCluster.has(c.manifest.file.path)));
  findings.push(...resources.findings);
  if (stored) findings.push(...lintStoredObjects(stored, installed, rules, opts, live));
  const final = finalize(findings);
  const errors = final.filter((f) => f.severity === 'error').length;
  const warnings = final.filter((f) => f.severity === 'warning').length;
  const updates = updated.map((crd) => updateSummary(crd, final, refused.has(crd), stored?.get(crd)));
  return {
    findings: final,
    summary: { files: files.length, documents, errors, warnings, ...(opts.old ? { updates } : {}), ...(resources.unchecked ? { unchecked: resources.unchecked } : {}) },
    checked: manifests.length,
    crds,
    manifests,
    unchecked: resources.uncheckedObjects,
  };
}

/**
 * The installed CRDs by name (the first document of a name wins). Without an Established condition
 * in the file, a CRD is taken as Established unless its names conflict with an earlier installed
 * CRD of its group (then the naming controller never accepted them) or its conversion webhook's CA
 * bundle cannot be loaded (then the establishing controller refuses it).
 */
function installedCrds(manifests: readonly Manifest[], opts: LintOptions): Map<string, InstalledCrd> {
  const crds: Crd[] = [];
  const seen = new Set<string>();
  for (const m of manifests) {
    if (!isCrdManifest(m)) continue;
    const crd = buildCrd(m, opts.kubeVersion, opts.cel);
    if (crd.name === '' || seen.has(crd.name)) continue;
    seen.add(crd.name);
    crds.push(crd);
  }
  const conflicting = conflictingCrds(crds);
  return new Map(crds.map((c) => [c.name, installedCrd(c, !conflicting.has(c) && !invalidCaBundle(c))]));
}

/** The establishing controller sets Established=False (InvalidCABundle) while the webhook's CA bundle cannot be loaded. */
function invalidCaBundle(crd: Crd): boolean {
  const bundle = rec(rec(rec(crd.conversion?.['webhook'])?.['clientConfig']))?.['caBundle'];
  return typeof bundle === 'string' && bundle !== '' && caBundleError(bundle) !== undefined;
}

/** The server's verdict on an update: rejected when the decoder refuses it or a finding on the CRD carries a server cause or response. */
function updateSummary(crd: Crd, findings: readonly Finding[], undecodable: boolean, objects: readonly Manifest[] | undefined): CrdUpdateSummary {
  const m = crd.manifest;
  const own = findings.filter((f) => f.file === m.file.path && f.document === m.docIndex && f.object?.name === crd.name && f.object?.kind === m.kind);
  const pos = m.locate([]);
  return {
    name: crd.name,
    file: m.file.path,
    line: pos.line,
    column: pos.column,
    accepted: !undecodable && !own.some((f) => f.server !== undefined || f.response !== undefined || f.aborted !== undefined),
    findings: own.length,
    breaking: own.filter((f) => f.ruleId === 'upgrade-safety').length,
    ...(objects ? { objects: objects.length, affected: affectedObjects(objects, findings) } : {}),
  };
}

/** The objects with an error of stored-objects: their next write (or their apiVersion) fails. */
function affectedObjects(objects: readonly Manifest[], findings: readonly Finding[]): number {
  const hit = new Set(findings.filter((f) => f.ruleId === 'stored-objects' && f.severity === 'error').map((f) => `${f.file}\0${f.document}`));
  return objects.filter((m) => hit.has(`${m.file.path}\0${m.docIndex}`)).length;
}

/**
 * The objects of --objects grouped by the updated CRD they belong to (OLD's group and kind: they
 * were stored under it). Parse problems are findings; objects of other CRDs are left out.
 */
function storedObjectsOf(files: readonly SourceFile[], crds: readonly Crd[], installed: ReadonlyMap<string, InstalledCrd>, findings: Finding[]): Map<Crd, Manifest[]> {
  const parsed = parseSources(files);
  findings.push(...parsed.findings);
  const byGroupKind = new Map<string, Crd>();
  for (const crd of crds) {
    const old = crd.name !== '' ? installed.get(crd.name) : undefined;
    if (old) byGroupKind.set(`${old.crd.group}\0${old.crd.names.kind}`, crd);
  }
  const out = new Map<Crd, Manifest[]>();
  for (const m of parsed.manifests) {
    if (isCrdManifest(m)) continue;
    const gk = groupKindOf(m.value);
    const crd = gk ? byGroupKind.get(`${gk.group}\0${gk.kind}`) : undefined;
    if (!crd) continue;
    let list = out.get(crd);
    if (!list) out.set(crd, (list = []));
    list.push(m);
  }
  return out;
}

/** Each stored object written under its updated CRD (rules with checkStoredObject). */
function lintStoredObjects(stored: ReadonlyMap<Crd, readonly Manifest[]>, installed: ReadonlyMap<string, InstalledCrd>, rules: readonly Rule[], opts: LintOptions, live: ReadonlySet<SourceFile>): Finding[] {
  const objectRules = rules.filter((r) => r.checkStoredObject !== undefined);
  if (objectRules.length === 0) return [];
  const out: Finding[] = [];
  for (const [crd, objects] of stored) {
    const oldCatalog = new CrdCatalog([installed.get(crd.name)!.crd]);
    const newCatalog = new CrdCatalog([crd]);
    for (const m of objects) {
      const write = simulateNextWrite(wireValue(m), oldCatalog, newCatalog, {
        kube: opts.kubeVersion,
        ...(opts.fieldValidation ? { fieldValidation: opts.fieldValidation } : {}),
        ...(live.has(m.file) ? { live: true } : {}),
      });
      for (const rule of objectRules) {
        const sev = severityOf(rule, opts.ruleSeverity);
        if (!sev.on) continue;
        for (const r of rule.checkStoredObject!({ manifest: m, write })) {
          const s = sev.of(r.messageId);
          if (s !== 'off') out.push(toFinding(rule, r, m, s));
        }
      }
    }
  }
  return out;
}

/** Custom resources of the input whose group and kind have a CRD (input or --crd) go through the resource rules. */
function lintResources(manifests: readonly Manifest[], crds: readonly Crd[], refs: readonly Manifest[], rules: readonly Rule[], opts: LintOptions, rejected: CrdRejected): { findings: Finding[]; unchecked?: UncheckedSummary; uncheckedObjects: Manifest[] } {
  const resourceRules = rules.filter((r) => r.checkResource !== undefined);
  if (resourceRules.length === 0) return { findings: [], uncheckedObjects: [] };
  const refCrds = refs.map((m) => buildCrd(m, opts.kubeVersion, opts.cel));
  const fieldValidation = opts.fieldValidation ?? KUBECTL_FIELD_VALIDATION;
  const catalog = new CrdCatalog([...crds, ...refCrds], rejected);
  const out: Finding[] = [];
  // objects of a custom group whose CRD is not in the run: not checked, but counted and named
  const unchecked: Manifest[] = [];
  const kinds = new Set<string>();
  for (const m of manifests) {
    if (isCrdManifest(m) || m.apiVersion === undefined || m.kind === undefined) continue;
    const group = splitApiVersion(m.apiVersion).group;
    if (!catalog.crdFor(group, m.kind)) {
      if (!isBuiltinApiVersion(m.apiVersion)) {
        unchecked.push(m);
        kinds.add(`${m.kind}.${group}`);
      }
      continue;
    }
    const lookup = catalog.lookup(m.apiVersion, m.kind);
    let result: CreateResult | undefined;
    const ctx: ResourceRuleContext = {
      manifest: m,
      lookup,
      result: () => {
        if (!lookup.ok) throw new Error('result() of a custom resource without a served version');
        return (result ??= simulateCreate(wireValue(m), lookup.served, { kube: opts.kubeVersion, skipStorage: true, fieldValidation }));
      },
      fieldValidation,
    };
    for (const rule of resourceRules) {
      const sev = severityOf(rule, opts.ruleSeverity);
      if (!sev.on) continue;
      for (const r of rule.checkResource!(ctx)) {
        const s = sev.of(r.messageId);
        if (s !== 'off') out.push(toFinding(rule, r, m, s));
      }
    }
  }
  return { findings: out, ...(unchecked.length > 0 ? { unchecked: { objects: unchecked.length, kinds: [...kinds].sort() } } : {}), uncheckedObjects: unchecked };
}

/**
 * The severity of a rule's findings: `--rule ID=severity` for the rule, overridden per check by
 * `--rule ID/messageId=severity` (rules such as upgrade-safety have one messageId per check).
 * `on`: some check of the rule can report.
 */
function severityOf(rule: Rule, overrides: ReadonlyMap<string, Severity | 'off'> | undefined): { on: boolean; of(messageId: string): Severity | 'off' } {
  const ruleLevel = overrides?.get(rule.id);
  const base = ruleLevel ?? rule.meta.defaultSeverity;
  const own = rule.meta.checkSeverity as Partial<Record<string, Severity>> | undefined;
  const of = (messageId: string) => overrides?.get(`${rule.id}/${messageId}`) ?? ruleLevel ?? own?.[messageId] ?? rule.meta.defaultSeverity;
  const on = base !== 'off' || Object.keys(rule.meta.messages).some((id) => of(id) !== 'off');
  return { on, of };
}
