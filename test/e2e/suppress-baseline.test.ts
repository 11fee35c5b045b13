/**
 * Suppression comments and --baseline through the CLI (in process, src/cli/main.ts): what every
 * output format shows, and the exit code.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../fuzz/run-cli.js';

const SUPPRESS = 'fixtures/suppress/gadgets.yaml';
const WARNING_ONLY = readFileSync('fixtures/rules/status-property/invalid/no-status-property.yaml', 'utf8');
const BROKEN = readFileSync('fixtures/crds/02-gadgets-broken.yaml', 'utf8');

interface Out {
  findings: { ruleId: string; line: number; message: string; severity: string }[];
  suppressed?: { ruleId: string; line: number; suppressions: { kind: string; justification: string; line: number; column: number }[] }[];
  summary: Record<string, unknown> & { errors: number; warnings: number };
}

describe('suppression comments', () => {
  it('stylish: suppressed findings are not shown, the summary counts them; comment problems are warnings', async () => {
    const r = await runCli(['lint', SUPPRESS]);
    expect(r.stdout).toBe(
      [
        '',
        SUPPRESS,
        '  20:9   warning suppression of status-property without a reason: add one after " -- "  suppression (doc 0)',
        '  32:17  warning unused suppression: no structural-schema finding on the next line  suppression (doc 0)',
        '  36:19  error   spec.validation.openAPIV3Schema.properties[spec].properties[tags].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic  schema-openapi-subset (CustomResourceDefinition/gadgets.example.com)',
        '',
        '✖ 3 problems (1 error, 2 warnings) in 1 file, 1 document; 4 suppressed',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(1);
  });

  it('json: the suppressed findings are listed with their justification and the comment position', async () => {
    const r = await runCli(['lint', '-o', 'json', SUPPRESS]);
    const out = JSON.parse(r.stdout) as Out;
    expect(out.suppressed?.map((f) => [f.ruleId, f.line, f.suppressions])).toEqual([
      ['scope', 10, [{ kind: 'inSource', justification: 'fixed by the migration in PLAT-123', line: 9, column: 3 }]],
      ['status-property', 21, [{ kind: 'inSource', justification: '', line: 20, column: 9 }]],
      ['schema-pattern', 30, [{ kind: 'inSource', justification: 'vendored schema, see upstream #42', line: 25, column: 11 }]],
      ['unrecognized-format', 31, [{ kind: 'inSource', justification: 'vendored schema, see upstream #42', line: 25, column: 11 }]],
    ]);
    expect(out.findings.map((f) => f.ruleId)).toEqual(['suppression', 'suppression', 'schema-openapi-subset']);
    expect(out.summary).toMatchObject({ errors: 1, warnings: 2, suppressed: 4 });
  });

  it('sarif: suppressed findings are results with inSource suppressions; a missing reason has no justification', async () => {
    const r = await runCli(['lint', '-o', 'sarif', SUPPRESS]);
    const run = JSON.parse(r.stdout).runs[0];
    const suppressed = run.results.filter((x: { suppressions?: unknown }) => x.suppressions);
    expect(suppressed.map((x: { ruleId: string; suppressions: unknown[] }) => [x.ruleId, x.suppressions])).toEqual([
      ['scope', [{ kind: 'inSource', justification: 'fixed by the migration in PLAT-123', location: { physicalLocation: { artifactLocation: { uri: SUPPRESS }, region: { startLine: 9, startColumn: 3 } } } }]],
      ['status-property', [{ kind: 'inSource', location: { physicalLocation: { artifactLocation: { uri: SUPPRESS }, region: { startLine: 20, startColumn: 9 } } } }]],
      ['schema-pattern', [expect.objectContaining({ kind: 'inSource', justification: 'vendored schema, see upstream #42' })]],
      ['unrecognized-format', [expect.objectContaining({ kind: 'inSource', justification: 'vendored schema, see upstream #42' })]],
    ]);
    expect(run.results).toHaveLength(7);
    // every result's ruleIndex points at its rule; the reserved rule has a description and no page
    for (const x of run.results) expect(run.tool.driver.rules[x.ruleIndex].id).toBe(x.ruleId);
    const rule = run.tool.driver.rules.find((d: { id: string }) => d.id === 'suppression');
    expect(rule.helpUri).toBeUndefined();
    expect(rule.shortDescription.text).toMatch(/reason/);
  });

  it('github and junit show only the problems', async () => {
    const gh = await runCli(['lint', '-o', 'github', SUPPRESS]);
    expect(gh.stdout.trimEnd().split('\n').map((l) => l.slice(0, l.indexOf(' ')))).toEqual(['::warning', '::warning', '::error']);
    expect(gh.stdout).not.toContain('namespaced');
    const ju = await runCli(['lint', '-o', 'junit', SUPPRESS]);
    expect(ju.stdout).toContain('tests="3" failures="3" errors="0"');
    expect(ju.stdout).not.toContain('classname="scope"');
  });

  it('suppressed warnings count neither toward the exit code nor --max-warnings', async () => {
    const text = WARNING_ONLY.replace('      subresources:\n        status: {}', '      subresources:\n        # crdx-disable-next-line status-property -- status comes in v2\n        status: {}');
    expect(text).not.toBe(WARNING_ONLY);
    const before = await runCli(['lint', '--max-warnings', '0', '-'], WARNING_ONLY);
    expect(before.code).toBe(1);
    const r = await runCli(['lint', '--max-warnings', '0', '-'], text);
    expect(r.stdout).toBe('1 file, 1 document: no problems (1 suppressed)\n');
    expect(r.code).toBe(0);
  });

  it('a suppression of errors makes the run pass; without a reason it is a warning (exit 0, but not with --max-warnings 0)', async () => {
    const text = BROKEN.replace(/^(\s*)(scope: namespaced)$/m, '$1# crdx-disable-next-line scope\n$1$2').replace(/^(apiVersion:)/m, '# crdx-disable naming-conflicts, status-property, scale-subresource, printer-columns, structural-schema, schema-pattern, schema-openapi-subset, unrecognized-format -- legacy\n$1');
    const r = await runCli(['lint', '-o', 'json', '-'], text);
    const out = JSON.parse(r.stdout) as Out;
    expect(out.findings.map((f) => [f.ruleId, f.message])).toEqual([
      ['suppression', 'unused suppression: no naming-conflicts finding from here to the end of the document'],
      ['suppression', 'suppression of scope without a reason: add one after " -- "'],
    ]);
    expect(r.code).toBe(0);
    expect((await runCli(['lint', '--max-warnings', '0', '-'], text)).code).toBe(1);
  });
});

describe('--baseline', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'crdx-baseline-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a missing baseline file is an input failure (exit 2) that says how to create it', async () => {
    const file = join(dir, 'none.json');
    const r = await runCli(['lint', '--baseline', file, 'fixtures/crds']);
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: `error: baseline ${file} does not exist (create it with --update-baseline)\n` });
  });

  it('--update-baseline needs --baseline', async () => {
    const r = await runCli(['lint', '--update-baseline', 'fixtures/crds']);
    expect(r).toMatchObject({ code: 2, stderr: 'error: --update-baseline needs --baseline FILE: the file to write\n' });
  });

  it('an unreadable baseline is exit 2', async () => {
    const file = join(dir, 'b.json');
    writeFileSync(file, '{"version": 7, "findings": []}');
    const r = await runCli(['lint', '--baseline', file, 'fixtures/crds']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: baseline ${file}: unsupported version 7, expected 1 (rewrite it with --update-baseline)\n`);
  });

  it('update, then only new findings are reported, whatever moved; what is gone is said in every format', async () => {
    const crd = join(dir, 'gadgets.yaml');
    const file = join(dir, 'baseline.json');
    writeFileSync(crd, BROKEN);
    const up = await runCli(['lint', '--baseline', file, '--update-baseline', crd]);
    expect(up.code).toBe(0);
    expect(up.stderr).toBe(`crdx: wrote 10 findings to the baseline ${file}\n`);
    expect(up.stdout).toBe('1 file, 1 document: no problems (10 in the baseline)\n');
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.version).toBe(1);
    expect(written.findings).toHaveLength(10);
    expect(written.findings[0]).toEqual({
      ruleId: 'printer-columns',
      file: crd,
      object: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: 'gadgets.example.com' },
      path: 'spec.versions[0].additionalPrinterColumns[0].jsonPath',
      message: 'spec.additionalPrinterColumns[0].JSONPath: Invalid value: "metadata.creationTimestamp": must be a simple json path starting with .',
      count: 1,
    });

    // lines added above every finding: all still matched
    writeFileSync(crd, `# a new header\n# over two lines\n${BROKEN}`);
    const same = await runCli(['lint', '-o', 'json', '--baseline', file, crd]);
    expect(JSON.parse(same.stdout)).toMatchObject({ findings: [], summary: { errors: 0, warnings: 0, baseline: { file, matched: 10, fixed: 0 } } });
    expect(same.code).toBe(0);

    // one problem fixed (scope), one new (a second printer column with a bad path)
    const edited = BROKEN.replace('scope: namespaced', 'scope: Namespaced').replace(
      '          jsonPath: metadata.creationTimestamp\n',
      '          jsonPath: metadata.creationTimestamp\n        - {name: Size, type: integer, jsonPath: spec.size}\n',
    );
    writeFileSync(crd, edited);
    const json = await runCli(['lint', '-o', 'json', '--baseline', file, crd]);
    const out = JSON.parse(json.stdout) as Out;
    expect(out.findings.map((f) => [f.ruleId, f.message])).toEqual([['printer-columns', 'spec.additionalPrinterColumns[1].JSONPath: Invalid value: "spec.size": must be a simple json path starting with .']]);
    const text = `1 finding of the baseline ${file} no longer occurs: run with --update-baseline to remove it`;
    expect(out.summary['baseline']).toEqual({ file, matched: 9, fixed: 1, message: text });
    expect(json.code).toBe(1);
    expect((await runCli(['lint', '--baseline', file, crd])).stdout).toContain(`in 1 file, 1 document; 9 in the baseline\n\u2139 ${text}\n`);
    expect((await runCli(['lint', '-o', 'github', '--baseline', file, crd])).stdout).toContain(`::notice title=crdx --baseline::${text}\n`);
    expect((await runCli(['lint', '-o', 'junit', '--baseline', file, crd])).stdout).toContain(`<system-out>${text}</system-out>`);
    const sarif = JSON.parse((await runCli(['lint', '-o', 'sarif', '--baseline', file, crd])).stdout);
    expect(sarif.runs[0].invocations[0].toolExecutionNotifications).toEqual([{ level: 'note', message: { text } }]);

    // rewriting shrinks the file to what occurs now
    const again = await runCli(['lint', '--baseline', file, '--update-baseline', crd]);
    expect(again.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).findings).toHaveLength(10);
  });

  it('suppressed findings are not written to the baseline', async () => {
    const file = join(dir, 'b.json');
    const r = await runCli(['lint', '--baseline', file, '--update-baseline', SUPPRESS]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).findings.map((e: { ruleId: string }) => e.ruleId)).toEqual(['schema-openapi-subset', 'suppression', 'suppression']);
  });
});
