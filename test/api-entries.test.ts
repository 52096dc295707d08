/**
 * Issue 29 item 4: api.md covers every entry of the package (`.`, `./funcs`, `./callbacks`,
 * `./callbacks/edge`). The operations' rows are generated from the spec; the rest is
 * templates/package/api-entries.md, hand-written, and this test keeps it complete: every name an
 * entry exports is in api.md, the "edge" column says truly what the edge entry exports, and every
 * option of the documented option types has its row.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/seed.js';

const ENTRIES = {
  '.': 'generated/src/index.ts',
  './funcs': 'generated/src/funcs/index.ts',
  './callbacks': 'generated/src/callbacks.ts',
  './callbacks/edge': 'generated/src/callbacks-edge.ts',
  './otel': 'generated/src/otel/index.ts',
} as const;

const api = readFileSync(join(repoRoot, 'generated/api.md'), 'utf8');
const program = ts.createProgram(
  Object.values(ENTRIES).map((f) => join(repoRoot, f)),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  },
);
const checker = program.getTypeChecker();

/** name → the package file (under generated/src/) that declares it. */
function exportsOf(entry: keyof typeof ENTRIES): Map<string, string> {
  const sf = program.getSourceFile(join(repoRoot, ENTRIES[entry]))!;
  const out = new Map<string, string>();
  for (const s of checker.getExportsOfModule(checker.getSymbolAtLocation(sf)!)) {
    const target = s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
    out.set(s.name, target.declarations?.[0]?.getSourceFile().fileName.replace(/.*generated\/src\//, '') ?? '');
  }
  return out;
}

/** The rows of the markdown table that follows the first line of api.md starting with `heading`. */
function tableAfter(heading: string): string[][] {
  const lines = api.split('\n');
  const start = lines.findIndex((l) => l.startsWith(heading));
  expect(start, heading).toBeGreaterThanOrEqual(0);
  let i = start + 1;
  while (i < lines.length && !lines[i]!.startsWith('|')) i++;
  const rows: string[][] = [];
  for (i += 2; i < lines.length && lines[i]!.startsWith('|'); i++)
    rows.push(
      lines[i]!.split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  return rows;
}

const names = (cell: string): string[] => [...cell.matchAll(/`([A-Za-z_$][\w$]*)`/g)].map((m) => m[1]!);

describe('api.md covers every entry of the package', () => {
  it('every name each entry exports is in api.md (operations and their types in the generated tables)', () => {
    const missing: string[] = [];
    for (const entry of Object.keys(ENTRIES) as (keyof typeof ENTRIES)[]) {
      for (const [name, file] of exportsOf(entry)) {
        if (/^(types|resources)\//.test(file)) continue; // an operation's params/result types and resource classes: the generated rows
        const mention = file.startsWith('funcs/') ? `\`${name}()\`` : `\`${name}\``;
        if (!api.includes(mention)) missing.push(`${entry}: ${name} (${file})`);
      }
    }
    expect(missing).toEqual([]);
  }, 60_000);

  it('the "edge" column of the callbacks tables says what im-server-sdk/callbacks/edge exports', () => {
    const edge = exportsOf('./callbacks/edge');
    const node = exportsOf('./callbacks');
    const wrong: string[] = [];
    const headings = [
      '**Verify and sign**',
      '**Receive**',
      '**Dedupe and nonce stores**',
      '**Durable inbox and workers**',
      '**Simulate the service',
      '**Payload types**',
      '**Ordering, times, URLs**',
    ];
    let rows = 0;
    for (const h of headings) {
      for (const [first, , mark] of tableAfter(h)) {
        rows++;
        const listed = names(first!);
        const inEdge = mark === '' ? [] : names(mark!).length > 0 ? names(mark!) : listed;
        for (const n of listed) {
          if (!node.has(n)) wrong.push(`${n}: not exported by im-server-sdk/callbacks`);
          if (inEdge.includes(n) !== edge.has(n))
            wrong.push(
              `${n}: marked ${inEdge.includes(n) ? '' : 'not '}edge, but the edge entry ${edge.has(n) ? 'exports' : 'does not export'} it`,
            );
        }
      }
    }
    expect(rows).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  }, 60_000);

  it('every option of consume, the inbox engines, the signing helpers, the handler, verify and the simulator has its row', () => {
    const types: Record<string, string> = {
      VerifyCallbackOptions: 'templates/runtime/callbacks/verify-core.ts',
      CallbackHandlerOptions: 'templates/runtime/callbacks/handler-options.ts',
      SignCallbackOptions: 'templates/runtime/callbacks/sign.ts',
      CallbackSignatureScheme: 'templates/runtime/callbacks/signature-scheme.ts',
      HookAnswerFormat: 'templates/runtime/callbacks/decisions.ts',
      InboxOptions: 'templates/runtime/callbacks/inbox/types.ts',
      InboxOrderingOptions: 'templates/runtime/callbacks/inbox/types.ts',
      RedisInboxOptions: 'templates/runtime/callbacks/inbox/redis-inbox-options.ts',
      ConsumeOptions: 'templates/runtime/callbacks/inbox/types.ts',
      SimulateDeliveryOptions: 'templates/runtime/callbacks/simulator/simulate-options.ts',
    };
    const missing: string[] = [];
    for (const [type, file] of Object.entries(types)) {
      const sf = ts.createSourceFile(file, readFileSync(join(repoRoot, file), 'utf8'), ts.ScriptTarget.ES2022, true);
      let members: string[] = [];
      sf.forEachChild((n) => {
        if (ts.isInterfaceDeclaration(n) && n.name.text === type)
          members = n.members.flatMap((m) => (m.name && ts.isIdentifier(m.name) ? [m.name.text] : []));
      });
      expect(members.length, type).toBeGreaterThan(1);
      const documented = new Set(tableAfter(`\`${type}\``).flatMap(([first]) => names(first!)));
      // RedisInboxOptions extends InboxOptions: its own table lists only its own members
      for (const m of members) if (!documented.has(m)) missing.push(`${type}.${m}`);
    }
    expect(missing).toEqual([]);
  });
});
