/**
 * The language server (`kubectl crdx lsp`): lint's findings as diagnostics for the YAML and JSON
 * documents of the editor, with hover, quick fixes and the `default` preview. Everything it reads
 * comes through the connection and the injected host (src/cli/lsp-command.ts wires stdio and the
 * file system); it checks with the same entry points as the CLI (lintSources, defaultSources), so a
 * document's diagnostics are exactly `kubectl crdx lint FILE --crd <the other CRDs>` on its text.
 */
import { isAbsolute, resolve, sep } from 'node:path';
import {
  CodeActionKind,
  DiagnosticSeverity,
  MarkupKind,
  TextDocumentSyncKind,
  TextDocuments,
  type CodeAction,
  type Connection,
  type Diagnostic,
  type DiagnosticRelatedInformation,
  type Hover,
  type InitializeParams,
  type InitializeResult,
  type Range,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { KUBECTL_FIELD_VALIDATION, parseValidateFlag, type FieldValidation } from '../core/field-validation.js';
import { DEFAULT_KUBE_VERSION, MIN_KUBE_VERSION, formatKubeVersion, isSimulated, parseKubeVersion, type KubeVersion } from '../core/kube-version.js';
import { jsonText } from '../core/json-text.js';
import { formatPath } from '../core/path.js';
import { isRecord, type Finding, type JsonPath } from '../core/types.js';
import { CrdCatalog, splitApiVersion } from '../cr/catalog.js';
import { renderObjects } from '../formatters/objects.js';
import { buildCrd, isCrdManifest, schemaTargetFor, type Crd } from '../crd/model.js';
import { defaultSources } from '../engine/default.js';
import { memoryVerdicts } from '../engine/crd-verdict.js';
import { objectRefOf } from '../engine/finding.js';
import { lintSources, type LintResult } from '../engine/lint.js';
import { ruleHelpUri } from '../formatters/sarif.js';
import { parseFile, type Manifest, type SourceFile } from '../manifest/parse.js';
import { rules } from '../rules/index.js';
import { celFor } from '../schema/cel-syntax.js';
import type { CelEngine, CelLoader } from '../core/cel-engine.js';
import { addKeyEdit, removeKeyEdit } from './edits.js';
import { kindsNamed, mayHoldCrd, parseFieldPath, pathToUri, uriToPath } from './paths.js';

const DEFAULT_PREVIEW_COMMAND = 'crdx.defaultPreview';
const SOURCE = 'crdx';

/** What the server needs of the outside world. */
interface LspHost {
  /** The files under these paths that may hold CRDs (workspace folders, crdPaths). */
  readCrdFiles(paths: readonly string[]): Promise<SourceFile[]>;
  /**
   * Every CRD installed in the cluster of a kubeconfig context (crdx.cluster.context), as sources
   * named `cluster:<context>/…`; rejects with a one-line reason (no client, no such context, …).
   */
  readClusterCrds?(context: string): Promise<SourceFile[]>;
  readonly toolVersion: string;
  /** Loads the CEL engine; called once a document or CRD file may hold CEL rules. */
  readonly loadCel: CelLoader;
}

/** Settings: initializationOptions, then the client's `crdx` configuration section. */
interface LspSettings {
  readonly crdPaths: readonly string[];
  readonly kubeVersion: KubeVersion;
  readonly fieldValidation: FieldValidation;
  /** Delay between the last change of a document and its check. */
  readonly debounceMs: number;
  /** crdx.cluster.context: a kubeconfig context whose installed CRDs custom resources are checked against too. */
  readonly clusterContext: string | undefined;
}

const DEFAULT_SETTINGS: LspSettings = {
  crdPaths: [],
  kubeVersion: DEFAULT_KUBE_VERSION,
  fieldValidation: KUBECTL_FIELD_VALIDATION,
  debounceMs: 200,
  clusterContext: undefined,
};

/** Reads settings as a client sends them (every field optional, wrong types ignored). */
export function readSettings(raw: unknown, base: LspSettings = DEFAULT_SETTINGS): { settings: LspSettings; problems: string[] } {
  const problems: string[] = [];
  if (!isRecord(raw)) return { settings: base, problems };
  let s = { ...base };
  const paths = raw['crdPaths'];
  if (Array.isArray(paths)) s = { ...s, crdPaths: paths.filter((p): p is string => typeof p === 'string' && p !== '') };
  const kv = raw['kubeVersion'];
  if (typeof kv === 'string' && kv !== '') {
    const k = parseKubeVersion(kv);
    if (k && isSimulated(k)) s = { ...s, kubeVersion: k };
    else problems.push(`crdx.kubeVersion "${kv}": supported are ${formatKubeVersion(MIN_KUBE_VERSION)} to ${formatKubeVersion(DEFAULT_KUBE_VERSION)}; using ${formatKubeVersion(s.kubeVersion)}`);
  }
  const v = raw['validate'];
  if (typeof v === 'string' && v !== '') {
    const fv = parseValidateFlag(v);
    if (fv) s = { ...s, fieldValidation: fv };
    else problems.push(`crdx.validate "${v}": expected strict, warn or ignore`);
  } else if (typeof v === 'boolean') s = { ...s, fieldValidation: v ? 'Strict' : 'Ignore' };
  const d = raw['debounceMs'];
  if (typeof d === 'number' && Number.isFinite(d) && d >= 0) s = { ...s, debounceMs: d };
  const cluster = isRecord(raw['cluster']) ? raw['cluster']['context'] : raw['clusterContext'];
  if (typeof cluster === 'string') s = { ...s, clusterContext: cluster === '' ? undefined : cluster };
  return { settings: s, problems };
}

/** The state of one open document after its last check. */
interface Checked {
  readonly version: number;
  readonly text: string;
  readonly findings: readonly Finding[];
  readonly diagnostics: readonly Diagnostic[];
  /** Kinds its CRDs define (dependents are re-checked when they change). */
  readonly defines: ReadonlySet<string>;
  /** Kinds it names; undefined: could not tell (depends on every CRD). */
  readonly uses: ReadonlySet<string> | undefined;
}

interface DiagnosticData {
  /** Index of the finding in the document's last check. */
  readonly i: number;
  readonly version: number;
}

const SEVERITY = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information } as const;

