/**
 * `npm run docs` builds static pages of both specs; headless Debian chromium (playwright-core)
 * opens each from file:// with every non-local request blocked, and the operations, messages,
 * headers and event types are rendered. Also runs the screenshot step of `npm run docs -- --screenshot`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_DIR, PAGES, screenshots } from '../../scripts/docs.js';
import { CHROMIUM, launchBrowser, type Browser } from '../../scripts/lib/browser.js';
import { repoRoot } from '../helpers/seed.js';
import { loadYaml, specOperations } from '../helpers/spec.js';

const rest = loadYaml('spec/openapi.yaml');
const callbacks = loadYaml('spec/callbacks.asyncapi.yaml');
const operationIds = specOperations(rest).map((o) => String(o.operation.operationId));
const eventTypes = Object.values<any>(callbacks.components.messages)
  .map((m) => String(m.name))
  .filter((n) => !['verify', 'event', 'hook'].includes(n) && !n.endsWith('Answer'));
const hookTypes = (callbacks.components.schemas.HookType.anyOf as any[])
  .filter((b) => 'const' in b)
  .map((b) => String(b.const));

const url = (page: string): string => pathToFileURL(join(DOCS_DIR, page)).href;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it)`);
  const r = spawnSync(join(repoRoot, 'node_modules/.bin/tsx'), ['scripts/docs.ts'], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 150_000,
  });
  if (r.status !== 0) throw new Error(`npm run docs failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
});

describe('npm run docs', () => {
  it('writes the four pages, the Redocly ones with their script inlined', () => {
    for (const page of PAGES) expect(statSync(join(DOCS_DIR, page)).size, page).toBeGreaterThan(500);
    expect(statSync(join(DOCS_DIR, 'rest.html')).size).toBeGreaterThan(1_000_000); // --inlineBundle
  });

  it('REST page: every one of the 178 operations is listed, and one renders in full', async () => {
    expect(operationIds).toHaveLength(178);
    const page = await browser.newPage();
    await page.goto(url('rest.html'), { waitUntil: 'load' });
    await page.waitForSelector('[data-testid="menu-item-label"]', { timeout: 30_000 });
    const seen = new Set<string>();
    for (const tag of rest.tags.map((t: { name: string }) => t.name)) {
      const slug = tag.toLowerCase().replace(/\s+/g, '-');
      await page.locator(`a[href="/${slug}"]`).first().click();
      const sel = `a[href^="#/${slug}/"]`;
      await page.waitForSelector(sel, { timeout: 15_000 });
      for (const href of await page.$$eval(sel, (as) => as.map((a) => a.getAttribute('href') ?? '')))
        seen.add(href.split('#')[1]!.split('/').at(-1)!);
    }
    expect([...seen].sort()).toEqual([...operationIds].sort());

    await page.goto(`${url('rest.html')}#/users/users.create`, { waitUntil: 'load' });
    await expect
      .poll(() => page.evaluate(() => document.body.innerText), { timeout: 15_000 })
      .toMatch(/Create a user \(username, optional profile params\)/);
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).toMatch(/username/);
    await page.close();
  }, 90_000);

  it('callbacks page (Redocly AsyncAPI): the three requests and their signed headers', async () => {
    const page = await browser.newPage();
    await page.goto(url('callbacks.html'), { waitUntil: 'load' });
    await page.getByText('Receiver endpoint').first().click();
    await expect
      .poll(() => page.evaluate(() => document.body.innerText), { timeout: 15_000 })
      .toMatch(/X-IM-Signature/);
    const text = await page.evaluate(() => document.body.innerText);
    for (const op of [
      'URL verification (kind verify)',
      'Event callback (kind event)',
      'Synchronous callback (kind hook)',
    ])
      expect(text).toContain(op);
    for (const header of ['X-IM-Kind', 'X-IM-Timestamp', 'X-IM-Nonce', 'User-Agent']) expect(text).toContain(header);
    await page.close();
  }, 60_000);

  it('callbacks reference: every event type, hook type, header and the delivery rules are visible', async () => {
    expect(eventTypes.length).toBeGreaterThan(10);
    const page = await browser.newPage();
    await page.goto(url('callbacks-reference.html'), { waitUntil: 'load' });
    const rows = await page.locator('#event-type-table tr.event-type td:first-child').allInnerTexts();
    expect(rows.sort()).toEqual([...eventTypes].sort());
    await expect.poll(() => page.locator('tr.event-type').first().isVisible()).toBe(true);
    const hooks = await page.locator('tr.hook-type td:first-child').allInnerTexts();
    expect(hooks.sort()).toEqual([...hookTypes].sort());
    const text = await page.evaluate(() => document.body.innerText);
    for (const s of ['X-IM-Signature', 'X-IM-Hook', 'x-delivery', 'waitsSeconds', 'x-url-rules', 'challenge'])
      expect(text).toContain(s);
    await page.close();
  }, 60_000);

  it('the screenshot step writes one PNG per page', async () => {
    const files = await screenshots();
    expect(files).toHaveLength(PAGES.length);
    for (const f of files) expect(statSync(f).size, f).toBeGreaterThan(10_000);
  }, 90_000);
});
