/**
 * Every TypeScript snippet of the README's "Callbacks" section compiles, strict, against the
 * generated package and the real framework types (express, fastify, koa, hono, @nestjs/*), so
 * the docs cannot drift from the kit (issue 17: the README's `isKnownEvent(event)` did not).
 * The snippets may use `db` and `isSpam`, declared after each snippet as the app's own code.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/seed.js';

const APP_CODE = `
declare const db: {
  saveEvent(event: import('im-server-sdk/callbacks').CallbackEventItem): Promise<void>;
  saveMembers(groupId: string, version: number, members: readonly unknown[]): Promise<void>;
  saveFriend(eventId: string, origin: string, version: number | undefined): Promise<void>;
};
declare function isSpam(data: unknown): boolean;
`;

function callbackSnippets(): string[] {
  const readme = readFileSync(join(repoRoot, 'generated/README.md'), 'utf8');
  const start = readme.indexOf('\n## Callbacks\n');
  const end = readme.indexOf('\n## ', start + 5);
  const section = readme.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
}

describe('README callbacks section', () => {
  it('starts with what is assumed: the signature scheme, the hook answer, every hook type the spec marks x-assumed, and how to switch', async () => {
    const readme = readFileSync(join(repoRoot, 'generated/README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Callbacks\n'));
    const firstParagraph = section.split('\n\n')[1]!;
    expect(firstParagraph).toMatch(/^\*\*What is assumed\.\*\*/);
    const assumptions = section.slice(0, section.indexOf('```'));
    for (const text of [
      'ASSUMES HMAC-SHA256',
      'imSignatureV1',
      '`signature` option',
      'standardWebhooksSignature',
      '--signature',
      'assumedHookAnswer',
      '`hookAnswer`',
      '--hook-answer',
    ])
      expect(assumptions).toContain(text);
    const { parse } = await import('yaml');
    const spec = parse(readFileSync(join(repoRoot, 'spec/callbacks.asyncapi.yaml'), 'utf8')) as unknown;
    const assumedHooks: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (node === null || typeof node !== 'object') return;
      const o = node as Record<string, unknown>;
      if (typeof o.const === 'string' && /before_/.test(o.const) && typeof o['x-assumed'] === 'string')
        assumedHooks.push(o.const);
      Object.values(o).forEach(walk);
    };
    walk(spec);
    expect(assumedHooks.sort()).toEqual(['chatroom.message_before_send', 'friend.before_add', 'group.before_join']);
    for (const hook of assumedHooks) expect(assumptions).toContain(`\`${hook}\``);
  });
});

describe('README callbacks snippets', () => {
  it('there is one per framework recipe plus the main example and the edge one', () => {
    const snippets = callbackSnippets();
    expect(snippets.length).toBeGreaterThanOrEqual(7);
    expect(snippets.join('\n')).toMatch(/isKnownEvent\(event\)/);
    for (const name of ['express', 'fastify', 'koa', 'hono', '@nestjs/core', 'im-server-sdk/callbacks/edge']) {
      expect(
        snippets.some((s) => s.includes(`from '${name}'`)),
        name,
      ).toBe(true);
    }
  });

  it('every snippet type-checks (strict) against the generated package', () => {
    const dir = join(repoRoot, 'node_modules/.cache/readme-callbacks');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = callbackSnippets().map((code, i) => {
      const file = `snippet-${i + 1}.mts`;
      writeFileSync(join(dir, file), `${code}\n${APP_CODE}\nexport {};\n`);
      return file;
    });
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          types: ['node'],
          typeRoots: [join(repoRoot, 'node_modules/@types')],
          strict: true,
          noUncheckedIndexedAccess: true,
          experimentalDecorators: true, // as NestJS apps compile
          skipLibCheck: true,
          noEmit: true,
          paths: {
            'im-server-sdk/callbacks': [join(repoRoot, 'generated/src/callbacks.ts')],
            'im-server-sdk/callbacks/edge': [join(repoRoot, 'generated/src/callbacks-edge.ts')],
          },
        },
        files,
      }),
    );
    const result = spawnSync(
      process.execPath,
      [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')],
      { encoding: 'utf8' },
    );
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);
});