/** A finding's range: its node's, else to the end of its line. */
function findingRange(f: Finding, text: string): Range {
  const start = { line: f.line - 1, character: f.column - 1 };
  if (f.endLine !== undefined && f.endColumn !== undefined) return { start, end: { line: f.endLine - 1, character: f.endColumn - 1 } };
  const l = text.split('\n', f.line)[f.line - 1] ?? '';
  return { start, end: { line: f.line - 1, character: Math.max(start.character, l.replace(/\r$/, '').length) } };
}

function contains(r: Range, p: { line: number; character: number }): boolean {
  const after = p.line > r.start.line || (p.line === r.start.line && p.character >= r.start.character);
  const before = p.line < r.end.line || (p.line === r.end.line && p.character <= r.end.character);
  return after && before;
}

/** Where in a version's openAPIV3Schema the node validating a value at `segs` sits (as far as it can be followed). */
export function schemaPathFor(schema: Record<string, unknown>, segs: JsonPath): JsonPath {
  const out: (string | number)[] = [];
  let s = schema;
  for (const seg of segs) {
    if (typeof seg === 'number') {
      const items = s['items'];
      if (!isRecord(items)) break;
      out.push('items');
      s = items;
      continue;
    }
    const props = s['properties'];
    if (isRecord(props) && Object.hasOwn(props, seg) && isRecord(props[seg])) {
      out.push('properties', seg);
      s = props[seg];
      continue;
    }
    const ap = s['additionalProperties'];
    if (isRecord(ap)) {
      out.push('additionalProperties');
      s = ap;
      continue;
    }
    break;
  }
  return out;
}

const RULES = new Map(rules.map((r) => [r.id, r]));

