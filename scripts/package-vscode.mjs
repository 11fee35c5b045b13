#!/usr/bin/env node
// npm run package:vscode: the VS Code extension (editors/vscode) as a .vsix, offline.
//   editors/vscode/dist/extension.cjs  the extension (vscode-languageclient bundled; `vscode` is the host's)
//   editors/vscode/dist/server.cjs     the language server (src/cli/lsp-entry.ts and the engine), one file
// then `vsce package --no-dependencies`: everything the extension runs is in dist/, so no
// node_modules are packed and nothing is fetched. Output: .build/vscode/kubectl-crdx-<version>.vsix
// (or the path given as the first argument). Prints the .vsix path.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ext = join(root, 'editors', 'vscode');
const manifest = JSON.parse(readFileSync(join(ext, 'package.json'), 'utf8'));
const out = resolve(process.argv[2] ?? join(root, '.build', 'vscode', `${manifest.name}-${manifest.version}.vsix`));

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  // VS Code 1.91 runs extensions on Node 20
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
  legalComments: 'none',
  minifySyntax: true,
  minifyWhitespace: true,
  metafile: true,
};

rmSync(join(ext, 'dist'), { recursive: true, force: true });
await build({ ...common, entryPoints: [join(ext, 'src', 'extension.mts')], outfile: join(ext, 'dist', 'extension.cjs'), external: ['vscode'] });
const server = await build({
  ...common,
  stdin: { contents: "import { serveStdio } from './src/cli/lsp-entry.ts';\nserveStdio();\n", resolveDir: root, sourcefile: 'server-entry.ts', loader: 'ts' },
  outfile: join(ext, 'dist', 'server.cjs'),
  // crdx.cluster.context loads the cluster client at run time, where it is installed; never packed
  external: ['@kubernetes/client-node'],
});
// the server must not reach the cluster client (it would have to be packed as a dependency)
const inputs = Object.keys(server.metafile.inputs);
if (inputs.some((f) => f.includes('@kubernetes/client-node'))) throw new Error('package:vscode: the server bundle pulled in @kubernetes/client-node');

copyFileSync(join(root, 'LICENSE'), join(ext, 'LICENSE'));
mkdirSync(dirname(out), { recursive: true });
const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
const r = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], { cwd: ext, stdio: ['ignore', 'inherit', 'inherit'] });
if (r.status !== 0) {
  process.stderr.write(`package:vscode: vsce package failed (${r.status ?? r.signal})\n`);
  process.exitCode = 1;
} else process.stdout.write(`${out}\n`);
