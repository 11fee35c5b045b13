/**
 * The offline path never loads the cluster client: the built CLI (`node bin/kubectl-crdx`, needs
 * `npm run build:dist`) runs under hooks that record every module Node resolves: ES modules (the cluster
 * client and the spinner, imported by bin/kubectl-crdx for the bundle) through a module hook, and
 * require() calls (bin/kubectl-crdx and the CommonJS bundle) through Module._load. Loading
 * @kubernetes/client-node shows up as its files and as the network built-ins its code and ours
 * import; the control run with --cluster proves the hooks see them.
 */
import { execa } from 'execa';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'crdx-offline-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOOKS = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(process.env.CRDX_MODULE_LOG, r.url + '\\n');
  return r;
}
`;
writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`);
writeFileSync(
  join(dir, 'require-log.cjs'),
  `const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  appendFileSync(process.env.CRDX_MODULE_LOG, request + '\\n');
  return load.call(this, request, parent, isMain);
};
`,
);

/** Network and cluster modules: none may load unless --cluster is given. */
const CLUSTER_ONLY = /\/node_modules\/@kubernetes\/client-node\/|^node:(https?|net|tls)$|\/node_modules\/ora\/|\/dist\/cli\/spinner\.mjs$/;

async function modulesLoaded(name: string, args: readonly string[]): Promise<{ exitCode: number | undefined; urls: string[] }> {
  const log = join(dir, `${name}.log`);
  writeFileSync(log, '');
  const r = await execa('node', ['--require', join(dir, 'require-log.cjs'), '--import', pathToFileURL(join(dir, 'register.mjs')).href, 'bin/kubectl-crdx', ...args], {
    cwd: ROOT,
    reject: false,
    stdin: 'ignore',
    env: { NO_COLOR: '1', CRDX_MODULE_LOG: log, KUBECONFIG: join(dir, 'kubeconfig') },
  });
  return { exitCode: r.exitCode, urls: readFileSync(log, 'utf8').split('\n').filter((u) => u !== '') };
}

describe('offline path', () => {
  it('lint and default load neither @kubernetes/client-node, ora nor node:http(s)/net/tls', async () => {
    const lint = await modulesLoaded('lint', ['lint', 'fixtures/crds']);
    expect(lint.exitCode).toBe(1);
    expect(lint.urls.length).toBeGreaterThan(3);
    expect(lint.urls.filter((u) => CLUSTER_ONLY.test(u))).toEqual([]);
    // nor the language server (its own bundle, loaded by `lsp` only)
    expect(lint.urls.filter((u) => /\/dist\/cli\/lsp\.mjs$|vscode-/.test(u))).toEqual([]);
    const def = await modulesLoaded('default', ['default', '-f', 'fixtures/simulate/basic-defaults/input.yaml', '--crd', 'fixtures/simulate/basic-defaults/crd.yaml', '--validate=warn']);
    expect(def.exitCode).toBe(0);
    expect(def.urls.filter((u) => CLUSTER_ONLY.test(u))).toEqual([]);
  });

  it('control: with --cluster the hook does see the cluster client load', async () => {
    writeFileSync(join(dir, 'kubeconfig'), 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]\ncontexts: [{name: c, context: {cluster: c}}]\ncurrent-context: c\n');
    const r = await modulesLoaded('cluster', ['lint', '--cluster', '--request-timeout', '2s']);
    expect(r.exitCode).toBe(2);
    expect(r.urls).toContain('node:https');
    // not bundled into dist/: its own files are read (when a build inlines it, node:https above still shows it)
    const bundled = (readdirSync(join(ROOT, 'dist'), { recursive: true }) as string[]).some((f) => f.endsWith('.js') && readFileSync(join(ROOT, 'dist', f), 'utf8').includes('loadFromDefault'));
    const external = !bundled;
    if (external) expect(r.urls.some((u) => u.includes('/node_modules/@kubernetes/client-node/'))).toBe(true);
  });
});
