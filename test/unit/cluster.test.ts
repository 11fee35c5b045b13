/**
 * `--cluster` against tiny local fake API servers (no Go needed): kubeconfig handling, paging,
 * read-only requests, the commands' results compared with the same commands on local files, and
 * the faults of issues 6 and 8 (a server that never answers, a slow answer, a reset connection,
 * 401, 403, 500, malformed JSON), each one line and exit 2 within a bounded time.
 * The real apiextensions-apiserver is used in test/conformance/cluster.conformance.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';
import { parseRequestTimeout } from '../../src/core/duration.js';
import { InternalError } from '../../src/core/errors.js';
import { assertReadOnly, CLIENT_MISSING, isMissingPackage } from '../../src/io/cluster.js';
import { stripServerFields } from '../../src/io/cluster-source.js';

const ROOT = join(import.meta.dirname, '..', '..');
type Obj = Record<string, unknown>;

async function run(args: readonly string[], env: Record<string, string> = {}, tty = false, columns = 80) {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: { write: (s: string) => (stdout += s) },
    // a terminal as ora drives it (it moves the cursor and clears lines)
    stderr: tty
      ? Object.assign({ write: (s: string) => ((stderr += s), true), isTTY: true, columns }, { cursorTo: () => true, clearLine: () => true, moveCursor: () => true, on: () => undefined, removeListener: () => undefined })
      : { write: (s: string) => (stderr += s), isTTY: false },
    readStdin: async () => '',
    cwd: ROOT,
    env: { NO_COLOR: '1', HOME: '/nonexistent-home', ...env },
  };
  const t0 = Date.now();
  const code = await main(args, io);
  return { code, stdout, stderr, ms: Date.now() - t0 };
}

function docs(file: string): Obj[] {
  return parseAllDocuments(readFileSync(join(ROOT, file), 'utf8')).map((d) => d.toJS() as Obj);
}

const WIDGETS = docs('fixtures/crds/01-widgets.yaml')[0]!;
const BROKEN = docs('fixtures/crds/02-gadgets-broken.yaml');

/** What a server adds to an object it stores: the tool must not lint or show any of it. */
function asServed(o: Obj, i: number): Obj {
  const meta = o['metadata'] as Obj;
  return {
    ...o,
    metadata: {
      ...meta,
      uid: `00000000-0000-0000-0000-00000000000${i}`,
      resourceVersion: String(100 + i),
      generation: 1,
      creationTimestamp: `2024-01-01T00:00:0${i}Z`,
      managedFields: [{ manager: 'kubectl', operation: 'Update', fieldsType: 'FieldsV1', fieldsV1: {} }],
    },
    status: { conditions: [{ type: 'Established', status: 'True' }], acceptedNames: { kind: 'X', plural: 'xs' }, storedVersions: ['v1'] },
  };
}

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly auth: string | undefined;
}

type Mode = 'ok' | 'hang' | 'slow-body' | 'reset' | 'half' | '500' | 'malformed' | '401' | '403' | 'repeat-continue';

let server: http.Server;
let port = 0;
let mode: Mode = 'ok';
let crds: Obj[] = [];
let objects = new Map<string, Obj>();
const seen: Seen[] = [];
const sockets = new Set<net.Socket>();
let dir = '';

