/**
 * The playground page: three CodeMirror editors (CRDs, object, old object), a Kubernetes version
 * picker and the result panes. The engine runs in a Web Worker whose script (engine.js, loaded
 * after the page is up) arrives as text and starts from a Blob URL: a classic script and a blob
 * worker work from file:// (no module scripts, no fetch) and from any static host alike.
 */
import { defaultKeymap, history as cmHistory, historyKeymap } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, defaultHighlightStyle, foldGutter, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState, RangeSetBuilder, StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, type DecorationSet } from '@codemirror/view';
import { DEFAULT_KUBE_VERSION, MIN_KUBE_VERSION, formatKubeVersion } from '../src/core/kube-version.js';
import type { Finding } from '../src/core/types.js';
import type { CheckInput, CheckResult, Mark } from './engine.js';
import { decodeState, encodeState } from './share.js';
import type { Request, Response } from './worker.js';

declare global {
  interface Window {
    /** engine.js: the worker's script, as text. */
    crdxWorkerSource?: string;
    /** examples.js: the fixtures the page offers. */
    crdxExamples?: readonly Example[];
    /** For the browser tests and the curious: the page's state and a direct line to the engine. */
    crdx: PlaygroundApi;
  }
}

export interface Example {
  readonly name: string;
  readonly crds: string;
  readonly object: string;
  readonly old: string;
  /** kubectl's --validate the fixture is run with (its args file), when not strict. */
  readonly validate?: string;
}

interface Timing {
  /** From the edit (or load) that asked for it to the verdict on the page, ms. */
  readonly total: number;
  /** Of which the engine in the worker, ms. */
  readonly engine: number;
}

interface PlaygroundApi {
  /** Resolves when the first verdict is on the page. */
  readonly ready: Promise<void>;
  readonly last: () => CheckResult | undefined;
  readonly timings: Timing[];
  readonly check: (input: CheckInput) => Promise<CheckResult>;
  readonly state: () => CheckInput;
  readonly shareUrl: () => Promise<string>;
  /** The main cursor of an editor (1-based line and column). */
  readonly cursor: (pane: 'crds' | 'object' | 'old') => { line: number; column: number; focused: boolean };
  /** Milliseconds from navigation start to the first verdict shown. */
  firstVerdict?: number;
}

const DEBOUNCE_MS = 150;
const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

// ---------------------------------------------------------------------------------------------------------------
// editors
// ---------------------------------------------------------------------------------------------------------------

const setMarks = StateEffect.define<readonly Mark[]>();
/** Lines the server added, changed or removed: a background per kind (and a tooltip). */
const marksField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setMarks)) continue;
      const b = new RangeSetBuilder<Decoration>();
      const byLine = new Map<number, Mark>();
      for (const m of e.value) if (m.line >= 1 && m.line <= tr.state.doc.lines && !byLine.has(m.line)) byLine.set(m.line, m);
      for (const [line, m] of [...byLine].sort((a, b) => a[0] - b[0])) {
        const from = tr.state.doc.line(line).from;
        b.add(from, from, Decoration.line({ class: `mark-${m.kind}`, attributes: { title: m.text, 'data-mark': m.kind } }));
      }
      deco = b.finish();
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

function editor(parent: HTMLElement, doc: string, onChange: (() => void) | undefined, readOnly = false): EditorView {
  const ext: Extension[] = [
    lineNumbers(),
    foldGutter(),
    highlightActiveLineGutter(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    yaml(),
    marksField,
    EditorView.lineWrapping,
  ];
  if (readOnly) ext.push(EditorState.readOnly.of(true), EditorView.editable.of(false));
  else ext.push(cmHistory(), highlightActiveLine(), lintGutter(), keymap.of([...defaultKeymap, ...historyKeymap]));
  if (onChange) ext.push(EditorView.updateListener.of((u) => u.docChanged && !programmatic && onChange()));
  return new EditorView({ parent, state: EditorState.create({ doc, extensions: ext }) });
}

const text = (v: EditorView): string => v.state.doc.toString();
/** While the page itself sets an editor's text (an example, a shared link): no re-check is scheduled, the caller checks once. */
let programmatic = false;
function setText(v: EditorView, s: string): void {
  programmatic = true;
  try {
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: s } });
  } finally {
    programmatic = false;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// the worker
// ---------------------------------------------------------------------------------------------------------------

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = src;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error(`${src} could not be loaded`));
    document.head.appendChild(s);
  });
}

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, { resolve: (r: CheckResult) => void; reject: (e: Error) => void }>();

