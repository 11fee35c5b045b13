/**
 * `--cluster` against a real apiextensions-apiserver (test/apiserver), through the built CLI
 * (`node bin/kubectl-crdx`, needs `npm run build:dist`). The test set-up writes to the server (CRDs,
 * custom resources); the product only reads.
 *  - lint --cluster: every fixture CRD the server accepts is installed; the findings equal those of
 *    lint on the same documents as files (modulo file and position), page by page (--chunk-size);
 *    a CRD the server did not accept the names of (NamesAccepted=False) is exactly one reported
 *    by naming-conflicts;
 *  - default --cluster: for every fixtures/simulate case, the CRD is installed and the output equals
 *    `default --crd`; a live object (RESOURCE/NAME) equals `default` of the object read back;
 *  - faults: server stopped, wrong token, wrong CA, a server that accepts and never answers.
 */
import { execa } from 'execa';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isRecord } from '../../src/core/types.js';
import { DEFAULT_KUBE_VERSION } from '../../src/core/kube-version.js';
import { lintSources } from '../../src/engine/lint.js';
import { cel } from '../helpers/cel.js';
import { yamlFiles } from '../helpers/files.js';
import { CRD_API, createCRD, deleteAllCRDs, goAvailable, startHarness, waitForCondition, waitEstablished, type Harness } from './harness.js';

const ROOT = join(import.meta.dirname, '..', '..');
const HAVE_GO = goAvailable();
if (!HAVE_GO) console.warn('cluster conformance skipped: it needs Go on PATH to build the real apiextensions-apiserver (test/apiserver)');

type Obj = Record<string, unknown>;

async function crdx(args: readonly string[], env: Record<string, string> = {}) {
  const t0 = Date.now();
  const r = await execa('node', ['bin/kubectl-crdx', ...args], { cwd: ROOT, reject: false, stdin: 'ignore', env: { NO_COLOR: '1', ...env } });
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr), ms: Date.now() - t0 };
}

interface JsonFinding {
  ruleId: string;
  severity: string;
  message: string;
  file: string;
  path: string;
  object?: { name?: string };
}
/**
 * A finding without where it sits. The byte count of client-side-apply-size is left out: the
 * installed object holds the server's defaults (spec.conversion, …), so it is a little larger.
 */
const what = (f: JsonFinding) =>
  JSON.stringify([f.ruleId, f.severity, f.ruleId === 'client-side-apply-size' ? f.message.replace(/\d+ bytes/, 'N bytes') : f.message, f.object?.name, f.path]);

function crdDocs(file: string): Obj[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .filter((d) => d.errors.length === 0)
    .map((d) => d.toJS() as unknown)
    .filter((v): v is Obj => isRecord(v) && v['apiVersion'] === 'apiextensions.k8s.io/v1' && v['kind'] === 'CustomResourceDefinition' && isRecord(v['metadata']) && typeof v['metadata']['name'] === 'string');
}
const nameOf = (o: Obj) => (o['metadata'] as Obj)['name'] as string;

/** The CRD in group `<prefix>.<group>`, when its name is `<plural>.<group>` (else undefined). */
function regroup(d: Obj, prefix: string): Obj | undefined {
  const spec = d['spec'];
  if (!isRecord(spec) || typeof spec['group'] !== 'string' || !isRecord(spec['names']) || nameOf(d) !== `${String(spec['names']['plural'])}.${spec['group']}`) return undefined;
  const group = `${prefix}.${spec['group']}`;
  return { ...d, metadata: { ...(d['metadata'] as Obj), name: `${String(spec['names']['plural'])}.${group}` }, spec: { ...spec, group } };
}

function oneErrorLine(r: { exitCode: number | undefined; stdout: string; stderr: string }): string {
  expect(r.exitCode).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  return lines[0]!;
}