function kubeconfig(p: number, opts: { token?: string; scheme?: string; name?: string } = {}): string {
  const name = opts.name ?? 'fake';
  return `apiVersion: v1
kind: Config
clusters:
- name: ${name}
  cluster:
    server: ${opts.scheme ?? 'http'}://127.0.0.1:${p}
    insecure-skip-tls-verify: true
users:
- name: alice
  user:
    token: ${opts.token ?? 's3cret'}
contexts:
- name: ${name}
  context:
    cluster: ${name}
    user: alice
    namespace: team
current-context: ${name}
`;
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  // a bigint is written as its digits, as a Go server writes an int64
  res.end(JSON.stringify(body, (_k, v: unknown) => (typeof v === 'bigint' ? `\u0000big:${v}` : v)).replace(/"\\u0000big:(-?\d+)"/g, '$1'));
}

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  seen.push({ method: req.method ?? '', url: req.url ?? '', auth: req.headers.authorization });
  const url = new URL(req.url ?? '/', 'http://x');
  switch (mode) {
    case 'hang':
      return; // accepted, never answered
    case 'slow-body': {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"items":[');
      const t = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(t));
      return;
    }
    case 'reset':
      req.socket.destroy();
      return;
    case 'half':
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      res.write('{"items":[');
      setTimeout(() => req.socket.destroy(), 20);
      return;
    case '500':
      return json(res, 500, { kind: 'Status', status: 'Failure', message: 'etcdserver: request timed out\nretry later', code: 500 });
    case 'malformed':
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"kind":"CustomResourceDefinitionList","items":[{"metadata":');
      return;
    case '401':
      return json(res, 401, { kind: 'Status', status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
    case '403':
      return json(res, 403, {
        kind: 'Status',
        status: 'Failure',
        message: 'customresourcedefinitions.apiextensions.k8s.io is forbidden: User "alice" cannot list resource "customresourcedefinitions" in API group "apiextensions.k8s.io" at the cluster scope',
        reason: 'Forbidden',
        code: 403,
      });
    default:
  }
  if (req.method !== 'GET') return json(res, 405, { kind: 'Status', message: 'fake server: read-only' });
  const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  if (url.pathname === CRDS) {
    const limit = Number(url.searchParams.get('limit') ?? crds.length);
    const from = Number(url.searchParams.get('continue') || '0');
    // as a real server: list items carry no apiVersion and kind
    const items = crds.slice(from, from + limit).map(({ apiVersion: _a, kind: _k, ...rest }) => rest);
    const next = from + limit < crds.length ? String(from + limit) : '';
    return json(res, 200, {
      kind: 'CustomResourceDefinitionList',
      apiVersion: 'apiextensions.k8s.io/v1',
      metadata: { resourceVersion: '99', ...(mode === 'repeat-continue' ? { continue: '0' } : next !== '' ? { continue: next } : {}) },
      items,
    });
  }
  if (url.pathname.startsWith(`${CRDS}/`)) {
    const name = decodeURIComponent(url.pathname.slice(CRDS.length + 1));
    const crd = crds.find((c) => (c['metadata'] as Obj)['name'] === name);
    return crd ? json(res, 200, crd) : json(res, 404, { kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 });
  }
  const obj = objects.get(url.pathname);
  return obj ? json(res, 200, obj) : json(res, 404, { kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crdx-cluster-'));
  server = http.createServer(handle);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as net.AddressInfo).port;
  writeFileSync(join(dir, 'kubeconfig'), kubeconfig(port));
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

beforeEach(() => {
  mode = 'ok';
  crds = [asServed(WIDGETS, 1)];
  objects = new Map();
  seen.length = 0;
});

const KC = () => ['--kubeconfig', join(dir, 'kubeconfig')];

interface JsonFinding {
  ruleId: string;
  severity: string;
  message: string;
  file: string;
  line: number;
  column: number;
  path: string;
  object?: { name?: string };
}

/** A finding without where it sits: the same finding from a file and from the cluster. */
function what(f: JsonFinding): string {
  return JSON.stringify([f.ruleId, f.severity, f.message, f.object?.name, f.path]);
}

function oneErrorLine(r: { code: number; stdout: string; stderr: string }): string {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(r.stderr).not.toMatch(/^\s+at /m);
  return lines[0]!;
}

describe('lint --cluster', () => {
  it('lists the CRDs page by page and reports the same findings as lint of the files', async () => {
    const broken = BROKEN.filter((d) => d['kind'] === 'CustomResourceDefinition');
    crds = [WIDGETS, ...broken].map((c, i) => asServed(c, i + 1));
    const live = await run(['lint', '--cluster', ...KC(), '-o', 'json', '--chunk-size', '1']);
    const local = await run(['lint', '-o', 'json', 'fixtures/crds/01-widgets.yaml', 'fixtures/crds/02-gadgets-broken.yaml']);
    expect(live.stderr).toBe('');
    expect(live.code).toBe(local.code);
    const L = JSON.parse(live.stdout) as { findings: JsonFinding[]; summary: { documents: number; files: number } };
    const F = JSON.parse(local.stdout) as { findings: JsonFinding[] };
    expect(F.findings.length).toBeGreaterThan(0);
    expect(L.findings.map(what).sort()).toEqual(F.findings.map(what).sort());
    expect(L.summary.documents).toBe(crds.length);
    // every finding points into a rendered cluster object, with a line
    for (const f of L.findings) {
      expect(f.file).toMatch(/^cluster:fake\/customresourcedefinitions\/[a-z.]+$/);
      expect(f.line).toBeGreaterThan(0);
    }
    // one request per page, following the continue tokens, with the kubeconfig's token
    expect(seen.map((s) => s.url)).toEqual([
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?limit=1',
      ...crds.slice(1).map((_, i) => `/apis/apiextensions.k8s.io/v1/customresourcedefinitions?limit=1&continue=${i + 1}`),
    ]);
    expect(new Set(seen.map((s) => s.method))).toEqual(new Set(['GET']));
    expect(new Set(seen.map((s) => s.auth))).toEqual(new Set(['Bearer s3cret']));
  });

  it('uses 500 items per page by default, like kubectl', async () => {
    const r = await run(['lint', '--cluster', ...KC()]);
    expect(r.code).toBe(0);
    expect(seen.map((s) => s.url)).toEqual(['/apis/apiextensions.k8s.io/v1/customresourcedefinitions?limit=500']);
  });

  it('reports a naming conflict between a local and an installed CRD on the local one', async () => {
    const local = structuredClone(WIDGETS) as { metadata: Obj; spec: { names: Obj } };
    local.metadata['name'] = 'gizmos.example.com';
    local.spec.names = { ...local.spec.names, plural: 'gizmos', singular: 'gizmo', kind: 'Gizmo', listKind: 'GizmoList', shortNames: ['wd'] };
    const f = join(dir, 'gizmos.yaml');
    writeFileSync(f, JSON.stringify(local));
    const r = await run(['lint', '--cluster', ...KC(), '-o', 'json', f]);
    expect(r.code).toBe(1);
    const findings = (JSON.parse(r.stdout) as { findings: JsonFinding[] }).findings;
    expect(findings.map((x) => [x.ruleId, x.file, x.object?.name])).toEqual([['naming-conflicts', f, 'gizmos.example.com']]);
    expect(findings[0]!.message).toContain('"wd"');
  });

  it('keeps stdout clean for json even when stderr is a terminal', async () => {
    const r = await run(['lint', '--cluster', ...KC(), '-o', 'json'], {}, true);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ findings: [] });
  });

  it('no spinner (and no hang) on a terminal that reports 0 columns', async () => {
    const r = await run(['lint', '--cluster', ...KC(), '-o', 'json'], { CI: '' }, true, 0);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });
});

describe('default --cluster', () => {
  it('takes the CRD of a local object from the cluster: the same result as with --crd', async () => {
    const cr = join(dir, 'widget.yaml');
    writeFileSync(cr, 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: team}\nspec: {replica: 3, ports: []}\n');
    const live = await run(['default', '--cluster', ...KC(), cr, '--validate=warn']);
    const local = await run(['default', cr, '--crd', 'fixtures/crds/01-widgets.yaml', '--validate=warn']);
    expect(local.code).toBe(0);
    expect(live).toMatchObject({ code: local.code, stdout: local.stdout, stderr: local.stderr });
    expect(local.stdout).toContain('replicas: 1');
  });

  it('fails in one line when no installed CRD serves an object', async () => {
    const cr = join(dir, 'thing.yaml');
    writeFileSync(cr, 'apiVersion: other.io/v1\nkind: Thing\nmetadata: {name: t}\n');
    const line = oneErrorLine(await run(['default', '--cluster', ...KC(), cr]));
    expect(line).toBe(`error: no CustomResourceDefinition for Thing in group "other.io" is installed (server http://127.0.0.1:${port}, context "fake")`);
  });

  it('reads a live object (RESOURCE/NAME) in the namespace of the context, without what the server generated', async () => {
    const live: Obj = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'foo', namespace: 'team', uid: 'u', resourceVersion: '7', generation: 2, creationTimestamp: '2024-01-01T00:00:00Z', managedFields: [{ manager: 'x' }], labels: { a: 'b' } },
      spec: { replicas: 2, unknownField: true, size: 'small' },
      status: { replicas: 2 },
    };
    objects.set('/apis/example.com/v1/namespaces/team/widgets/foo', live);
    const r = await run(['default', '--cluster', ...KC(), 'widgets.example.com/foo', '--explain', '--validate=warn']);
    const f = join(dir, 'foo.yaml');
    writeFileSync(f, JSON.stringify(stripServerFields(live, { status: true })));
    const local = await run(['default', f, '--crd', 'fixtures/crds/01-widgets.yaml', '--explain', '--validate=warn']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(local.stdout);
    expect(r.stderr).toContain('cluster:fake/widgets.example.com/team/foo:');
    expect(r.stderr).toContain('- spec.unknownField (unknown field, pruned)');
    expect(r.stdout).not.toMatch(/uid|resourceVersion|managedFields|status/);
    // by short name and kind too, and -n overrides the context's namespace
    objects.set('/apis/example.com/v1/namespaces/other/widgets/foo', { ...live, metadata: { ...(live['metadata'] as Obj), namespace: 'other' } });
    expect((await run(['default', '--cluster', ...KC(), 'wd/foo', '--validate=warn'])).code).toBe(0);
    expect((await run(['default', '--cluster', ...KC(), '-n', 'other', 'widget/foo', '--validate=warn'])).stdout).toContain('namespace: other');
    expect(seen.every((s) => s.method === 'GET')).toBe(true);
  });

  it('reads the int64s of a live object exactly (beyond 2^53 too)', async () => {
    const live: Obj = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'big', namespace: 'team' }, spec: { replicas: 9007199254740992n, minReplicas: 9007199254740993n } };
    objects.set('/apis/example.com/v1/namespaces/team/widgets/big', live);
    const r = await run(['default', '--cluster', ...KC(), 'widgets.example.com/big', '--validate=warn']);
    // rounded to doubles both would be 9007199254740992 and the rule would pass
    expect(r.stderr).toContain('replicas must be at least minReplicas');
    expect(r.code).toBe(1);
    live['spec'] = { replicas: 9007199254740993n, minReplicas: 9007199254740993n };
    const same = await run(['default', '--cluster', ...KC(), 'widgets.example.com/big', '--validate=warn']);
    // the scale subresource's int32 bound, with the value as the server has it
    expect(same.stderr).toContain('.spec.replicas: Invalid value: 9007199254740993: should be less than or equal to 2147483647');
    expect(same.stderr).not.toContain('replicas must be at least minReplicas');
  });

  it('a live object that does not exist, a resource that is not installed: one line each', async () => {
    expect(oneErrorLine(await run(['default', '--cluster', ...KC(), 'widgets.example.com/nope']))).toBe(
      `error: widgets.example.com "nope" not found in namespace "team" (server http://127.0.0.1:${port}, context "fake")`,
    );
    expect(oneErrorLine(await run(['default', '--cluster', ...KC(), 'gadgets.example.com/x']))).toContain('no CustomResourceDefinition for "gadgets.example.com" is installed');
  });
});

