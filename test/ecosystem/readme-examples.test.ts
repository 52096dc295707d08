/**
 * Issue 30: the package README's examples run, not only compile: each ts snippet that talks to
 * the service is run against a Prism mock of spec/openapi.yaml and against the fake
 * (im-server-sdk/testing), with `im` a client of that target. Against Prism the spec's examples
 * are what comes back: every list example ends its walk (next_cursor: null), so the Pagination
 * example completes without a PaginationCycleError.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type MockServer } from '../../scripts/lib/mock-server.js';
import { ImClient } from '../../generated/src/index.js';
import { createFakeService, type FakeService, type SeedInput } from '../../generated/src/testing.js';
import { repoRoot } from '../helpers/seed.js';
import { sectionAt, tsSnippets } from '../helpers/snippets.js';

const readme = readFileSync(join(repoRoot, 'generated/README.md'), 'utf8');
const dir = join(repoRoot, 'test/ecosystem/.readme-run');

/** Snippets that are not run here, and why (the rest must run against both targets). */
function notRun(section: string, code: string): string | undefined {
  if (section === 'Callbacks')
    return 'receiver recipes for web frameworks and Redis (compiled by test/readme-callbacks.test.ts)';
  if (section === 'Testing your code' && /from 'vitest'/.test(code))
    return 'a vitest test file (run by the packed-package consumer test)';
  if (/from 'redis'/.test(code)) return 'needs a Redis server';
  if (/\/var\/data\//.test(code)) return 'uploads a file this machine does not have';
  return undefined;
}

const snippets = tsSnippets('README.md', readme).map((s) => ({ ...s, section: sectionAt(readme, s.line) }));
const runnable = snippets.filter((s) => !notRun(s.section, s.code));

/** The snippet as a module of this repo: the package's imports point at generated/src, shared names come from globalThis. */
function moduleText(code: string): string {
  const body = code
    .replace(/from 'im-server-sdk'/g, "from '../../../generated/src/index.js'")
    .replace(/from 'im-server-sdk\/funcs'/g, "from '../../../generated/src/funcs/index.js'")
    .replace(/from 'im-server-sdk\/testing'/g, "from '../../../generated/src/testing.js'")
    .replace(/from 'im-server-sdk\/otel'/g, "from '../../../generated/src/otel/index.js'");
  const g = (name: string, value: string) =>
    new RegExp(`\\b(const|let|var)\\s+${name}\\b|\\bfunction\\s+${name}\\b`).test(code)
      ? ''
      : `const ${name} = ${value};\n`;
  const shared = `${g('im', '(globalThis as any).__readmeIm')}${g('usernames', "['alice', 'bob']")}${g('body', "'hello'")}`;
  // a function the README only declares (the app's own) gets an empty body
  return `${shared}${body.replace(/^declare function (\w+)\((.*)\): void;$/gm, 'function $1($2): void {}')}\nexport {};\n`;
}

/** What a snippet names but does not make: alice and bob (unless it creates alice), an RTC channel c1, a pending moderation item. */
function stateFor(code: string): SeedInput {
  const createsAlice = /(create|Create)\w*\([^)]*username: 'alice'/.test(code);
  return {
    users: [...(createsAlice ? [] : [{ username: 'alice' }]), { username: 'bob' }],
    rtcChannels: [{ channel_id: 'c1' }],
    moderationItems: [{ id: 'item-1', scene: 'message' }],
  };
}

async function runAll(
  target: { baseUrl: string; appKey: string; clientId: string; clientSecret: string },
  tag: string,
  before?: (code: string) => void,
): Promise<{ line: number; section: string; error?: string }[]> {
  const results: { line: number; section: string; error?: string }[] = [];
  const env = {
    IM_BASE_URL: target.baseUrl,
    IM_APP_KEY: target.appKey,
    IM_CLIENT_ID: target.clientId,
    IM_CLIENT_SECRET: target.clientSecret,
  };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  const log = console.log;
  console.log = () => {};
  try {
    for (const s of runnable) {
      before?.(s.code);
      (globalThis as any).__readmeIm = new ImClient({ ...target, maxRetries: 0 });
      const file = join(dir, `${tag}_line${s.line}.ts`);
      writeFileSync(file, moduleText(s.code));
      try {
        await import(file);
        results.push({ line: s.line, section: s.section });
      } catch (e) {
        results.push({ line: s.line, section: s.section, error: `${(e as Error).name}: ${(e as Error).message}` });
      }
    }
  } finally {
    console.log = log;
    for (const [k, v] of Object.entries(saved)) v === undefined ? delete process.env[k] : (process.env[k] = v);
  }
  return results;
}

let mock: MockServer;
let fake: FakeService;
beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  mock = await startMock({ timeoutMs: 90_000 });
  // the app the Quick start names (the other examples read IM_APP_KEY, set to it)
  fake = await createFakeService({ appKey: 'my-org#my-app' });
}, 100_000);
afterAll(async () => {
  await mock?.stop();
  await fake?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the README's examples run", () => {
  it('most snippets are runnable; the rest say why not', () => {
    console.log(
      `README: ${snippets.length} ts snippets, ${runnable.length} run against Prism and the fake; not run: ${snippets
        .filter((s) => notRun(s.section, s.code))
        .map((s) => `line ${s.line} (${notRun(s.section, s.code)})`)
        .join('; ')}`,
    );
    expect(runnable.length).toBeGreaterThanOrEqual(12);
    expect(runnable.some((s) => s.section === 'Pagination')).toBe(true);
  });

  it('against the fake: every runnable snippet completes, each from a fresh state', async () => {
    const decided: string[] = [];
    const results = await runAll(fake.clientOptions, 'fake', (code) => {
      if (fake.state.moderation.items.get('item-1')?.decision) decided.push('item-1');
      fake.reset();
      fake.seed(stateFor(code));
    });
    expect(results.filter((r) => r.error)).toEqual([]);
    // what they did reached the fake: the processPending example decided the pending item
    if (fake.state.moderation.items.get('item-1')?.decision) decided.push('item-1');
    expect(decided).toEqual(['item-1']);
  }, 120_000);

  it('against Prism: every runnable snippet completes; the Pagination example ends without PaginationCycleError', async () => {
    const results = await runAll(
      { baseUrl: mock.baseUrl, appKey: 'acme#chat', clientId: 'demo-client', clientSecret: 'demo-secret' },
      'prism',
    );
    expect(results.find((r) => r.section === 'Pagination')).toEqual({
      line: expect.any(Number),
      section: 'Pagination',
    });
    expect(results.filter((r) => r.error)).toEqual([]);
  }, 120_000);
});
