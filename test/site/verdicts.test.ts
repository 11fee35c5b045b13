/**
 * The page's verdicts are the CLI's: for every example the page offers (the fixtures), the
 * findings the page's worker computes in chromium equal those of `kubectl crdx lint -o json
 * --explain-cost --validate=V crds.yaml [object.yaml]` run on the same texts under the same file
 * names (V: the example's, as its fixture runs; strict otherwise).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KUBE_VERSION, formatKubeVersion } from '../../src/core/kube-version.js';
import type { Finding } from '../../src/core/types.js';
import { json } from '../../src/formatters/json.js';
import { fileUrl, launch, openPage, ROOT, type Browser } from './browser.js';

interface Example {
  readonly name: string;
  readonly crds: string;
  readonly object: string;
  readonly old: string;
  readonly validate?: string;
}

const BIN = join(ROOT, 'bin', 'kubectl-crdx');
const hasDocs = (s: string): boolean => s.split('\n').some((l) => l.trim() !== '' && !l.trim().startsWith('#') && l.trim() !== '---');

/** The CLI's JSON findings for one example, its texts written as crds.yaml and object.yaml. */
function cli(x: Example): Promise<{ code: number | null; findings: unknown[]; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'crdx-site-verdict-'));
  writeFileSync(join(dir, 'crds.yaml'), x.crds);
  const args = [BIN, 'lint', '-o', 'json', '--explain-cost', `--validate=${x.validate ?? 'strict'}`, 'crds.yaml'];
  if (hasDocs(x.object)) {
    writeFileSync(join(dir, 'object.yaml'), x.object);
    args.push('object.yaml');
  }
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, args, { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d));
    p.stderr.on('data', (d: Buffer) => (err += d));
    p.on('error', reject);
    p.on('close', (code) => {
      rmSync(dir, { recursive: true, force: true });
      try {
        resolve({ code, findings: code === 0 || code === 1 ? (JSON.parse(out) as { findings: unknown[] }).findings : [], stderr: err });
      } catch (e) {
        reject(new Error(`${x.name}: the CLI's output is not JSON: ${String(e)}\n${out}\n${err}`));
      }
    });
  });
}

/** The page's findings as the JSON formatter writes them (the CLI's machine contract). */
const asJson = (findings: readonly Finding[]): unknown[] =>
  (JSON.parse(json(findings, { summary: { files: 0, documents: 0, errors: 0, warnings: 0 } } as Parameters<typeof json>[1])) as { findings: unknown[] }).findings;

describe('the page gives the verdicts of kubectl crdx lint -o json', () => {
  let b: Browser;
  let examples: Example[];
  let page: Awaited<ReturnType<typeof openPage>>;
  beforeAll(async () => {
    b = await launch();
    page = await openPage(b, fileUrl());
    examples = (await page.page.evaluate('window.crdxExamples')) as Example[];
  }, 60_000);
  afterAll(async () => {
    await b?.close();
  });

  it('on every example of the page (the fixtures)', async () => {
    expect(examples.length).toBeGreaterThan(50);
    const page_ = (await page.page.evaluate(
      `Promise.all(window.crdxExamples.map((x) => window.crdx.check({ crds: x.crds, object: x.object, old: '', kubeVersion: '${formatKubeVersion(DEFAULT_KUBE_VERSION)}', validate: x.validate }).then((r) => r.findings, (e) => 'engine failure: ' + e.message)))`,
    )) as (Finding[] | string)[];
    const mismatches: string[] = [];
    let compared = 0;
    let withFindings = 0;
    // two CLI processes at a time (the machine is shared)
    for (let i = 0; i < examples.length; i += 2) {
      const batch = examples.slice(i, i + 2);
      const runs = await Promise.all(batch.map(cli));
      batch.forEach((x, j) => {
        const mine = page_[i + j]!;
        const theirs = runs[j]!;
        if (typeof mine === 'string') return void mismatches.push(`${x.name}: ${mine}`);
        if (theirs.code !== 0 && theirs.code !== 1) return void mismatches.push(`${x.name}: the CLI exited ${theirs.code}: ${theirs.stderr}`);
        compared++;
        if (mine.length > 0) withFindings++;
        const a = JSON.stringify(asJson(mine), null, 1);
        const e = JSON.stringify(theirs.findings, null, 1);
        if (a !== e) mismatches.push(`${x.name}:\npage ${a}\ncli  ${e}`);
      });
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBe(examples.length);
    // the comparison is not vacuous: most examples are rejected by the server
    expect(withFindings).toBeGreaterThan(examples.length / 2);
    // and --validate reaches the engine: some examples run with warn
    expect(examples.filter((x) => x.validate === 'warn').length).toBeGreaterThan(0);
    expect(page.errors).toEqual([]);
  }, 600_000);
});