async function startWorker(): Promise<Worker> {
  if (worker) return worker;
  if (window.crdxWorkerSource === undefined) await loadScript('engine.js');
  const url = URL.createObjectURL(new Blob([window.crdxWorkerSource!], { type: 'text/javascript' }));
  const w = new Worker(url);
  w.onmessage = (e: MessageEvent<Response>) => {
    const p = pending.get(e.data.id);
    pending.delete(e.data.id);
    if (!p) return;
    if ('error' in e.data) p.reject(new Error(e.data.error));
    else p.resolve(e.data.result);
  };
  worker ??= w;
  return worker;
}

async function runCheck(input: CheckInput): Promise<CheckResult> {
  const w = await startWorker();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ id, input } satisfies Request);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// the page
// ---------------------------------------------------------------------------------------------------------------

const INITIAL_CRD = `# Paste one or more CustomResourceDefinitions here (YAML, several documents).
`;

let crdEditor: EditorView;
let objectEditor: EditorView;
let oldEditor: EditorView;
let storedView: EditorView;
let statusView: EditorView;
let scaleView: EditorView;
let last: CheckResult | undefined;
const timings: Timing[] = [];

function versions(): string[] {
  const out: string[] = [];
  for (let m = DEFAULT_KUBE_VERSION.minor; m >= MIN_KUBE_VERSION.minor; m--) out.push(`1.${m}`);
  return out;
}

function currentInput(): CheckInput {
  return { crds: text(crdEditor), object: text(objectEditor), old: text(oldEditor), kubeVersion: $<HTMLSelectElement>('kube').value, validate: $<HTMLSelectElement>('validate').value };
}

function editorFor(file: string): EditorView | undefined {
  return file === 'crds.yaml' ? crdEditor : file === 'object.yaml' ? objectEditor : file === 'old.yaml' ? oldEditor : undefined;
}

