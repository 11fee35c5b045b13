#!/usr/bin/env node
// The playground in headless chromium (dist/site/, from file://): bundle sizes, time to the first
// verdict after load, and the re-check after each keystroke on a ~100 KB CRD of the corpus
// (../shared/corpus, read in place). Prints one JSON object (the last line of stdout).
// npm run bench adds its rows; test/site/measure.test.ts runs it too. Needs npm run build:site.
//   node bench/site.mjs [CRD file]
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { sizes } from '../scripts/build-site.mjs';

const ROOT = join(import.meta.dirname, '..');
const CORPUS = join(ROOT, '..', 'shared', 'corpus');
const CHROMIUM = process.env.CRDX_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** ~105 KB, 1 document, an OpenAPI schema of ~2,900 lines (knative's Configuration). */
export const KEYSTROKE_CRD = join(CORPUS, 'crds', 'knative-serving', 'configuration.yaml');
const LOADS = Number(process.env.BENCH_SITE_LOADS ?? 5);
const KEYS = Number(process.env.BENCH_SITE_KEYS ?? 20);
const DEBOUNCE_MS = 150;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function settle(page, before) {
  await page.waitForFunction((n) => globalThis.crdx.timings.length > n && !document.getElementById('status-line').textContent.startsWith('checking'), before);
}

export async function measure(crdFile = KEYSTROKE_CRD) {
  if (!existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: apt-get install -y chromium`);
  if (!existsSync(join(ROOT, 'dist', 'site', 'index.html'))) throw new Error('run npm run build:site first');
  if (!existsSync(crdFile)) throw new Error(`no CRD at ${crdFile} (the corpus: ../shared/corpus)`);
  const profile = mkdtempSync(join(tmpdir(), 'crdx-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1400, height: 1000 } });
  try {
    const url = pathToFileURL(join(ROOT, 'dist', 'site', 'index.html')).href;
    // first verdict: navigation start to the first example's findings on the page, fresh pages
    const first = [];
    for (let i = 0; i < LOADS; i++) {
      const page = await context.newPage();
      await page.goto(url);
      await page.evaluate(() => globalThis.crdx.ready);
      first.push(await page.evaluate(() => globalThis.crdx.firstVerdict));
      await page.close();
    }
    // keystrokes on a large CRD: each typed alone, its verdict awaited (a user pausing past the debounce)
    const page = await context.newPage();
    await page.goto(url);
    await page.evaluate(() => globalThis.crdx.ready);
    const text = readFileSync(crdFile, 'utf8');
    const content = page.locator('#crd-editor .cm-content');
    let before = await page.evaluate(() => globalThis.crdx.timings.length);
    await content.click();
    await page.keyboard.press('Control+A');
    await content.evaluate((el, t) => {
      const dt = new DataTransfer();
      dt.setData('text/plain', t);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, text);
    await settle(page, before);
    const paste = await page.evaluate(() => globalThis.crdx.timings.at(-1));
    const findings = await page.evaluate(() => globalThis.crdx.last().findings.length);
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    before = await page.evaluate(() => globalThis.crdx.timings.length);
    await settle(page, before);
    await page.keyboard.type('#');
    const keys = [];
    for (let i = 0; i < KEYS; i++) {
      before = await page.evaluate(() => globalThis.crdx.timings.length);
      await page.keyboard.type(String.fromCharCode(97 + (i % 26)));
      await settle(page, before);
      keys.push(await page.evaluate(() => globalThis.crdx.timings.at(-1)));
    }
    await page.close();
    const s = sizes();
    const file = (f) => s.rows.find((r) => r.file === f);
    return {
      bundle: { total: s.total, totalGzip: s.totalGzip, engine: file('engine.js').bytes, engineGzip: file('engine.js').gzip, app: file('app.js').bytes, appGzip: file('app.js').gzip, examples: file('examples.js').bytes, examplesGzip: file('examples.js').gzip },
      firstVerdictMs: { median: median(first), min: Math.min(...first), max: Math.max(...first), loads: LOADS },
      crd: { file: crdFile.slice(CORPUS.length + 1), bytes: Buffer.byteLength(text), lines: text.split('\n').length, findings },
      pasteMs: paste,
      keystroke: {
        keys: KEYS,
        engineMedian: median(keys.map((k) => k.engine)),
        engineMax: Math.max(...keys.map((k) => k.engine)),
        // from the key to the verdict on the page, less the debounce
        shownMedian: median(keys.map((k) => k.total - DEBOUNCE_MS)),
        shownMax: Math.max(...keys.map((k) => k.total - DEBOUNCE_MS)),
        debounceMs: DEBOUNCE_MS,
      },
    };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const r = await measure(process.argv[2]);
  console.log(JSON.stringify(r));
}