export function startServer(connection: Connection, host: LspHost): void {
  const documents = new TextDocuments(TextDocument);
  let settings = DEFAULT_SETTINGS;
  let initOptions: unknown;
  let roots: string[] = [];
  /** crdPaths, absolute. */
  let crdPaths: string[] = [];
  let canConfigure = false;
  /** CRD files of the workspace folders and crdPaths, as on disk. */
  let diskCrds: SourceFile[] = [];
  /** The CRDs installed in the cluster of crdx.cluster.context (after the local ones: a local CRD wins). */
  let clusterCrds: SourceFile[] = [];
  let ready: Promise<void> = Promise.resolve();
  const checked = new Map<string, Checked>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const kindCache = new Map<string, { text: string; kube: KubeVersion; kinds: ReadonlySet<string> }>();
  const crdCache = new Map<string, { text: string; kube: KubeVersion; cel: CelEngine | undefined; crds: Crd[] }>();
  /** The CEL engine, once a file that may hold CEL rules was met. */
  let cel: CelEngine | undefined;
  const ensureCel = async (files: readonly SourceFile[]): Promise<void> => {
    cel ??= await celFor(files, host.loadCel);
  };
  let queue: Promise<unknown> = Promise.resolve();

  const warn = (m: string): void => void connection.window.showWarningMessage(`crdx: ${m}`);

  /** Open documents that may hold CRDs, by path (updated on every change). */
  const openCrds = new Map<string, SourceFile>();

  /** CRD sources other than `path`: the disk's, with open documents in place of their files. */
  function crdSources(path: string): SourceFile[] {
    const all = new Map<string, SourceFile>(diskCrds.map((f) => [f.path, f]));
    for (const d of documents.all()) {
      const p = uriToPath(d.uri);
      const open = openCrds.get(p);
      if (open) all.set(p, open);
      else all.delete(p);
    }
    all.delete(path);
    return [...all.values(), ...clusterCrds];
  }

  /** The CRDs of a source, built once per text and Kubernetes version. */
  function crdsOf(f: SourceFile): Crd[] {
    const c = crdCache.get(f.path);
    if (c && c.text === f.text && c.kube === settings.kubeVersion && c.cel === cel) return c.crds;
    const crds = parseFile(f)
      .flatMap((d) => d.manifests)
      .filter(isCrdManifest)
      .map((m) => buildCrd(m, settings.kubeVersion, cel));
    crdCache.set(f.path, { text: f.text, kube: settings.kubeVersion, cel, crds });
    return crds;
  }

  /** The kinds the CRDs of a source define: its last check's for an open document, else its parse's. */
  function kindsOf(f: SourceFile): ReadonlySet<string> {
    const c = checked.get(pathToUri(f.path));
    if (c && c.text === f.text) return c.defines;
    const k = kindCache.get(f.path);
    if (k && k.text === f.text && k.kube === settings.kubeVersion) return k.kinds;
    const kinds = new Set(crdsOf(f).map((x) => x.names.kind));
    kindCache.set(f.path, { text: f.text, kube: settings.kubeVersion, kinds });
    return kinds;
  }

  /**
   * The reference CRD files a document needs: those whose CRDs define a kind it names (all when
   * undefined). Leaving out the others changes nothing of the lint: they define no kind of its
   * objects (src/engine/ref-crds.ts would not read them either).
   */
  function refsFor(path: string, uses: ReadonlySet<string> | undefined): SourceFile[] {
    return crdSources(path).filter((f) => uses === undefined || [...kindsOf(f)].some((k) => uses.has(k)));
  }

  /** lintSources on the document's text with the CRD files of the kinds its objects have. */
  const verdicts = memoryVerdicts();
  function lintDocument(file: SourceFile): { result: LintResult; refs: SourceFile[]; uses: Set<string> } {
    // a first guess from the text, checked against the objects the lint read: a kind the guess missed
    // means a second lint with its CRDs
    let uses = kindsNamed(file.text);
    for (;;) {
      const refs = refsFor(file.path, uses);
      // CRDs read from the cluster are served there; the others' verdicts are kept between changes
      const served = refs.filter((f) => f.path.startsWith('cluster:'));
      const result = lintSources([file], { kubeVersion: settings.kubeVersion, cel, crdFiles: refs, fieldValidation: settings.fieldValidation, verdicts, ...(served.length > 0 ? { served } : {}) });
      const actual = new Set<string>();
      for (const m of result.manifests) if (m.file.path === file.path && m.kind !== undefined && !isCrdManifest(m)) actual.add(m.kind);
      if (uses === undefined || [...actual].every((k) => uses!.has(k))) return { result, refs, uses: actual };
      uses = new Set([...uses, ...actual]);
    }
  }

  function related(f: Finding, crds: readonly Crd[]): DiagnosticRelatedInformation[] {
    if (f.server === undefined || f.object?.apiVersion === undefined || f.object.kind === undefined || f.object.kind === 'CustomResourceDefinition') return [];
    const lookup = new CrdCatalog(crds).lookup(f.object.apiVersion, f.object.kind);
    if (!lookup.ok) return [];
    const { crd, version } = lookup.served;
    const target = schemaTargetFor(crd, version);
    if (!target) return [];
    const segs = parseFieldPath(f.path);
    const inSchema = schemaPathFor(target.schema, segs[0] === 'items' && typeof segs[1] === 'number' ? segs.slice(2) : segs);
    const pos = crd.manifest.locate([...target.loc.at, ...inSchema], inSchema.length > 0 ? 'key' : 'value');
    const file = crd.manifest.file;
    // a CRD read from the cluster has no document to point into
    if (file.path.startsWith('cluster:')) return [];
    const end = pos.endLine !== undefined && pos.endColumn !== undefined ? { line: pos.endLine - 1, character: pos.endColumn - 1 } : { line: pos.line - 1, character: pos.column - 1 };
    return [
      {
        location: { uri: pathToUri(file.path), range: { start: { line: pos.line - 1, character: pos.column - 1 }, end } },
        message: `schema of ${crd.names.kind} ${version.name}${inSchema.length > 0 ? `: ${formatPath(inSchema)}` : ''} (${crd.name})`,
      },
    ];
  }

  async function check(uri: string): Promise<void> {
    await ready;
    const doc = documents.get(uri);
    if (!doc) return;
    const path = uriToPath(uri);
    const text = doc.getText();
    const file: SourceFile = { path, text };
    await ensureCel([file, ...crdSources(path)]);
    // the document may have changed while the CEL engine loaded: the newer version is checked next
    if (documents.get(uri)?.version !== doc.version) return;
    const { result, refs, uses } = lintDocument(file);
    // objects no CRD the server reads defines are said to be unchecked, never left without a word
    const findings = [...result.findings.filter((f) => f.file === path), ...result.unchecked.filter((m) => m.file.path === path).map((m) => uncheckedFinding(m, settings.clusterContext))];
    let refCrds: Crd[] | undefined;
    const diagnostics = findings.map((f, i): Diagnostic => {
      const rel = f.server !== undefined ? related(f, [...result.crds, ...(refCrds ??= refs.flatMap(crdsOf))]) : [];
      const data: DiagnosticData = { i, version: doc.version };
      return {
        range: findingRange(f, text),
        severity: SEVERITY[f.severity],
        code: f.ruleId,
        ...(RULES.has(f.ruleId) ? { codeDescription: { href: ruleHelpUri(f.ruleId, host.toolVersion) } } : {}),
        source: SOURCE,
        message: f.message,
        ...(rel.length > 0 ? { relatedInformation: rel } : {}),
        data,
      };
    });
    const defines = new Set(result.crds.map((c) => c.names.kind).filter((k) => k !== ''));
    const before = checked.get(uri);
    checked.set(uri, { version: doc.version, text, findings, diagnostics, defines, uses });
    await connection.sendDiagnostics({ uri, version: doc.version, diagnostics: [...diagnostics] });
    // custom resources of the CRDs this document defined or defines are checked again
    const changed = new Set([...defines, ...(before?.defines ?? [])]);
    if (changed.size > 0 && before?.text !== text) {
      for (const [other, c] of checked)
        if (other !== uri && (c.uses === undefined || [...changed].some((k) => c.uses!.has(k)))) schedule(other, 0);
    }
  }

  function schedule(uri: string, delay: number): void {
    const t = timers.get(uri);
    if (t !== undefined) clearTimeout(t);
    timers.set(
      uri,
      setTimeout(() => {
        timers.delete(uri);
        queue = queue.then(() => check(uri)).catch((e: unknown) => connection.console.error(`crdx: checking ${uri}: ${(e as Error)?.stack ?? String(e)}`));
      }, delay),
    );
  }

  async function loadSettings(): Promise<void> {
    let next = readSettings(initOptions);
    if (canConfigure) {
      try {
        const [section] = (await connection.workspace.getConfiguration([{ section: 'crdx' }])) as unknown[];
        next = readSettings(section, next.settings);
      } catch {
        // a client without the configuration it announced: initializationOptions stay
      }
    }
    for (const p of next.problems) warn(p);
    settings = next.settings;
    const base = roots[0];
    crdPaths = settings.crdPaths.map((p) => (isAbsolute(p) || base === undefined ? p : resolve(base, p)));
    diskCrds = await host.readCrdFiles([...roots, ...crdPaths]);
    clusterCrds = [];
    const ctx = settings.clusterContext;
    if (ctx !== undefined) {
      if (!host.readClusterCrds) warn(`crdx.cluster.context "${ctx}": this server cannot read clusters`);
      else
        try {
          clusterCrds = await host.readClusterCrds(ctx);
          connection.console.info(`crdx: ${clusterCrds.length} CustomResourceDefinitions read from context "${ctx}"`);
        } catch (e) {
          // the local CRDs still work; the user learns why the cluster's are missing
          warn(`crdx.cluster.context "${ctx}": ${(e as Error)?.message ?? String(e)}; only local CRDs are used`);
        }
    }
  }

  function recheckAll(): void {
    crdCache.clear();
    for (const d of documents.all()) schedule(d.uri, 0);
  }

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    initOptions = params.initializationOptions;
    roots = (params.workspaceFolders ?? []).map((f) => uriToPath(f.uri));
    if (roots.length === 0 && params.rootUri) roots = [uriToPath(params.rootUri)];
    canConfigure = params.capabilities.workspace?.configuration === true;
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        executeCommandProvider: { commands: [DEFAULT_PREVIEW_COMMAND] },
      },
      serverInfo: { name: 'kubectl-crdx', version: host.toolVersion },
    };
  });

  connection.onInitialized(() => {
    ready = loadSettings().catch((e: unknown) => warn(`reading the workspace CRDs: ${String(e)}`));
  });

  connection.onDidChangeConfiguration((params) => {
    const prev = ready;
    ready = prev.then(async () => {
      if (!canConfigure && isRecord(params.settings) && isRecord(params.settings['crdx'])) initOptions = { ...(isRecord(initOptions) ? initOptions : {}), ...params.settings['crdx'] };
      await loadSettings();
    });
    recheckAll();
  });

  documents.onDidChangeContent((e) => {
    const p = uriToPath(e.document.uri);
    const text = e.document.getText();
    if (mayHoldCrd(text)) openCrds.set(p, { path: p, text });
    else openCrds.delete(p);
    // the first version of a document is checked at once, later ones after the typing pauses
    schedule(e.document.uri, checked.has(e.document.uri) ? settings.debounceMs : 0);
  });

  documents.onDidClose((e) => {
    const t = timers.get(e.document.uri);
    if (t !== undefined) clearTimeout(t);
    timers.delete(e.document.uri);
    const c = checked.get(e.document.uri);
    checked.delete(e.document.uri);
    openCrds.delete(uriToPath(e.document.uri));
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
    // its CRDs now come from the file on disk, if any
    if (c && c.defines.size > 0)
      for (const [other, o] of checked) if (o.uses === undefined || [...c.defines].some((k) => o.uses!.has(k))) schedule(other, 0);
  });

  connection.onHover((params): Hover | null => {
    const c = checked.get(params.textDocument.uri);
    if (!c) return null;
    const hits = c.diagnostics.filter((d) => contains(d.range, params.position));
    if (hits.length === 0) return null;
    const parts = hits.map((d) => hoverText(c.findings[(d.data as DiagnosticData).i]!, host.toolVersion));
    return { contents: { kind: MarkupKind.Markdown, value: parts.join('\n\n---\n\n') }, range: hits[0]!.range };
  });

  connection.onCodeAction((params): CodeAction[] => {
    const uri = params.textDocument.uri;
    const c = checked.get(uri);
    const doc = documents.get(uri);
    if (!c || !doc || c.version !== doc.version) return [];
    const out: CodeAction[] = [];
    for (const d of params.context.diagnostics) {
      const data = d.data as Partial<DiagnosticData> | undefined;
      if (d.source !== SOURCE || data?.version !== c.version || typeof data.i !== 'number') continue;
      const f = c.findings[data.i];
      if (!f) continue;
      const action = quickFix(f, c.text);
      if (action) out.push({ ...action, kind: CodeActionKind.QuickFix, diagnostics: [d], isPreferred: true, edit: { changes: { [uri]: [action.edit] } } });
    }
    return out;
  });

  connection.onExecuteCommand(async (params) => {
    if (params.command !== DEFAULT_PREVIEW_COMMAND) return null;
    const [arg] = params.arguments ?? [];
    const uri = typeof arg === 'string' ? arg : isRecord(arg) && typeof arg['uri'] === 'string' ? arg['uri'] : undefined;
    if (uri === undefined) throw new Error(`${DEFAULT_PREVIEW_COMMAND}: expected the document URI as the first argument`);
    await ready;
    const doc = documents.get(uri);
    if (!doc) throw new Error(`${DEFAULT_PREVIEW_COMMAND}: ${uri} is not open`);
    const path = uriToPath(uri);
    const file = { path, text: doc.getText() };
    await ensureCel([file, ...crdSources(path)]);
    const c = checked.get(uri);
    const refs = refsFor(path, c && c.text === file.text ? c.uses : lintDocument(file).uses);
    const run = defaultSources([file], refs, { kubeVersion: settings.kubeVersion, cel, fieldValidation: settings.fieldValidation });
    const stored = run.objects.filter((o) => o.result.value !== undefined);
    return {
      uri,
      objects: run.objects.map((o) => ({
        document: o.manifest.docIndex,
        apiVersion: o.manifest.apiVersion,
        kind: o.manifest.kind,
        name: o.manifest.name,
        rejected: o.rejected,
        // (JSON text first: int64s beyond 2^53 are bigints, which JSON-RPC cannot send)
        stored: o.result.value === undefined ? null : (JSON.parse(jsonText(o.result.value) ?? 'null') as unknown),
        findings: o.findings.map((f) => ({ ruleId: f.ruleId, severity: f.severity, message: f.message, path: f.path })),
      })),
      unmatched: run.unmatched.map((u) => ({ document: u.manifest.docIndex, kind: u.manifest.kind, message: u.message })),
      yaml: renderObjects(
        stored.map((o) => o.result.value!),
        'yaml',
      ),
    };
  });

  // CRD files changed on disk (the client watches them): read again; the open documents naming a
  // kind they defined or define are checked again
  connection.onDidChangeWatchedFiles((params) => {
    const within = (p: string): boolean => [...roots, ...crdPaths].some((r) => p === r || p.startsWith(r.endsWith(sep) ? r : r + sep));
    const paths = [...new Set(params.changes.map((c) => uriToPath(c.uri)))].filter(within);
    if (paths.length === 0) return;
    ready = ready.then(async () => {
      const kinds = new Set<string>();
      for (const f of diskCrds) if (paths.includes(f.path)) for (const k of kindsOf(f)) kinds.add(k);
      const fresh = await host.readCrdFiles(paths);
      for (const f of fresh) for (const k of kindsOf(f)) kinds.add(k);
      const byPath = new Map(diskCrds.map((f) => [f.path, f]));
      for (const p of paths) byPath.delete(p);
      for (const f of fresh) byPath.set(f.path, f);
      diskCrds = [...byPath.values()];
      for (const [uri, c] of checked) if (c.uses === undefined || [...kinds].some((k) => c.uses!.has(k))) schedule(uri, 0);
    });
  });

  connection.onShutdown(() => {
    for (const t of timers.values()) clearTimeout(t);
    timers.clear();
  });

  documents.listen(connection);
  connection.listen();
}