describe('cluster faults: one line, exit 2, bounded by --request-timeout', () => {
  const LIST = 'cannot list customresourcedefinitions.apiextensions.k8s.io';
  it.each([
    ['hang', 'no answer within 300ms (--request-timeout)'],
    ['slow-body', 'no answer within 300ms (--request-timeout)'],
    ['reset', 'the connection was'],
    ['half', 'the connection was closed before the answer was complete'],
    ['500', 'the server answered 500 Internal Server Error: etcdserver: request timed out retry later'],
    ['malformed', "the server's answer is not valid JSON"],
    ['401', 'unauthorized (401): the server did not accept the credentials of user "alice": Unauthorized'],
    ['403', 'forbidden (403): customresourcedefinitions.apiextensions.k8s.io is forbidden: User "alice" cannot list resource'],
    ['repeat-continue', 'the server repeated a continue token'],
  ] as const)('%s', async (m, why) => {
    mode = m;
    const r = await run(['lint', '--cluster', ...KC(), '--request-timeout', '300ms', '--chunk-size', '1']);
    const line = oneErrorLine(r);
    expect(line).toContain(`error: ${LIST}: ${why}`);
    expect(line).toContain(`(server http://127.0.0.1:${port}, context "fake")`);
    expect(r.ms).toBeLessThan(5000);
  });

  it('a TLS server that accepts the connection and never completes the handshake', async () => {
    const silent = net.createServer(() => {});
    const open = new Set<net.Socket>();
    silent.on('connection', (s) => open.add(s));
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const p = (silent.address() as net.AddressInfo).port;
    const kc = join(dir, 'kc-silent');
    writeFileSync(kc, kubeconfig(p, { scheme: 'https' }));
    const r = await run(['lint', '--cluster', '--kubeconfig', kc, '--request-timeout', '1']);
    for (const s of open) s.destroy();
    silent.close();
    expect(oneErrorLine(r)).toContain('no answer within 1s (--request-timeout)');
    expect(r.ms).toBeLessThan(6000);
  });

  it('a server that is not running', async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const p = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const kc = join(dir, 'kc-down');
    writeFileSync(kc, kubeconfig(p));
    expect(oneErrorLine(await run(['lint', '--cluster', '--kubeconfig', kc]))).toContain('connection refused (is the server running?)');
  });
});

