/**
 * The playground in a real browser (Debian's chromium driven by playwright-core), loaded from
 * file:// as a user opens dist/site/index.html: paste a CRD the server rejects, see the finding at
 * its line and jump to it; paste an object, see what the server would store; switch the Kubernetes
 * version; share the state as a link and open it. Each step leaves a screenshot in
 * test-output/site/. Run by npm run test:site (.ci/run).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileUrl, launch, openPage, OUTPUT, ROOT, serveSite, type Browser } from './browser.js';

const fixture = (p: string): string => readFileSync(join(ROOT, 'fixtures', p), 'utf8');
const BROKEN = fixture('crds/02-gadgets-broken.yaml');
const WIDGET_CRD = fixture('simulate/basic-defaults/crd.yaml');
const WIDGET = fixture('simulate/basic-defaults/input.yaml');

interface Shown {
  file: string;
  line: number;
  column: number;
  rule: string;
  severity: string;
  message: string;
}

/** A paste into an editor, as the browser delivers one (a ClipboardEvent CodeMirror handles), replacing its text. */
async function paste(page: Page, pane: 'crd' | 'object' | 'old', text: string): Promise<void> {
  const before = await page.evaluate('window.crdx.timings.length');
  const content = page.locator(`#${pane}-editor .cm-content`);
  const current = (await page.evaluate('window.crdx.state()')) as Record<string, string>;
  if (current[pane === 'crd' ? 'crds' : pane] === text) return;
  await content.click();
  await page.keyboard.press('Control+A');
  if (text === '') await page.keyboard.press('Delete');
  else
    await content.evaluate((el, t) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
  await settle(page, before as number);
}

/** Waits for the verdict of the latest change (a new entry in window.crdx.timings, nothing pending). */
async function settle(page: Page, before: number): Promise<void> {
  await page.waitForFunction((n) => {
    const w = globalThis as unknown as { crdx: { timings: unknown[] }; document: { getElementById(id: string): { textContent: string } } };
    return w.crdx.timings.length > n && !w.document.getElementById('status-line').textContent.startsWith('checking');
  }, before);
}

/** Chooses a value of one of the page's pickers and waits for the verdict. */
async function pick(page: Page, select: string, value: string): Promise<void> {
  if ((await page.inputValue(select)) === value) return;
  const before = (await page.evaluate('window.crdx.timings.length')) as number;
  await page.selectOption(select, value);
  await settle(page, before);
}

async function findings(page: Page): Promise<Shown[]> {
  return page.$$eval('#findings li.finding', (lis) =>
    lis.map((li) => {
      const e = li as unknown as { dataset: Record<string, string>; querySelector(s: string): { textContent: string } };
      return { file: e.dataset['file']!, line: Number(e.dataset['line']), column: Number(e.dataset['column']), rule: e.dataset['rule']!, severity: e.querySelector('.sev').textContent, message: e.querySelector('.msg').textContent };
    }),
  );
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(OUTPUT, name), fullPage: true });

