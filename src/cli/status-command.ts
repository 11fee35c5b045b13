import { ExitCode, InputError, UsageError } from '../core/errors.js';
import { renderObjects } from '../formatters/objects.js';
import { explainStatus } from '../formatters/objects-update.js';
import { compareFindings } from '../engine/results.js';
import { statusSources } from '../engine/subresources.js';
import { stylish, printable } from '../formatters/stylish.js';
import { PLAIN_STYLE } from '../formatters/types.js';
import { readInputs } from '../io/inputs.js';
import { noCustomResources, skippedNotes } from './skipped.js';
import { verdictStore } from './verdict-cache.js';
import { celFor, loadCel } from '../schema/cel-syntax.js';
import type { Io } from './io.js';
import { clusterCrdFiles, printedWithObjects, unmatchedError } from './object-inputs.js';
import { chalkStyle, decideColor, findingContext } from './terminal.js';
import type { StatusCliOptions } from './options.js';

/**
 * stdout: the objects as stored; stderr: the explanation (on a TTY or with --explain: kept, ignored,
 * changed, generation), otherwise the server's warnings, then the errors.
 */
export async function runStatus(o: StatusCliOptions, io: Io): Promise<ExitCode> {
  if (o.paths.length === 0) throw new UsageError('no input: give the new custom resources with -f FILE (- for stdin)');
  const inputs = await readInputs(o.paths, io.readStdin);
  const oldInputs = await readInputs(o.old, io.readStdin);
  const crdInputs = await readInputs(o.crd, io.readStdin);
  const problems = [...inputs.problems, ...oldInputs.problems, ...crdInputs.problems];
  if (problems.length > 0) throw new InputError('unreadable', problems.map((p) => p.message).join('\n'));
  const fromCluster = await clusterCrdFiles(o.cluster, io, [...inputs.files, ...oldInputs.files], crdInputs.files);

  // the old objects' files are read for CRDs too
  const cel = await celFor([...fromCluster, ...crdInputs.files, ...inputs.files, ...oldInputs.files], loadCel);
  const verdicts = verdictStore(io);
  const run = statusSources(inputs.files, oldInputs.files, [...fromCluster, ...crdInputs.files], { kubeVersion: o.kubeVersion, cel, via: o.via, fieldValidation: o.fieldValidation, served: fromCluster, ...(verdicts ? { verdicts } : {}) });
  verdicts?.save();
  const color = decideColor(o.color, { ...io, stdout: io.stderr });
  const style = color ? await chalkStyle() : PLAIN_STYLE;
  const files = [...inputs.files, ...oldInputs.files].map((f) => f.path);
  if (run.parseFindings.some((f) => f.fatal)) {
    io.stderr.write(stylish(run.parseFindings, findingContext(style, io, files, run.documents, run.parseFindings)));
    return ExitCode.Failure;
  }
  if (run.unmatched.length > 0) throw unmatchedError(run.unmatched);
  if (run.items.length === 0) throw noCustomResources(run.skipped);

  io.stdout.write(renderObjects(run.items.filter((x) => !x.rejected).map((x) => x.value!), o.output));
  const explain = o.explain ?? io.stderr.isTTY === true;
  let err = skippedNotes(run.skipped);
  for (const x of run.items) {
    if (explain) err += explainStatus(x, style);
    else for (const w of (x.update ?? x.create)?.warnings ?? []) err += `Warning: ${printable(w.text)}\n`;
  }
  const errors = run.items.flatMap((x) => x.findings.filter(printedWithObjects)).sort(compareFindings);
  if (errors.length > 0) err += stylish(errors, findingContext(style, io, files, run.documents, errors));
  io.stderr.write(err);
  return run.items.some((x) => x.rejected) ? ExitCode.Findings : ExitCode.Ok;
}
