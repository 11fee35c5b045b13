#!/usr/bin/env node
// npm run bench: cold start, lint throughput, the YAML parse floor and the peers (kubeconform,
// kubectl-validate) on the same files in the same run, with peak RSS. Prints one Markdown table.
// Every row is a separate process timed from spawn to exit (wall time; median of the runs), its peak
// RSS from /usr/bin/time -v when present. Environment: BENCH_RUNS (default 3) runs per throughput row,
// BENCH_COLD_RUNS (default 10) for the cold start.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH, CORPUS, installPeers, prepareInputs, ROOT } from './setup.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 10);
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const log = (s) => process.stderr.write(`${s}\n`);
const BIN = join(ROOT, 'bin', 'kubectl-crdx');
if (!existsSync(join(ROOT, 'dist', 'cli', 'kubectl-crdx.cjs'))) throw new Error('run `npm run build` first');

const files = (p) => (statSync(p).isDirectory() ? readdirSync(p).sort().flatMap((f) => files(join(p, f))) : [p]);
const bytesOf = (paths) => paths.flatMap(files).reduce((n, f) => n + statSync(f).size, 0);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** One process run: wall seconds, peak RSS in KB (or undefined), exit code, stdout. */
function once(cmd, args, env = {}) {
  const out = join(scratch, 'time.txt');
  const [c, a] = TIME ? [TIME, ['-f', '%M', '-o', out, cmd, ...args]] : [cmd, args];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(c, a, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 1 << 30, encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.error) throw r.error;
  const rss = TIME ? Number(readFileSync(out, 'utf8').trim().split('\n').pop()) : undefined;
  return { wall, rss, code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function measure(cmd, args, runs = RUNS, env = {}) {
  const rs = [];
  for (let i = 0; i < runs; i++) rs.push(once(cmd, args, env));
  return { wall: median(rs.map((r) => r.wall)), rss: Math.max(...rs.map((r) => r.rss ?? 0)) || undefined, code: rs[0].code, first: rs[0] };
}

const scratch = mkdtempSync(join(tmpdir(), 'crdx-bench-'));
try {
  const peers = installPeers();
  const large = prepareInputs();
  const corpusCrds = join(CORPUS, 'crds');
  const largeDir = join(BENCH, 'large');
  const largeCrds = join(BENCH, 'crds');
  const corpusBytes = bytesOf([corpusCrds]);
  const largeBytes = bytesOf([largeDir]);
  const rows = [];
  const row = (what, m, bytes, docs, note = '') =>
    rows.push([
      what,
      `${m.wall.toFixed(2)} s`,
      bytes ? (bytes / 1e6 / m.wall).toFixed(2) : '',
      docs ? Math.round(docs / m.wall).toLocaleString('en-US') : '',
      m.rss ? `${Math.round(m.rss / 1024)}` : '',
      `${m.code}`,
      note,
    ]);

  // 1. cold start, side by side: node -e 0 and a lint of one CRD, alternating
  log(`bench: cold start (${COLD_RUNS} runs each)`);
  const one = join(ROOT, 'fixtures', 'crds', '01-widgets.yaml');
  const nodeRuns = [];
  const crdxRuns = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    nodeRuns.push(once(process.execPath, ['-e', '0']));
    crdxRuns.push(once(process.execPath, [BIN, 'lint', one]));
  }
  const nodeM = { wall: median(nodeRuns.map((r) => r.wall)), rss: Math.max(...nodeRuns.map((r) => r.rss ?? 0)), code: nodeRuns[0].code };
  const crdxM = { wall: median(crdxRuns.map((r) => r.wall)), rss: Math.max(...crdxRuns.map((r) => r.rss ?? 0)), code: crdxRuns[0].code };
  row('`node -e 0`', nodeM, 0, 0, 'baseline');
  row('`kubectl-crdx lint` one CRD (fixtures/crds/01-widgets.yaml)', crdxM, 0, 1, `${(crdxM.wall / nodeM.wall).toFixed(2)}x node (goal <= 2x)`);

  // 2. the corpus CRDs: lint and the parse floor
  log('bench: corpus');
  const corpusDocs = Number(once(process.execPath, [join(ROOT, 'bench', 'parse-floor.mjs'), corpusCrds]).stdout.trim());
  const lintCorpus = measure(process.execPath, [BIN, 'lint', corpusCrds]);
  const floorCorpus = measure(process.execPath, [join(ROOT, 'bench', 'parse-floor.mjs'), corpusCrds]);
  row(`crdx lint: corpus CRDs (${(corpusBytes / 1e6).toFixed(1)} MB, ${corpusDocs} docs)`, lintCorpus, corpusBytes, corpusDocs, `${(lintCorpus.wall / floorCorpus.wall).toFixed(2)}x the floor (goal <= 2x)`);
  row('floor: yaml parse only, corpus CRDs', floorCorpus, corpusBytes, corpusDocs);
  // do worker threads pay on this machine? the same parse split over 2 threads
  const floorThreads = measure(process.execPath, [join(ROOT, 'bench', 'parse-floor.mjs'), '--workers', '2', corpusCrds]);
  row('floor with 2 worker threads, corpus CRDs', floorThreads, corpusBytes, corpusDocs, `${(floorCorpus.wall / floorThreads.wall).toFixed(2)}x the 1-thread floor`);

  // 3. the large input: custom resources against their CRDs, crdx and the peers
  log(`bench: large input (${large.objects} custom resources)`);
  const largeDesc = `${large.objects.toLocaleString('en-US')} CRs, ${(largeBytes / 1e6).toFixed(1)} MB`;
  const lintLarge = measure(process.execPath, [BIN, 'lint', '--crd', largeCrds, largeDir]);
  // the same YAML as the lint reads: the custom resources and the CRDs of --crd
  const floorLarge = measure(process.execPath, [join(ROOT, 'bench', 'parse-floor.mjs'), largeCrds, largeDir]);
  row(`crdx lint --crd: large input (${largeDesc})`, lintLarge, largeBytes, large.objects, `${(lintLarge.wall / floorLarge.wall).toFixed(2)}x the floor`);
  row('floor: yaml parse only, large input (and its CRDs)', floorLarge, largeBytes, large.objects);
  // do worker threads pay? the same lint forced on two threads and forced on one
  const lintLargeTwo = measure(process.execPath, [BIN, 'lint', '--crd', largeCrds, largeDir], RUNS, { CRDX_PARALLEL_MIN_BYTES: '1' });
  row(`crdx lint --crd on two threads (CRDX_PARALLEL_MIN_BYTES=1): large input`, lintLargeTwo, largeBytes, large.objects, `${(lintLargeTwo.wall / lintLarge.wall).toFixed(2)}x the default's time`);
  const lintLargeOne = measure(process.execPath, [BIN, 'lint', '--crd', largeCrds, largeDir], RUNS, { CRDX_WORKERS: '0' });
  row(`crdx lint --crd on one thread (CRDX_WORKERS=0): large input`, lintLargeOne, largeBytes, large.objects, `${(lintLargeOne.wall / lintLarge.wall).toFixed(2)}x the default's time`);
  const peerRows = [];
  if (peers.kubeconform) {
    const tmpl = join(BENCH, 'schemas', '{{ .Group }}', '{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json');
    const m = measure(peers.kubeconform.exe, ['-schema-location', tmpl, '-summary', largeDir]);
    peerRows.push(['kubeconform', m]);
    row(`kubeconform ${peers.kubeconform.version}: large input`, m, largeBytes, large.objects, `${lastLine(m.first.stdout)}`);
  }
  if (peers['kubectl-validate']) {
    const m = measure(peers['kubectl-validate'].exe, ['--local-crds', largeCrds, largeDir]);
    peerRows.push(['kubectl-validate', m]);
    row(`kubectl-validate ${peers['kubectl-validate'].version}: large input`, m, largeBytes, large.objects, m.code === 0 ? 'all valid' : `exit ${m.code}: ${lastLine(m.first.stderr || m.first.stdout)}`);
  }

  const head = ['what', 'wall (median)', 'MB/s', 'docs/s', 'peak RSS MB', 'exit', 'note'];
  const out = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
  process.stdout.write(`${out.join('\n')}\n\n`);
  process.stdout.write(
    `node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), ${RUNS} runs per throughput row, ${COLD_RUNS} for the cold start; ` +
      `${large.samples} accepted corpus samples repeated over ${large.crdFiles} CRD files (${large.schemas} JSON schemas for kubeconform).\n`,
  );
  for (const [name, m] of peerRows)
    process.stdout.write(`crdx lint vs ${name} on the large input: ${(m.wall / lintLarge.wall).toFixed(2)}x ${m.wall >= lintLarge.wall ? 'faster' : 'SLOWER'}\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

function lastLine(s) {
  return (s ?? '').trim().split('\n').pop()?.slice(0, 120).replace(/\|/g, '/') ?? '';
}
