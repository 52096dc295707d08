/**
 * spec/openapi.yaml as Swagger UI (swagger-ui-dist 5.35.0) and Scalar (@scalar/api-reference
 * 1.72.1) show it, in headless Debian chromium over a static server on 127.0.0.1 (pages built by
 * scripts/docs-viewers.ts; every non-local request is blocked). Asserts what issue 17 found wrong:
 * no red error/warning box (the written-out jsonSchemaDialect made one: a control page with it
 * shows that the check can see the box), operation summaries are the seed's words, assumption
 * sentences are visible, and the 429 response shows a rate_limited example. Screenshots go to
 * dist-artifacts/docs-viewers/*.png.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildViewerPages, VIEWERS_DIR } from '../../scripts/docs-viewers.js';
import { CHROMIUM, launchBrowser, type Browser } from '../../scripts/lib/browser.js';
import { loadYaml } from '../helpers/spec.js';

const spec = loadYaml('spec/openapi.yaml');
const CONTROL = 'control-with-dialect';
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
let server: Server;
let base: string;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: bash scripts/ensure-system-deps.sh installs it`);
  buildViewerPages();
  buildViewerPages({
    spec: { openapi: spec.openapi, jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema', ...spec },
    outDir: join(VIEWERS_DIR, CONTROL),
  });
  server = createServer((req, res) => {
    const file = normalize(join(VIEWERS_DIR, decodeURIComponent((req.url ?? '/').split(/[?#]/)[0]!)));
    if (!file.startsWith(VIEWERS_DIR) || !existsSync(file) || statSync(file).isDirectory())
      return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

describe('Swagger UI 5.35.0', () => {
  it('control: with jsonSchemaDialect written out, the red box appears (so the check below can see it)', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/${CONTROL}/swagger-ui/index.html`);
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    await expect.poll(() => page.locator('.errors-wrapper').count(), { timeout: 5_000 }).toBeGreaterThan(0);
    expect(await page.locator('.errors-wrapper').innerText()).toMatch(/jsonSchemaDialect/i);
    await page.close();
  }, 30_000);

  it('no red box; summaries, an assumption sentence and the per-status error examples are shown', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/swagger-ui/index.html`);
    await page.waitForSelector('.opblock', { timeout: 20_000 });
    expect(await page.locator('.errors-wrapper').count()).toBe(0);
    // Swagger UI renders the operations as they scroll into view.
    const operation = async (method: string, path: string) => {
      const loc = page
        .locator(`.opblock.opblock-${method}`)
        .filter({ has: page.locator(`[data-path="/{org_name}/{app_name}${path}"]`) });
      await page.mouse.move(700, 500);
      for (let i = 0; i < 80 && (await loc.count()) === 0; i++) {
        await page.mouse.wheel(0, 600);
        await page.waitForTimeout(50);
      }
      await loc.scrollIntoViewIfNeeded({ timeout: 5_000 });
      return loc;
    };
    const create = await operation('post', '/users');
    expect(await create.locator('.opblock-summary-description').innerText()).toBe(
      'Create a user (username, optional profile params)',
    );
    const list = await operation('get', '/users');
    expect(await list.locator('.opblock-summary-description').innerText()).toBe('List users (paging)');
    await list.locator('.opblock-summary-control').click();
    const description = list.locator('.opblock-description-wrapper');
    await expect.poll(() => description.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await description.innerText()).toContain('Assumed: the seed names cursor, known_version and next_cursor');
    expect(await description.innerText()).toContain('Retry class Q: read-only; safe to repeat.');
    const response = (code: string) => list.locator(`tr.response[data-code="${code}"]`);
    expect(await response('429').innerText()).toMatch(/"code": "rate_limited"/);
    expect(await response('429').innerText()).toContain('Retry-After');
    expect(await response('403').innerText()).toMatch(/"code": "permission_denied"/);
    expect(await response('401').innerText()).toMatch(/"code": "unauthenticated"/);
    expect(await response('429').innerText()).not.toContain('invalid_argument');
    expect(await page.locator('.errors-wrapper').count()).toBe(0);
    await list.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(VIEWERS_DIR, 'swagger-ui-users-list.png') });
    await response('429').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(VIEWERS_DIR, 'swagger-ui-users-list-429.png') });
    await page.close();
  }, 40_000);
});

describe('Scalar 1.72.1', () => {
  it('renders offline; summaries, assumption sentences and the 429 rate_limited example are shown', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/scalar/index.html`);
    // The server box states the server's assumption (x-assumed is not shown by Scalar).
    await expect
      .poll(() => page.evaluate(() => document.body.innerText), { timeout: 20_000 })
      .toContain('Assumed: the seed gives no base URL');
    await page.getByText('Users', { exact: true }).first().click();
    await page.getByText('List users (paging)', { exact: true }).first().click();
    await expect
      .poll(() => page.evaluate(() => document.body.innerText), { timeout: 10_000 })
      .toContain('List users. Inputs named by the seed (4.2): paging.');
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).toContain('Create a user (username, optional profile params)');
    expect(text).toContain('Assumed: the seed names cursor, known_version and next_cursor');
    expect(text).not.toMatch(/users\.list \(GET \/users\)/);
    // The operation's example panel: its 429 tab shows the rate_limited body (not invalid_argument).
    const examples = page.locator(
      'section[id$="tag/users/GET/{org_name}/{app_name}/users"] [aria-label="Example Responses"]',
    );
    await examples.getByRole('tab', { name: /429/ }).click();
    await expect.poll(() => examples.innerText(), { timeout: 10_000 }).toMatch(/"code": "rate_limited"/);
    expect(await examples.innerText()).not.toContain('invalid_argument');
    await examples.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(VIEWERS_DIR, 'scalar-users-list.png') });
    await page.close();
  }, 40_000);
});
