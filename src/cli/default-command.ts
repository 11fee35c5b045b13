import { existsSync } from 'node:fs';
import { ExitCode, InputError, UsageError } from '../core/errors.js';
import type { Finding } from '../core/types.js';
import { explainObject, renderObjects } from '../formatters/objects.js';
import type { Crd } from '../crd/model.js';
import { defaultSources } from '../engine/default.js';
import { PARSE_RULE_ID } from '../engine/parse-sources.js';
import { compareFindings } from '../engine/results.js';
import { stylish, printable } from '../formatters/stylish.js';
import { PLAIN_STYLE, type FormatterContext } from '../formatters/types.js';
import { readInputs } from '../io/inputs.js';
import { verdictStore } from './verdict-cache.js';
import { celFor, loadCel } from '../schema/cel-syntax.js';
import type { Io } from './io.js';
import { printedWithObjects } from './object-inputs.js';
import { chalkStyle, decideColor, findingContext } from './terminal.js';
import { noCustomResources, skippedNotes } from './skipped.js';
import type { DefaultCliOptions } from './options.js';

/**
 * stdout: the objects the server would store (rejected ones left out); stderr: the explanation
 * (on a TTY or with --explain), otherwise the server's warnings, then the errors of rejected objects.
 * Exit 1 when the server would reject an object or an input cannot be read or matched, 2 when no
 * object at all could be created. `crds`: CRDs already built (a caller running many inputs against
 * the same CRDs, e.g. the fuzz suite), used as --crd files are.
 */
export async function runDefault(o: DefaultCliOptions, io: Io, crds: readonly Crd[] = []): Promise<ExitCode> {
  if (o.paths.length === 0) throw new UsageError('no input: give custom resources with -f FILE (- for stdin)');
  // --cluster: RESOURCE/NAME arguments that are not paths name live objects
  const clusterRun = o.cluster ? await import('./cluster-run.js') : undefined;
  const refs = clusterRun ? o.paths.filter((p) => clusterRun.isObjectRef(p, existsSync)) : [];
  const local = await readInputs(o.paths.filter((p) => !refs.includes(p)), io.readStdin);
  const crdInputs = await readInputs(o.crd, io.readStdin);
  // an unreadable input among readable ones is listed with the errors; alone, or a --crd one, it stops here
  const problems = local.files.length > 0 || refs.length > 0 ? crdInputs.problems : [...local.problems, ...crdInputs.problems];
  if (problems.length > 0) throw new InputError('unreadable', problems.map((p) => p.message).join('\n'));
  const fromCluster = clusterRun && o.cluster ? await clusterRun.clusterSourcesForDefault(o.cluster, io, refs, local.files, crdInputs.files) : { objects: [], crds: [] };
  const inputs = { files: [...fromCluster.objects, ...local.files] };

  // the CEL engine is loaded only when an input may hold CEL rules; CRDs already built (`crds`) carry their own engine
  const cel = await celFor([...fromCluster.crds, ...crdInputs.files, ...inputs.files], loadCel);
  const verdicts = verdictStore(io);
  const run = defaultSources(inputs.files, [...fromCluster.crds, ...crdInputs.files], { kubeVersion: o.kubeVersion, cel, crds, fieldValidation: o.fieldValidation, served: fromCluster.crds, ...(verdicts ? { verdicts } : {}) });
  verdicts?.save();
  const color = decideColor(o.color, { ...io, stdout: io.stderr });
  const style = color ? await chalkStyle() : PLAIN_STYLE;
  const ctx = (findings: readonly Finding[]): FormatterContext => findingContext(style, io, inputs.files.map((f) => f.path), run.documents, findings);


  // Nothing could be defaulted: an input failure (2). Otherwise a bad document or an object without a
  // CRD never hides the others: they are listed with the errors and the exit code is 1.
  const unmatchedFindings: Finding[] = run.unmatched.map((u) => {
    const pos = u.manifest.locate(['apiVersion']);
    return {
      ruleId: 'input',
      severity: 'error',
      message: `${u.manifest.kind ?? '(no kind)'} ${u.manifest.apiVersion ?? '(no apiVersion)'}: ${u.message}`,
      messageId: u.code,
      file: u.manifest.file.path,
      line: pos.line,
      column: pos.column,
      document: u.manifest.docIndex,
      path: '',
      fatal: true,
    };
  });
  if (run.objects.length === 0) {
    if (run.parseFindings.some((f) => f.fatal)) {
      if (local.problems.length > 0) io.stderr.write(local.problems.map((p) => `error: ${printable(p.message)}\n`).join(''));
      io.stderr.write(stylish(run.parseFindings, ctx(run.parseFindings)));
      return ExitCode.Failure;
    }
    if (run.unmatched.length > 0) {
      const lines = unmatchedFindings.map((f) => `${printable(f.file)}:${f.line}:${f.column}: ${printable(f.message)}`);
      throw new InputError(run.unmatched[0]!.code, lines.join('\n'));
    }
    throw noCustomResources(run.skipped);
  }

  // an object refused only by strict field validation is still shown: the preview is the point
  io.stdout.write(renderObjects(run.objects.filter((x) => x.result.value !== undefined).map((x) => x.result.value!), o.output));

  const explain = o.explain ?? io.stderr.isTTY === true;
  let err = skippedNotes(run.skipped);
  if (explain) {
    for (const x of run.objects) err += explainObject(x, style);
  } else {
    // kubectl prints the server's warnings this way
    for (const x of run.objects) for (const w of x.result.warnings) err += `Warning: ${printable(w.text)}\n`;
  }
  // the rule id lint gives an unreadable path
  const unreadable: Finding[] = local.problems.map((p) => ({
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
  const inputProblems = [...unreadable, ...run.parseFindings, ...unmatchedFindings];
  const errors = [...inputProblems, ...run.objects.flatMap((x) => x.findings.filter(printedWithObjects))].sort(compareFindings);
  if (errors.length > 0) err += stylish(errors, ctx(errors));
  io.stderr.write(err);
  return run.objects.some((x) => x.rejected) || inputProblems.some((f) => f.severity === 'error') ? ExitCode.Findings : ExitCode.Ok;
}
