#!/usr/bin/env node
// npm run bench: cold start, lint throughput, the YAML parse floor and the peers (kubeconform,
// kubectl-validate) on the same files in the same run, with peak RSS. Prints one Markdown table.
// Every row is a separate process timed from spawn to exit (wall time; median of the runs), its peak
// RSS and CPU time (user + system) from /usr/bin/time when present. Rows compared with each other run
// interleaved (one run of each in turn, the order rotating), so that a slow spell of a shared machine
// falls on all of them. Environment: BENCH_RUNS (default 3) runs per throughput row, BENCH_COLD_RUNS
// (default 10) for the cold start. BENCH_ONLY=cold: only the cold-start rows. BENCH_ONLY=lsp: only the language server's rows (bench/lsp.mjs); BENCH_ONLY=site: only the playground's (bench/site.mjs).
// BENCH_COMPARE=DIR: before/after rows instead: the cold starts, the corpus lint and the large input of
// this checkout and of the built checkout in DIR (say a `git worktree` of the commit before a change),
// interleaved, with the ratio after/before.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseAllDocuments, visit } from 'yaml';
import { BENCH, CORPUS, installPeers, prepareInputs, prepareTestBench, reviseCorpus, ROOT } from './setup.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 10);
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const log = (s) => process.stderr.write(`${s}\n`);
const BIN = join(ROOT, 'bin', 'kubectl-crdx');
if (!existsSync(join(ROOT, 'dist', 'cli', 'kubectl-crdx.cjs'))) throw new Error('run `npm run build:dist` first');

