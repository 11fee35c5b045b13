import { readFile, writeFile } from '../io/fs-callbacks.js';
import { ExitCode, InputError, UsageError } from '../core/errors.js';
import type { Finding, Severity, Summary } from '../core/types.js';
import { parseFile, type SourceFile } from '../manifest/parse.js';
import { lintSources, PARSE_RULE_ID } from '../engine/lint.js';
import { verdictStore } from './verdict-cache.js';
import { applyBaseline, buildBaseline, parseBaseline, serializeBaseline, type Baseline } from '../engine/baseline.js';
import { compareFindings } from '../engine/results.js';
import { applySuppressions } from '../engine/suppress.js';
import { loadFormatter } from '../formatters/index.js';
import { PLAIN_STYLE, type FormatterContext } from '../formatters/types.js';
import { readInputs } from '../io/inputs.js';
import { celFor, loadCel } from '../schema/cel-syntax.js';
import { rules } from '../rules/index.js';
import type { Io } from './io.js';
import type { LintCliOptions } from './options.js';
import { runInWorker, wantThreads } from './lint-threads.js';
import { chalkStyle, decideColor } from './terminal.js';
import { VERSION } from './version.js';

const SEVERITIES = new Set(['error', 'warning', 'info', 'off']);

function parseRuleOverrides(specs: readonly string[]): Map<string, Severity | 'off'> {
  const known = new Map(rules.map((r) => [r.id, r]));
  const out = new Map<string, Severity | 'off'>();
  for (const s of specs) {
    // <rule-id>=severity, or <rule-id>/<messageId>=severity for one check of a rule
    const m = /^([a-z0-9-]+)(?:\/([A-Za-z0-9]+))?=([a-z]+)$/.exec(s);
    if (!m || !SEVERITIES.has(m[3]!)) throw new UsageError(`--rule ${s}: expected <rule-id>[/<check>]=error|warning|info|off`);
    const rule = known.get(m[1]!);
    if (!rule) throw new UsageError(`--rule ${s}: unknown rule "${m[1]}" (see the README for the list)`);
    if (m[2] !== undefined && !Object.hasOwn(rule.meta.messages, m[2]))
      throw new UsageError(`--rule ${s}: rule ${m[1]} has no check "${m[2]}" (its checks: ${Object.keys(rule.meta.messages).join(', ')})`);
    out.set(m[2] === undefined ? m[1]! : `${m[1]}/${m[2]}`, m[3] as Severity | 'off');
  }
  return out;
}



async function readBaseline(file: string): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new InputError('file-not-found', `baseline ${file} does not exist (create it with --update-baseline)`);
    throw new InputError('unreadable', `baseline ${file}: ${(e as Error).message}`);
  }
  return parseBaseline(text, file);
}

/** --old: files and directories as given, git:REV as the input paths at that revision. */
async function readOld(specs: readonly string[], paths: readonly string[], io: Io): Promise<SourceFile[]> {
  const out: SourceFile[] = [];
  for (const s of specs) {
    if (s.startsWith('git:')) {
      const { readGitRevision } = await import('../io/git-source.js');
      out.push(...(await readGitRevision(s.slice(4), paths, io.cwd)));
      continue;
    }
    const r = await readInputs([s], io.readStdin);
    if (r.problems.length > 0) throw new InputError('unreadable', r.problems.map((p) => `--old ${p.message}`).join('\n'));
    out.push(...r.files);
  }
  return out;
}

/** The names of the CRDs in the input (those an --old cluster run may update). */
function crdNames(files: readonly SourceFile[]): Set<string> {
  const out = new Set<string>();
  for (const f of files)
    for (const d of parseFile(f)) for (const m of d.manifests) if (m.kind === 'CustomResourceDefinition' && m.name !== undefined) out.add(m.name);
  return out;
}

