import { ExitCode, InputError, UsageError } from '../core/errors.js';
import { compareFindings } from '../engine/results.js';
import { scaleSources } from '../engine/subresources.js';
import { stylish, printable } from '../formatters/stylish.js';
import { PLAIN_STYLE } from '../formatters/types.js';
import { readInputs } from '../io/inputs.js';
import { verdictStore } from './verdict-cache.js';
import { celFor, loadCel } from '../schema/cel-syntax.js';
import type { Io } from './io.js';
import { decideColor } from './terminal.js';
import type { ScaleCliOptions } from './options.js';
import { noCustomResources, skippedNotes } from './skipped.js';
import { clusterCrdFiles, unmatchedError } from './object-inputs.js';
import { chalkStyle, findingContext } from './terminal.js';
import { goYamlText } from '../go/yaml-emit.js';
import { goJsonIndent, structOrdered } from '../go/json.js';

/** The Scale in the server's field order (kind before apiVersion), not sorted like an unstructured object. */
function renderScales(scales: readonly object[], extra: readonly Record<string, unknown>[], format: 'yaml' | 'json'): string {
  const all: unknown[] = [...scales.map(structOrdered), ...extra];
  if (all.length === 0) return '';
  if (format === 'json') {
    const doc = all.length === 1 ? all[0] : { apiVersion: 'v1', items: all, kind: 'List' };
    return `${goJsonIndent(doc)}\n`;
  }
  // YAML (keys sorted whatever the type, as kubectl -o yaml prints): one document each, the Scales first, then the stored objects
  return [...scales, ...extra].map((o) => goYamlText(o)).join('---\n');
}

export async function runScale(o: ScaleCliOptions, io: Io): Promise<ExitCode> {
  if (o.paths.length === 0) throw new UsageError('no input: give the custom resources with -f FILE (- for stdin)');
  if (o.showObject && o.replicas === undefined) throw new UsageError('--show-object needs --replicas');
  const inputs = await readInputs(o.paths, io.readStdin);
  const crdInputs = await readInputs(o.crd, io.readStdin);
  const problems = [...inputs.problems, ...crdInputs.problems];
  if (problems.length > 0) throw new InputError('unreadable', problems.map((p) => p.message).join('\n'));
  const fromCluster = await clusterCrdFiles(o.cluster, io, inputs.files, crdInputs.files);

  const cel = await celFor([...fromCluster, ...crdInputs.files, ...inputs.files], loadCel);
  const verdicts = verdictStore(io);
  const run = scaleSources(inputs.files, [...fromCluster, ...crdInputs.files], {
    kubeVersion: o.kubeVersion,
    cel,
    served: fromCluster,
    ...(verdicts ? { verdicts } : {}),
    ...(o.replicas !== undefined ? { replicas: o.replicas } : {}),
    ...(o.resourceVersion !== undefined ? { resourceVersion: o.resourceVersion } : {}),
  });
  verdicts?.save();
  const color = decideColor(o.color, { ...io, stdout: io.stderr });
  const style = color ? await chalkStyle() : PLAIN_STYLE;
  const files = inputs.files.map((f) => f.path);
  if (run.parseFindings.some((f) => f.fatal)) {
    io.stderr.write(stylish(run.parseFindings, findingContext(style, io, files, run.documents, run.parseFindings)));
    return ExitCode.Failure;
  }
  if (run.unmatched.length > 0) throw unmatchedError(run.unmatched);
  if (run.items.length === 0) throw noCustomResources(run.skipped);

  const ok = run.items.filter((x) => !x.rejected);
  const scales = ok.map((x) => x.scale!);
  const objects = o.showObject ? ok.map((x) => x.object!).filter((x) => x !== undefined) : [];
  io.stdout.write(renderScales(scales, objects, o.output));
  let err = skippedNotes(run.skipped);
  for (const x of run.items) {
    for (const w of x.update?.warnings ?? []) err += `Warning: ${printable(w.text)}\n`;
    if (x.update?.celNotEvaluated) err += `note: ${printable(x.manifest.file.path)}: the CRD has CEL rules (x-kubernetes-validations) that could not all be evaluated on the update\n`;
  }
  const errors = run.items.flatMap((x) => x.findings).sort(compareFindings);
  if (errors.length > 0) err += stylish(errors, findingContext(style, io, files, run.documents, errors));
  io.stderr.write(err);
  return run.items.some((x) => x.rejected) ? ExitCode.Findings : ExitCode.Ok;
}
