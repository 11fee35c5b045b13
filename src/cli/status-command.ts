import chalk, { Chalk } from 'chalk';
import { ExitCode, InputError, UsageError } from '../core/errors.js';
import type { Finding } from '../core/types.js';
import { renderObjects } from '../formatters/objects.js';
import { explainStatus } from '../formatters/objects-update.js';
import { compareFindings } from '../engine/results.js';
import { statusSources, type Unmatched } from '../engine/subresources.js';
import { stylish, printable } from '../formatters/stylish.js';
import { PLAIN_STYLE, type FormatterContext, type Style } from '../formatters/types.js';
import { readInputs } from '../io/inputs.js';
import { noCustomResources, skippedNotes } from './skipped.js';
import { ensureCelParserFor } from '../schema/cel-syntax.js';
import type { SourceFile } from '../manifest/parse.js';
import { rules } from '../rules/index.js';
import type { Io } from './io.js';
import { decideColor } from './lint-command.js';
import type { StatusCliOptions } from './main.js';
import { VERSION } from './version.js';

export function chalkStyle(): Style {
  const c = new Chalk({ level: chalk.level > 0 ? chalk.level : 1 });
  return { red: c.red, yellow: c.yellow, blue: c.blue, dim: c.dim, bold: c.bold, underline: c.underline };
}

export function findingContext(style: Style, io: Io, files: readonly string[], documents: number, findings: readonly Finding[]): FormatterContext {
  return {
    style,
    cwd: io.cwd,
    rules: new Map(rules.map((r) => [r.id, { description: r.meta.docs.description, serverFaithful: r.meta.serverFaithful }])),
    summary: {
      files: new Set(findings.map((f) => f.file)).size,
      documents,
      errors: findings.filter((f) => f.severity === 'error').length,
      warnings: findings.filter((f) => f.severity === 'warning').length,
    },
    toolVersion: VERSION,
    files,
  };
}

export function unmatchedError(unmatched: readonly Unmatched[]): InputError {
  const lines = unmatched.map((u) => {
    const pos = u.manifest.locate(u.code === 'no-old-object' ? [] : ['apiVersion']);
    return `${printable(u.manifest.file.path)}:${pos.line}:${pos.column}: ${printable(`${u.manifest.kind ?? '(no kind)'} ${u.manifest.apiVersion ?? '(no apiVersion)'}`)}: ${printable(u.message)}`;
  });
  return new InputError(unmatched[0]!.code, lines.join('\n'));
}

/** CRDs read from the cluster with --cluster (lazily: the client is only loaded then). */
export async function clusterCrdFiles(cluster: StatusCliOptions['cluster'], io: Io, objectFiles: readonly SourceFile[], crdFiles: readonly SourceFile[]): Promise<SourceFile[]> {
  if (!cluster) return [];
  const clusterRun = await import('./cluster-run.js');
  const r = await clusterRun.clusterSourcesForDefault(cluster, io, [], objectFiles, crdFiles);
  return [...r.crds];
}

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

  await ensureCelParserFor([...fromCluster, ...crdInputs.files, ...inputs.files]);
  const run = statusSources(inputs.files, oldInputs.files, [...fromCluster, ...crdInputs.files], { kubeVersion: o.kubeVersion, via: o.via, fieldValidation: o.fieldValidation });
  const color = decideColor(o.color, { ...io, stdout: io.stderr });
  const style = color ? chalkStyle() : PLAIN_STYLE;
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
  const errors = run.items.flatMap((x) => x.findings.filter((f) => f.severity === 'error')).sort(compareFindings);
  if (errors.length > 0) err += stylish(errors, findingContext(style, io, files, run.documents, errors));
  io.stderr.write(err);
  return run.items.some((x) => x.rejected) ? ExitCode.Findings : ExitCode.Ok;
}