/** Moves the cursor of the finding's editor to its line and column, scrolled into view. */
function jumpTo(f: Finding): void {
  const v = editorFor(f.file);
  if (!v) return;
  const line = v.state.doc.line(Math.min(Math.max(f.line, 1), v.state.doc.lines));
  const pos = Math.min(line.from + Math.max(f.column - 1, 0), line.to);
  v.dispatch({ selection: { anchor: pos }, effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
  v.focus();
}

function diagnostics(v: EditorView, file: string, findings: readonly Finding[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const f of findings) {
    if (f.file !== file || f.line < 1 || f.line > v.state.doc.lines) continue;
    const line = v.state.doc.line(f.line);
    const from = Math.min(line.from + Math.max(f.column - 1, 0), line.to);
    out.push({ from, to: line.to, severity: f.severity === 'error' ? 'error' : 'warning', message: `${f.message} (${f.ruleId})` });
  }
  return out;
}

function el(tag: string, cls: string, textContent?: string): HTMLElement {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (textContent !== undefined) e.textContent = textContent;
  return e;
}

const COST_RULES = new Set(['cel-cost-explanation']);

function renderFindings(r: CheckResult): void {
  const list = $('findings');
  list.replaceChildren();
  const shown = r.findings.filter((f) => !COST_RULES.has(f.ruleId));
  const errors = shown.filter((f) => f.severity === 'error').length;
  $('findings-count').textContent = `${errors} error${errors === 1 ? '' : 's'}, ${shown.length - errors} warning${shown.length - errors === 1 ? '' : 's'}`;
  if (r.documents === 0) list.appendChild(el('li', 'empty', 'Nothing to check yet: paste a CustomResourceDefinition (and a custom resource).'));
  else if (shown.length === 0) list.appendChild(el('li', 'none', 'No findings: the server accepts this.'));
  for (const f of shown) {
    const li = el('li', `finding ${f.severity}`);
    li.tabIndex = 0;
    li.dataset['line'] = String(f.line);
    li.dataset['column'] = String(f.column);
    li.dataset['file'] = f.file;
    li.dataset['rule'] = f.ruleId;
    li.append(el('span', 'where', `${f.file}:${f.line}:${f.column}`), el('span', 'sev', f.severity), el('span', 'msg', f.message), el('span', 'rule', f.ruleId));
    li.onclick = () => jumpTo(f);
    li.onkeydown = (e) => e.key === 'Enter' && jumpTo(f);
    list.appendChild(li);
  }
  const costs = $('costs');
  costs.replaceChildren();
  const explained = r.findings.filter((f) => COST_RULES.has(f.ruleId));
  if (explained.length === 0) costs.appendChild(el('li', 'none', 'No CEL rules.'));
  for (const f of explained) {
    const li = el('li', 'finding cost', undefined);
    li.append(el('span', 'where', `${f.file}:${f.line}:${f.column}`), el('span', 'msg', f.message));
    li.onclick = () => jumpTo(f);
    costs.appendChild(li);
  }
}

function showObject(v: EditorView, yamlText: string, marks: readonly Mark[], fallback: string): void {
  setText(v, yamlText !== '' ? yamlText : fallback);
  v.dispatch({ effects: setMarks.of(yamlText !== '' ? marks : []) });
}

function objectFindingsText(findings: readonly Finding[]): string {
  return findings.map((f) => `# ${f.severity}: ${f.message}`).join('\n');
}

function render(r: CheckResult): void {
  last = r;
  renderFindings(r);
  crdEditor.dispatch(setDiagnostics(crdEditor.state, diagnostics(crdEditor, 'crds.yaml', r.findings)));
  objectEditor.dispatch(setDiagnostics(objectEditor.state, diagnostics(objectEditor, 'object.yaml', r.findings)));
  objectEditor.dispatch({ effects: setMarks.of(r.stored?.inputMarks ?? []) });
  const notes = r.notes.length > 0 ? r.notes.map((n) => `# ${n}`).join('\n') + '\n' : '# no custom resource in the object pane\n';
  const rejected = r.findings.filter((f) => f.file === 'object.yaml' && f.severity === 'error');
  showObject(storedView, r.stored?.yaml ?? '', r.stored?.marks ?? [], r.stored?.rejected ? `# rejected by the server:\n${objectFindingsText(rejected)}\n` : notes);
  $('stored-legend').textContent = r.stored ? `${r.stored.rejected ? 'REJECTED (see Findings); what it would store otherwise: ' : ''}${r.stored.marks.filter((m) => m.kind === 'added').length} added, ${r.stored.marks.filter((m) => m.kind === 'changed').length} changed, ${r.stored.inputMarks.length} removed (marked in the object pane)` : '';
  const st = r.status;
  setText(statusView, st ? (st.yaml !== '' && !st.rejected ? st.yaml : `# rejected:\n${objectFindingsText(st.findings)}\n`) : notes);
  const sc = r.scale;
  setText(scaleView, sc ? (sc.yaml !== '' ? sc.yaml : `# ${sc.failure ?? 'rejected'}\n${objectFindingsText(sc.findings)}\n`) : notes);
  $('status-line').textContent = `Kubernetes ${r.kubeVersion} · checked in ${r.ms.toFixed(0)} ms`;
  $('status-line').title = `fieldValidation=${r.fieldValidation}`;
}

let timer: ReturnType<typeof setTimeout> | undefined;
let generation = 0;

/** Checks the editors' state; older answers than the newest asked are dropped. */
async function recheck(since = performance.now()): Promise<void> {
  const g = ++generation;
  $('status-line').textContent = 'checking…';
  try {
    const r = await runCheck(currentInput());
    if (g !== generation) return;
    render(r);
    timings.push({ total: performance.now() - since, engine: r.ms });
  } catch (e) {
    if (g !== generation) return;
    $('status-line').textContent = `engine failure (please report): ${(e as Error).message.split('\n')[0]}`;
    console.error(e);
  }
}

function schedule(): void {
  const since = performance.now();
  if (timer !== undefined) clearTimeout(timer);
  timer = setTimeout(() => void recheck(since), DEBOUNCE_MS);
}

function apply(s: CheckInput): void {
  setText(crdEditor, s.crds);
  setText(objectEditor, s.object);
  setText(oldEditor, s.old);
  $<HTMLDetailsElement>('old-pane').open = s.old.trim() !== '';
  if (versions().includes(s.kubeVersion)) $<HTMLSelectElement>('kube').value = s.kubeVersion;
  $<HTMLSelectElement>('validate').value = ['strict', 'warn', 'ignore'].includes(s.validate ?? '') ? s.validate! : 'strict';
}

async function loadExamples(): Promise<void> {
  if (!window.crdxExamples) await loadScript('examples.js');
  const sel = $<HTMLSelectElement>('example');
  for (const x of window.crdxExamples ?? []) {
    const o = document.createElement('option');
    o.value = x.name;
    o.textContent = x.name;
    sel.appendChild(o);
  }
  sel.disabled = false;
  sel.onchange = () => {
    const x = window.crdxExamples?.find((e) => e.name === sel.value);
    if (!x) return;
    apply({ crds: x.crds, object: x.object, old: x.old, kubeVersion: $<HTMLSelectElement>('kube').value, validate: x.validate ?? 'strict' });
    void recheck();
  };
}

async function shareUrl(): Promise<string> {
  const base = location.href.replace(/#.*$/, '');
  return `${base}#s=${await encodeState(currentInput())}`;
}

let readyResolve: () => void = () => {};
window.crdx = {
  ready: new Promise<void>((r) => (readyResolve = r)),
  last: () => last,
  timings,
  check: runCheck,
  state: currentInput,
  shareUrl,
  cursor(pane) {
    const v = pane === 'crds' ? crdEditor : pane === 'object' ? objectEditor : oldEditor;
    const head = v.state.selection.main.head;
    const line = v.state.doc.lineAt(head);
    return { line: line.number, column: head - line.from + 1, focused: v.hasFocus };
  },
};

async function main(): Promise<void> {
  const kube = $<HTMLSelectElement>('kube');
  for (const v of versions()) {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = v === formatKubeVersion(DEFAULT_KUBE_VERSION) ? `${v} (default)` : v;
    kube.appendChild(o);
  }
  kube.value = formatKubeVersion(DEFAULT_KUBE_VERSION);
  kube.onchange = () => void recheck();
  $<HTMLSelectElement>('validate').onchange = () => void recheck();
  crdEditor = editor($('crd-editor'), INITIAL_CRD, schedule);
  objectEditor = editor($('object-editor'), '', schedule);
  oldEditor = editor($('old-editor'), '', schedule);
  storedView = editor($('stored-view'), '', undefined, true);
  statusView = editor($('status-view'), '', undefined, true);
  scaleView = editor($('scale-view'), '', undefined, true);
  $('share').onclick = async () => {
    const url = await shareUrl();
    history.replaceState(null, '', url);
    $<HTMLInputElement>('share-url').value = url;
    try {
      await navigator.clipboard.writeText(url);
      $('share-note').textContent = 'copied: the state is in the link itself (nothing is sent anywhere)';
    } catch {
      $('share-note').textContent = 'the state is in the link itself (nothing is sent anywhere)';
    }
  };
  const m = /#s=([A-Za-z0-9_-]+)/.exec(location.hash);
  let restored = false;
  if (m) {
    try {
      apply(await decodeState(m[1]!));
      restored = true;
    } catch (e) {
      $('share-note').textContent = `the link's state cannot be read: ${(e as Error).message}`;
    }
  }
  const examples = loadExamples().catch((e: unknown) => ($('share-note').textContent = String(e)));
  if (!restored) {
    await examples;
    const first = window.crdxExamples?.[0];
    if (first) {
      $<HTMLSelectElement>('example').value = first.name;
      apply({ ...first, kubeVersion: kube.value, validate: first.validate ?? 'strict' });
    }
  }
  await recheck(0);
  window.crdx.firstVerdict = performance.now();
  readyResolve();
}

void main();
