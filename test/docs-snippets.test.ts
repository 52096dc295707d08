/**
 * Docs that cannot drift (issue 17): every ```ts block of the package README and api.md is
 * compiled against the generated package with strict settings, and api.md lists every public
 * method of every resource class with the return type written in the code.
 *
 * A block that is deliberately partial is preceded by `<!-- snippet: not compiled, <reason> -->`;
 * keep those few. Free names the snippets share (`im`, and a few values they pass) are declared
 * once in a prelude; a snippet that declares its own shadows them.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/seed.js';
import { tsSnippets, type Snippet } from './helpers/snippets.js';

/** `text` with the `## <title>` section's lines blanked (line numbers kept for the messages). */
function withoutSection(text: string, title: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf(`## ${title}`);
  if (start < 0) return text;
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  return lines.map((l, i) => (i >= start && (end < 0 || i < end) ? '' : l)).join('\n');
}

const PRELUDE = `// Names the README's snippets use without declaring them.
import type { ImClient } from 'im-server-sdk';
declare global {
  const im: ImClient;
  const usernames: string[];
  const body: string;
}
export {};
`;

const dir = join(repoRoot, 'test/types/.snippets');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('package docs', () => {
  const docs = ['README.md', 'api.md'].map((name) => ({
    name,
    text: readFileSync(join(repoRoot, 'generated', name), 'utf8'),
  }));
  // The Callbacks section's snippets mount the receiver in Express, Fastify, Koa, Hono, NestJS and
  // the edge entry: test/readme-callbacks.test.ts compiles them with those frameworks' types and
  // the app code they call (db, isSpam), so they are not compiled twice here.
  const snippets = docs.flatMap((d) =>
    tsSnippets(d.name, d.name === 'README.md' ? withoutSection(d.text, 'Callbacks') : d.text),
  );

  it('the docs have ts snippets, and few are marked not compiled', () => {
    expect(snippets.filter((s) => s.doc === 'README.md').length).toBeGreaterThanOrEqual(8);
    expect(snippets.filter((s) => s.doc === 'api.md').length).toBeGreaterThanOrEqual(1);
    expect(snippets.filter((s) => s.skipped).length).toBeLessThanOrEqual(2);
  });

  it('every ts snippet of README.md and api.md compiles against the package (strict, exactOptionalPropertyTypes)', () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'prelude.d.ts'), PRELUDE);
    const files: Record<string, Snippet> = {};
    for (const [i, s] of snippets.entries()) {
      if (s.skipped) continue;
      const file = `${s.doc.replace(/\W/g, '_')}_${String(i).padStart(2, '0')}_line${s.line}.ts`;
      files[file] = s;
      // each snippet is its own module (top-level await, own imports)
      writeFileSync(join(dir, file), `${s.code}\nexport {};\n`);
    }
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../../tsconfig.json',
        compilerOptions: {
          noEmit: true,
          strict: true,
          exactOptionalPropertyTypes: true,
          noUnusedLocals: false,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          paths: {
            'im-server-sdk': ['../../../generated/src/index.ts'],
            'im-server-sdk/funcs': ['../../../generated/src/funcs/index.ts'],
            'im-server-sdk/callbacks': ['../../../generated/src/callbacks.ts'],
            'im-server-sdk/testing': ['../../../generated/src/testing.ts'],
            'im-server-sdk/otel': ['../../../generated/src/otel/index.ts'],
          },
        },
        include: ['*.ts'],
        exclude: [],
      }),
    );
    const result = spawnSync(
      process.execPath,
      [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')],
      { cwd: repoRoot, encoding: 'utf8' },
    );
    // name each failing snippet by doc and line, not by temp file
    const output = (result.stdout + result.stderr).replace(
      /(?:test\/types\/\.snippets\/)?(\w+_\d+_line\d+\.ts)/g,
      (m, f: string) => (files[f] ? `${files[f].doc}:${files[f].line}+` : m),
    );
    // the package's own source compiles under these settings too (a consumer may compile it so)
    const errors = output.split('\n').filter((l) => /error TS/.test(l));
    expect(errors).toEqual([]);
  }, 120_000);

  it('every Redis client a snippet creates gets an error listener (issue 28 item 9: else an outage crashes the app)', () => {
    const runtimeDocs = [
      'templates/runtime/stores/redis-token-store.ts',
      'templates/runtime/stores/redis-quota-store.ts',
      'templates/runtime/callbacks/index.ts',
      'templates/runtime/callbacks/inbox/redis-inbox.ts',
    ];
    const texts = [
      ...docs.map((d) => ({
        name: d.name,
        code: tsSnippets(d.name, d.text)
          .map((s) => s.code)
          .join('\n'),
      })),
      ...runtimeDocs.map((f) => ({
        name: f,
        code: readFileSync(join(repoRoot, f), 'utf8')
          .split('\n')
          .filter((l) => /^\s*\*/.test(l))
          .join('\n'),
      })),
    ];
    const missing: string[] = [];
    let created = 0;
    for (const { name, code } of texts) {
      // a client made inline (fromNodeRedis(await createClient(…).connect())) has no name to listen on
      if (/\(\s*await\s+createClient\(/.test(code))
        missing.push(`${name}: a client created inline, with no error listener`);
      for (const m of code.matchAll(
        /(?:const|let)\s+(\w+)\s*=\s*(?:await\s+)?(?:createClient\(|createCluster\(|new (?:Redis|Cluster|IORedis)\(|\w+\.duplicate\()/g,
      )) {
        created++;
        if (!new RegExp(`\\b${m[1]}\\.on\\(\\s*'error'`).test(code))
          missing.push(`${name}: ${m[1]} has no .on('error', …)`);
      }
    }
    expect(created).toBeGreaterThanOrEqual(9); // node-redis and ioredis, single node and Cluster (issue 29)
    expect(missing).toEqual([]);
  });

  it('api.md lists every public method of every resource class with the return type in the code', () => {
    const api = docs.find((d) => d.name === 'api.md')!.text;
    const rows = api.split('\n').filter((l) => l.startsWith('| [`client.'));
    const resources = join(repoRoot, 'generated/src/resources');
    const missing: string[] = [];
    let methods = 0;
    for (const file of readdirSync(resources)) {
      const ns = file.replace(/\.ts$/, '');
      const sf = ts.createSourceFile(file, readFileSync(join(resources, file), 'utf8'), ts.ScriptTarget.ES2022, true);
      sf.forEachChild((node) => {
        if (!ts.isClassDeclaration(node)) return;
        for (const m of node.members) {
          if (!ts.isMethodDeclaration(m) || !m.type) continue;
          methods += 1;
          const name = m.name.getText(sf);
          const returns = m.type.getText(sf).replace(/\s+/g, ' ').replace(/\|/g, '\\|');
          const row = rows.find((r) => r.startsWith(`| [\`client.${ns}.${name}()\``));
          if (!row) missing.push(`${ns}.${name}: no row`);
          else if (!row.includes(`\`${returns}\``)) missing.push(`${ns}.${name}: row lacks ${returns}`);
        }
      });
    }
    expect(methods).toBeGreaterThan(178);
    expect(missing).toEqual([]);
    expect(rows).toHaveLength(methods);
  });
});
