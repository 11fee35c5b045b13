/**
 * `kubectl crdx rules` and `rules ID`, and the rule pages as SARIF's helpUri. The pages are read
 * from where the tool is installed (docs/rules/ of the package or beside the executable), else
 * rendered from the rule's metadata.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { VERSION } from '../../src/cli/version.js';
import { rules } from '../../src/rules/index.js';
import { runCli } from '../fuzz/run-cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOCS = join(ROOT, 'docs', 'rules');

async function run(argv: string[], docsDirs?: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    readStdin: async () => '',
    cwd: ROOT,
    env: {},
    ...(docsDirs ? { docsDirs } : {}),
  };
  return { code: await main(argv, io), stdout, stderr };
}

describe('kubectl crdx rules', () => {
  it('lists every rule with its severity, kind and description', async () => {
    const r = await run(['rules']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^RULE\s+SEVERITY\s+KIND\s+DESCRIPTION$/);
    for (const rule of rules) expect(lines.some((l) => l.startsWith(`${rule.id} `) && l.includes(rule.meta.docs.description) && l.includes(rule.meta.defaultSeverity))).toBe(true);
    const json = JSON.parse((await run(['rules', '-o', 'json'])).stdout) as { id: string; kind: string }[];
    expect(json.map((x) => x.id)).toEqual(rules.map((x) => x.id));
    expect(json.find((x) => x.id === 'scale-paths')!.kind).toBe('advisory');
  });

  it('prints the shipped page of a rule', async () => {
    const r = await run(['rules', 'crd-decode'], ['/nonexistent', DOCS]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(join(DOCS, 'crd-decode.md'), 'utf8'));
  });

  it('without shipped pages: the page from the metadata and where the examples are', async () => {
    const r = await run(['rules', 'crd-decode'], ['/nonexistent']);
    expect(r.code).toBe(0);
    const rule = rules.find((x) => x.id === 'crd-decode')!;
    expect(r.stdout).toContain(`# crd-decode\n\n${rule.meta.docs.description}`);
    expect(r.stdout).toContain(rule.meta.docs.details);
    expect(r.stdout).toContain(`Examples: https://github.com/kubectl-crdx/kubectl-crdx/blob/v${VERSION}/docs/rules/crd-decode.md`);
  });

  it('an unknown rule is a usage error', async () => {
    const r = await run(['rules', 'no-such-rule']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: unknown rule "no-such-rule" (kubectl crdx rules lists them)\n');
  });

  it('SARIF rules carry the page as helpUri (the reserved parse rule has none)', async () => {
    const r = await runCli(['lint', '-o', 'sarif', 'fixtures/crds', '-'], 'a: [\n');
    const sarif = JSON.parse(r.stdout) as { runs: { tool: { driver: { rules: { id: string; helpUri?: string }[] } } }[] };
    const descriptors = sarif.runs[0]!.tool.driver.rules;
    expect(descriptors.length).toBeGreaterThan(1);
    for (const d of descriptors) {
      if (d.id === 'parse') expect(d.helpUri).toBeUndefined();
      else expect(d.helpUri).toBe(`https://github.com/kubectl-crdx/kubectl-crdx/blob/v${VERSION}/docs/rules/${d.id}.md`);
    }
    expect(descriptors.some((d) => d.id === 'parse')).toBe(true);
  });
});