describe('kubeconfig', () => {
  it('merges KUBECONFIG as kubectl does: first definition of a name wins, missing files skipped', async () => {
    // a.yaml: the context "fake" (cluster "good"), no current-context; b.yaml: current-context,
    // a context "fake" of its own (ignored: a.yaml defined it first) and the cluster "good"
    const a = join(dir, 'a.yaml');
    const b = join(dir, 'b.yaml');
    writeFileSync(a, 'apiVersion: v1\nkind: Config\ncontexts:\n- name: fake\n  context: {cluster: good, user: alice}\nusers:\n- name: alice\n  user: {token: from-a}\n');
    writeFileSync(b, `apiVersion: v1\nkind: Config\ncurrent-context: fake\ncontexts:\n- name: fake\n  context: {cluster: bad, user: alice}\nclusters:\n- name: good\n  cluster: {server: "http://127.0.0.1:${port}", insecure-skip-tls-verify: true}\n- name: bad\n  cluster: {server: "http://127.0.0.1:1", insecure-skip-tls-verify: true}\nusers:\n- name: alice\n  user: {token: from-b}\n`);
    const r = await run(['lint', '--cluster'], { KUBECONFIG: [join(dir, 'missing.yaml'), a, b].join(':') });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(seen.map((s) => s.auth)).toEqual(['Bearer from-a']);
  });

  it('--context picks another context; an unknown one is an error', async () => {
    const kc = join(dir, 'two.yaml');
    writeFileSync(kc, kubeconfig(port).replace('current-context: fake', 'current-context: ""'));
    expect(oneErrorLine(await run(['lint', '--cluster', '--kubeconfig', kc]))).toContain('has no current-context: give --context (contexts: fake)');
    expect((await run(['lint', '--cluster', '--kubeconfig', kc, '--context', 'fake'])).code).toBe(0);
    expect(oneErrorLine(await run(['lint', '--cluster', '--kubeconfig', kc, '--context', 'prod']))).toBe(`error: context "prod" not found in kubeconfig ${kc} (contexts: fake)`);
  });

  it('no kubeconfig at all', async () => {
    expect(oneErrorLine(await run(['lint', '--cluster']))).toBe('error: no kubeconfig: /nonexistent-home/.kube/config does not exist (give --kubeconfig or set KUBECONFIG)');
    expect(oneErrorLine(await run(['lint', '--cluster', '--kubeconfig', join(dir, 'nope')]))).toBe(`error: kubeconfig ${join(dir, 'nope')} (--kubeconfig): no such file`);
  });

  it('connection flags without --cluster are a usage error', async () => {
    expect(oneErrorLine(await run(['lint', '-n', 'x', 'fixtures/crds']))).toBe('error: --namespace needs --cluster');
  });
});

