/** What the commands share about the terminal: whether to colour, the colours, the formatters' context. */
import type { Finding } from '../core/types.js';
import type { FormatterContext, Style } from '../formatters/types.js';
import { rules } from '../rules/index.js';
import type { Io } from './io.js';
import { VERSION } from './version.js';

/** Colour: the flag, then NO_COLOR / FORCE_COLOR, then TERM=dumb (none), then whether stdout is a TTY. */
export function decideColor(flag: boolean | undefined, io: Io): boolean {
  if (flag !== undefined) return flag;
  if (io.env['NO_COLOR'] !== undefined && io.env['NO_COLOR'] !== '') return false;
  if (io.env['FORCE_COLOR'] !== undefined && io.env['FORCE_COLOR'] !== '0') return true;
  if (io.env['TERM'] === 'dumb') return false;
  return io.stdout.isTTY === true;
}

/**
 * The colours of a coloured run. chalk is imported here, not at start: its colour-support probe
 * loads node:tty and node:os (~2-3 ms of a cold start) and only a coloured run needs it.
 */
export async function chalkStyle(): Promise<Style> {
  const { default: chalk, Chalk } = await import('chalk');
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
