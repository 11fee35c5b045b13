/**
 * .github/workflows/release.yml: valid for GitHub Actions (actionlint, built from its Go module into
 * .cache/ once), an archive job per krew platform with a runner of that platform, and a release job
 * that renders the manifest from the archives, checks it with krew and attaches it with them.
 */
import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './helpers.js';

const ACTIONLINT = 'v1.7.12';
const WORKFLOW = join(ROOT, '.github', 'workflows', 'release.yml');

interface Step {
  run?: string;
  uses?: string;
}
interface Workflow {
  jobs: {
    archive: { 'runs-on': string; strategy: { matrix: { include: { os: string; arch: string; runner: string }[] } }; steps: Step[] };
    release: { needs: string; steps: Step[] };
  };
}

describe('release workflow', () => {
  it('actionlint finds nothing', async () => {
    const bin = join(ROOT, '.cache', `actionlint-${ACTIONLINT}`);
    if (!existsSync(join(bin, 'actionlint'))) await execa('go', ['install', `github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT}`], { env: { GOBIN: bin, GOFLAGS: '-mod=mod' } });
    const r = await execa(join(bin, 'actionlint'), ['-no-color', WORKFLOW], { cwd: ROOT, reject: false });
    expect({ exitCode: r.exitCode, out: String(r.stdout) }).toEqual({ exitCode: 0, out: '' });
  });

  it('builds each of the six krew platforms on a runner of that platform, then renders, checks and attaches', () => {
    const w = parse(readFileSync(WORKFLOW, 'utf8')) as Workflow;
    const runners: Record<string, RegExp> = {
      'linux/amd64': /^ubuntu-[\d.]+$/,
      'linux/arm64': /^ubuntu-[\d.]+-arm$/,
      'darwin/amd64': /^macos-\d+-intel$/,
      'darwin/arm64': /^macos-\d+$/,
      'windows/amd64': /^windows-20\d\d$/,
      'windows/arm64': /^windows-\d+-arm$/,
    };
    const matrix = w.jobs.archive.strategy.matrix.include;
    expect(matrix.map((m) => `${m.os}/${m.arch}`).sort()).toEqual(Object.keys(runners).sort());
    for (const m of matrix) expect(m.runner).toMatch(runners[`${m.os}/${m.arch}`]!);
    const archiveRuns = w.jobs.archive.steps.map((s) => s.run ?? '').join('\n');
    // each runner must build its own platform (package.mjs fails otherwise)
    expect(archiveRuns).toContain('node scripts/package.mjs --expect ${{ matrix.os }}/${{ matrix.arch }} --out out');
    expect(w.jobs.release.needs).toBe('archive');
    const releaseRuns = w.jobs.release.steps.map((s) => s.run ?? '').join('\n');
    expect(releaseRuns).toContain('node scripts/package.mjs --manifest-only --out out');
    expect(releaseRuns).toContain('node scripts/check-krew.mjs out');
    expect(releaseRuns).toMatch(/gh release upload "\$GITHUB_REF_NAME" out\/release\/kubectl-crdx_\*_\*\.tar\.gz out\/crdx\.yaml out\/SHA256SUMS/);
  });
});
