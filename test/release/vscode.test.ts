/**
 * The VS Code extension package (npm run package:vscode): the .vsix builds offline, its manifest is
 * what VS Code needs, it holds only the bundled extension and server, and the server starts from the
 * unpacked files and answers an LSP client (initialize, diagnostics, shutdown).
 */
import { execa } from 'execa';
import { builtinModules } from 'node:module';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLsp } from '../helpers/lsp-client.js';
import { ROOT } from './helpers.js';

interface ExtensionManifest {
  name: string;
  publisher: string;
  version: string;
  engines: { vscode: string };
  main: string;
  activationEvents: string[];
  contributes: { configuration: { properties: Record<string, unknown> }; commands: { command: string }[] };
}

let dir: string;
let vsix: string;
let unpacked: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'crdx-vsix-'));
  vsix = join(dir, 'crdx.vsix');
  const r = await execa(process.execPath, ['scripts/package-vscode.mjs', vsix], { cwd: ROOT, reject: false });
  expect(r.exitCode, r.stderr).toBe(0);
  expect(r.stdout.trim().split('\n').pop()).toBe(vsix);
  unpacked = join(dir, 'x');
  await execa('unzip', ['-q', vsix, '-d', unpacked]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('VS Code extension package', () => {
  it('has a valid manifest: name, publisher, engines, main, activation, settings and command', async () => {
    const pkg = JSON.parse(readFileSync(join(unpacked, 'extension', 'package.json'), 'utf8')) as ExtensionManifest;
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(pkg.name).toBe('kubectl-crdx');
    expect(pkg.publisher).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(pkg.version).toBe(root.version);
    expect(pkg.engines.vscode).toMatch(/^\^1\.\d+\.\d+$/);
    // the API the extension was typed against is not newer than the engines it claims
    const types = JSON.parse(readFileSync(join(ROOT, 'node_modules', '@types', 'vscode', 'package.json'), 'utf8')) as { version: string };
    expect(pkg.engines.vscode).toBe(`^${types.version}`);
    expect(existsSync(join(unpacked, 'extension', pkg.main))).toBe(true);
    expect(pkg.activationEvents).toEqual(['onLanguage:yaml', 'onLanguage:json']);
    expect(Object.keys(pkg.contributes.configuration.properties).sort()).toEqual(['crdx.cluster.context', 'crdx.crdPaths', 'crdx.kubeVersion', 'crdx.validate']);
    expect(pkg.contributes.commands.map((c) => c.command)).toEqual(['crdx.showDefaultPreview']);
    const manifest = readFileSync(join(unpacked, 'extension.vsixmanifest'), 'utf8');
    expect(manifest).toContain(`Id="kubectl-crdx" Version="${root.version}" Publisher="${pkg.publisher}"`);
    expect(manifest).toContain('<Property Id="Microsoft.VisualStudio.Code.Engine" Value="^1.91.0" />');
  });

  it('holds the two bundles, the manifest, README and LICENSE, no node_modules; the extension requires only vscode and Node', async () => {
    const list = (await execa('unzip', ['-Z1', vsix])).stdout.split('\n').sort();
    expect(list).toEqual(['[Content_Types].xml', 'extension.vsixmanifest', 'extension/LICENSE.txt', 'extension/dist/extension.cjs', 'extension/dist/server.cjs', 'extension/package.json', 'extension/readme.md']);
    const ext = readFileSync(join(unpacked, 'extension', 'dist', 'extension.cjs'), 'utf8');
    const required = new Set([...ext.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]!));
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    expect([...required].filter((m) => m !== 'vscode' && !builtins.has(m))).toEqual([]);
    expect(required.has('vscode')).toBe(true);
    expect(statSync(vsix).size).toBeLessThan(2_000_000);
  });

  it('the packaged server starts, answers initialize, publishes lint\'s diagnostics and exits 0', async () => {
    const c = await startLsp({ command: [process.execPath, join(unpacked, 'extension', 'dist', 'server.cjs'), '--stdio'] });
    expect(c.initializeResult.serverInfo?.name).toBe('kubectl-crdx');
    expect(c.initializeResult.capabilities.hoverProvider).toBe(true);
    const f = join(ROOT, 'fixtures', 'crds', '02-gadgets-broken.yaml');
    const p = await c.open(f, readFileSync(f, 'utf8'));
    const lint = await execa(process.execPath, ['bin/kubectl-crdx', 'lint', '-o', 'json', f], { cwd: ROOT, reject: false });
    const findings = (JSON.parse(lint.stdout) as { findings: { ruleId: string; message: string; line: number; column: number }[] }).findings;
    expect(findings.length).toBeGreaterThan(0);
    expect(p.diagnostics.map((d) => ({ ruleId: d.code, message: d.message, line: d.range.start.line + 1, column: d.range.start.character + 1 }))).toEqual(
      findings.map((x) => ({ ruleId: x.ruleId, message: x.message, line: x.line, column: x.column })),
    );
    expect(await c.stop()).toBe(0);
  });
});
