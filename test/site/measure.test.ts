/**
 * The playground's numbers, measured in headless chromium by bench/site.mjs and written to
 * test-output/site/measurements.json: bundle sizes, time to the first verdict after load, and the
 * re-check per keystroke on ~100 KB CRDs of the corpus (../shared/corpus, read in place: present
 * in CI). The bounds are loose: they catch a page that stopped being interactive, not noise.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, HAVE_CORPUS, NO_CORPUS_REASON } from '../helpers/corpus.js';
import { OUTPUT, ROOT, SITE } from './browser.js';

interface Measured {
  bundle: { total: number; engine: number; engineGzip: number; app: number };
  firstVerdictMs: { median: number };
  crd: { file: string; bytes: number; findings: number };
  keystroke: { engineMedian: number; shownMedian: number; shownMax: number };
}

function measure(crd: string): Measured {
  const r = spawnSync(process.execPath, [join(ROOT, 'bench', 'site.mjs'), crd], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, BENCH_SITE_LOADS: '3', BENCH_SITE_KEYS: '10' } });
  if (r.status !== 0) throw new Error(`bench/site.mjs failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Measured;
}

if (!HAVE_CORPUS) console.warn(NO_CORPUS_REASON);

describe('the engine chunk is lazy', () => {
  it('the page names only its own script; the engine and the examples are loaded after it', () => {
    const html = readFileSync(join(SITE, 'index.html'), 'utf8');
    expect([...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1])).toEqual(['app.js']);
    const app = readFileSync(join(SITE, 'app.js'), 'utf8');
    // the rules' texts live in the engine only
    expect(app).not.toContain('must be a valid regular expression');
    expect(readFileSync(join(SITE, 'engine.js'), 'utf8')).toContain('must be a valid regular expression');
  });
});

describe.skipIf(!HAVE_CORPUS)('the playground in chromium: sizes, first verdict, keystrokes on ~100 KB CRDs', () => {
  it('measures and writes test-output/site/measurements.json', () => {
    const runs = [join(CORPUS, 'crds', 'knative-serving', 'configuration.yaml'), join(CORPUS, 'crds', 'gateway-api', 'standard_gateway.networking.k8s.io_grpcroutes.yaml')].map(measure);
    writeFileSync(join(OUTPUT, 'measurements.json'), JSON.stringify(runs, null, 2) + '\n');
    for (const m of runs) {
      expect(m.crd.bytes).toBeGreaterThan(95_000);
      expect(m.firstVerdictMs.median).toBeLessThan(5_000);
      expect(m.keystroke.engineMedian).toBeLessThan(1_000);
      expect(m.keystroke.shownMax).toBeLessThan(3_000);
      expect(m.bundle.engine).toBeLessThan(m.bundle.total);
    }
    // gateway-api's GRPCRoute: CEL rules, whose cost the page explains
    expect(runs[1]!.crd.findings).toBeGreaterThan(0);
  }, 300_000);
});
