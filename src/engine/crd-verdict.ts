/**
 * Whether the server would create (or update) a CRD, for the custom resources that need it: a CRD
 * the server refuses never serves its kind, so a create of one of its objects fails before any
 * validation (kubectl: `no matches for kind "K" in version "g/v"`). The verdict comes from the
 * server-faithful rules, whatever severity the user gave them: a v1beta1 CRD on a server that no
 * longer serves that API, a request the decoder refuses (400), any rule reporting a server cause or
 * response, or names the naming controller does not accept (created, never Established). Pure:
 * findings are computed, never printed.
 */
import { formatKubeVersion, MIN_KUBE_VERSION, type KubeVersion } from '../core/kube-version.js';
import { gated } from '../core/version-gates.js';
import type { Finding, JsonPath } from '../core/types.js';
import type { FieldValidation } from '../core/field-validation.js';
import type { CrdRejected } from '../cr/catalog.js';
import type { CelEngine } from '../core/cel-engine.js';
import { buildCrd, type Crd } from '../crd/model.js';
import { rules as allRules } from '../rules/index.js';
import { analyzeCrdSchemas } from '../schema/analyze.js';
import type { Manifest, SourceFile } from '../manifest/parse.js';
import type { SchemaAnalysis } from '../schema/analyze.js';
import { decodeFails } from '../rules/crd-decode.js';
import type { Report, Rule, RuleContext } from '../rules/types.js';
import { compareFindings } from './results.js';
import { toFinding } from './finding.js';

/** A CRD's request the server refuses: its first cause (in source order) and how many there are. */
export interface CrdRejection {
  /** The first cause: where in the CRD's source, and its text. */
  readonly first: Pick<Finding, 'file' | 'line' | 'column' | 'message'>;
  readonly causes: number;
  /** An installed CRD: the minor before refuses it too (so no upgrade can have kept it stored). */
  readonly previous?: KubeVersion;
}

/** A verdict as kept between runs: the first cause by its path in the CRD, not by its position. */
export interface StoredVerdict {
  readonly path: JsonPath;
  readonly at: 'key' | 'value';
  readonly message: string;
  readonly causes: number;
  readonly previous?: KubeVersion;
}

/**
 * Verdicts of installed CRDs kept between runs (the CLI keeps them in the user's cache directory,
 * one file per build of crdx). `key` says everything a verdict depends on besides the file's text
 * and crdx's own code: the minor, the field validation, the document and the object in it.
 * get: undefined when not known, null when the CRD is served.
 */
export interface VerdictStore {
  get(file: SourceFile, key: string): StoredVerdict | null | undefined;
  set(file: SourceFile, key: string, v: StoredVerdict | null): void;
}

/**
 * An installed CRD (one given with --crd, or any CRD of default, status and scale) may have been
 * stored by the server of the minor before, whose checks were sometimes looser (1.37 compiles
 * rules more strictly): `earlier` builds it for that minor. Undefined: the CRD is being written now.
 */
export type EarlierCrd = (crd: Crd) => Crd | undefined;

/** The same CRD as the server of the minor before reads it (none before the oldest simulated minor). */
export function previousMinor(build: (m: Manifest, kube: KubeVersion) => Crd): EarlierCrd {
  return (crd) => (crd.kube.minor > MIN_KUBE_VERSION.minor ? build(crd.manifest, { major: crd.kube.major, minor: crd.kube.minor - 1 }) : undefined);
}

/** Verdicts of CRDs, computed once each; the reports of rules already run for a CRD are reused. */
export class CrdVerdicts {
  private readonly verdicts = new Map<Crd, CrdRejection | null>();
  private readonly contexts = new Map<Crd, RuleContext>();
  private readonly ran = new Map<Crd, Map<Rule, readonly Report[]>>();
  private readonly rules: readonly Rule[];

