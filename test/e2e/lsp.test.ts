/**
 * The language server through a real LSP client over stdio (test/helpers/lsp-client.ts): its
 * diagnostics are `kubectl crdx lint -o json` on the same text, checked on open and change; hover,
 * quick fixes, the default preview, settings, re-checks of dependents; shutdown and exit.
 */
import { execa } from 'execa';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseAllDocuments } from 'yaml';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DidChangeWatchedFilesNotification, type CodeAction, type PublishDiagnosticsParams, type TextEdit } from 'vscode-languageserver-protocol';
import { CORPUS, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';
import { BIN, ROOT, startLsp, uriOf, type LspClient } from '../helpers/lsp-client.js';

interface LintJson {
  findings: { ruleId: string; severity: string; message: string; file: string; line: number; column: number; server?: { field: string; reason: string; message: string } }[];
}

async function lintJson(files: readonly string[], crds: readonly string[] = [], extra: readonly string[] = []): Promise<LintJson['findings']> {
  const r = await execa(process.execPath, [BIN, 'lint', '-o', 'json', ...crds.flatMap((c) => ['--crd', c]), ...extra, ...files], { cwd: ROOT, reject: false, env: { NO_COLOR: '1' } });
  expect(r.exitCode, r.stderr).toBeLessThan(2);
  return (JSON.parse(r.stdout) as LintJson).findings;
}

const text_ = (m: string | { value: string }): string => (typeof m === 'string' ? m : m.value);
const SEV: Record<number, string> = { 1: 'error', 2: 'warning', 3: 'info' };
const asLint = (p: PublishDiagnosticsParams) =>
  p.diagnostics.map((d) => ({ ruleId: String(d.code), severity: SEV[d.severity!], message: text_(d.message), line: d.range.start.line + 1, column: d.range.start.character + 1 }));
const fromLint = (fs: LintJson['findings']) => fs.map((f) => ({ ruleId: f.ruleId, severity: f.severity, message: f.message, line: f.line, column: f.column }));

function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const offset = (l: number, c: number): number => {
    const lines = text.split('\n');
    let o = 0;
    for (let i = 0; i < l; i++) o += lines[i]!.length + 1;
    return o + c;
  };
  const sorted = [...edits].sort((a, b) => offset(b.range.start.line, b.range.start.character) - offset(a.range.start.line, a.range.start.character));
  let out = text;
  for (const e of sorted) out = out.slice(0, offset(e.range.start.line, e.range.start.character)) + e.newText + out.slice(offset(e.range.end.line, e.range.end.character));
  return out;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'crdx-lsp-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FOO_CRD = join(CORPUS, 'crds', 'sample-controller', 'crd.yaml');
const STRICT = join(ROOT, 'fixtures', 'rules', 'custom-resource', 'invalid', 'strict-unknown-fields.yaml');
const SCALE = join(ROOT, 'fixtures', 'rules', 'scale-subresource', 'invalid', 'missing-status-path.yaml');
const WIDGETS = join(ROOT, 'fixtures', 'crds', '01-widgets.yaml');

describe('lsp: lifecycle', () => {
  it('answers initialize with its capabilities, exits 0 after shutdown and exit', async () => {
    const c = await startLsp();
    expect(c.initializeResult.serverInfo?.name).toBe('kubectl-crdx');
    expect(c.initializeResult.capabilities).toMatchObject({
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: ['quickfix'] },
      executeCommandProvider: { commands: ['crdx.defaultPreview'] },
      textDocumentSync: 2,
    });
    expect(await c.stop()).toBe(0);
  });
});

