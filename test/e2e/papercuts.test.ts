/**
 * What a new user runs into first: templates, built-in kinds, --max-warnings in every format,
 * empty input, Kustomize patches, scale without the subresource, colours on a dumb terminal, no
 * arguments, `version`, --kube-version out of range, stdin named twice. In process (src/cli/main.ts)
 * except where the real bin matters.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decideColor } from '../../src/cli/terminal.js';
import type { Io } from '../../src/cli/io.js';
import { templateAction } from '../../src/engine/parse-sources.js';
import { runCli, type JsonOutput } from '../fuzz/run-cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WIDGETS = 'fixtures/crds/01-widgets.yaml';

const HELM = `{{- if .Values.crds.enabled }}
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: {{ .Values.name }}
  labels:
    {{- include "chart.labels" . | nindent 4 }}
spec:
  group: example.com
{{- end }}
`;

describe('a Helm or Go template', () => {
  it('is one finding that says so and how to lint it, the rest of the input still checked', async () => {
    const r = await runCli(['lint', '-o', 'json', '-', WIDGETS], HELM);
    const out = JSON.parse(r.stdout) as JsonOutput;
    expect(out.findings).toEqual([
      expect.objectContaining({
        ruleId: 'parse',
        severity: 'error',
        file: '-',
        line: 1,
        column: 1,
        message: 'this file is a Helm or Go template ({{ … }} at line 1), not YAML: render it first and lint the output, e.g. helm template ./chart | kubectl crdx lint -',
      }),
    ]);
    expect(out.summary.files).toBe(2);
    expect(r.code).toBe(1);
  });

  it('a template action inside a quoted string or a comment is not a template', () => {
    expect(templateAction('name: "{{ .Values.x }}"\n# {{ comment }}\n')).toBeUndefined();
    expect(templateAction("a: 'it''s {{ x }}'\n")).toBeUndefined();
    expect(templateAction('a: b\n  - {{ .x }}\n')).toEqual({ line: 2, column: 5 });
    // valid YAML that merely holds a template in a string is checked as YAML
    const quoted = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: "{{ .Values.a }}"}\n`;
    return runCli(['lint', '-o', 'json', '-'], quoted).then((r) => {
      expect((JSON.parse(r.stdout) as JsonOutput).findings).toEqual([]);
      expect(r.code).toBe(0);
    });
  });
});

describe('built-in kinds in default, status and scale', () => {
  const BUILTIN = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r}\n';
  const CR = 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: default}\nspec: {replicas: 2}\n';

  it('are skipped with a note beside custom resources', async () => {
    const r = await runCli(['default', '-f', '-', '--crd', WIDGETS], `${BUILTIN}---\n${CR}`);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('kind: Widget');
    expect(r.stdout).not.toContain('ConfigMap');
    expect(r.stderr).toBe(
      'note: -:2:7: ConfigMap v1 c is a built-in kind, not a custom resource: skipped\nnote: -:6:7: Role rbac.authorization.k8s.io/v1 r is a built-in kind, not a custom resource: skipped\n',
    );
    const s = await runCli(['status', '-f', '-', '--crd', WIDGETS], `${BUILTIN}---\n${CR}`);
    expect(s.code).toBe(0);
    expect(s.stderr).toContain('note: -:2:7: ConfigMap v1 c is a built-in kind, not a custom resource: skipped');
  });

  it('alone: nothing to create, exit 2, and the reason counts them', async () => {
    for (const cmd of ['default', 'status', 'scale']) {
      const r = await runCli([cmd, '-f', '-', '--crd', WIDGETS], BUILTIN);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe('error: no custom resources in the input (only built-in kinds (2 objects skipped), CustomResourceDefinitions or empty documents)\n');
    }
  });

  it('a custom resource without its CRD is still an error, even in a *.k8s.io group served by CRDs', async () => {
    const r = await runCli(['default', '-f', '-'], 'apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: g}\n');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no CustomResourceDefinition for Gateway in group "gateway.networking.k8s.io"');
  });
});

describe('--max-warnings', () => {
  const args = ['lint', 'fixtures/rules/status-property/invalid', '--max-warnings', '0'];
  it('exceeded: said in every output format, also with -q (which hides the warnings but still counts them)', async () => {
    const text = 'too many warnings (1, max 0)';
    for (const q of [[], ['-q']]) {
      const stylish = await runCli([...args, ...q]);
      expect(stylish.code).toBe(1);
      expect(stylish.stdout).toContain(`✖ ${text}\n`);
      const json = JSON.parse((await runCli([...args, ...q, '-o', 'json'])).stdout) as { summary: Record<string, unknown> };
      expect(json.summary['tooManyWarnings']).toEqual({ warnings: 1, max: 0, message: text });
      const sarif = JSON.parse((await runCli([...args, ...q, '-o', 'sarif'])).stdout) as { runs: { invocations?: { toolExecutionNotifications: { message: { text: string } }[] }[] }[] };
      expect(sarif.runs[0]!.invocations![0]!.toolExecutionNotifications[0]!.message.text).toBe(text);
      expect((await runCli([...args, ...q, '-o', 'junit'])).stdout).toContain(`<failure message="${text}" type="max-warnings">`);
      expect((await runCli([...args, ...q, '-o', 'github'])).stdout).toContain(`::error title=crdx --max-warnings::${text}\n`);
    }
  });
  it('within the limit: nothing said, exit 0', async () => {
    const r = await runCli(['lint', 'fixtures/rules/status-property/invalid', '--max-warnings', '1', '-o', 'json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { summary: Record<string, unknown> }).summary['tooManyWarnings']).toBeUndefined();
  });
});

describe('the command line', () => {
  it('no arguments: the help on stderr, exit 2 (a usage error); --help: stdout, exit 0', async () => {
    const r = await runCli([]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Usage: kubectl crdx \[options\] \[command\]/);
    const h = await runCli(['--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/^Usage: kubectl crdx/);
  });

  it('`version` prints the version and the Kubernetes version simulated by default', async () => {
    const r = await runCli(['version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^kubectl-crdx \d+\.\d+\.\d+\nsimulates Kubernetes 1\.\d+ by default \(--kube-version 1\.16 to 1\.\d+\)\n$/);
  });

  it('--kube-version outside the supported range is a usage error', async () => {
    for (const v of ['1.15', '1.99', '2.0', 'latest']) {
      const r = await runCli(['lint', '--kube-version', v, WIDGETS]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/--kube-version <X\.Y>' argument '.*' is invalid/);
    }
  });

  it('`lint - -` reads stdin once', async () => {
    let reads = 0;
    const r = await runCli(['lint', '-o', 'json', '-', '-'], '', (io: Io) => {
      const readStdin = io.readStdin;
      (io as { readStdin: () => Promise<string> }).readStdin = async () => {
        reads++;
        return reads === 1 ? await import('node:fs').then((fs) => fs.readFileSync(`${ROOT}/${WIDGETS}`, 'utf8')) : readStdin();
      };
      return {};
    });
    expect(reads).toBe(1);
    expect((JSON.parse(r.stdout) as JsonOutput).summary).toMatchObject({ files: 1, documents: 1 });
  });

  it('TERM=dumb turns colours off; the flag and FORCE_COLOR still win', () => {
    const io = (env: Record<string, string>): Io => ({ stdout: { write: () => true, isTTY: true }, stderr: { write: () => true, isTTY: true }, readStdin: async () => '', cwd: ROOT, env });
    expect(decideColor(undefined, io({}))).toBe(true);
    expect(decideColor(undefined, io({ TERM: 'dumb' }))).toBe(false);
    expect(decideColor(true, io({ TERM: 'dumb' }))).toBe(true);
    expect(decideColor(undefined, io({ TERM: 'dumb', FORCE_COLOR: '1' }))).toBe(true);
  });
});