describe('read-only', () => {
  it('the one request function refuses every method but GET', () => {
    for (const m of ['POST', 'PUT', 'PATCH', 'DELETE', 'get', 'HEAD', 'OPTIONS']) expect(() => assertReadOnly(m)).toThrow(InternalError);
    expect(() => assertReadOnly('GET')).not.toThrow();
  });

  it('the cluster modules send requests through it only', () => {
    // a second request call (http.request, https.request, fetch) would bypass the GET-only check
    const src = readFileSync(join(ROOT, 'src/io/cluster.ts'), 'utf8') + readFileSync(join(ROOT, 'src/io/cluster-source.ts'), 'utf8');
    expect(src.match(/\.request\(|\bfetch\(|\.get\(\s*['"`]http/g)).toEqual(['.request(']);
    expect(src).not.toMatch(/makeApiClient|KubernetesObjectApi|CustomObjectsApi/);
  });
});

describe('--request-timeout', () => {
  it('reads Go durations and bare seconds; refuses 0', () => {
    expect(parseRequestTimeout('10s')).toBe(10_000);
    expect(parseRequestTimeout('1m30s')).toBe(90_000);
    expect(parseRequestTimeout('500ms')).toBe(500);
    expect(parseRequestTimeout('1.5s')).toBe(1500);
    expect(parseRequestTimeout('2')).toBe(2000);
    expect(parseRequestTimeout('1h')).toBe(3_600_000);
    for (const bad of ['0', '0s', '', 'abc', '10x', '-1s', 's']) expect(typeof parseRequestTimeout(bad)).toBe('string');
  });
});

describe('isMissingPackage: the cluster client not installed, told apart from its own failures', () => {
  it('is the import of the package itself that failed (ES module and CommonJS errors)', async () => {
    const esm = await import('@kubernetes/client-node-not-installed' as string).catch((e: unknown) => e);
    expect(isMissingPackage(esm, '@kubernetes/client-node-not-installed')).toBe(true);
    let cjs: unknown;
    try {
      createRequire(import.meta.url)('@kubernetes/client-node-not-installed');
    } catch (e) {
      cjs = e;
    }
    expect(isMissingPackage(cjs, '@kubernetes/client-node-not-installed')).toBe(true);
  });

  it('is not a dependency of the package that is missing, nor another error', async () => {
    const dep = await import('node-fetch-not-installed' as string).catch((e: unknown) => e);
    expect(isMissingPackage(dep, '@kubernetes/client-node')).toBe(false);
    expect(isMissingPackage(new Error("Cannot find package '@kubernetes/client-node'"), '@kubernetes/client-node')).toBe(false);
    expect(isMissingPackage(undefined, '@kubernetes/client-node')).toBe(false);
  });

  it('the message is one line and names the install command', () => {
    expect(CLIENT_MISSING).not.toContain('\n');
    expect(CLIENT_MISSING).toContain('npm install -g @kubernetes/client-node@^1.4.0');
  });
});