  /** `fieldValidation` and `analyze`: what a CRD never given a context (a --crd one) is created with. */
  constructor(
    rules: readonly Rule[],
    private readonly fieldValidation: FieldValidation,
    private readonly analyze: (crd: Crd) => readonly SchemaAnalysis[],
    private readonly earlier?: EarlierCrd,
    private readonly store?: VerdictStore,
    /** Installed CRDs in the order they were created: names an earlier one holds are not accepted. */
    private readonly installed?: readonly Crd[],
  ) {
    // the server's warnings (server-faithful suggestions) never refuse a request
    this.rules = rules.filter((r) => r.meta.serverFaithful && r.meta.type === 'problem');
  }

  /** The context a CRD's rules run in (a CRD never given one gets a create's, alone). */
  context(crd: Crd, ctx: RuleContext): void {
    this.contexts.set(crd, ctx);
  }

  /** Reports of a server-faithful rule already run on the CRD (lint's own pass). */
  record(crd: Crd, rule: Rule, reports: readonly Report[]): void {
    if (!this.rules.includes(rule)) return;
    let m = this.ran.get(crd);
    if (!m) this.ran.set(crd, (m = new Map()));
    m.set(rule, reports);
  }

  /**
   * Why the server refuses the CRD's request: with the context given (a CRD of lint's input), else a
   * create of it alone, by this minor and, for an installed CRD, by the one before too.
   */
  rejection(crd: Crd): CrdRejection | undefined {
    let v = this.verdicts.get(crd);
    if (v === undefined) {
      const given = this.contexts.get(crd);
      // only an installed CRD's verdict is kept: one of the input is checked in full anyway
      const key = !given && this.store ? `${formatKubeVersion(crd.kube)}|${this.fieldValidation}|${this.earlier ? 'installed' : 'created'}|${crd.manifest.docIndex}|${JSON.stringify(crd.manifest.base)}` : undefined;
      const kept = key !== undefined ? this.store!.get(crd.manifest.file, key) : undefined;
      let stored: StoredVerdict | null;
      if (kept !== undefined) stored = kept;
      else {
        stored = this.compute(crd, given ?? this.alone(crd)) ?? null;
        const before = stored && !given ? this.earlier?.(crd) : undefined;
        if (stored && before) stored = this.compute(before, this.alone(before)) ? { ...stored, previous: before.kube } : null;
        if (key !== undefined) this.store!.set(crd.manifest.file, key, stored);
      }
      // names taken by an earlier installed CRD: not kept, as it depends on the others
      if (!stored && !given && this.installed) stored = this.namesTaken(crd) ?? null;
      v = stored && rejectionAt(crd.manifest, stored);
      this.verdicts.set(crd, v);
    }
    return v ?? undefined;
  }

  private namesTaken(crd: Crd): StoredVerdict | undefined {
    const rule = this.rules.find((r) => r.id === 'naming-conflicts');
    if (!rule) return undefined;
    const reports = [...rule.check({ ...this.alone(crd), allCrds: this.installed! })];
    return firstCause(reports.map((r) => ({ finding: toFinding(rule, r, crd.manifest, 'error'), report: r })));
  }

  private alone(crd: Crd): RuleContext {
    let analysis: readonly SchemaAnalysis[] | undefined;
    return { crd, allCrds: [crd], fieldValidation: this.fieldValidation, schemaAnalysis: () => (analysis ??= this.analyze(crd)) };
  }

  private compute(crd: Crd, ctx: RuleContext): StoredVerdict | undefined {
    const m = crd.manifest;
    const notServed = crd.requestVersion === 'v1beta1' && gated(crd.kube, 'crd.v1beta1-not-served');
    const undecodable = !notServed && decodeFails(crd, ctx.fieldValidation);
    const rejecting: { finding: Finding; report: Report }[] = [];
    for (const rule of this.rules) {
      if (notServed && rule.id !== 'v1beta1-crd') continue;
      if (undecodable && rule.id !== 'crd-decode') continue;
      const reports = this.ran.get(crd)?.get(rule) ?? [...rule.check(ctx)];
      // created but never Established: the naming controller did not accept its names
      const unserved = notServed || undecodable || rule.id === 'naming-conflicts';
      for (const r of reports) if (unserved || r.server !== undefined || r.response !== undefined || r.aborted !== undefined) rejecting.push({ finding: toFinding(rule, r, m, 'error'), report: r });
    }
    return firstCause(rejecting);
  }
}