describe('the playground in chromium, from file://', () => {
  let b: Browser;
  let page: Page;
  let errors: string[];
  beforeAll(async () => {
    b = await launch();
    ({ page, errors } = await openPage(b, fileUrl()));
  }, 60_000);
  afterAll(async () => {
    await b?.close();
  });

  it('loads with the first example checked', async () => {
    await shot(page, '01-loaded.png');
    expect(await page.textContent('#status-line')).toMatch(/^Kubernetes 1\.\d+ · checked in \d+ ms$/);
    const examples = await page.$$eval('#example option', (os) => os.map((o) => (o as unknown as { value: string }).value));
    expect(examples).toEqual(expect.arrayContaining(['simulate/basic-defaults', 'status/via-status', 'scale/get', 'crds/02-gadgets-broken.yaml', 'rules/cel-cost/invalid/cardinality.yaml']));
    expect(await page.inputValue('#example')).toBe('simulate/basic-defaults');
    expect(errors).toEqual([]);
  });

  it('a pasted CRD the server rejects: the finding at its line, and a click puts the cursor there', async () => {
    await paste(page, 'object', '');
    await paste(page, 'crd', BROKEN);
    const fs = await findings(page);
    // the server's text (fixtures/crds: recorded against kube-apiserver 1.36)
    const scope = fs.find((f) => f.rule === 'scope');
    expect(scope).toEqual({ file: 'crds.yaml', line: 9, column: 10, rule: 'scope', severity: 'error', message: 'spec.scope: Unsupported value: "namespaced": supported values: "Cluster", "Namespaced"' });
    expect(fs.filter((f) => f.severity === 'error')).toHaveLength(8);
    await page.locator('#findings li[data-rule="scope"]').click();
    expect(await page.evaluate("window.crdx.cursor('crds')")).toEqual({ line: 9, column: 10, focused: true });
    // the editor's own lint marker on that line
    expect(await page.locator('#crd-editor .cm-lint-marker-error').count()).toBeGreaterThan(0);
    await shot(page, '02-crd-finding.png');
    expect(errors).toEqual([]);
  });

  it('a pasted object: the stored object with what the server added and removed marked; --validate', async () => {
    await pick(page, '#validate', 'strict');
    await paste(page, 'crd', WIDGET_CRD);
    await paste(page, 'object', WIDGET);
    const stored = await page.locator('#stored-view .cm-content').innerText();
    expect(stored).toContain('replicas: 1');
    expect(stored).toContain('type: RollingUpdate');
    expect(stored).not.toContain('replica: 3');
    const added = await page.$$eval('#stored-view .mark-added', (ls) => ls.map((l) => (l as unknown as { textContent: string }).textContent.trim()));
    expect(added).toEqual(expect.arrayContaining(['replicas: 1', 'type: RollingUpdate']));
    const removed = await page.$$eval('#object-editor .mark-removed', (ls) => ls.map((l) => (l as unknown as { textContent: string }).textContent.trim()));
    expect(removed).toEqual(['replica: 3', 'paused: null', 'ready: true']);
    // the typo is an unknown field: under kubectl's Strict validation the server answers 400 …
    expect(await findings(page)).toEqual([{ file: 'object.yaml', line: 8, column: 3, rule: 'custom-resource', severity: 'error', message: 'unknown field "spec.replica" (fieldValidation=Strict: the server answers 400 BadRequest)' }]);
    expect(await page.textContent('#stored-legend')).toMatch(/^REJECTED/);
    await shot(page, '03-object-defaulted.png');
    // … under --validate=warn it warns and stores the object
    await pick(page, '#validate', 'warn');
    expect(await findings(page)).toEqual([{ file: 'object.yaml', line: 8, column: 3, rule: 'custom-resource-warnings', severity: 'warning', message: 'unknown field "spec.replica"' }]);
    expect(await page.textContent('#stored-legend')).toMatch(/^\d+ added, 0 changed, 3 removed/);
    await shot(page, '03b-object-validate-warn.png');
    expect(errors).toEqual([]);
  });

  it('the Kubernetes version picker changes a version-dependent verdict', async () => {
    await paste(page, 'object', '');
    await paste(page, 'crd', BROKEN);
    const format = (fs: Shown[]) => fs.filter((f) => f.rule === 'unrecognized-format');
    expect(format(await findings(page))).toEqual([
      { file: 'crds.yaml', line: 48, column: 50, rule: 'unrecognized-format', severity: 'warning', message: 'unrecognized format "sha256" (type "string"): the server warns and does not validate it' },
    ]);
    // the warning came with 1.34: on 1.33 the server says nothing
    await pick(page, '#kube', '1.33');
    expect(await page.textContent('#status-line')).toMatch(/^Kubernetes 1\.33 /);
    expect(format(await findings(page))).toEqual([]);
    await shot(page, '04-kube-1.33.png');
    expect(errors).toEqual([]);
  });

  it('a shared link opens the same state', async () => {
    await paste(page, 'object', WIDGET);
    await page.click('#share');
    await page.waitForFunction(() => (globalThis as unknown as { document: { getElementById(id: string): { value: string } } }).document.getElementById('share-url').value !== '');
    const url = await page.inputValue('#share-url');
    expect(url).toMatch(/^file:\/\/.*index\.html#s=[A-Za-z0-9_-]+$/);
    const state = await page.evaluate('window.crdx.state()');
    const shown = await findings(page);
    await shot(page, '05-shared-from.png');
    const other = await openPage(b, url);
    expect(await other.page.evaluate('window.crdx.state()')).toEqual(state);
    expect(await findings(other.page)).toEqual(shown);
    expect(await other.page.inputValue('#kube')).toBe('1.33');
    expect(await other.page.inputValue('#validate')).toBe('warn');
    // the Widget's CRD is not among the pasted ones: said where the stored object would be
    expect((await other.page.locator('#stored-view .cm-content').innerText()).trim()).toBe(
      '# Widget example.com/v1: no CustomResourceDefinition for Widget in group "example.com" among the inputs (paste it into the CRD pane)',
    );
    await shot(other.page, '06-shared-opened.png');
    expect(other.errors).toEqual([]);
    await other.page.close();
  });
});

describe('the playground on bad or no input', () => {
  it('says there is nothing to check, and reports broken YAML at its place', async () => {
    const b = await launch();
    try {
      const { page, errors } = await openPage(b, fileUrl());
      await paste(page, 'object', '');
      await paste(page, 'crd', '');
      expect(await page.textContent('#findings')).toBe('Nothing to check yet: paste a CustomResourceDefinition (and a custom resource).');
      await paste(page, 'crd', 'apiVersion: apiextensions.k8s.io/v1\nkind: [CustomResourceDefinition\n');
      const fs = await findings(page);
      expect(fs).toHaveLength(1);
      expect(fs[0]).toMatchObject({ file: 'crds.yaml', rule: 'parse', severity: 'error' });
      expect(fs[0]!.line).toBeGreaterThanOrEqual(2);
      await shot(page, '08-broken-yaml.png');
      expect(errors).toEqual([]);
    } finally {
      await b.close();
    }
  }, 60_000);
});

describe('the playground from a static host', () => {
  it('serves and checks over http', async () => {
    const { url, server } = await serveSite();
    const b = await launch();
    try {
      const { page, errors } = await openPage(b, url);
      const r = (await page.evaluate(`window.crdx.check({ crds: ${JSON.stringify(BROKEN)}, object: '', old: '', kubeVersion: '1.36' })`)) as { findings: { ruleId: string }[] };
      expect(r.findings.map((f) => f.ruleId)).toContain('scope');
      await shot(page, '07-static-host.png');
      expect(errors).toEqual([]);
    } finally {
      await b.close();
      server.close();
    }
  }, 60_000);
});
