#!/usr/bin/env node
// Writes docs/rules/<id>.md and the README rules table from rule metadata and fixtures, and the README
// version table from the code's version switches (src/core/version-gates.ts).
// `node scripts/gen-docs.mjs --check` fails when the committed docs are out of date.
import { readdirSync, readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rules } from '../dist/rules/index.js';
import { rulePage, withRulesTable, withVersionTable } from '../dist/docs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const stale = [];
const write = (path, text) => {
  const old = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  if (old === text) return;
  if (check) stale.push(path);
  else writeFileSync(path, text);
};
const fixtures = (id, kind) => {
  const dir = join(root, 'fixtures', 'rules', id, kind);
  return existsSync(dir)
    ? readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort().map((f) => ({ name: f, text: readFileSync(join(dir, f), 'utf8') }))
    : [];
};
mkdirSync(join(root, 'docs', 'rules'), { recursive: true });
for (const r of rules) write(join(root, 'docs', 'rules', `${r.id}.md`), rulePage(r, fixtures(r.id, 'valid'), fixtures(r.id, 'invalid')));
const readme = join(root, 'README.md');
const readmeText = readFileSync(readme, 'utf8');
// the version table is the code's own version switches (src/core/version-gates.ts): it must be there
if (!readmeText.includes('<!-- versions:start')) {
  process.stderr.write('README.md has no <!-- versions:start --> / <!-- versions:end --> markers for the version table\n');
  process.exitCode = 1;
}
write(readme, withVersionTable(withRulesTable(readmeText, rules)));
if (stale.length > 0) {
  process.stderr.write(`docs out of date (run npm run docs): ${stale.join(', ')}\n`);
  process.exitCode = 1;
}