function hoverText(f: Finding, version: string): string {
  const rule = RULES.get(f.ruleId);
  const lines = [
    rule ? `**crdx** [\`${f.ruleId}\`](${ruleHelpUri(f.ruleId, version)}): ${rule.meta.docs.description}` : `**crdx** \`${f.ruleId}\``,
    '',
    f.message,
  ];
  if (f.server) lines.push('', `API server cause: field \`${f.server.field}\`, reason \`${f.server.reason}\`: ${f.server.message}`);
  if (f.response) lines.push('', `API server response: ${f.response.code} ${f.response.reason}: ${f.response.message}`);
  if (f.aborted !== undefined) lines.push('', `API server: no answer (it panics on ${f.aborted})`);
  if (rule && !rule.meta.serverFaithful) lines.push('', '_Advice: the API server accepts this._');
  return lines.join('\n');
}

/**
 * An object of a custom group whose kind no CRD the server reads defines (workspace folders,
 * crdx.crdPaths, open documents, the cluster context's): an information at its `kind`, not a finding
 * of lint's (the CLI counts such objects in its summary, src/core/types.ts uncheckedText).
 */
export function uncheckedFinding(m: Manifest, clusterContext: string | undefined): Finding {
  const { group } = splitApiVersion(m.apiVersion ?? '');
  const pos = m.locate(['kind'], 'value');
  const from = `the workspace folders, crdx.crdPaths and the open documents${clusterContext !== undefined ? `, and the CRDs of cluster context "${clusterContext}"` : ''}`;
  return {
    ruleId: 'unchecked',
    messageId: 'noCrd',
    severity: 'info',
    message: `not checked: no CRD defines kind "${m.kind ?? ''}" in group "${group}" (crdx read ${from}); add the CRD's file or directory to crdx.crdPaths`,
    file: m.file.path,
    line: pos.line,
    column: pos.column,
    ...(pos.endLine !== undefined ? { endLine: pos.endLine } : {}),
    ...(pos.endColumn !== undefined ? { endColumn: pos.endColumn } : {}),
    document: m.docIndex,
    object: objectRefOf(m),
    path: formatPath([...m.base, 'kind']),
  };
}

/** The mechanical fix of a finding, if it has one. */
function quickFix(f: Finding, text: string): { title: string; edit: { range: Range; newText: string } } | undefined {
  if (f.ruleId === 'custom-resource' && f.messageId === 'strict') {
    const edit = removeKeyEdit(text, f.line - 1, f.column - 1);
    const field = /unknown field "([^"]*)"/.exec(f.message)?.[1] ?? f.path;
    return edit ? { title: `Remove unknown field "${field}"`, edit } : undefined;
  }
  if (f.server?.reason === 'FieldValueRequired' && f.server.field.endsWith('subresources.scale.statusReplicasPath')) {
    const edit = addKeyEdit(text, f.line - 1, f.column - 1, 'statusReplicasPath', '.status.replicas');
    return edit ? { title: 'Add statusReplicasPath: .status.replicas to the scale subresource', edit } : undefined;
  }
  return undefined;
}
