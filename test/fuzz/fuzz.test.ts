/**
 * The fuzz suite (test/fuzz/fuzz.ts). `npm test` runs a slice of 2,500 cases with a fixed seed
 * (about 25 s); `npm run fuzz` runs CRDX_FUZZ_RUNS cases (100,000: about 20 minutes on one core) with
 * CRDX_FUZZ_SEED (a new seed each time unless given). The seed and the number of cases are printed: a
 * failure is replayed with the same seed; the slowest input is written to a file to replay it.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fuzz, seeds } from './fuzz.js';

const RUNS = Number(process.env['CRDX_FUZZ_RUNS'] ?? 2500);
const SEED = process.env['CRDX_FUZZ_SEED'] !== undefined ? Number(process.env['CRDX_FUZZ_SEED']) : 20260801;

describe('fuzz: mutated fixtures and corpus manifests through lint and default', () => {
  it(`${RUNS} cases, seed ${SEED}: no crash, no hang, findings or a positioned input error`, { timeout: Math.max(120_000, RUNS * 1000) }, async () => {
    expect(seeds().length).toBeGreaterThan(50);
    process.stdout.write(`fuzz: seed ${SEED}, ${RUNS} cases, ${seeds().length} seed files\n`);
    const r = await fuzz(RUNS, SEED, process.env['CRDX_FUZZ_LAST']);
    // the slowest input is kept to be replayed (node bin/kubectl-crdx lint FILE)
    const slowest = join(tmpdir(), `crdx-fuzz-slowest-${r.seed}.yaml`);
    writeFileSync(slowest, r.stats.slowestInput);
    process.stdout.write(
      `fuzz: seed ${r.seed}: ${r.runs} cases (lint and default each) in ${(r.ms / 1000).toFixed(1)} s; slowest run ${Math.round(r.stats.slowestMs)} ms (${r.stats.slowest}; input ${r.stats.slowestInput.length} chars: ${slowest}); lint ${(r.stats.lintMs / 1000).toFixed(1)} s, default ${(r.stats.defaultMs / 1000).toFixed(1)} s; ${r.stats.fastCases} read by the fast YAML path (${r.stats.blockCases} of them by its block reader), each the same as the full path\n`,
    );
    // the comparison of the two YAML paths is only worth something when the fast path reads many cases
    expect(r.stats.fastCases).toBeGreaterThan(r.runs / 10);
    expect(r.stats.blockCases).toBeGreaterThan(r.runs / 20);
  });
});