describe('lsp: diagnostics are lint -o json on the same text', () => {
  let c: LspClient;
  beforeAll(async () => {
    c = await startLsp();
  });
  afterAll(async () => {
    expect(await c.stop()).toBe(0);
  });

  const fixtures = [join(ROOT, 'fixtures', 'crds', '02-gadgets-broken.yaml'), STRICT, SCALE, join(ROOT, 'fixtures', 'rules', 'custom-resource', 'invalid', 'schema.yaml')];
  it.each(fixtures.map((f) => [f.slice(ROOT.length + 1), f]))('fixture %s', async (_, f) => {
    const text = readFileSync(f, 'utf8');
    const p = await c.open(f, text);
    const lint = fromLint(await lintJson([f]));
    expect(lint.length).toBeGreaterThan(0);
    expect(asLint(p)).toEqual(lint);
    // every diagnostic: source, rule page, the finding's range
    for (const d of p.diagnostics) {
      expect(d.source).toBe('crdx');
      expect(d.codeDescription?.href).toMatch(new RegExp(`/docs/rules/${String(d.code)}\\.md$`));
    }
    await c.close(f);
  });

  const corpus = ['sample-controller/crd.yaml', 'cert-manager/cert-manager.io_certificates.yaml', 'gateway-api', 'kyverno/kyverno.io_policies.yaml'];
  it.skipIf(!HAVE_CORPUS).each(corpus)(`corpus CRD %s ${HAVE_CORPUS ? '' : NO_CORPUS_REASON}`, async (name) => {
    const root = join(CORPUS, 'crds', name);
    const files = name.endsWith('.yaml') ? [root] : (await import('node:fs')).readdirSync(root).sort().slice(0, 2).map((f) => join(root, f));
    for (const f of files) {
      const p = await c.open(f, readFileSync(f, 'utf8'));
      expect(asLint(p)).toEqual(fromLint(await lintJson([f])));
      await c.close(f);
    }
  });

  // custom resources: each sample of a project against the project's CRDs (crdPaths), as lint --crd
  it.skipIf(!HAVE_CORPUS).each(['argo-cd', 'cluster-api', 'cert-manager', 'gateway-api'])(`corpus samples of %s against their CRDs ${HAVE_CORPUS ? '' : NO_CORPUS_REASON}`, async (project) => {
    const crds = join(CORPUS, 'crds', project);
    const samples = join(CORPUS, 'samples', project);
    const s = await startLsp({ initializationOptions: { crdPaths: [crds] } });
    const files = (await import('node:fs')).readdirSync(samples).sort().map((f) => join(samples, f));
    const r = await execa(process.execPath, [BIN, 'lint', '-o', 'json', '--crd', crds, ...files], { cwd: ROOT, reject: false, env: { NO_COLOR: '1' } });
    const out = JSON.parse(r.stdout) as LintJson & { summary: { unchecked?: { objects: number } } };
    const all = out.findings;
    if (project === 'argo-cd' || project === 'cluster-api') expect(all.length).toBeGreaterThan(0);
    // objects no CRD defines: lint counts them in its summary, the server marks each at its kind
    let unchecked = 0;
    for (const f of files) {
      const p = await s.open(f, readFileSync(f, 'utf8'));
      const marks = p.diagnostics.filter((d) => d.code === 'unchecked');
      expect(marks.every((d) => d.severity === 3 && /^not checked: no CRD defines kind "/.test(text_(d.message)))).toBe(true);
      unchecked += marks.length;
      expect(asLint({ ...p, diagnostics: p.diagnostics.filter((d) => d.code !== 'unchecked') }), f).toEqual(fromLint(all.filter((x) => x.file === f)));
    }
    expect(unchecked).toBe(out.summary.unchecked?.objects ?? 0);
    if (project === 'cluster-api') expect(unchecked).toBeGreaterThan(0);
    expect(await s.stop()).toBe(0);
  });

  it('a one-character change is checked again and still equals lint on the new text', async () => {
    const f = join(dir, 'foo-crd.yaml');
    const text = readFileSync(WIDGETS, 'utf8');
    expect(asLint(await c.open(f, text))).toEqual([]);
    // `storage: true` -> `storage: tru`: a string where the server wants a boolean
    const at = text.split('\n').findIndex((l) => l.includes('storage: true'));
    const col = text.split('\n')[at]!.indexOf('true') + 3;
    const p = await c.change(f, 2, [{ range: { start: { line: at, character: col }, end: { line: at, character: col + 1 } }, text: '' }]);
    expect(p.version).toBe(2);
    const changed = text.split('\n').map((l, i) => (i === at ? l.replace('storage: true', 'storage: tru') : l)).join('\n');
    writeFileSync(f, changed);
    const lint = fromLint(await lintJson([f]));
    expect(lint.length).toBeGreaterThan(0);
    expect(asLint(p)).toEqual(lint);
    await c.close(f);
  });
});

describe('lsp: custom resources against the CRDs of the workspace', () => {
  const BAD_FOO = 'apiVersion: samplecontroller.k8s.io/v1alpha1\nkind: Foo\nmetadata:\n  name: example-foo\nspec:\n  deploymentName: example-foo\n  replicas: 11\n';
  it.skipIf(!HAVE_CORPUS)('crdPaths: the CR is lint --crd; the schema error points into the CRD; hover shows the server cause', async () => {
    const c = await startLsp({ initializationOptions: { crdPaths: [FOO_CRD] } });
    const f = join(dir, 'foo.yaml');
    writeFileSync(f, BAD_FOO);
    const p = await c.open(f, BAD_FOO);
    const lint = await lintJson([f], [FOO_CRD]);
    expect(asLint(p)).toEqual(fromLint(lint));
    const d = p.diagnostics.find((x) => x.code === 'custom-resource')!;
    expect(d.range.start).toEqual({ line: 6, character: 12 });
    // the schema node: spec.properties.replicas of the CRD (line 25 of crd.yaml)
    const crdLines = readFileSync(FOO_CRD, 'utf8').split('\n');
    expect(d.relatedInformation).toHaveLength(1);
    const rel = d.relatedInformation![0]!;
    expect(rel.location.uri).toBe(uriOf(FOO_CRD));
    expect(crdLines[rel.location.range.start.line]!.slice(rel.location.range.start.character)).toMatch(/^replicas:/);
    expect(rel.message).toContain('properties[spec].properties[replicas]');
    const h = await c.hover(f, 6, 13);
    const md = (h!.contents as { value: string }).value;
    const server = lint.find((x) => x.ruleId === 'custom-resource')!.server!;
    expect(md).toContain(`field \`${server.field}\`, reason \`${server.reason}\`: ${server.message}`);
    expect(md).toContain('custom-resource');
    expect(md).toMatch(/Every object of the input|custom resource/i);
    // no hover away from a diagnostic
    expect(await c.hover(f, 0, 1)).toBeNull();
    expect(await c.stop()).toBe(0);
  });

  it('an object of a custom group no CRD defines is marked at its kind as not checked, never left silent; a built-in object is not', async () => {
    const c = await startLsp();
    const f = join(dir, 'no-crd.yaml');
    const text = `${BAD_FOO}---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n`;
    writeFileSync(f, text);
    const p = await c.open(f, text);
    expect(p.diagnostics).toHaveLength(1);
    const d = p.diagnostics[0]!;
    expect([d.code, d.severity, d.source]).toEqual(['unchecked', 3, 'crdx']);
    expect(d.range).toEqual({ start: { line: 1, character: 6 }, end: { line: 1, character: 9 } });
    expect(text_(d.message)).toBe(
      'not checked: no CRD defines kind "Foo" in group "samplecontroller.k8s.io" (crdx read the workspace folders, crdx.crdPaths and the open documents); add the CRD\'s file or directory to crdx.crdPaths',
    );
    // lint says the same in its summary
    const r = await execa(process.execPath, [BIN, 'lint', '-o', 'json', f], { cwd: ROOT, reject: false, env: { NO_COLOR: '1' } });
    expect((JSON.parse(r.stdout) as { summary: { unchecked?: unknown } }).summary.unchecked).toEqual(expect.objectContaining({ objects: 1, kinds: ['Foo.samplecontroller.k8s.io'] }));
    const h = await c.hover(f, 1, 7);
    expect((h!.contents as { value: string }).value).toContain('**crdx** `unchecked`');
    expect(await c.stop()).toBe(0);
  });

  it.skipIf(!HAVE_CORPUS)('workspace folders: CRDs are found under them; workspace/configuration overrides initializationOptions', async () => {
    const ws = mkdtempSync(join(dir, 'ws-'));
    writeFileSync(join(ws, 'crd.yaml'), readFileSync(FOO_CRD, 'utf8'));
    const cr = join(ws, 'cr.yaml');
    const text = BAD_FOO.replace('kind: Foo', 'kind: Foo').replace('  replicas: 11\n', '  replicas: 2\n  extra: 1\n');
    writeFileSync(cr, text);
    const c = await startLsp({ workspaceFolders: [ws], initializationOptions: { validate: 'strict' }, configuration: { validate: 'warn' } });
    const p = await c.open(cr, text);
    expect(asLint(p)).toEqual(fromLint(await lintJson([cr], [join(ws, 'crd.yaml')], ['--validate=warn'])));
    expect(p.diagnostics.map((d) => [d.code, d.severity])).toEqual([['custom-resource-warnings', 2]]);
    // the CRD file changes on disk (not open): the client's file event has the CR checked again
    writeFileSync(join(ws, 'crd.yaml'), readFileSync(FOO_CRD, 'utf8').replace('                deploymentName:\n', '                extra:\n                  type: integer\n                deploymentName:\n'));
    await c.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf(join(ws, 'crd.yaml')), type: 2 }] });
    expect((await c.nextDiagnostics(cr)).diagnostics).toEqual([]);
    // and a file outside the workspace and crdPaths is ignored
    c.published(cr);
    await c.conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uriOf(FOO_CRD), type: 2 }] });
    await new Promise((r) => setTimeout(r, 200));
    expect(c.published(cr)).toEqual([]);
    expect(await c.stop()).toBe(0);
  });

  it('a changed CRD re-checks the open custom resources of its kinds, and only those', async () => {
    const c = await startLsp({ initializationOptions: { debounceMs: 10 } });
    const crd = join(dir, 'widgets-crd.yaml');
    const cr = join(dir, 'widget.yaml');
    const other = join(dir, 'other.yaml');
    const crdText = readFileSync(WIDGETS, 'utf8');
    const crText = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  replicas: 3\n  size: huge\n';
    const otherText = 'apiVersion: example.com/v1\nkind: Gizmo\nmetadata:\n  name: g\n';
    await c.open(crd, crdText);
    const before = await c.open(cr, crText);
    expect(before.diagnostics.map((d) => text_(d.message))).toContainEqual(expect.stringContaining('spec.size: Unsupported value: "huge"'));
    await c.open(other, otherText);
    c.published(cr);
    c.published(other);
    // the CRD now allows "huge"
    const line = crdText.split('\n').findIndex((l) => l.includes('enum: [small, medium, large]'));
    const col = crdText.split('\n')[line]!.indexOf('large') + 'large'.length;
    await c.change(crd, 2, [{ range: { start: { line, character: col }, end: { line, character: col } }, text: ', huge' }]);
    const after = await c.nextDiagnostics(cr);
    expect(after.diagnostics).toEqual([]);
    await new Promise((r) => setTimeout(r, 300));
    expect(c.published(other)).toEqual([]);
    // closing the CRD: the custom resource has no CRD any more (none on disk at that path), and says so
    await c.close(crd);
    expect((await c.nextDiagnostics(cr)).diagnostics.map((d) => [d.code, d.severity])).toEqual([['unchecked', 3]]);
    expect(await c.stop()).toBe(0);
  });
});

