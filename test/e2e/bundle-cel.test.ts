/**
 * The built CLI (bin/kubectl-crdx: the esbuild bundle) evaluates CEL exactly as the sources do, on
 * every case of the CEL library suite (test/conformance/cel-libs.cases.ts, whose answers the
 * conformance suite checks against a real server from the sources). The suites run the sources;
 * users run the bundle, where esbuild renames classes (cel-js's Duration became `_Duration`): a
 * check of a class by its name passed every test and left `'%s'.format([duration])` and sortBy()
 * over durations not evaluated in the product. Needs `npm run build:dist` first.
 */
import { execa } from 'execa';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { crdOf, LIBS, objOf } from '../conformance/cel-libs.cases.js';
import { runCli, type JsonOutput } from '../fuzz/run-cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'crdx-bundle-cel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the bundle evaluates CEL as the sources do', () => {
  it.each(LIBS.map((l) => [l.name, l] as const))('%s', async (_name, lib) => {
    const crd = join(dir, `${lib.name}-crd.yaml`);
    const objects = join(dir, `${lib.name}-objects.yaml`);
    // JSON documents (the conformance suite sends JSON): in YAML 1.1, as kubectl reads it, a key `n` is false
    writeFileSync(crd, JSON.stringify(crdOf(lib)));
    writeFileSync(objects, Object.entries(lib.cases).map(([name, spec]) => JSON.stringify(objOf(lib, name, spec))).join('\n---\n'));
    const args = ['lint', '-o', 'json', '--crd', crd, objects];
    const built = await execa('node', ['bin/kubectl-crdx', ...args], { cwd: ROOT, reject: false, env: { NO_COLOR: '1', CRDX_VERDICT_CACHE: '0' } });
    const source = await runCli(args);
    expect(String(built.stderr)).toBe(source.stderr);
    const b = JSON.parse(String(built.stdout)) as JsonOutput;
    const s = JSON.parse(source.stdout) as JsonOutput;
    // the objects are checked (not refused for their CRD), and every rule the sources evaluate, the bundle evaluates, with the same findings
    expect(s.findings.filter((f) => f.ruleId === 'custom-resource' && /no matches for kind/.test(f.message))).toEqual([]);
    expect(b.findings.map((f) => `${f.ruleId} ${f.line}:${f.column} ${f.message}`)).toEqual(s.findings.map((f) => `${f.ruleId} ${f.line}:${f.column} ${f.message}`));
    expect(built.exitCode).toBe(source.code);
  });
});