export async function runLint(o: LintCliOptions, io: Io): Promise<ExitCode> {
  if (o.paths.length === 0 && o.cluster === undefined) throw new UsageError('no input: give files, directories or - for stdin (or --cluster)');
  if (o.updateBaseline && o.baseline === undefined) throw new UsageError('--update-baseline needs --baseline FILE: the file to write');
  // a baseline that cannot be read fails before anything is linted
  const accepted = o.baseline !== undefined && !o.updateBaseline ? await readBaseline(o.baseline) : undefined;
  const ruleSeverity = parseRuleOverrides(o.rule);
  const local = await readInputs(o.paths, io.readStdin);

  // --old cluster: the installed CRDs (with status) are OLD; the input's CRDs are updates or creates
  const oldCluster = o.old?.includes('cluster') === true;
  if (oldCluster && o.cluster === undefined) throw new UsageError('--old cluster needs --cluster (and its connection flags): the installed CRDs are read from there');
  if (oldCluster && o.paths.length === 0) throw new UsageError('--old cluster: give the new CRDs (files, directories or - for stdin)');
  // --cluster: the installed CRDs come first, as the cluster has them; local CRDs follow (naming conflicts)
  const installed = o.cluster && !oldCluster ? await (await import('./cluster-run.js')).installedCrdSources(o.cluster, io) : [];
  const objectSpecs = o.objects ?? [];
  if (objectSpecs.length > 0 && (o.old === undefined || o.old.length === 0)) throw new UsageError('--objects needs --old: the objects are stored under the installed CRDs that --old gives');
  // --old cluster: the installed CRDs with their status, and the live objects of those the input updates
  const live = oldCluster ? await (await import('./cluster-run.js')).installedCrdsAndObjects(o.cluster!, io, crdNames(local.files)) : undefined;
  const clusterOld = live?.crds ?? [];
  const inputs = { files: [...installed, ...local.files], problems: local.problems };
  const crdInputs = await readInputs(o.crd, io.readStdin);
  if (crdInputs.problems.length > 0) throw new InputError('unreadable', crdInputs.problems.map((p) => p.message).join('\n'));
  const oldFiles = o.old && o.old.length > 0 ? [...clusterOld, ...(await readOld(o.old.filter((s) => s !== 'cluster'), o.paths, io))] : undefined;
  // CEL rules of --crd files are evaluated on the custom resources too: they need the engine as well
  const cel = await celFor([...inputs.files, ...crdInputs.files, ...(oldFiles ?? [])], loadCel);
  let objectFiles: SourceFile[] | undefined;
  if (objectSpecs.length > 0 || live) {
    const r = await readInputs(objectSpecs, io.readStdin);
    if (r.problems.length > 0) throw new InputError('unreadable', r.problems.map((p) => `--objects ${p.message}`).join('\n'));
    objectFiles = r.files;
  }
  const verdicts = verdictStore(io);
  const opts = {
    kubeVersion: o.kubeVersion,
    cel,
    ruleSeverity,
    crdFiles: crdInputs.files,
    fieldValidation: o.fieldValidation,
    ...(oldFiles ? { old: oldFiles } : {}),
    ...(o.explainCost ? { explainCost: true } : {}),
    ...(objectFiles ? { objects: objectFiles } : {}),
    ...(live ? { liveObjects: live.objects } : {}),
    ...(installed.length > 0 ? { served: installed } : {}),
    ...(verdicts ? { verdicts } : {}),
  };
  const bytes = inputs.files.reduce((n, f) => n + f.text.length, 0);
  let result: { findings: readonly Finding[]; summary: Pick<Summary, 'files' | 'documents' | 'updates' | 'unchecked'>; checked: number } | undefined;
  if (wantThreads(bytes, io.env)) {
    // large inputs: custom resources are checked on two threads (src/engine/lint-parallel.ts)
    const { lintSplit, lintShare } = await import('../engine/lint-parallel.js');
    result = await lintSplit(inputs.files, opts, async (req) => {
      // CRDX_TRACE_THREADS=1: say on stderr how the work was shared (tests prove a worker ran)
      if (io.env['CRDX_TRACE_THREADS'] === '1') io.stderr.write(`crdx: ${req.files.length} of ${inputs.files.length} files linted in a worker thread\n`);
      return runInWorker(req).catch((e: unknown) => {
        if (io.env['CRDX_TRACE_THREADS'] === '1') io.stderr.write(`crdx: the worker failed (${String(e)}), its files are linted here\n`);
        return lintShare(req, cel);
      });
    });
  }
  result ??= lintSources(inputs.files, opts);
  verdicts?.save();
  // nothing to read at all (an empty directory, no YAML or JSON file, empty stdin, only comments)
  // is an input failure, unless the caller says it may happen (--allow-empty)
  if (!o.allowEmpty && o.cluster === undefined && inputs.problems.length === 0 && result.summary.documents === 0) {
    const what = local.files.length === 0 ? `no YAML or JSON file in ${o.paths.join(', ')}` : `no document in ${local.files.map((f) => (f.path === '-' ? 'stdin' : f.path)).join(', ')}`;
    throw new InputError('no-input', `no input: ${what} (--allow-empty accepts that)`);
  }
  const inputFindings: Finding[] = inputs.problems.map((p) => ({
    ruleId: PARSE_RULE_ID,
    severity: 'error',
    message: p.message,
    messageId: 'unreadable',
    file: p.path,
    line: 1,
    column: 1,
    document: 0,
    path: '',
    fatal: true,
  }));
  // suppression comments of the sources (by rule and line), then the baseline (by rule, file, object, path, message)
  const known = new Set([...rules.map((r) => r.id), PARSE_RULE_ID]);
  const sup = applySuppressions([...inputFindings, ...result.findings], inputs.files, known);
  let findings = sup.findings.sort(compareFindings);
  const unreadable = findings.some((f) => f.fatal);
  let baseline: { file: string; matched: number; fixed: number } | undefined;
  if (o.baseline !== undefined) {
    let b = accepted;
    if (o.updateBaseline) {
      b = buildBaseline(findings, io.cwd);
      try {
        await writeFile(o.baseline, serializeBaseline(b));
      } catch (e) {
        throw new InputError('unreadable', `baseline ${o.baseline} cannot be written: ${(e as Error).message}`);
      }
      io.stderr.write(`crdx: wrote ${findings.length} finding${findings.length === 1 ? '' : 's'} to the baseline ${o.baseline}\n`);
    }
    const applied = applyBaseline(findings, b!, io.cwd);
    findings = applied.findings;
    baseline = { file: o.baseline, matched: applied.matched, fixed: applied.fixed };
  }
  // --max-warnings counts the warnings -q hides
  const allWarnings = findings.filter((f) => f.severity === 'warning').length;
  const tooMany = o.maxWarnings !== undefined && allWarnings > o.maxWarnings ? { warnings: allWarnings, max: o.maxWarnings } : undefined;
  if (o.quiet) findings = findings.filter((f) => f.severity === 'error');
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.filter((f) => f.severity === 'warning').length;
  const summary = {
    ...result.summary,
    files: result.summary.files + inputs.problems.length,
    errors,
    warnings,
    ...(sup.suppressed.length > 0 ? { suppressed: sup.suppressed.length } : {}),
    ...(baseline ? { baseline } : {}),
    ...(tooMany ? { tooManyWarnings: tooMany } : {}),
  };
  const color = o.format === 'stylish' && decideColor(o.color, io);
  const ctx: FormatterContext = {
    style: color ? await chalkStyle() : PLAIN_STYLE,
    cwd: io.cwd,
    rules: new Map(rules.map((r) => [r.id, { description: r.meta.docs.description, serverFaithful: r.meta.serverFaithful }])),
    summary,
    toolVersion: VERSION,
    files: [...inputs.files.map((f) => f.path), ...inputs.problems.map((p) => p.path)],
    suppressed: sup.suppressed.sort(compareFindings),
  };
  const format = await loadFormatter(o.format);
  io.stdout.write(format(findings, ctx));
  // Nothing at all could be checked: exit 2 (input failure), otherwise findings decide.
  if (result.checked === 0 && unreadable) return ExitCode.Failure;
  if (o.updateBaseline) return ExitCode.Ok;
  if (errors > 0 || tooMany) return ExitCode.Findings;
  return ExitCode.Ok;
}
