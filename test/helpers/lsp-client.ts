/**
 * A real LSP client over stdio for the language server's tests and bench: vscode-jsonrpc and
 * vscode-languageserver-protocol (what vscode-languageclient is built on, without VS Code), talking
 * to a spawned `node bin/kubectl-crdx lsp --stdio` (or any command line given).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeActionRequest,
  ConfigurationRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  ExecuteCommandRequest,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ShowMessageNotification,
  ShowMessageRequest,
  ShutdownRequest,
  createProtocolConnection,
  type CodeAction,
  type Command,
  type Diagnostic,
  type Hover,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type ShowMessageParams,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';

export const ROOT = join(import.meta.dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'kubectl-crdx');

export const uriOf = (path: string): string => pathToFileURL(path).href;

export interface LspClientOptions {
  readonly command?: readonly string[];
  readonly initializationOptions?: unknown;
  readonly workspaceFolders?: readonly string[];
  /** Answered to workspace/configuration (the client then announces the capability). */
  readonly configuration?: unknown;
  /** More environment for the server process (e.g. KUBECONFIG). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface LspClient {
  readonly conn: ProtocolConnection;
  readonly child: ChildProcess;
  readonly initializeResult: InitializeResult;
  readonly messages: string[];
  readonly stderr: () => string;
  open(path: string, text: string, languageId?: string): Promise<PublishDiagnosticsParams>;
  change(path: string, version: number, changes: TextDocumentContentChangeEvent[]): Promise<PublishDiagnosticsParams>;
  close(path: string): Promise<void>;
  /** The next diagnostics published for a document (of at least this version when given). */
  nextDiagnostics(path: string, version?: number, timeoutMs?: number): Promise<PublishDiagnosticsParams>;
  /** Diagnostics published for a document since the last call (for re-check assertions). */
  published(path: string): PublishDiagnosticsParams[];
  hover(path: string, line: number, character: number): Promise<Hover | null>;
  codeActions(path: string, diagnostics: Diagnostic[]): Promise<(Command | CodeAction)[] | null>;
  execute(command: string, args: unknown[]): Promise<unknown>;
  /** shutdown, exit; resolves with the server's exit code. */
  stop(): Promise<number | null>;
}

export async function startLsp(o: LspClientOptions = {}): Promise<LspClient> {
  const [cmd, ...args] = o.command ?? [process.execPath, BIN, 'lsp', '--stdio'];
  const child = spawn(cmd!, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...(o.env ?? {}) } });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
  const conn = createProtocolConnection(child.stdout!, child.stdin!);
  const all = new Map<string, PublishDiagnosticsParams[]>();
  const unseen = new Map<string, PublishDiagnosticsParams[]>();
  const waiters: { uri: string; version: number | undefined; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  const messages: string[] = [];
  conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
    all.set(p.uri, [...(all.get(p.uri) ?? []), p]);
    const w = waiters.findIndex((x) => x.uri === p.uri && (x.version === undefined || (p.version ?? -1) >= x.version));
    if (w >= 0) waiters.splice(w, 1)[0]!.resolve(p);
    else unseen.set(p.uri, [...(unseen.get(p.uri) ?? []), p]);
  });
  conn.onNotification(ShowMessageNotification.method, (p: ShowMessageParams) => void messages.push(p.message));
  // vscode-languageserver sends show*Message as a request (the user may pick an action): answered with none
  conn.onRequest(ShowMessageRequest.type, (p) => {
    messages.push(p.message);
    return null;
  });
  conn.onRequest(ConfigurationRequest.type, (p) => p.items.map(() => o.configuration ?? null));
  conn.listen();
  const folders = o.workspaceFolders ?? [];
  const initializeResult = await conn.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: folders[0] !== undefined ? uriOf(folders[0]) : null,
    workspaceFolders: folders.map((f) => ({ uri: uriOf(f), name: f })),
    capabilities: { workspace: { configuration: o.configuration !== undefined }, textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true } } },
    initializationOptions: o.initializationOptions ?? null,
  });
  await conn.sendNotification(InitializedNotification.type, {});

  const nextDiagnostics = (path: string, version?: number, timeoutMs = 20_000): Promise<PublishDiagnosticsParams> => {
    const uri = uriOf(path);
    const queued = unseen.get(uri) ?? [];
    const i = queued.findIndex((p) => version === undefined || (p.version ?? -1) >= version);
    if (i >= 0) {
      const [p] = queued.splice(i, 1);
      return Promise.resolve(p!);
    }
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no diagnostics for ${uri} (version ${version}) in ${timeoutMs} ms; stderr: ${err}`)), timeoutMs);
      waiters.push({ uri, version, resolve: (p) => (clearTimeout(t), resolve(p)) });
    });
  };
  const versions = new Map<string, number>();
  return {
    conn,
    child,
    initializeResult,
    messages,
    stderr: () => err,
    async open(path, text, languageId = 'yaml') {
      unseen.delete(uriOf(path));
      versions.set(path, 1);
      await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: uriOf(path), languageId, version: 1, text } });
      return nextDiagnostics(path, 1);
    },
    async change(path, version, changes) {
      await conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: uriOf(path), version }, contentChanges: changes });
      return nextDiagnostics(path, version);
    },
    async close(path) {
      await conn.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: uriOf(path) } });
    },
    nextDiagnostics,
    published(path) {
      const uri = uriOf(path);
      const out = all.get(uri) ?? [];
      all.set(uri, []);
      return out;
    },
    hover: (path, line, character) => conn.sendRequest(HoverRequest.type, { textDocument: { uri: uriOf(path) }, position: { line, character } }),
    codeActions: (path, diagnostics) =>
      conn.sendRequest(CodeActionRequest.type, {
        textDocument: { uri: uriOf(path) },
        range: diagnostics[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        context: { diagnostics },
      }),
    execute: (command, args) => conn.sendRequest(ExecuteCommandRequest.type, { command, arguments: args }),
    async stop() {
      await conn.sendRequest(ShutdownRequest.type);
      await conn.sendNotification(ExitNotification.type);
      const code = await exited;
      conn.dispose();
      return code;
    },
  };
}
