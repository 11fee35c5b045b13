#!/usr/bin/env node
// The GitHub Action's logic (action.yml runs this file): reads the action's inputs from INPUT_*
// variables, runs `kubectl-crdx lint` twice (-o sarif into the sarif-file, -o github for the
// annotations), writes the step outputs to $GITHUB_OUTPUT and a summary to $GITHUB_STEP_SUMMARY,
// and exits with lint's exit code. test/unit/action.test.ts runs it in a simulated environment.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** An input the action cannot use: reported as an ::error, exit 2 (as lint's usage errors). */
export class ActionInputError extends Error {}

const VALIDATE = new Set(['strict', 'warn', 'ignore', 'true', 'false']);

/** The input `name` as the runner passes it: INPUT_ + upper case, spaces as underscores (hyphens kept). */
function input(env, name) {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

/** The action's inputs, checked; empty optional inputs are left out. */
export function readInputs(env) {
  const paths = input(env, 'paths')
    .split(/\s+/)
    .filter((p) => p !== '');
  const kubeVersion = input(env, 'kube-version');
  if (kubeVersion !== '' && !/^\d+\.\d+$/.test(kubeVersion)) throw new ActionInputError(`kube-version: expected MAJOR.MINOR such as 1.30, got "${kubeVersion}"`);
  const maxWarnings = input(env, 'max-warnings');
  if (maxWarnings !== '' && !/^\d+$/.test(maxWarnings)) throw new ActionInputError(`max-warnings: expected a whole number >= 0, got "${maxWarnings}"`);
  const validate = input(env, 'validate') || 'strict';
  if (!VALIDATE.has(validate)) throw new ActionInputError(`validate: expected strict, warn or ignore, got "${validate}"`);
  return {
    paths: paths.length > 0 ? paths : ['.'],
    kubeVersion: kubeVersion || undefined,
    maxWarnings: maxWarnings === '' ? undefined : Number(maxWarnings),
    baseline: input(env, 'baseline') || undefined,
    validate,
    sarifFile: input(env, 'sarif-file') || undefined,
  };
}

/** The lint command line (without the program) for one output format. */
export function lintArgs(inputs, format) {
  return [
    'lint',
    '-o',
    format,
    `--validate=${inputs.validate}`,
    ...(inputs.kubeVersion !== undefined ? ['--kube-version', inputs.kubeVersion] : []),
    ...(inputs.maxWarnings !== undefined ? ['--max-warnings', String(inputs.maxWarnings)] : []),
    ...(inputs.baseline !== undefined ? ['--baseline', inputs.baseline] : []),
    // paths after `--`: a path that starts with a dash is still a path
    '--',
    ...inputs.paths,
  ];
}

/** Counts of a SARIF log: results by level (suppressed ones apart) and the tool's notifications. */
export function summarizeSarif(text) {
  const out = { errors: 0, warnings: 0, notes: 0, suppressed: 0, notifications: [] };
  let log;
  try {
    log = JSON.parse(text);
  } catch {
    return undefined;
  }
  for (const run of log.runs ?? []) {
    for (const r of run.results ?? []) {
      if ((r.suppressions ?? []).length > 0) out.suppressed++;
      else if (r.level === 'error') out.errors++;
      else if (r.level === 'warning') out.warnings++;
      else out.notes++;
    }
    for (const inv of run.invocations ?? []) for (const n of inv.toolExecutionNotifications ?? []) out.notifications.push(n.message?.text ?? '');
  }
  return out;
}

function shellWord(a) {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

/** Appends `name=value` lines to the file the runner reads step outputs from. */
function setOutputs(env, outputs) {
  const file = env.GITHUB_OUTPUT;
  if (!file) return;
  appendFileSync(file, Object.entries(outputs).map(([k, v]) => `${k}=${String(v).replace(/[\r\n]+/g, ' ')}\n`).join(''));
}

function stepSummary(env, markdown) {
  const file = env.GITHUB_STEP_SUMMARY;
  if (file) appendFileSync(file, markdown);
}

/**
 * Runs the action: `exec(args)` runs kubectl-crdx and returns {status, stdout, stderr}; `write`
 * takes what goes to the step's log. Returns the exit code for the step.
 */
export function runAction({ env, cwd, exec, write }) {
  let inputs;
  try {
    inputs = readInputs(env);
  } catch (e) {
    if (!(e instanceof ActionInputError)) throw e;
    write(`::error title=kubectl-crdx action::${e.message}\n`);
    setOutputs(env, { 'exit-code': 2 });
    return 2;
  }
  // SARIF first (for code scanning and the counts), then the annotations, whose exit code is the step's
  const sarifRun = exec(lintArgs(inputs, 'sarif'));
  const counts = summarizeSarif(sarifRun.stdout);
  let sarifPath = '';
  if (inputs.sarifFile !== undefined && counts !== undefined) {
    sarifPath = resolve(cwd, inputs.sarifFile);
    mkdirSync(dirname(sarifPath), { recursive: true });
    writeFileSync(sarifPath, sarifRun.stdout);
  }
  const args = lintArgs(inputs, 'github');
  const run = exec(args);
  write(run.stdout);
  if (run.stderr) write(run.stderr);
  const code = run.status ?? 2;
  setOutputs(env, {
    'exit-code': code,
    'sarif-file': sarifPath,
    errors: counts?.errors ?? '',
    warnings: counts?.warnings ?? '',
    suppressed: counts?.suppressed ?? '',
  });
  const verdict = code === 0 ? 'passed' : code === 1 ? 'failed: findings' : 'failed: nothing could be checked';
  const lines = [`### kubectl-crdx lint ${verdict}`, '', `\`kubectl-crdx ${args.map(shellWord).join(' ')}\``, ''];
  if (counts) {
    lines.push('| errors | warnings | notes | suppressed |', '|---|---|---|---|', `| ${counts.errors} | ${counts.warnings} | ${counts.notes} | ${counts.suppressed} |`, '');
    for (const n of counts.notifications) lines.push(`- ${n}`);
    if (counts.notifications.length > 0) lines.push('');
  } else if (run.stderr) {
    lines.push('```', run.stderr.trimEnd(), '```', '');
  }
  stepSummary(env, lines.join('\n') + '\n');
  return code;
}

/** kubectl-crdx from CRDX_BIN (the action's own checkout), else from the PATH (npm install -g). */
function realExec(env) {
  return (args) => {
    const bin = env.CRDX_BIN;
    const r = bin ? spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 }) : spawnSync('kubectl-crdx', args, { encoding: 'utf8', maxBuffer: 1 << 30 });
    if (r.error) return { status: 2, stdout: '', stderr: `kubectl-crdx could not be started: ${r.error.message}\n` };
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = runAction({ env: process.env, cwd: process.cwd(), exec: realExec(process.env), write: (s) => process.stdout.write(s) });
}