/** One corpus CRD with many x-kubernetes-validations rules (read from the corpus at bench time, never copied into the repository). */
const CEL_CRD_NAME = 'gateway-api/standard_gateway.networking.k8s.io_httproutes.yaml';
const CEL_CRD = join(CORPUS, 'crds', CEL_CRD_NAME);
/** The rules in a CRD file (`rule:` keys), for the row's name. */
/** A CRD file's text without any x-kubernetes-validations (comments and layout are not kept). */
function withoutRules(text) {
  return parseAllDocuments(text)
    .map((d) => {
      visit(d, { Pair: (_, pair) => (pair.key?.value === 'x-kubernetes-validations' ? visit.REMOVE : undefined) });
      return d.toString().replace(/^---\n/, '');
    })
    .join('---\n');
}
const celRules = (f) => readFileSync(f, 'utf8').match(/^\s*(?:- )?rule:/gm)?.length ?? 0;
const files = (p) => (statSync(p).isDirectory() ? readdirSync(p).sort().flatMap((f) => files(join(p, f))) : [p]);
const bytesOf = (paths) => paths.flatMap(files).reduce((n, f) => n + statSync(f).size, 0);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** One process run: wall seconds, peak RSS in KB and CPU seconds (or undefined), exit code, stdout. */
function once(cmd, args, env = {}) {
  const out = join(scratch, 'time.txt');
  const [c, a] = TIME ? [TIME, ['-f', '%M %U %S', '-o', out, cmd, ...args]] : [cmd, args];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(c, a, { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 1 << 30, encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.error) throw r.error;
  const [rss, user, sys] = TIME ? readFileSync(out, 'utf8').trim().split('\n').pop().split(' ').map(Number) : [];
  return { wall, rss, cpu: TIME ? user + sys : undefined, code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function summary(rs) {
  const cpu = rs.every((r) => r.cpu !== undefined) ? median(rs.map((r) => r.cpu)) : undefined;
  return { wall: median(rs.map((r) => r.wall)), cpu, rss: Math.max(...rs.map((r) => r.rss ?? 0)) || undefined, code: rs[0].code, first: rs[0] };
}

function measure(cmd, args, runs = RUNS, env = {}) {
  const rs = [];
  for (let i = 0; i < runs; i++) rs.push(once(cmd, args, env));
  return summary(rs);
}

/** Several commands ({cmd, args, env}) measured interleaved: each run starts with the next command in turn. */
function measureTogether(cmds, runs = RUNS) {
  const rs = cmds.map(() => []);
  for (let i = 0; i < runs; i++)
    for (let j = 0; j < cmds.length; j++) {
      const k = (i + j) % cmds.length;
      rs[k].push(once(cmds[k].cmd, cmds[k].args, cmds[k].env));
    }
  return rs.map(summary);
}

/**
 * The language server's rows (bench/lsp.mjs, one server process driven over stdio): diagnostics
 * latency after a one-character change in the largest corpus CRD, and the server's memory with the
 * whole corpus open.
 */
function lspRows() {
  log('bench: language server');
  const r = spawnSync(process.execPath, [join(ROOT, 'bench', 'lsp.mjs')], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`bench/lsp.mjs failed: ${r.stderr}`);
  const { largest: l, corpus: c } = JSON.parse(r.stdout.trim().split('\n').pop());
  const ms = (x) => `${x.toFixed(0)} ms`;
  return [
    [`crdx lsp: diagnostics after a one-character change, ${l.file} (${(l.bytes / 1e6).toFixed(1)} MB)`, ms(l.medianMs), '', '', '', '', '', `min ${ms(l.minMs)}, max ${ms(l.maxMs)} over ${l.changes} changes (goal <= 50 ms); first open ${ms(l.openMs)}`],
    [`crdx lsp: whole corpus open (${c.files} files, ${(c.bytes / 1e6).toFixed(1)} MB)`, `${(c.ms / 1000).toFixed(2)} s`, (c.bytes / 1e6 / (c.ms / 1000)).toFixed(2), '', '', `${Math.round(c.peakMb)}`, '', `RSS after: ${Math.round(c.rssMb)} MB`],
  ];
}

/**
 * The playground's rows (bench/site.mjs: dist/site/ from file:// in headless chromium): the time to
 * the first verdict after load and the re-check after a keystroke in a ~100 KB CRD, with the bundle
 * sizes. Left out, with a line that says so, when chromium is not installed.
 */
function siteRows() {
  const chromium = process.env.CRDX_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    log(`bench: playground rows left out: no chromium at ${chromium}`);
    return [['playground (chromium): not measured, no browser installed', '', '', '', '', '', '', `apt-get install -y chromium`]];
  }
  log('bench: playground in chromium');
  const r = spawnSync(process.execPath, [join(ROOT, 'bench', 'site.mjs')], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`bench/site.mjs failed: ${r.stderr}`);
  const m = JSON.parse(r.stdout.trim().split('\n').pop());
  const ms = (x) => `${x.toFixed(0)} ms`;
  const kb = (x) => `${Math.round(x / 1024)} KiB`;
  return [
    [`playground (chromium): first verdict after load (dist/site/ from file://)`, ms(m.firstVerdictMs.median), '', '', '', '', '', `min ${ms(m.firstVerdictMs.min)}, max ${ms(m.firstVerdictMs.max)} over ${m.firstVerdictMs.loads} loads; bundle ${kb(m.bundle.total)} (gzip ${kb(m.bundle.totalGzip)}), engine chunk ${kb(m.bundle.engine)} (gzip ${kb(m.bundle.engineGzip)}), lazy`],
    [`playground (chromium): re-check after a keystroke, ${m.crd.file} (${kb(m.crd.bytes)})`, ms(m.keystroke.shownMedian), '', '', '', '', '', `engine ${ms(m.keystroke.engineMedian)} median, ${ms(m.keystroke.engineMax)} max; key to verdict ${ms(m.keystroke.shownMax)} max, after the ${m.keystroke.debounceMs} ms debounce, over ${m.keystroke.keys} keys`],
  ];
}

/** The cold-start rows (also alone: BENCH_ONLY=cold). */
function coldRows(row, rows) {
  // side by side: node -e 0, a lint of one small CRD and of one CRD with many CEL rules, interleaved
  log(`bench: cold start (${COLD_RUNS} runs each)`);
  const one = join(ROOT, 'fixtures', 'crds', '01-widgets.yaml');
  const [nodeM, crdxM, celM] = measureTogether(
    [{ cmd: process.execPath, args: ['-e', '0'] }, { cmd: process.execPath, args: [BIN, 'lint', one] }, { cmd: process.execPath, args: [BIN, 'lint', CEL_CRD] }],
    COLD_RUNS,
  );
  row('`node -e 0`', nodeM, 0, 0, 'baseline');
  row('`kubectl-crdx lint` one CRD (fixtures/crds/01-widgets.yaml)', crdxM, 0, 1, `${(crdxM.wall / nodeM.wall).toFixed(2)}x node (goal <= 2x)`);
  row(`\`kubectl-crdx lint\` one CRD with CEL rules (${CEL_CRD_NAME}, ${celRules(CEL_CRD)} rules)`, celM, 0, 1, `${(celM.wall / nodeM.wall).toFixed(2)}x node (goal <= 1.5x)`);
  // the single executable of the krew archive (npm run package, this machine's platform), its code
  // cache in a directory of its own, written by a first run as a user's first run writes it
  log('bench: cold start of the krew executable');
  const pkg = join(scratch, 'package');
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts', 'package.mjs'), '--out', pkg], { cwd: ROOT, encoding: 'utf8' });
  const exe = join(pkg, 'sea', process.platform === 'win32' ? 'kubectl-crdx.exe' : 'kubectl-crdx');
  if (built.status !== 0 || !existsSync(exe)) rows.push(['krew executable: not measured, `npm run package` failed', '', '', '', '', '', '', built.stderr.trim().split('\n').pop() ?? '']);
  else {
    const env = { CRDX_CACHE_DIR: join(scratch, 'sea-cache') };
    once(exe, ['lint', CEL_CRD], env);
    const [n2, seaOne, seaCel] = measureTogether(
      [{ cmd: process.execPath, args: ['-e', '0'] }, { cmd: exe, args: ['lint', one], env }, { cmd: exe, args: ['lint', CEL_CRD], env }],
      COLD_RUNS,
    );
    row('krew executable (`npm run package`): `kubectl-crdx lint` one CRD (fixtures/crds/01-widgets.yaml)', seaOne, 0, 1, `${(seaOne.wall / n2.wall).toFixed(2)}x node (node ${(n2.wall * 1000).toFixed(0)} ms in these runs)`);
    row(`krew executable: \`kubectl-crdx lint\` one CRD with CEL rules (${CEL_CRD_NAME})`, seaCel, 0, 1, `${(seaCel.wall / n2.wall).toFixed(2)}x node (goal <= 1.5x)`);
  }
  // every corpus CRD with rules, each interleaved with `node -e 0`: how many meet the goal, by file size
  log('bench: cold start of every corpus CRD with CEL rules');
  const ruleCrds = files(join(CORPUS, 'crds')).filter((f) => /\.ya?ml$/.test(f) && celRules(f) > 0);
  // and the same CRD without its rules (every x-kubernetes-validations removed): what the rules add
  // to a cold lint, and how far the lint without any rule already is from the goal
  const noRulesDir = join(scratch, 'no-rules');
  mkdirSync(noRulesDir, { recursive: true });
  const perCrd = ruleCrds.map((f, i) => {
    const bare = join(noRulesDir, `${i}-${basename(f)}`);
    writeFileSync(bare, withoutRules(readFileSync(f, 'utf8')));
    const [n, c, b] = measureTogether(
      [{ cmd: process.execPath, args: ['-e', '0'] }, { cmd: process.execPath, args: [BIN, 'lint', f] }, { cmd: process.execPath, args: [BIN, 'lint', bare] }],
      Math.max(3, Math.ceil(COLD_RUNS / 2)),
    );
    return { bytes: statSync(f).size, ratio: c.wall / n.wall, bareRatio: b.wall / n.wall, cpuRatio: c.cpu !== undefined && n.cpu ? c.cpu / n.cpu : undefined };
  });
  for (const [label, lo, hi] of [['all sizes', 0, Infinity], ['< 50 KB', 0, 50e3], ['50-200 KB', 50e3, 200e3], ['> 200 KB', 200e3, Infinity]]) {
    const g = perCrd.filter((x) => x.bytes >= lo && x.bytes < hi);
    if (g.length === 0) continue;
    const within = g.filter((x) => x.ratio <= 1.5).length;
    rows.push([
      `cold start: \`lint\` each corpus CRD with CEL rules, ${label} (${g.length} CRDs)`,
      '', '', '', '', '', '',
      `${within}/${g.length} within 1.5x node; wall / node: median ${median(g.map((x) => x.ratio)).toFixed(2)}x, min ${Math.min(...g.map((x) => x.ratio)).toFixed(2)}x, max ${Math.max(...g.map((x) => x.ratio)).toFixed(2)}x; ` +
        `the same CRDs without their rules: ${g.filter((x) => x.bareRatio <= 1.5).length}/${g.length} within 1.5x, median ${median(g.map((x) => x.bareRatio)).toFixed(2)}x; with / without rules: median ${median(g.map((x) => x.ratio / x.bareRatio)).toFixed(2)}x`,
    ]);
  }

}

if (process.env.BENCH_ONLY === 'site') {
  const head = ['what', 'wall (median)', 'MB/s', 'docs/s', 'CPU (median)', 'peak RSS MB', 'exit', 'note'];
  const out = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...siteRows().map((r) => `| ${r.join(' | ')} |`)];
  process.stdout.write(`${out.join('\n')}\n`);
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'lsp') {
  const head = ['what', 'wall (median)', 'MB/s', 'docs/s', 'CPU (median)', 'peak RSS MB', 'exit', 'note'];
  const out = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...lspRows().map((r) => `| ${r.join(' | ')} |`)];
  process.stdout.write(`${out.join('\n')}\n\nnode ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'})\n`);
  process.exit(0);
}

