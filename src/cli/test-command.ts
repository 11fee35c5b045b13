/**
 * `kubectl crdx test`: finds the test files, reads them and the files they name (src/io), runs
 * them (src/crdtest), prints the results (src/formatters/crdtest.ts) and picks the exit code:
 * 0 every case passed, 1 a case failed, 2 a test file could not be read (the others still run).
 */
import { basename, dirname, join } from 'node:path';
import { ExitCode, InputError } from '../core/errors.js';
import { buildCrd, isCrdManifest } from '../crd/model.js';
import { Coverage } from '../crdtest/coverage.js';
import { parseTestFile } from '../crdtest/parse.js';
import { runTestFile, type RunOptions } from '../crdtest/run.js';
import { scaffoldTestFile } from '../crdtest/scaffold.js';
import { summarize, type FileResult, type TestFile, type TestRun } from '../crdtest/types.js';
import { updateTestFile } from '../crdtest/update.js';
import { parseSources } from '../engine/parse-sources.js';
import { fileErrorLines, formatCoverage, formatTestRun } from '../formatters/crdtest.js';
import { printable } from '../formatters/stylish.js';
import { PLAIN_STYLE } from '../formatters/types.js';
import { readInputs } from '../io/inputs.js';
import { findTestFiles, readNamedFiles, readTextFile, writeNewTextFile, writeTextFile } from '../io/test-files.js';
import { celFor, loadCel } from '../schema/cel-syntax.js';
import type { Io } from './io.js';
import { decideColor } from './terminal.js';
import type { TestCliOptions } from './options.js';
import { chalkStyle } from './terminal.js';
import { VERSION } from './version.js';

/** Reads and runs one test file; never throws for what the file holds. */
async function runOneFile(path: string, o: Pick<TestCliOptions, 'filter' | 'kubeVersion' | 'fieldValidation'>, cwd: string, onCase?: RunOptions['onCase']): Promise<{ result: FileResult; model?: TestFile; text?: string }> {
  let source;
  try {
    source = await readTextFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { result: { file: path, errors: [{ file: path, line: 1, column: 1, message: code === 'ENOENT' ? 'no such file' : (e as Error).message }], cases: [], ms: 0 } };
  }
  const parsed = parseTestFile(source);
  if (!parsed.file) return { result: { file: path, errors: parsed.errors, cases: [], ms: 0 } };
  const model = parsed.file;
  const patterns = model.crds.flatMap((c) => (c.inline ? [] : [c.pattern]));
  const objects = model.cases.flatMap((c) => [c.object, c.oldObject]).flatMap((x) => (x && !x.inline ? [x.file] : []));
  const named = await readNamedFiles(path, patterns, objects, cwd);
  // the CEL engine is loaded only when a file may hold CEL rules
  const cel = await celFor([source, ...[...named.crdFiles.values()].flat()], loadCel);
  return { result: runTestFile(model, named, { kubeVersion: o.kubeVersion, cel, fieldValidation: o.fieldValidation, ...(o.filter !== undefined ? { filter: o.filter } : {}), ...(onCase ? { onCase } : {}) }), model, text: source.text };
}

function exitCodeFor(run: TestRun): ExitCode {
  if (run.summary.errors > 0) return ExitCode.Failure;
  return run.summary.failed > 0 ? ExitCode.Findings : ExitCode.Ok;
}

/** --init: the starter test file beside the CRD file (never over an existing file). */
async function initTests(o: TestCliOptions, crdFile: string, io: Io): Promise<ExitCode> {
  const inputs = await readInputs([crdFile], io.readStdin);
  if (inputs.problems.length > 0) throw new InputError('unreadable', inputs.problems.map((p) => p.message).join('\n'));
  const parsed = parseSources(inputs.files);
  const fatal = parsed.findings.find((f) => f.fatal);
  if (fatal) throw new InputError('unreadable', `${fatal.file}:${fatal.line}:${fatal.column}: ${fatal.message}`);
  const cel = await celFor(inputs.files, loadCel);
  const crds = parsed.manifests.filter(isCrdManifest).map((m) => buildCrd(m, o.kubeVersion, cel));
  if (crds.length === 0) throw new InputError('no-crd-found', `${crdFile}: no CustomResourceDefinition`);
  const out = join(dirname(crdFile), `${basename(crdFile).replace(/\.(ya?ml|json)$/i, '')}.crdx-test.yaml`);
  const s = scaffoldTestFile(crds, basename(crdFile), o.kubeVersion);
  if (!(await writeNewTextFile(out, s.text))) throw new InputError('unreadable', `${out} exists: not overwritten`);
  io.stderr.write(`wrote ${printable(out)}: ${s.cases} case${s.cases === 1 ? '' : 's'}\n`);
  return ExitCode.Ok;
}

export async function runTest(o: TestCliOptions, io: Io): Promise<ExitCode> {
  if (o.init !== undefined) return initTests(o, o.init, io);
  const found = await findTestFiles(o.paths.length > 0 ? o.paths : ['.']);
  if (found.files.length === 0 && found.problems.length === 0) throw new InputError('no-input', `no *.crdx-test.yaml files under ${(o.paths.length > 0 ? o.paths : ['.']).join(', ')}`);
  const files: FileResult[] = found.problems.map((p) => ({ file: p.path, errors: [{ file: p.path, line: 1, column: 1, message: p.message }], cases: [], ms: 0 }));
  const coverage = o.coverage ? new Coverage() : undefined;
  for (const f of found.files) {
    // with --update, coverage is taken on the run after the rewrite
    const first = await runOneFile(f, o, io.cwd, o.update ? undefined : coverage?.onCase);
    if (!o.update || !first.model || first.text === undefined) {
      files.push(first.result);
      continue;
    }
    // --update: failing expectations rewritten with the outcome, then the file is run again
    const u = updateTestFile(first.text, first.model, first.result);
    if (u.updated.length === 0) {
      files.push(coverage ? (await runOneFile(f, o, io.cwd, coverage.onCase)).result : first.result);
      continue;
    }
    await writeTextFile(f, u.text);
    io.stderr.write(`updated ${u.updated.length} case${u.updated.length === 1 ? '' : 's'} in ${printable(f)}: ${u.updated.map((n) => printable(n)).join(', ')}\n`);
    files.push((await runOneFile(f, o, io.cwd, coverage?.onCase)).result);
  }
  const run: TestRun = { files, summary: summarize(files), ...(coverage ? { coverage: coverage.report() } : {}) };
  const color = decideColor(o.color, io);
  const style = color ? await chalkStyle() : PLAIN_STYLE;
  const errors = fileErrorLines(run);
  if (errors.length > 0) io.stderr.write(errors.map((l) => `error: ${l}\n`).join(''));
  io.stdout.write(formatTestRun(run, o.output, { style, toolVersion: VERSION }));
  // junit and tap have no place for it: the coverage goes to stderr
  if (run.coverage && (o.output === 'junit' || o.output === 'tap')) io.stderr.write(formatCoverage(run.coverage, PLAIN_STYLE));
  return exitCodeFor(run);
}
