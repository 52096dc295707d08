/**
 * Refusals a spec author can act on (issue 15): every problem at once, each at
 * `spec/openapi.yaml:LINE:COL` with a readable path, the rule and a fix or a nearest-name
 * suggestion; misspelt extension names and bad extension values never pass silently.
 * Edits are made to temp copies of the real spec's text, as a maintainer would make them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../generator/generate.js';
import { readGeneratorInput } from '../generator/read-inputs.js';
import { SpecError } from '../generator/spec-error.js';
import { formatSpecError, readablePath } from '../generator/spec-location.js';
import { nearestName } from '../generator/nearest-name.js';
import { repoRoot } from './helpers/seed.js';

const input = readGeneratorInput(repoRoot);
const source = 'spec/openapi.yaml';

/** Replaces the `nth` (0-based) occurrence of `from` and returns the edited text and that line's number. */
function editLine(text: string, from: string, to: string, nth = 0): { text: string; line: number } {
  let index = -1;
  for (let i = 0; i <= nth; i++) index = text.indexOf(from, index + 1);
  if (index < 0) throw new Error(`${from} not found`);
  return {
    text: text.slice(0, index) + to + text.slice(index + from.length),
    line: text.slice(0, index).split('\n').length,
  };
}

async function refusal(text: string): Promise<{ error: SpecError; report: string }> {
  const error = await generate({ ...input, openapiText: text }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SpecError);
  const report = formatSpecError(error as SpecError, { [source]: text }, source);
  return { error: error as SpecError, report };
}

describe('refusals point at the YAML', () => {
  it('a misspelt extension name (x-paginaton) is refused with file:line:col and the right name', async () => {
    const { text, line } = editLine(input.openapiText, 'x-pagination:', 'x-paginaton:');
    const { error, report } = await refusal(text);
    expect(error.rule).toBe('unknown-extension');
    expect(report).toMatch(
      new RegExp(
        `^spec/openapi\\.yaml:${line}:\\d+  paths\\./\\{org_name\\}/\\{app_name\\}/mutes\\.get\\.x-paginaton$`,
        'm',
      ),
    );
    expect(report).toContain('fix: did you mean x-pagination?');
  });

  it.each([
    [
      'x-pagination kind',
      'kind: cursor',
      'kind: cursr',
      /x-pagination\.kind must be one of cursor, versioned, sequence, export \(got "cursr"\)/,
      'did you mean cursor?',
    ],
    [
      'x-dedupe-key in',
      'in: body',
      'in: bdy',
      /x-dedupe-key\.in must be one of body, header \(got "bdy"\)/,
      'did you mean body?',
    ],
    [
      'x-batch-split max as a string',
      'max: 100',
      'max: "100"',
      /x-batch-split\.max must be integer \(got "100"\)/,
      'write 100 without quotes',
    ],
  ])(
    'a bad extension value (%s) is refused at its line with the allowed values',
    async (_name, from, to, message, hint) => {
      const { text, line } = editLine(input.openapiText, from, to);
      const { error, report } = await refusal(text);
      expect(error.rule).toBe('extension-value');
      expect(report).toMatch(new RegExp(`^spec/openapi\\.yaml:${line}:\\d+  paths\\.`, 'm'));
      expect(report).toMatch(message);
      expect(report).toContain(`fix: ${hint}`);
    },
  );

  it('every problem is listed at once, in line order', async () => {
    let text = input.openapiText;
    const a = editLine(text, 'x-pagination:', 'x-paginaton:');
    text = a.text;
    const b = editLine(text, 'x-retry-class: Q', 'x-retry-class: q', 3);
    text = b.text;
    const c = editLine(text, '$ref: "#/components/schemas/User"', '$ref: "#/components/schemas/Usr"');
    text = c.text;
    const { error, report } = await refusal(text);
    expect(error.problems.map((p) => p.rule).sort()).toEqual([
      'unknown-extension',
      'unknown-retry-class',
      'unresolved-ref',
    ]);
    const lines = [...report.matchAll(/^spec\/openapi\.yaml:(\d+):/gm)].map((m) => Number(m[1]));
    expect(lines).toEqual([a.line, b.line, c.line].sort((x, y) => x - y));
    expect(report).toContain('fix: did you mean Q?');
    expect(report).toContain('fix: did you mean #/components/schemas/User?');
  });

  it('a duplicate operationId names the other place', async () => {
    const { text, line } = editLine(input.openapiText, 'operationId: users.get', 'operationId: users.create');
    const { error, report } = await refusal(text);
    expect(error.rule).toBe('duplicate-operation-id');
    expect(report).toMatch(new RegExp(`^spec/openapi\\.yaml:${line}:`, 'm'));
    expect(report).toMatch(
      /operationId users\.create is already used at paths\.\/\{org_name\}\/\{app_name\}\/users\.post/,
    );
    expect(report).toContain('fix: rename one of them');
  });

  it("the real specs pass the extension check, and other tools' extensions far from ours are left alone", async () => {
    const { text } = editLine(input.openapiText, 'x-retry-class: Q', 'x-codeSamples: []\n      x-retry-class: Q');
    await expect(generate({ ...input, openapiText: text })).resolves.toBeDefined();
  });
});

describe('the spec lint runs the same extension check (Redocly plugin)', () => {
  it('redocly lint refuses a misspelt extension and a bad value at their lines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'im-lint-'));
    const a = editLine(input.openapiText, 'x-pagination:', 'x-paginaton:');
    const b = editLine(a.text, 'kind: cursor', 'kind: cursr', 3);
    writeFileSync(join(dir, 'openapi.yaml'), b.text);
    const r = spawnSync(
      join(repoRoot, 'node_modules/.bin/redocly'),
      ['lint', join(dir, 'openapi.yaml'), '--config', join(repoRoot, 'redocly.yaml'), '--format', 'stylish'],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
        timeout: 60_000,
      },
    );
    rmSync(dir, { recursive: true, force: true });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(
      new RegExp(
        `${a.line}:\\d+\\s+error\\s+im-openapi/extensions\\s+unknown-extension: x-paginaton .*did you mean x-pagination\\?`,
      ),
    );
    expect(r.stdout).toMatch(
      new RegExp(
        `${b.line}:\\d+\\s+error\\s+im-openapi/extensions\\s+extension-value: x-pagination\\.kind must be one of`,
      ),
    );
  }, 60_000);
});

describe('helpers', () => {
  it('readablePath unescapes the pointer', () => {
    expect(readablePath('/paths/~1users~1{id}/get/responses/200')).toBe('paths./users/{id}.get.responses.200');
  });
  it.each([
    ['x-paginaton', 'x-pagination'],
    ['x-retry-clas', 'x-retry-class'],
    ['x_dedupe_key', 'x-dedupe-key'],
    ['x-logo', undefined],
    ['x-codeSamples', undefined],
  ])('nearestName(%s) = %s', (name, want) => {
    expect(nearestName(name, ['x-pagination', 'x-retry-class', 'x-dedupe-key', 'x-assumed'])).toBe(want);
  });
});