describe('lsp: quick fixes', () => {
  it('removes an unknown field reported under strict field validation; lint then has no such finding', async () => {
    const c = await startLsp();
    const text = readFileSync(STRICT, 'utf8');
    const p = await c.open(STRICT, text);
    const d = p.diagnostics.find((x) => text_(x.message).startsWith('unknown field "spec.unknown1"'))!;
    const actions = (await c.codeActions(STRICT, [d])) as CodeAction[];
    expect(actions.map((a) => a.title)).toEqual(['Remove unknown field "spec.unknown1"']);
    expect(actions[0]!.kind).toBe('quickfix');
    const fixed = applyEdits(text, actions[0]!.edit!.changes![uriOf(STRICT)]!);
    expect(fixed).not.toContain('  unknown1: val1\n');
    expect(text).toContain('  unknown1: val1\n');
    expect(fixed.split('\n').length).toBe(text.split('\n').length - 1);
    const f = join(dir, 'strict-fixed.yaml');
    writeFileSync(f, fixed);
    const lint = await lintJson([f]);
    expect(lint.some((x) => x.message.includes('spec.unknown1'))).toBe(false);
    expect(lint.filter((x) => text_(x.message).startsWith('unknown field')).length).toBe(p.diagnostics.filter((x) => text_(x.message).startsWith('unknown field')).length - 1);
    // a flow mapping entry is not edited mechanically
    const flow = p.diagnostics.find((x) => text_(x.message).startsWith('unknown field "spec.ports[0].unknownNested"'))!;
    expect(await c.codeActions(STRICT, [flow])).toEqual([]);
    // hover on a 400: the server's whole response
    const h = await c.hover(STRICT, d.range.start.line, d.range.start.character + 1);
    expect((h!.contents as { value: string }).value).toContain('API server response: 400 BadRequest: CrdFv in version "v1" cannot be handled as a CrdFv: strict decoding error');
    expect(await c.stop()).toBe(0);
  });

  it('adds the missing statusReplicasPath of a scale subresource; lint then is clean of it', async () => {
    const c = await startLsp();
    const text = readFileSync(SCALE, 'utf8');
    const p = await c.open(SCALE, text);
    const d = p.diagnostics.find((x) => x.code === 'scale-subresource')!;
    const actions = (await c.codeActions(SCALE, [d])) as CodeAction[];
    expect(actions.map((a) => a.title)).toEqual(['Add statusReplicasPath: .status.replicas to the scale subresource']);
    const fixed = applyEdits(text, actions[0]!.edit!.changes![uriOf(SCALE)]!);
    expect(fixed).toContain('        scale:\n          statusReplicasPath: .status.replicas\n          specReplicasPath: .spec.replicas\n');
    const f = join(dir, 'scale-fixed.yaml');
    writeFileSync(f, fixed);
    expect(await lintJson([f])).toEqual([]);
    // a stale diagnostic (older version) gets no action
    await c.change(SCALE, 2, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# edited\n' }]);
    expect(await c.codeActions(SCALE, [d])).toEqual([]);
    expect(await c.stop()).toBe(0);
  });
});

describe('lsp: crdx.defaultPreview', () => {
  it('returns the stored object as `kubectl crdx default` prints it', async () => {
    const c = await startLsp({ initializationOptions: { crdPaths: [WIDGETS] } });
    const f = join(dir, 'w.yaml');
    const text = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  replicas: 2\n';
    writeFileSync(f, text);
    await c.open(f, text);
    const r = (await c.execute('crdx.defaultPreview', [uriOf(f)])) as { objects: { stored: { spec: Record<string, unknown> }; rejected: boolean }[]; yaml: string };
    expect(r.objects).toHaveLength(1);
    expect(r.objects[0]!.rejected).toBe(false);
    expect(r.objects[0]!.stored.spec).toMatchObject({ replicas: 2, minReplicas: 0, size: 'medium' });
    const cli = await execa(process.execPath, [BIN, 'default', '--no-explain', '--crd', WIDGETS, f], { cwd: ROOT, reject: false, env: { NO_COLOR: '1' } });
    expect(cli.exitCode).toBe(0);
    expect(r.yaml).toBe(cli.stdout + '\n');
    await expect(c.execute('crdx.defaultPreview', [uriOf(join(dir, 'not-open.yaml'))])).rejects.toThrow(/is not open/);
    expect(await c.stop()).toBe(0);
  });
});

describe('lsp: crdx.cluster.context', () => {
  // a tiny read-only API server on 127.0.0.1 that has the widgets CRD installed
  let server: http.Server;
  let kubeconfig: string;
  const listed: string[] = [];
  beforeAll(async () => {
    const crd = parseAllDocuments(readFileSync(WIDGETS, 'utf8'))[0]!.toJS() as Record<string, unknown>;
    const { apiVersion: _a, kind: _k, ...item } = crd;
    server = http.createServer((req, res) => {
      listed.push(req.url ?? '');
      const url = new URL(req.url ?? '/', 'http://x');
      res.writeHead(url.pathname === '/apis/apiextensions.k8s.io/v1/customresourcedefinitions' ? 200 : 404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(url.pathname === '/apis/apiextensions.k8s.io/v1/customresourcedefinitions' ? { kind: 'CustomResourceDefinitionList', apiVersion: 'apiextensions.k8s.io/v1', metadata: { resourceVersion: '1' }, items: [item] } : { kind: 'Status', code: 404 }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:${port}", insecure-skip-tls-verify: true}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: dev, context: {cluster: c, user: u}}, {name: other, context: {cluster: c, user: u}}]\ncurrent-context: other\n`,
    );
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  const CR = 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: default}\nspec:\n  replicas: -1\n';

  it('custom resources are checked against the CRDs installed in that context, as lint --cluster checks them', async () => {
    const f = join(dir, 'cluster-cr.yaml');
    writeFileSync(f, CR);
    const c = await startLsp({ initializationOptions: { cluster: { context: 'dev' } }, env: { KUBECONFIG: kubeconfig } });
    const got = asLint(await c.open(f, CR));
    const cli = await execa(process.execPath, [BIN, 'lint', '-o', 'json', '--cluster', '--kubeconfig', kubeconfig, '--context', 'dev', f], { cwd: ROOT, reject: false, env: { NO_COLOR: '1' } });
    const want = fromLint((JSON.parse(cli.stdout) as LintJson).findings.filter((x) => x.file === f));
    expect(want.length).toBeGreaterThan(0);
    expect(want.some((x) => x.ruleId === 'custom-resource')).toBe(true);
    expect(got).toEqual(want);
    expect(listed.some((u) => u.startsWith('/apis/apiextensions.k8s.io/v1/customresourcedefinitions'))).toBe(true);
    expect(c.messages).toEqual([]);
    expect(await c.stop()).toBe(0);
  });

  it('a context the kubeconfig does not have: a warning that says why, and local CRDs still work', async () => {
    const f = join(dir, 'cluster-cr2.yaml');
    writeFileSync(f, CR);
    const c = await startLsp({ initializationOptions: { cluster: { context: 'nope' }, crdPaths: [WIDGETS] }, env: { KUBECONFIG: kubeconfig } });
    const got = asLint(await c.open(f, CR));
    expect(got.some((x) => x.ruleId === 'custom-resource')).toBe(true);
    expect(c.messages).toEqual([expect.stringMatching(/^crdx: crdx\.cluster\.context "nope": context "nope" not found in kubeconfig .*; only local CRDs are used$/)]);
    expect(await c.stop()).toBe(0);
  });
});
