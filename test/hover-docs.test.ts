/**
 * The hover text of an operation, as an editor shows it (TypeScript's language service, quick
 * info on `im.messages.send`): a one-line summary of what it does, then method and path, then
 * the retry class, then the assumptions. And the same order in every operation's doc comment.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/seed.js';

function hoverText(source: string, marker: string): string {
  const file = join(repoRoot, 'test/types/hover-probe.ts');
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [file],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => {
      const text = name === file ? source : ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => repoRoot,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: (name) => name === file || ts.sys.fileExists(name),
    readFile: (name) => (name === file ? source : ts.sys.readFile(name)),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const info = service.getQuickInfoAtPosition(file, source.indexOf(marker) + 1);
  if (!info) throw new Error(`no quick info at ${marker}`);
  // the tags as an editor shows them under the text: `@example …`, `@throws {X} …`
  const tags = (info.tags ?? []).map((t) => `@${t.name}${t.text ? ` ${ts.displayPartsToString(t.text)}` : ''}`);
  return [ts.displayPartsToString(info.displayParts), ts.displayPartsToString(info.documentation), ...tags].join(
    '\n\n',
  );
}

describe('hover docs', () => {
  it('im.messages.send: summary, then method and path, then retry class, then assumptions', () => {
    const source = `import { ImClient } from '../../generated/src/index.js';\ndeclare const im: ImClient;\nvoid im.messages.send({ to: 'bob' });\n`;
    const text = hoverText(source, '.send(');
    const doc = text.split('\n\n').slice(1);
    expect(doc[0]).toBe('Send a message.');
    expect(doc[1]).toBe(
      "Sends `POST /{org_name}/{app_name}/messages` (`messages.send` in the service's documentation).",
    );
    const at = (s: string) => text.indexOf(s);
    expect(at('Retry class D (deduplicated)')).toBeGreaterThan(at('`POST /{org_name}/{app_name}/messages`'));
    expect(at('Dedupe key: `client_msg_id`')).toBeGreaterThan(at('Retry class D'));
    expect(at("Assumed (the service's documentation is silent)")).toBeGreaterThan(at('Retry class D'));
    expect(text).not.toMatch(/Send a message\.[\s\S]*Send a message/); // the summary is said once
    // issue 31: the user's words, an example, and each error class
    expect(text).not.toMatch(/the seed is silent|— op `|Inputs named by the seed/);
    expect(text).toMatch(/@example[\s\S]*await im\.messages\.send\(/);
    // issue 33: the classes every call shares are named together (`{A | B}`), each still by name
    const thrown = [...text.matchAll(/@throws \{([^}]+)\}/g)].flatMap((m) => m[1]!.split(' | '));
    expect(thrown).toEqual(
      expect.arrayContaining([
        'ValidationError',
        'RateLimitedError',
        'UnauthenticatedError',
        'PermissionDeniedError',
        'IpNotAllowedError',
        'CredentialsRevokedError',
        'ApiError',
        'ConnectionError',
        'TimeoutError',
        'AbortError',
      ]),
    );
    expect(new Set(thrown).size).toBe(thrown.length); // each class once
  });

  it("every operation's doc comment keeps that order", () => {
    const dir = join(repoRoot, 'generated/src/resources');
    const wrong: string[] = [];
    for (const file of readdirSync(dir)) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const block of text.match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
        const path = block.search(/`(GET|POST|PUT|PATCH|DELETE) \/\{org_name\}/);
        if (path < 0) continue; // helpers and the class doc
        const retry = block.indexOf('Retry class');
        const assumed = block.indexOf("Assumed (the service's documentation is silent)");
        const firstLine = block.split('\n')[1]!.replace(/^\s*\*\s?/, '');
        if (retry < path || (assumed >= 0 && assumed < retry)) wrong.push(`${file}: ${firstLine}`);
        if (/^(`|Sends `)/.test(firstLine)) wrong.push(`${file}: no summary before ${firstLine}`);
        // issue 31: tags last: @example before @throws, both after the retry class
        const example = block.indexOf('@example');
        const throws = block.indexOf('@throws');
        if (example < retry || throws < example)
          wrong.push(`${file}: ${firstLine}: @example / @throws missing or out of order`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("issue 31: every operation's @example compiles against the package (strict), as a method and as a function", () => {
    const blocks: string[] = [];
    for (const dir of ['resources', 'funcs']) {
      for (const file of readdirSync(join(repoRoot, 'generated/src', dir))) {
        const text = readFileSync(join(repoRoot, 'generated/src', dir, file), 'utf8');
        for (const m of text.matchAll(/@example\n\s*\* ```ts\n\s*\* (.+)\n\s*\* ```/g)) blocks.push(m[1]!);
      }
    }
    expect(blocks.length).toBeGreaterThanOrEqual(2 * 178);
    const body = blocks
      .map(
        (line, i) =>
          `export async function example${i}(): Promise<void> {\n  ${line}\n  void ${line.startsWith('for') ? '0' : 'result'};\n}`,
      )
      .join('\n');
    const source = `import { ImClient } from '../../generated/src/index.js';\nimport * as funcs from '../../generated/src/funcs/index.js';\ndeclare const im: ImClient;\nconst { ${[...new Set(blocks.flatMap((b) => /^(?:const result = await |for await \(const item of )(\w+)\(im/.exec(b)?.[1] ?? []))].join(', ')} } = funcs;\n${body}\n`;
    const file = join(repoRoot, 'test/types/examples-probe.ts');
    writeFileSync(file, source);
    try {
      const r = spawnSync(
        process.execPath,
        [
          join(repoRoot, 'node_modules/typescript/bin/tsc'),
          '--noEmit',
          '--strict',
          '--exactOptionalPropertyTypes',
          '--target',
          'ES2022',
          '--module',
          'NodeNext',
          '--moduleResolution',
          'NodeNext',
          '--skipLibCheck',
          '--types',
          'node',
          file,
        ],
        { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 },
      );
      expect(
        `${r.stdout}${r.stderr}`
          .split('\n')
          .filter((l) => /error TS/.test(l))
          .slice(0, 10),
      ).toEqual([]);
    } finally {
      rmSync(file, { force: true });
    }
  }, 180_000);

  it('every callbacks entry that verifies or signs says its signature scheme is assumed, and how to switch (issue 29)', () => {
    const uses: Array<[string, string]> = [
      ['callbacks.js', 'verifyCallback('],
      ['callbacks.js', 'verifyCallbackSync('],
      ['callbacks.js', 'createCallbackHandler('],
      ['callbacks.js', 'createNodeCallbackHandler('],
      ['callbacks.js', 'signCallbackRequest('],
      ['callbacks.js', 'signCallback('],
      ['callbacks.js', 'simulateDelivery('],
      ['callbacks-edge.js', 'verifyCallback('],
      ['callbacks-edge.js', 'createCallbackHandler('],
    ];
    const missing: string[] = [];
    for (const [entry, call] of uses) {
      const name = call.slice(0, -1);
      const source = `import { ${name} } from '../../generated/src/${entry}';\nvoid ${call}undefined as never);\n`;
      const text = hoverText(source, `${call}undefined`);
      if (!/ASSUMED/.test(text) || !/standardWebhooksSignature/.test(text) || !/`?signature`?/.test(text))
        missing.push(`${entry} ${name}`);
    }
    expect(missing).toEqual([]);
  });
});
