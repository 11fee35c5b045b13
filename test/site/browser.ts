/**
 * The browser the playground's tests drive: Debian's chromium (/usr/bin/chromium, or
 * CRDX_CHROMIUM), started by playwright-core with a fresh profile and no background networking.
 * A missing browser fails the tests (CI installs it: .ci/run); nothing is downloaded.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const ROOT = join(import.meta.dirname, '..', '..');
export const SITE = join(ROOT, 'dist', 'site');
/** Screenshots and measurements, for review (ignored by git). */
export const OUTPUT = join(ROOT, 'test-output', 'site');
export const CHROMIUM = process.env['CRDX_CHROMIUM'] ?? '/usr/bin/chromium';

export const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Browser {
  readonly context: BrowserContext;
  readonly close: () => Promise<void>;
}

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium), as .ci/run does`);
  if (!existsSync(join(SITE, 'index.html'))) throw new Error(`no built playground at ${SITE}: run npm run build:site (or build:dist) first`);
  mkdirSync(OUTPUT, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'crdx-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1400, height: 1000 } });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export const fileUrl = (): string => pathToFileURL(join(SITE, 'index.html')).href;

/** A page of the playground whose errors fail the test that reads `errors`. */
export async function openPage(b: Browser, url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await b.context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && errors.push(`console: ${m.text()}`));
  // nothing may leave the machine: every request is for a file of the site (or a blob of it)
  page.on('request', (r) => {
    if (!/^(file|blob|data):/.test(r.url()) && !r.url().startsWith('http://127.0.0.1:')) errors.push(`network: ${r.url()}`);
  });
  await page.goto(url);
  await page.evaluate(() => window.crdx.ready);
  return { page, errors };
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

/** dist/site/ served over HTTP on 127.0.0.1 (a static host). */
export async function serveSite(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const p = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^\/+/, '') || 'index.html';
    const f = join(SITE, p);
    if (!f.startsWith(SITE) || !existsSync(f)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(f)] ?? 'application/octet-stream' }).end(readFileSync(f));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  if (!a || typeof a === 'string') throw new Error('no address');
  return { url: `http://127.0.0.1:${a.port}/index.html`, server };
}
