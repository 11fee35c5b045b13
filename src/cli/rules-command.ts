/**
 * `kubectl crdx rules` lists the rules; `kubectl crdx rules ID` prints a rule's page. The pages ship
 * beside the tool (docs/rules/ in the npm package and in the krew archive); where none is found (a
 * bare single executable) the page is rendered from the rule's own metadata, without the examples.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError, ExitCode } from '../core/errors.js';
import { rulePage } from '../docs.js';
import { ruleHelpUri } from '../formatters/sarif.js';
import { rules } from '../rules/index.js';
import type { Io } from './io.js';
import type { RulesRunOptions } from './options.js';
import { VERSION } from './version.js';

export async function runRules(o: RulesRunOptions, io: Io): Promise<ExitCode> {
  if (o.id === undefined) {
    if (o.output === 'json') {
      io.stdout.write(
        JSON.stringify(
          rules.map((r) => ({ id: r.id, severity: r.meta.defaultSeverity, kind: r.meta.serverFaithful ? 'server' : 'advisory', type: r.meta.type, description: r.meta.docs.description })),
          null,
          2,
        ) + '\n',
      );
      return ExitCode.Ok;
    }
    const w = Math.max(...rules.map((r) => r.id.length));
    let out = `${'RULE'.padEnd(w)}  SEVERITY  KIND      DESCRIPTION\n`;
    for (const r of rules) out += `${r.id.padEnd(w)}  ${r.meta.defaultSeverity.padEnd(8)}  ${(r.meta.serverFaithful ? 'server' : 'advisory').padEnd(8)}  ${r.meta.docs.description}\n`;
    out += `\nserver: reproduces the API server's verdict; advisory: our advice (the server accepts). kubectl crdx rules ID prints a rule's page.\n`;
    io.stdout.write(out);
    return ExitCode.Ok;
  }
  const rule = rules.find((r) => r.id === o.id);
  if (!rule) throw new UsageError(`unknown rule "${o.id}" (kubectl crdx rules lists them)`);
  if (o.output === 'json') {
    io.stdout.write(JSON.stringify({ id: rule.id, ...rule.meta }, null, 2) + '\n');
    return ExitCode.Ok;
  }
  for (const dir of io.docsDirs ?? []) {
    try {
      io.stdout.write(await readFile(join(dir, `${rule.id}.md`), 'utf8'));
      return ExitCode.Ok;
    } catch {
      // not shipped there: the next place, then the page from the metadata
    }
  }
  io.stdout.write(rulePage(rule, [], []).replace(/\n## Incorrect[\s\S]*$/, '\n') + `\nExamples: ${ruleHelpUri(rule.id, VERSION)}\n`);
  return ExitCode.Ok;
}