describe.skipIf(!HAVE_GO)('--cluster against a real apiextensions-apiserver', () => {
  let h: Harness;
  let dir: string;
  let kubeconfig: string;

  beforeAll(async () => {
    h = await startHarness();
    dir = mkdtempSync(join(tmpdir(), 'crdx-cluster-conf-'));
    kubeconfig = h.kubeconfig;
  });
  afterAll(async () => {
    await h?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe('lint --cluster', () => {
    const installed: Obj[] = [];
    beforeAll(async () => {
      await deleteAllCRDs(h);
      // created in name order, so the order the tool reads them in (creationTimestamp, then name)
      // is the order they were created in, which decides naming conflicts
      // the fixtures reuse names (widgets.example.com dozens of times): later ones move to a group
      // of their own (d<i>.<group>), which changes nothing else about them
      const byName = new Map<string, Obj>();
      let i = 0;
      for (const f of [...yamlFiles(join(ROOT, 'fixtures', 'crds')), ...yamlFiles(join(ROOT, 'fixtures', 'rules'))])
        for (const d of crdDocs(f)) {
          const moved = byName.has(nameOf(d)) ? regroup(d, `d${i++}`) : d;
          if (moved && !byName.has(nameOf(moved))) byName.set(nameOf(moved), moved);
        }
      for (const name of [...byName.keys()].sort()) {
        // a CRD the server panics on gets no answer (cel-compile-panic, selectable-fields): it is not
        // installed, and lint says why (a finding with \`aborted\`)
        const r = await createCRD(h, byName.get(name)).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
        if (r instanceof Error) {
          const lint = lintSources([{ path: `${name}.yaml`, text: JSON.stringify(byName.get(name)) }], { kubeVersion: DEFAULT_KUBE_VERSION, cel });
          expect(lint.findings.filter((f) => f.aborted !== undefined).map((f) => f.ruleId), `${name}: ${r.message}`).not.toEqual([]);
          continue;
        }
        if (r.status === 201) installed.push(byName.get(name)!);
      }
      for (const c of installed) await waitForCondition(h, nameOf(c), 'NamesAccepted', (cond) => cond !== undefined);
    });

    it('reports what lint reports for the same documents as files, page by page', async () => {
      expect(installed.length).toBeGreaterThan(10);
      const files = installed.map((c, i) => {
        const p = join(dir, `${String(i).padStart(3, '0')}.json`);
        writeFileSync(p, JSON.stringify(c));
        return p;
      });
      const live = await crdx(['lint', '--cluster', '--kubeconfig', kubeconfig, '-o', 'json', '--chunk-size', '7']);
      // the server stored them without their unknown fields (the POSTs sent no fieldValidation: Warn);
      // lint of the files sees what the cluster holds when it ignores those fields too. Below items
      // and the like the server drops them under every field validation: schema-dropped-fields names
      // them in the files, and the cluster holds none of them
      const local = await crdx(['lint', '-o', 'json', '--validate=ignore', ...files]);
      expect(live.stderr).toBe('');
      const L = JSON.parse(live.stdout) as { findings: JsonFinding[]; summary: { documents: number } };
      const all = JSON.parse(local.stdout) as { findings: JsonFinding[] };
      expect(all.findings.some((f) => f.ruleId === 'schema-dropped-fields')).toBe(true);
      expect(L.findings.filter((f) => f.ruleId === 'schema-dropped-fields')).toEqual([]);
      const F = { findings: all.findings.filter((f) => f.ruleId !== 'schema-dropped-fields') };
      expect(L.summary.documents).toBe(installed.length);
      expect(L.findings.map(what).sort()).toEqual(F.findings.map(what).sort());
      expect(live.exitCode).toBe(local.exitCode);
      expect(L.findings.length).toBeGreaterThan(0);
      for (const f of L.findings) expect(f.file).toMatch(/^cluster:crdx-test\/customresourcedefinitions\//);
    });

    it('names exactly the CRDs the server did not accept the names of', async () => {
      const list = await h.request('GET', CRD_API);
      const rejected = (list.body.items as Obj[])
        .filter((c) => ((c['status'] as Obj)['conditions'] as Obj[]).some((x) => x['type'] === 'NamesAccepted' && x['status'] === 'False'))
        .map(nameOf)
        .sort();
      const live = await crdx(['lint', '--cluster', '--kubeconfig', kubeconfig, '-o', 'json']);
      const flagged = [...new Set((JSON.parse(live.stdout) as { findings: JsonFinding[] }).findings.filter((f) => f.ruleId === 'naming-conflicts').map((f) => f.object?.name))].sort();
      expect(flagged).toEqual(rejected);
    });

    it('reports a local CRD whose names an installed one already has', async () => {
      const widgets = crdDocs(join(ROOT, 'fixtures', 'crds', '01-widgets.yaml'))[0]!;
      expect(installed.map(nameOf)).toContain(nameOf(widgets));
      const copy = structuredClone(widgets) as { metadata: Obj; spec: { names: Obj } };
      copy.metadata['name'] = 'sprockets.example.com';
      copy.spec.names = { ...copy.spec.names, plural: 'sprockets', singular: 'sprocket', kind: 'Sprocket', listKind: 'SprocketList' };
      const p = join(dir, 'sprockets.json');
      writeFileSync(p, JSON.stringify(copy));
      const r = await crdx(['lint', '--cluster', '--kubeconfig', kubeconfig, '-o', 'json', p]);
      const mine = (JSON.parse(r.stdout) as { findings: JsonFinding[] }).findings.filter((f) => f.file === p);
      expect(mine.map((f) => f.ruleId)).toEqual(['naming-conflicts']);
      expect(mine[0]!.message).toContain('"wd"');
      // and the server agrees: created for real, its short name is not accepted
      expect((await createCRD(h, copy)).status).toBe(201);
      const cond = await waitForCondition(h, 'sprockets.example.com', 'NamesAccepted', (c) => c !== undefined);
      expect(cond?.status).toBe('False');
    });
  });

  describe('default --cluster', () => {
    const cases = yamlFiles(join(ROOT, 'fixtures', 'simulate'))
      .filter((p) => p.endsWith('/input.yaml'))
      .map((p) => p.slice(ROOT.length + 1, -'/input.yaml'.length));

    it.each(cases)('%s: the same as default --crd', async (c) => {
      await deleteAllCRDs(h);
      for (const d of crdDocs(join(ROOT, c, 'crd.yaml'))) {
        expect((await createCRD(h, d)).status).toBe(201);
        await waitEstablished(h, nameOf(d));
      }
      const live = await crdx(['default', '--cluster', '--kubeconfig', kubeconfig, `${c}/input.yaml`, '--explain']);
      const local = await crdx(['default', `${c}/input.yaml`, '--crd', `${c}/crd.yaml`, '--explain']);
      expect(live).toMatchObject({ exitCode: local.exitCode, stdout: local.stdout });
      // the same explanation; defaults may be listed in another order, as the server sends the
      // schema's properties sorted by name
      expect(live.stderr.split('\n').sort()).toEqual(local.stderr.split('\n').sort());
    });

    it('a live object (RESOURCE/NAME): the same as default of the object read back', async () => {
      await deleteAllCRDs(h);
      const crd = crdDocs(join(ROOT, 'fixtures', 'simulate', 'basic-defaults', 'crd.yaml'))[0]!;
      expect((await createCRD(h, crd)).status).toBe(201);
      await waitEstablished(h, nameOf(crd));
      const spec = crd['spec'] as { group: string; names: { plural: string }; versions: Array<{ name: string; storage: boolean; subresources?: Obj }> };
      const v = spec.versions.find((x) => x.storage)!;
      const path = `/apis/${spec.group}/${v.name}/namespaces/live/${spec.names.plural}`;
      const created = await h.request('POST', path, { apiVersion: `${spec.group}/${v.name}`, kind: (spec.names as Obj)['kind'], metadata: { name: 'one', labels: { app: 'x' } }, spec: {} });
      expect(created.status).toBe(201);
      const got = (await h.request('GET', `${path}/one`)).body as Obj;
      const md = { ...(got['metadata'] as Obj) };
      for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields']) delete md[k];
      const readBack: Obj = { ...got, metadata: md };
      if (v.subresources?.['status'] !== undefined) delete readBack['status'];
      const p = join(dir, 'one.json');
      writeFileSync(p, JSON.stringify(readBack));
      const live = await crdx(['default', '--cluster', '--kubeconfig', kubeconfig, '-n', 'live', `${spec.names.plural}.${spec.group}/one`]);
      const local = await crdx(['default', p, '--crd', 'fixtures/simulate/basic-defaults/crd.yaml']);
      expect(live.exitCode).toBe(0);
      expect(live.stdout).toBe(local.stdout);
      expect(live.stdout).toContain('name: one');
      expect(live.stdout).not.toMatch(/uid:|resourceVersion:|managedFields:/);
      // -n picks the namespace: elsewhere it is not found
      expect(oneErrorLine(await crdx(['default', '--cluster', '--kubeconfig', kubeconfig, `${spec.names.plural}.${spec.group}/one`]))).toContain(
        `${spec.names.plural}.${spec.group} "one" not found in namespace "default"`,
      );
    });

    it('an object whose CRD is not installed', async () => {
      await deleteAllCRDs(h);
      const line = oneErrorLine(await crdx(['default', '--cluster', '--kubeconfig', kubeconfig, 'fixtures/simulate/basic-defaults/input.yaml']));
      expect(line).toMatch(/^error: no CustomResourceDefinition for Widget in group "example.com" is installed \(server https:\/\/127\.0\.0\.1:\d+, context "crdx-test"\)$/);
    });
  });

  describe('status and scale --cluster', () => {
    const cases = ['status', 'scale'].flatMap((g) => (existsSync(join(ROOT, 'fixtures', g)) ? readdirSync(join(ROOT, 'fixtures', g)).sort().map((n) => `fixtures/${g}/${n}`) : []));
    it.each(cases)('%s: the same as with --crd', async (c) => {
      await deleteAllCRDs(h);
      for (const d of crdDocs(join(ROOT, c, 'crd.yaml'))) {
        expect((await createCRD(h, d)).status).toBe(201);
        await waitEstablished(h, nameOf(d));
      }
      const extra = readFileSync(join(ROOT, c, 'args'), 'utf8').trim().split(/\s+/).filter(Boolean);
      const input = c.startsWith('fixtures/status/')
        ? ['status', '-f', `${c}/new.yaml`, ...(existsSync(join(ROOT, c, 'old.yaml')) ? ['--old', `${c}/old.yaml`] : []), '--explain']
        : ['scale', '-f', `${c}/input.yaml`];
      const live = await crdx([...input, ...extra, '--cluster', '--kubeconfig', kubeconfig]);
      const local = await crdx([...input, ...extra, '--crd', `${c}/crd.yaml`]);
      expect(live).toMatchObject({ exitCode: local.exitCode, stdout: local.stdout });
      expect(live.stderr.split('\n').sort()).toEqual(local.stderr.split('\n').sort());
    });
  });

  describe('faults: one line, exit 2', () => {
    const LIST = 'error: cannot list customresourcedefinitions.apiextensions.k8s.io: ';

    it('wrong token: the server takes the request as anonymous and forbids it (403)', async () => {
      const kc = join(dir, 'kc-token');
      writeFileSync(kc, readFileSync(kubeconfig, 'utf8').replace(/token: .*/, 'token: not-the-token'));
      expect(oneErrorLine(await crdx(['lint', '--cluster', '--kubeconfig', kc]))).toContain(
        `${LIST}forbidden (403): customresourcedefinitions.apiextensions.k8s.io is forbidden: User "system:anonymous" cannot list resource "customresourcedefinitions" in API group "apiextensions.k8s.io" at the cluster scope`,
      );
    });

    it('wrong CA, then the server stopped', async () => {
      // another server's CA: it did not sign this server's certificate
      const other = await startHarness();
      const otherCa = readFileSync(other.caFile).toString('base64');
      const otherKc = readFileSync(other.kubeconfig, 'utf8');
      await other.stop();
      const kc = join(dir, 'kc-ca');
      writeFileSync(kc, readFileSync(kubeconfig, 'utf8').replace(/certificate-authority-data: .*/, `certificate-authority-data: ${otherCa}`));
      expect(oneErrorLine(await crdx(['lint', '--cluster', '--kubeconfig', kc]))).toContain(`${LIST}TLS: the server's certificate is not signed by a trusted CA`);
      const stopped = join(dir, 'kc-stopped');
      writeFileSync(stopped, otherKc);
      const r = await crdx(['lint', '--cluster', '--kubeconfig', stopped]);
      expect(oneErrorLine(r)).toContain(`${LIST}connection refused (is the server running?)`);
    });

    it('a server that accepts the connection and never answers: bounded by --request-timeout', async () => {
      const silent = net.createServer(() => {});
      const open = new Set<net.Socket>();
      silent.on('connection', (s) => open.add(s));
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
      const port = (silent.address() as net.AddressInfo).port;
      const kc = join(dir, 'kc-silent');
      writeFileSync(kc, readFileSync(kubeconfig, 'utf8').replace(/server: .*/, `server: https://127.0.0.1:${port}`));
      const r = await crdx(['lint', '--cluster', '--kubeconfig', kc, '--request-timeout', '2s']);
      for (const s of open) s.destroy();
      silent.close();
      expect(oneErrorLine(r)).toContain(`${LIST}no answer within 2s (--request-timeout)`);
      expect(r.ms).toBeLessThan(15_000);
    });
  });
});
