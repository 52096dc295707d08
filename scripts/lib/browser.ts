/**
 * Headless Debian chromium driven by playwright-core, with the flags of ../shared/TOOLCHAIN.md
 * and a fresh user-data-dir. Pages may load file:, data: and blob: URLs and 127.0.0.1 only:
 * every other request is aborted, so nothing leaves the machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Browser {
  context: BrowserContext;
  /** A new page whose requests are limited to local URLs. */
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function launchBrowser(viewport = { width: 1400, height: 1000 }): Promise<Browser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'im-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    timeout: 60_000,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (/^(file|data|blob|about):/.test(url) || /^https?:\/\/127\.0\.0\.1[:/]/.test(url)) return route.continue();
    return route.abort('blockedbyclient');
  });
  return {
    context,
    newPage: () => context.newPage(),
    async close() {
      await context.close().catch(() => {});
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