const scratch = mkdtempSync(join(tmpdir(), 'crdx-bench-'));
if (process.env.BENCH_ONLY === 'cold') {
  const head = ['what', 'wall (median)', 'MB/s', 'docs/s', 'CPU (median)', 'peak RSS MB', 'exit', 'note'];
  const rows = [];
  const row = (what, m, _bytes, _docs, note = '') =>
    rows.push([what, `${m.wall.toFixed(2)} s`, '', '', m.cpu !== undefined ? `${m.cpu.toFixed(2)} s` : '', m.rss ? `${Math.round(m.rss / 1024)}` : '', `${m.code}`, note]);
  try {
    coldRows(row, rows);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  process.stdout.write(`${[`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n')}\n\nnode ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), ${COLD_RUNS} cold runs\n`);
  process.exit(0);
}
if (process.env.BENCH_COMPARE) {
  try {
    compareRows(process.env.BENCH_COMPARE);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  process.exit(0);
}
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
      m.cpu !== undefined ? `${m.cpu.toFixed(2)} s` : '',
      m.rss ? `${Math.round(m.rss / 1024)}` : '',
      `${m.code}`,
      note,
    ]);

  // 1. cold start
  coldRows(row, rows);

  // 2. the corpus CRDs: lint and the parse floor
  log('bench: corpus');
  const corpusDocs = Number(once(process.execPath, [join(ROOT, 'bench', 'parse-floor.mjs'), corpusCrds]).stdout.trim());
  const [lintCorpus, floorCorpus] = measureTogether([
    { cmd: process.execPath, args: [BIN, 'lint', corpusCrds] },
    { cmd: process.execPath, args: [join(ROOT, 'bench', 'parse-floor.mjs'), corpusCrds] },
  ]);
  row(`crdx lint: corpus CRDs (${(corpusBytes / 1e6).toFixed(1)} MB, ${corpusDocs} docs)`, lintCorpus, corpusBytes, corpusDocs, `${(lintCorpus.wall / floorCorpus.wall).toFixed(2)}x the floor (goal <= 2x)`);
  row('floor: yaml parse only, corpus CRDs', floorCorpus, corpusBytes, corpusDocs);
  // do worker threads pay on this machine? the same parse split over 2 threads
  const floorThreads = measure(process.execPath, [join(ROOT, 'bench', 'parse-floor.mjs'), '--workers', '2', corpusCrds]);
  row('floor with 2 worker threads, corpus CRDs', floorThreads, corpusBytes, corpusDocs, `${(floorCorpus.wall / floorThreads.wall).toFixed(2)}x the 1-thread floor`);
  // lint --old: the corpus against itself with one version added to every CRD (each one an update)
  const revised = reviseCorpus(corpusCrds, join(scratch, 'revised'));
  const lintOld = measure(process.execPath, [BIN, 'lint', '--old', corpusCrds, revised.dir]);
  row(`crdx lint --old: corpus CRDs against themselves, one version added to each (${revised.crds} updates)`, lintOld, corpusBytes, corpusDocs, `${(lintOld.wall / lintCorpus.wall).toFixed(2)}x the corpus lint`);

  // 3. the large input: custom resources against their CRDs, crdx and the peers
  log(`bench: large input (${large.objects} custom resources)`);
  const largeDesc = `${large.objects.toLocaleString('en-US')} CRs, ${(largeBytes / 1e6).toFixed(1)} MB`;
  const lintArgs = [BIN, 'lint', '--crd', largeCrds, largeDir];
  const tmpl = join(BENCH, 'schemas', '{{ .Group }}', '{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json');
  const cmds = [
    { cmd: process.execPath, args: lintArgs },
    // the same YAML as the lint reads: the custom resources and the CRDs of --crd
    { cmd: process.execPath, args: [join(ROOT, 'bench', 'parse-floor.mjs'), largeCrds, largeDir] },
    // do worker threads pay? the same lint forced on two threads and forced on one
    { cmd: process.execPath, args: lintArgs, env: { CRDX_PARALLEL_MIN_BYTES: '1' } },
    { cmd: process.execPath, args: lintArgs, env: { CRDX_WORKERS: '0' } },
    ...(peers.kubeconform ? [{ cmd: peers.kubeconform.exe, args: ['-schema-location', tmpl, '-summary', largeDir], peer: 'kubeconform' }] : []),
    ...(peers['kubectl-validate'] ? [{ cmd: peers['kubectl-validate'].exe, args: ['--local-crds', largeCrds, largeDir], peer: 'kubectl-validate' }] : []),
  ];
  const [lintLarge, floorLarge, lintLargeTwo, lintLargeOne, ...peerMs] = measureTogether(cmds);
  row(`crdx lint --crd: large input (${largeDesc})`, lintLarge, largeBytes, large.objects, `${(lintLarge.wall / floorLarge.wall).toFixed(2)}x the floor`);
  row('floor: yaml parse only, large input (and its CRDs)', floorLarge, largeBytes, large.objects);
  row(`crdx lint --crd on two threads (CRDX_PARALLEL_MIN_BYTES=1): large input`, lintLargeTwo, largeBytes, large.objects, `${(lintLargeTwo.wall / lintLarge.wall).toFixed(2)}x the default's time`);
  row(`crdx lint --crd on one thread (CRDX_WORKERS=0): large input`, lintLargeOne, largeBytes, large.objects, `${(lintLargeOne.wall / lintLarge.wall).toFixed(2)}x the default's time`);
  const peerRows = [];
  cmds.slice(4).forEach((c, i) => {
    const m = peerMs[i];
    peerRows.push([c.peer, m]);
    const note = c.peer === 'kubeconform' ? lastLine(m.first.stdout) : m.code === 0 ? 'all valid' : `exit ${m.code}: ${lastLine(m.first.stderr || m.first.stdout)}`;
    row(`${c.peer} ${peers[c.peer].version}: large input`, m, largeBytes, large.objects, note);
  });

  // 4. kubectl crdx test: a test file of 1,000 cases against a large CRD
  const tb = prepareTestBench();
  log(`bench: crdx test (${tb.cases} cases)`);
  const testM = measure(process.execPath, [BIN, 'test', tb.file]);
  row(`crdx test: ${tb.cases.toLocaleString('en-US')} cases (create, update, status, scale-get, denied) against argo-cd's ApplicationSet CRD (1.4 MB)`, testM, 0, tb.cases, `${lastLine(testM.first.stdout)} (goal < 2 s)`);

  // 5. the language server
  rows.push(...lspRows());

  // 6. the playground in headless chromium (bench/site.mjs), when Debian's chromium is installed
  rows.push(...siteRows());

  const head = ['what', 'wall (median)', 'MB/s', 'docs/s', 'CPU (median)', 'peak RSS MB', 'exit', 'note'];
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

/** BENCH_COMPARE: this checkout (after) against the built checkout in `dir` (before), interleaved. */
function compareRows(dir) {
  const before = join(dir, 'bin', 'kubectl-crdx');
  if (!existsSync(join(dir, 'dist', 'cli', 'kubectl-crdx.cjs'))) throw new Error(`${dir}: run \`npm run build:dist\` there first`);
  prepareInputs();
  const corpusCrds = join(CORPUS, 'crds');
  const one = join(ROOT, 'fixtures', 'crds', '01-widgets.yaml');
  // the cold starts run interleaved with `node -e 0` too, for their ratio to it (the goal's measure)
  const cases = [
    ['cold start: `lint` one CRD (fixtures/crds/01-widgets.yaml)', ['lint', one], COLD_RUNS, true],
    [`cold start: \`lint\` one CRD with CEL rules (${CEL_CRD_NAME})`, ['lint', CEL_CRD], COLD_RUNS, true],
    ['lint: corpus CRDs', ['lint', corpusCrds], RUNS],
    ['lint: corpus CRDs and samples', ['lint', CORPUS], RUNS],
    ['default: corpus samples (with the corpus CRDs)', ['default', '--no-explain', '-o', 'json', CORPUS], RUNS],
    ['lint --crd: large input', ['lint', '--crd', join(BENCH, 'crds'), join(BENCH, 'large')], RUNS],
  ];
  const head = ['what', 'before wall', 'after wall', 'after/before wall', 'before CPU', 'after CPU', 'after/before CPU', 'exit before/after', 'wall / `node -e 0` before/after'];
  const rows = [];
  for (const [what, args, runs, withNode] of cases) {
    log(`bench: ${what} (${runs} runs each)`);
    const cmds = [{ cmd: process.execPath, args: [before, ...args] }, { cmd: process.execPath, args: [BIN, ...args] }];
    const [b, a, n] = measureTogether(withNode ? [...cmds, { cmd: process.execPath, args: ['-e', '0'] }] : cmds, runs);
    const cpu = (m) => (m.cpu !== undefined ? `${m.cpu.toFixed(2)} s` : '');
    const ratio = (x, y) => (x !== undefined && y ? (x / y).toFixed(3) : '');
    const vsNode = n ? `${(b.wall / n.wall).toFixed(2)}x / ${(a.wall / n.wall).toFixed(2)}x (node ${(n.wall * 1000).toFixed(0)} ms)` : '';
    rows.push([what, `${b.wall.toFixed(3)} s`, `${a.wall.toFixed(3)} s`, ratio(a.wall, b.wall), cpu(b), cpu(a), ratio(a.cpu, b.cpu), `${b.code}/${a.code}`, vsNode]);
  }
  const out = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
  process.stdout.write(`${out.join('\n')}\n\nbefore: ${dir}; after: ${ROOT}; node ${process.version}, ${cpus().length} CPUs; medians of interleaved runs.\n`);
}

function lastLine(s) {
  return (s ?? '').trim().split('\n').pop()?.slice(0, 120).replace(/\|/g, '/') ?? '';
}
