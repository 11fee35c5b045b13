// The floor: only reading and parsing the YAML with the yaml package (default options, every
// document to JS), no checks. Prints the number of documents.
//   node bench/parse-floor.mjs [--workers N] PATH...
// With --workers, the files are parsed by N worker threads (to measure whether threads pay).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { parseAllDocuments } from 'yaml';

function parseFiles(list) {
  let docs = 0;
  for (const f of list) {
    const parsed = parseAllDocuments(readFileSync(f, 'utf8'));
    for (const d of Array.isArray(parsed) ? parsed : []) {
      d.toJS();
      docs++;
    }
  }
  return docs;
}

if (!isMainThread) {
  parentPort.postMessage(parseFiles(workerData));
} else {
  const args = process.argv.slice(2);
  const w = args.indexOf('--workers');
  const workers = w >= 0 ? Number(args.splice(w, 2)[1]) : 0;
  const files = (p) => (statSync(p).isDirectory() ? readdirSync(p).sort().flatMap((f) => files(join(p, f))) : /\.(ya?ml|json)$/.test(p) ? [p] : []);
  const all = args.flatMap(files);
  let docs = 0;
  if (workers > 0) {
    // largest first, each to the least loaded worker
    const sized = all.map((f) => ({ f, size: statSync(f).size })).sort((a, b) => b.size - a.size);
    const shares = Array.from({ length: workers }, () => ({ files: [], size: 0 }));
    for (const x of sized) {
      const s = shares.reduce((a, b) => (b.size < a.size ? b : a));
      s.files.push(x.f);
      s.size += x.size;
    }
    const counts = await Promise.all(
      shares.map((s) => new Promise((resolve, reject) => new Worker(new URL(import.meta.url), { workerData: s.files }).once('message', resolve).once('error', reject))),
    );
    docs = counts.reduce((a, b) => a + b, 0);
  } else {
    docs = parseFiles(all);
  }
  process.stdout.write(`${docs}\n`);
}