/** The first of the causes in source order, kept by its path, and how many there are; undefined when none. */
function firstCause(causes: { readonly finding: Finding; readonly report: Report }[]): StoredVerdict | undefined {
  if (causes.length === 0) return undefined;
  causes.sort((a, b) => compareFindings(a.finding, b.finding));
  const { finding, report } = causes[0]!;
  return { path: report.path, at: report.at ?? 'value', message: finding.message, causes: causes.length };
}

/** Verdicts kept in memory, for a process that lints again and again (the language server). */
export function memoryVerdicts(): VerdictStore {
  const kept = new Map<string, { readonly text: string; readonly v: StoredVerdict | null }>();
  return {
    get(file, key) {
      const e = kept.get(`${file.path}\0${key}`);
      return e && e.text === file.text ? e.v : undefined;
    },
    set(file, key, v) {
      kept.set(`${file.path}\0${key}`, { text: file.text, v });
    },
  };
}

function rejectionAt(m: Manifest, v: StoredVerdict): CrdRejection {
  const pos = m.locate(v.path, v.at);
  return { first: { file: m.file.path, line: pos.line, column: pos.column, message: v.message }, causes: v.causes, ...(v.previous ? { previous: v.previous } : {}) };
}

/** Why a CRD's kind is not served, for its custom resources: the CRD, its first cause with its position, how many more. */
export function rejectedCrdText(crd: Crd, r: CrdRejection): string {
  const f = r.first;
  const more = r.causes > 1 ? ` (and ${r.causes - 1} more cause${r.causes > 2 ? 's' : ''})` : '';
  const also = r.previous ? ` (nor would ${formatKubeVersion(r.previous)}, so no upgrade kept it stored)` : '';
  return `Kubernetes ${formatKubeVersion(crd.kube)} would not serve the CustomResourceDefinition ${crdName(crd)}${also}: ${f.file}:${f.line}:${f.column}: ${f.message}${more}`;
}

function crdName(crd: Crd): string {
  return crd.name || `${crd.names.plural}.${crd.group}`;
}

/**
 * The catalog's question for CRDs taken as installed, in the order they were created (`default`,
 * `status`, `scale`): each alone, refused only when the minor before refuses it too, names an
 * earlier one holds not accepted; the files of `served` (read from a cluster) are served.
 */
export function installedCrdsRejected(crds: readonly Crd[], o: { readonly fieldValidation: FieldValidation; readonly cel: CelEngine | undefined; readonly store?: VerdictStore | undefined; readonly served?: readonly SourceFile[] | undefined }): CrdRejected {
  const verdicts = new CrdVerdicts(allRules, o.fieldValidation, (c) => analyzeCrdSchemas(c), previousMinor((m, kube) => buildCrd(m, kube, o.cel)), o.store, crds);
  const live = new Set((o.served ?? []).map((f) => f.path));
  return crdRejected(verdicts, (c) => live.has(c.manifest.file.path));
}

/**
 * The catalog's question (src/cr/catalog.ts), answered from the verdicts. `served`: CRDs known to be
 * served whatever crdx would say (read from a cluster, or installed and kept by a refused update).
 */
export function crdRejected(verdicts: CrdVerdicts, served: (crd: Crd) => boolean = () => false): CrdRejected {
  return (crd) => {
    if (served(crd)) return undefined;
    const r = verdicts.rejection(crd);
    return r ? rejectedCrdText(crd, r) : undefined;
  };
}
