/**
 * The hover text of an operation, as an editor shows it (TypeScript's language service, quick
 * info on `im.messages.send`): a one-line summary of what it does, then method and path, then
 * the retry class, then the assumptions. And the same order in every operation's doc comment.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/seed.js';

function hoverText(source: string, marker: string): string {
  const file = join(repoRoot, 'test/types/hover-probe.ts');
  const options: ts.CompilerOptions = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, noEmit: true, skipLibCheck: true, types: [] };
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
  return [ts.displayPartsToString(info.displayParts), ts.displayPartsToString(info.documentation)].join('\n\n');
}

describe('hover docs', () => {
  it('im.messages.send: summary, then method and path, then retry class, then assumptions', () => {
    const source = `import { ImClient } from '../../generated/src/index.js';\ndeclare const im: ImClient;\nvoid im.messages.send({ to: 'bob' });\n`;
    const text = hoverText(source, '.send(');
    const doc = text.split('\n\n').slice(1);
    expect(doc[0]).toBe('Send a message.');
    expect(doc[1]).toBe('`POST /{org_name}/{app_name}/messages` — op `messages.send`.');
    const at = (s: string) => text.indexOf(s);
    expect(at('Retry class D (deduplicated)')).toBeGreaterThan(at('`POST /{org_name}/{app_name}/messages`'));
    expect(at('Dedupe key: `client_msg_id`')).toBeGreaterThan(at('Retry class D'));
    expect(at('Assumed (the seed is silent)')).toBeGreaterThan(at('Retry class D'));
    expect(text).not.toMatch(/Send a message\.[\s\S]*Send a message/); // the summary is said once
  });

  it('every operation\'s doc comment keeps that order', () => {
    const dir = join(repoRoot, 'generated/src/resources');
    const wrong: string[] = [];
    for (const file of readdirSync(dir)) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const block of text.match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
        const path = block.search(/`(GET|POST|PUT|PATCH|DELETE) \/\{org_name\}/);
        if (path < 0) continue; // helpers and the class doc
        const retry = block.indexOf('Retry class');
        const assumed = block.indexOf('Assumed (the seed is silent)');
        const firstLine = block.split('\n')[1]!.replace(/^\s*\*\s?/, '');
        if (retry < path || (assumed >= 0 && assumed < retry) || (/^`/.test(firstLine) && !/—/.test(firstLine))) wrong.push(`${file}: ${firstLine}`);
        if (/^`/.test(firstLine)) wrong.push(`${file}: no summary before ${firstLine}`);
      }
    }
    expect(wrong).toEqual([]);
  });

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
      if (!/ASSUMED/.test(text) || !/standardWebhooksSignature/.test(text) || !/`?signature`?/.test(text)) missing.push(`${entry} ${name}`);
    }
    expect(missing).toEqual([]);
  });
});
