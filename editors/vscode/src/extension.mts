/**
 * The VS Code extension (an ES module here, bundled to CommonJS): starts the bundled language server (dist/server.cjs, built from
 * src/cli/lsp-entry.ts by scripts/package-vscode.mjs) over stdio with VS Code's own Node, passes the
 * `crdx` settings, and shows the server's default preview in an editor.
 */
import { ViewColumn, commands, window, workspace, type ExtensionContext } from 'vscode';
import { ExecuteCommandRequest, LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

let client: LanguageClient | undefined;

function settings(): Record<string, unknown> {
  const c = workspace.getConfiguration('crdx');
  return { crdPaths: c.get('crdPaths'), kubeVersion: c.get('kubeVersion'), validate: c.get('validate'), cluster: { context: c.get('cluster.context') } };
}

export async function activate(context: ExtensionContext): Promise<void> {
  const module = context.asAbsolutePath('dist/server.cjs');
  const serverOptions: ServerOptions = { run: { module, transport: TransportKind.stdio }, debug: { module, transport: TransportKind.stdio } };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'yaml' },
      { scheme: 'file', language: 'json' },
      { scheme: 'untitled', language: 'yaml' },
    ],
    initializationOptions: settings(),
    // a change of a crdx setting is sent to the server, which reads the section again
    // and changes of YAML/JSON files on disk, so that an edited CRD file is read again
    synchronize: { configurationSection: 'crdx', fileEvents: workspace.createFileSystemWatcher('**/*.{yaml,yml,json}') },
  };
  client = new LanguageClient('crdx', 'crdx (kubectl-crdx)', serverOptions, clientOptions);
  context.subscriptions.push(
    commands.registerCommand('crdx.showDefaultPreview', async () => {
      const editor = window.activeTextEditor;
      if (!editor || !client) return;
      const r = (await client.sendRequest(ExecuteCommandRequest.type, { command: 'crdx.defaultPreview', arguments: [editor.document.uri.toString()] })) as {
        yaml: string;
        unmatched: { message: string }[];
      } | null;
      if (!r) return;
      if (r.yaml === '') {
        void window.showInformationMessage(`crdx: no custom resource to create here${r.unmatched[0] ? ` (${r.unmatched[0].message})` : ''}`);
        return;
      }
      const doc = await workspace.openTextDocument({ language: 'yaml', content: r.yaml });
      await window.showTextDocument(doc, { preview: true, viewColumn: ViewColumn.Beside });
    }),
  );
  await client.start();
}

export function deactivate(): Promise<void> | undefined {
  return client?.stop();
}
