import chalk, { Chalk } from 'chalk';
import { ExitCode, InputError, UsageError } from '../core/errors.js';
import type { Finding } from '../core/types.js';
import { explainObject, renderObjects } from '../cr/render.js';
import { defaultSources } from '../engine/default.js';
import { compareFindings } from '../engine/results.js';
import { stylish, printable } from '../formatters/stylish.js';
import { PLAIN_STYLE, type FormatterContext, type Style } from '../formatters/types.js';
import { readInputs } from '../io/inputs.js';
import { rules } from '../rules/index.js';
import type { Io } from './io.js';
import { decideColor } from './lint-command.js';
import type { DefaultCliOptions } from './main.js';
import { VERSION } from './version.js';

function chalkStyle(): Style {
  const c = new Chalk({ level: chalk.level > 0 ? chalk.level : 1 });
  return { red: c.red, yellow: c.yellow, blue: c.blue, dim: c.dim, bold: c.bold, underline: c.underline };
}

/**
 * stdout: the objects the server would store (rejected ones left out); stderr: the explanation
 * (on a TTY or with --explain), otherwise the server's warnings, then the errors of rejected objects.
 * Exit 1 when the server would reject an object, 2 when an input cannot be read or matched.
 */
export async function runDefault(o: DefaultCliOptions, io: Io): Promise<ExitCode> {
  if (o.paths.length === 0) throw new UsageError('no input: give custom resources with -f FILE (- for stdin)');
  const inputs = await readInputs(o.paths, io.readStdin);
  const crdInputs = await readInputs(o.crd, io.readStdin);
  const problems = [...inputs.problems, ...crdInputs.problems];
  if (problems.length > 0) throw new InputError('unreadable', problems.map((p) => p.message).join('\n'));

  const run = defaultSources(inputs.files, crdInputs.files, { kubeVersion: o.kubeVersion });
  const color = decideColor(o.color, { ...io, stdout: io.stderr });
  const style = color ? chalkStyle() : PLAIN_STYLE;
  const ctx = (findings: readonly Finding[]): FormatterContext => ({
    style,
    cwd: io.cwd,
    rules: new Map(rules.map((r) => [r.id, { description: r.meta.docs.description, serverFaithful: r.meta.serverFaithful }])),
    summary: {
      files: new Set(findings.map((f) => f.file)).size,
      documents: run.documents,
      errors: findings.filter((f) => f.severity === 'error').length,
      warnings: findings.filter((f) => f.severity === 'warning').length,
    },
    toolVersion: VERSION,
    files: inputs.files.map((f) => f.path),
  });

  if (run.parseFindings.some((f) => f.fatal)) {
    io.stderr.write(stylish(run.parseFindings, ctx(run.parseFindings)));
    return ExitCode.Failure;
  }
  if (run.unmatched.length > 0) {
    const lines = run.unmatched.map((u) => {
      const pos = u.manifest.locate(['apiVersion']);
      return `${printable(u.manifest.file.path)}:${pos.line}:${pos.column}: ${printable(`${u.manifest.kind ?? '(no kind)'} ${u.manifest.apiVersion ?? '(no apiVersion)'}`)}: ${printable(u.message)}`;
    });
    throw new InputError(run.unmatched[0]!.code, lines.join('\n'));
  }
  if (run.objects.length === 0) throw new InputError('no-input', 'no custom resources in the input (only CustomResourceDefinitions or empty documents)');

  io.stdout.write(renderObjects(run.objects.filter((x) => !x.rejected).map((x) => x.result.value!), o.output));

  const explain = o.explain ?? io.stderr.isTTY === true;
  let err = '';
  if (explain) {
    for (const x of run.objects) err += explainObject(x, style);
  } else {
    // kubectl prints the server's warnings this way
    for (const x of run.objects) for (const w of x.result.warnings) err += `Warning: ${printable(w.text)}\n`;
  }
  const errors = run.objects.flatMap((x) => x.findings.filter((f) => f.severity === 'error')).sort(compareFindings);
  if (errors.length > 0) err += stylish(errors, ctx(errors));
  io.stderr.write(err);
  return run.objects.some((x) => x.rejected) ? ExitCode.Findings : ExitCode.Ok;
}
