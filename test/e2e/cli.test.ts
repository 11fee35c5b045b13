/**
 * Black-box tests of the built CLI: `node bin/kubectl-crdx …` from the repo root.
 * Needs `npm run build:dist` first (bin/ runs dist/).
 */
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = 'bin/kubectl-crdx';

interface Run {
  readonly exitCode: number | undefined;
  readonly stdout: string;
  readonly stderr: string;
}

async function crdx(args: readonly string[], input?: string): Promise<Run> {
  const r = await execa('node', [BIN, ...args], {
    cwd: ROOT,
    reject: false,
    env: { NO_COLOR: '1' },
    ...(input !== undefined ? { input } : { stdin: 'ignore' as const }),
  });
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** A Node stack frame ("    at fn (file:1:2)"): users must never see one without CRDX_DEBUG. */
const STACK_FRAME = /^\s+at .+[:(]/m;

interface JsonFinding {
  ruleId: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  file: string;
  line: number;
  column: number;
  document: number;
  path: string;
  server?: { field: string; reason: string; message: string };
  fatal?: true;
}
interface JsonOutput {
  findings: JsonFinding[];
  summary: { files: number; documents: number; errors: number; warnings: number };
}

function crd(name: string, opts: { scope?: string; schema?: string } = {}): string {
  const [plural, group] = [name.split('.')[0]!, name.split('.').slice(1).join('.')];
  const kind = plural[0]!.toUpperCase() + plural.slice(1, -1);
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ${name}}
spec:
  group: ${group}
  scope: ${opts.scope ?? 'Namespaced'}
  names: {plural: ${plural}, singular: ${plural.slice(0, -1)}, kind: ${kind}, listKind: ${kind}List}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema: ${opts.schema ?? '{type: object}'}
`;
}

const VALID = crd('widgets.example.com');
/** The server answers NotSupported at spec.scope. */
const INVALID = crd('widgets.example.com', { scope: 'Global' });
/** Accepted with a warning by the server: `unrecognized format "not-a-format"`. */
const WARNING = crd('widgets.example.com', {
  schema: '{type: object, properties: {spec: {type: object, properties: {size: {type: string, format: not-a-format}}}}}',
});
/** Three documents: a valid CRD, a YAML syntax error at 19:17, an invalid CRD. */
const BROKEN_DOC = `apiVersion: v1
kind: ConfigMap
metadata:
  name: broken
  labels: {a: b}}
`;
const MULTI = `${VALID}---\n${BROKEN_DOC}---\n${crd('gadgets.example.com', { scope: 'Global' })}`;

let dir: string;
const files: Record<'valid' | 'invalid' | 'warning' | 'multi', string> = { valid: '', invalid: '', warning: '', multi: '' };

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build:dist` before the e2e tests');
  dir = await mkdtemp(join(tmpdir(), 'crdx-e2e-'));
  const contents = { valid: VALID, invalid: INVALID, warning: WARNING, multi: MULTI };
  for (const [k, text] of Object.entries(contents) as [keyof typeof files, string][]) {
    files[k] = join(dir, `${k}.yaml`);
    await writeFile(files[k], text);
  }
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('usage', { timeout: 30_000 }, () => {
  it('--help exits 0 and lists the lint command', async () => {
    const r = await crdx(['--help']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^\s+lint\b/m);
    expect(r.stderr).toBe('');
  });

  it('lint --help exits 0 and lists the output formats', async () => {
    const r = await crdx(['lint', '--help']);
    expect(r.exitCode).toBe(0);
    for (const f of ['stylish', 'json', 'sarif', 'junit', 'github']) expect(r.stdout).toContain(f);
  });

  it('no arguments is a usage error (2)', async () => {
    const r = await crdx([]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout + r.stderr).toContain('lint');
  });

  it('an unknown option is a usage error (2)', async () => {
    const r = await crdx(['lint', '--no-such-option', files.valid]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown option '--no-such-option'");
    expect(r.stdout).toBe('');
  });

  it('an unknown output format is a usage error (2)', async () => {
    const r = await crdx(['lint', '-o', 'xml', files.valid]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('xml');
  });

  it('--kube-version 1.2 is a usage error (2)', async () => {
    const r = await crdx(['lint', '--kube-version', '1.2', files.valid]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--kube-version');
    expect(r.stdout).toBe('');
  });

  it('--kube-version accepts a supported version', async () => {
    const r = await crdx(['lint', '--kube-version', '1.30', files.valid]);
    expect(r.exitCode).toBe(0);
  });

  it('--max-warnings needs a whole number (2)', async () => {
    const r = await crdx(['lint', '--max-warnings', 'many', files.valid]);
    expect(r.exitCode).toBe(2);
  });

  it('lint with no paths is a usage error (2)', async () => {
    const r = await crdx(['lint']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });
});

describe('inputs', { timeout: 30_000 }, () => {
  it('a missing file exits 2 with one clear line and no stack trace', async () => {
    const missing = join(dir, 'does-not-exist.yaml');
    const r = await crdx(['lint', missing]);
    expect(r.exitCode).toBe(2);
    const lines = `${r.stdout}\n${r.stderr}`.split('\n').filter((l) => /no such file or directory/.test(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(missing);
    expect(r.stdout + r.stderr).not.toMatch(STACK_FRAME);
    expect(r.stderr).not.toContain('internal error');
  });

  it('a valid CRD passes (0) with a plain, colourless summary', async () => {
    const r = await crdx(['lint', files.valid]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('no problems');
    expect(r.stdout).not.toMatch(/\u001b\[/);
  });

  it('lint - reads a valid CRD from stdin (0)', async () => {
    const r = await crdx(['lint', '-'], VALID);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('1 file, 1 document: no problems');
  });

  it('lint - reports an invalid CRD from stdin (1) against the file "-"', async () => {
    const r = await crdx(['lint', '-', '-o', 'json'], INVALID);
    expect(r.exitCode).toBe(1);
    const out = JSON.parse(r.stdout) as JsonOutput;
    expect(out.findings.length).toBeGreaterThan(0);
    expect(out.findings.every((f) => f.file === '-')).toBe(true);
  });

  it('a YAML syntax error is a positioned finding and the other documents are still checked', async () => {
    const r = await crdx(['lint', '-o', 'json', files.multi]);
    expect(r.exitCode).toBe(1);
    const out = JSON.parse(r.stdout) as JsonOutput;
    const syntax = out.findings.filter((f) => f.ruleId === 'parse');
    expect(syntax.length).toBeGreaterThan(0);
    // `  labels: {a: b}}` is line 19 of the file; the stray `}` is column 17
    expect(syntax[0]).toMatchObject({ severity: 'error', document: 1, line: 19, column: 17, fatal: true });
    // document 0 is valid, document 2 (after the broken one) is still checked
    expect(out.findings.filter((f) => f.document === 0)).toEqual([]);
    const scopeLine = MULTI.split('\n').indexOf('  scope: Global') + 1;
    expect(out.findings).toContainEqual(
      expect.objectContaining({ document: 2, path: 'spec.scope', line: scopeLine, severity: 'error' }),
    );
    expect(out.summary.documents).toBe(3);
  });
});

describe('output formats', { timeout: 30_000 }, () => {
  it('-o json has findings and summary; the invalid scope is the server\'s NotSupported (1)', async () => {
    const r = await crdx(['lint', '-o', 'json', files.invalid]);
    expect(r.exitCode).toBe(1);
    const out = JSON.parse(r.stdout) as JsonOutput;
    expect(Array.isArray(out.findings)).toBe(true);
    expect(out.summary).toEqual({ files: 1, documents: 1, errors: expect.any(Number), warnings: expect.any(Number) });
    expect(out.summary.errors).toBeGreaterThan(0);
    const scope = out.findings.find((f) => f.path === 'spec.scope');
    expect(scope).toMatchObject({
      severity: 'error',
      file: files.invalid,
      line: 6,
      document: 0,
      server: { field: 'spec.scope', reason: 'FieldValueNotSupported' },
    });
    expect(scope!.message).toContain('Unsupported value: "Global"');
  });

  it('-o json on a valid CRD has no findings (0)', async () => {
    const r = await crdx(['lint', '-o', 'json', files.valid]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ findings: [], summary: { files: 1, documents: 1, errors: 0, warnings: 0 } });
  });

  it.each(['sarif', 'junit', 'github'] as const)('-o %s: 0 for a valid CRD, 1 for an invalid one', async (format) => {
    const ok = await crdx(['lint', '-o', format, files.valid]);
    expect(ok.exitCode).toBe(0);
    const bad = await crdx(['lint', '-o', format, files.invalid]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toBe('');
    if (format === 'sarif') {
      const log = JSON.parse(bad.stdout) as { version: string; runs: { results: { level: string; ruleId: string }[]; tool: { driver: { rules: { id: string }[] } } }[] };
      expect(log.version).toBe('2.1.0');
      expect(log.runs[0]!.results.some((x) => x.level === 'error')).toBe(true);
      const ids = log.runs[0]!.tool.driver.rules.map((x) => x.id);
      for (const res of log.runs[0]!.results) expect(ids).toContain(res.ruleId);
      expect(JSON.parse(ok.stdout).runs[0].results).toEqual([]);
    } else if (format === 'junit') {
      expect(bad.stdout).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites /);
      expect(bad.stdout).toContain('<failure type="error"');
      expect(ok.stdout).not.toContain('<failure');
    } else {
      expect(bad.stdout).toMatch(/^::error file=[^,]*invalid\.yaml,line=6,/m);
      expect(ok.stdout).not.toMatch(/^::error/m);
    }
  });

  it('-o github annotates stdin input without a file property', async () => {
    const r = await crdx(['lint', '-o', 'github', '-'], INVALID);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/^::error title=crdx [^:]+::stdin:6:\d+: /m);
  });
});

describe('warnings and --max-warnings', { timeout: 30_000 }, () => {
  it('warnings alone exit 0', async () => {
    const r = await crdx(['lint', '-o', 'json', files.warning]);
    expect(r.exitCode).toBe(0);
    const out = JSON.parse(r.stdout) as JsonOutput;
    expect(out.summary.errors).toBe(0);
    expect(out.summary.warnings).toBeGreaterThan(0);
    expect(out.findings).toContainEqual(expect.objectContaining({ severity: 'warning', message: expect.stringContaining('not-a-format') }));
  });

  it('--max-warnings 0 turns warnings into exit 1', async () => {
    const r = await crdx(['lint', '--max-warnings', '0', files.warning]);
    expect(r.exitCode).toBe(1);
  });

  it('--max-warnings above the count keeps exit 0', async () => {
    const r = await crdx(['lint', '--max-warnings', '100', files.warning]);
    expect(r.exitCode).toBe(0);
  });

  it('--max-warnings 0 on a clean CRD is still 0', async () => {
    const r = await crdx(['lint', '--max-warnings', '0', files.valid]);
    expect(r.exitCode).toBe(0);
  });
});

describe('lint --crd with CEL rules', { timeout: 30_000 }, () => {
  // the rules of a --crd file are evaluated on the custom resources even when no input file has rules
  // (the CEL parser was once loaded only for rules in the input files, leaving these unevaluated)
  it('a custom resource breaking a rule of its --crd CRD is an error, as the server says', async () => {
    const cr = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n  namespace: default\nspec:\n  replicas: 1\n  minReplicas: 5\n';
    const r = await crdx(['lint', '-o', 'json', '--crd', 'fixtures/crds/01-widgets.yaml', '-'], cr);
    expect(r.exitCode).toBe(1);
    const out = JSON.parse(r.stdout) as { findings: { message: string; path: string }[] };
    expect(out.findings.map((f) => [f.path, f.message])).toEqual([['spec', 'spec: Invalid value: replicas must be at least minReplicas']]);
  });
});
