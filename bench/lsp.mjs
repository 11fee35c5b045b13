#!/usr/bin/env node
// The language server's bench rows (bench/run.mjs runs this and prints them; alone: node bench/lsp.mjs
// prints JSON). One `kubectl-crdx lsp` process driven by an LSP client over stdio (vscode-jsonrpc):
//   1. the largest corpus CRD opened, then LSP_CHANGES one-character changes (a character added to,
//      then removed from, a description), each timed from didChange sent to its publishDiagnostics
//      (debounce 0: the server's own time plus the round trip);
//   2. every corpus file (CRDs and samples) opened in a fresh server, each waited for, then the
//      server's RSS (VmRSS) and peak RSS (VmHWM) from /proc.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { CORPUS, ROOT } from './setup.mjs';

const CHANGES = Number(process.env.LSP_CHANGES ?? 20);
const BIN = join(ROOT, 'bin', 'kubectl-crdx');
const files = (p) => (statSync(p).isDirectory() ? readdirSync(p).sort().flatMap((f) => files(join(p, f))) : [p]);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function server() {
  const child = spawn(process.execPath, [...(process.env.LSP_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.LSP_PROF] : []), BIN, 'lsp', '--stdio'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const conn = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const waiters = new Map();
  conn.onNotification('textDocument/publishDiagnostics', (p) => {
    const w = waiters.get(p.uri);
    if (w && (p.version ?? 0) >= w.version) {
      waiters.delete(p.uri);
      w.resolve(p);
    }
  });
  conn.listen();
  await conn.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: { debounceMs: 0 } });
  await conn.sendNotification('initialized', {});
  const diagnostics = (uri, version) => new Promise((resolve) => waiters.set(uri, { version, resolve }));
  const rss = () => {
    const s = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  };
  const stop = async () => {
    await conn.sendRequest('shutdown');
    await conn.sendNotification('exit');
    await new Promise((r) => child.once('exit', r));
    conn.dispose();
  };
  return { conn, diagnostics, rss, stop };
}

const corpus = [...files(join(CORPUS, 'crds')), ...files(join(CORPUS, 'samples'))].filter((f) => /\.ya?ml$/.test(f));
// LSP_CRD=project/file.yaml: another corpus CRD instead of the largest (e.g. one of ~500 KB)
const largest = process.env.LSP_CRD ? join(CORPUS, 'crds', process.env.LSP_CRD) : files(join(CORPUS, 'crds')).reduce((a, b) => (statSync(b).size > statSync(a).size ? b : a));

// 1. one-character changes in the largest CRD
const s1 = await server();
const uri = pathToFileURL(largest).href;
const text = readFileSync(largest, 'utf8');
let t0 = performance.now();
const opened = s1.diagnostics(uri, 1);
await s1.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
const first = await opened;
const openMs = performance.now() - t0;
const lines = text.split('\n');
const line = lines.findIndex((l) => /^\s*description: [A-Za-z]/.test(l));
const character = lines[line].length;
const times = [];
for (let i = 0; i < CHANGES; i++) {
  const version = i + 2;
  const add = i % 2 === 0;
  const range = add ? { start: { line, character }, end: { line, character } } : { start: { line, character }, end: { line, character: character + 1 } };
  const got = s1.diagnostics(uri, version);
  t0 = performance.now();
  await s1.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range, text: add ? 'x' : '' }] });
  await got;
  times.push(performance.now() - t0);
}
await s1.stop();

// 2. the whole corpus open in one server
const s2 = await server();
t0 = performance.now();
for (const f of corpus) {
  const u = pathToFileURL(f).href;
  const got = s2.diagnostics(u, 1);
  await s2.conn.sendNotification('textDocument/didOpen', { textDocument: { uri: u, languageId: 'yaml', version: 1, text: readFileSync(f, 'utf8') } });
  await got;
}
const corpusMs = performance.now() - t0;
const mem = s2.rss();
await s2.stop();

const bytes = corpus.reduce((n, f) => n + statSync(f).size, 0);
process.stdout.write(
  `${JSON.stringify({
    largest: { file: largest.slice(CORPUS.length + 1), bytes: statSync(largest).size, diagnostics: first.diagnostics.length, openMs, changes: CHANGES, medianMs: median(times), minMs: Math.min(...times), maxMs: Math.max(...times) },
    corpus: { files: corpus.length, bytes, ms: corpusMs, ...mem },
  })}\n`,
);
