/**
 * Issue 14's "done when", from outside: the constructs fixture (every OpenAPI 3.1 construct the
 * generator speaks) generates with zero warnings, builds with the package's own build script
 * (ESM bundles, .d.ts), loads from import and require(), and a strict consumer type-checks against the BUILT types:
 * exhaustive switches narrow discriminated unions (top level and nested), a readOnly field in a
 * create call and a writeOnly field in a result are compile errors, int64 takes bigint, a
 * 201/200 result narrows on status, binary and empty results have their own types.
 * Behaviour on the wire is pinned by schemas.test.ts and wire-behaviour.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixturePackage, typeCheckConsumers, type FixturePackage } from '../helpers/fixture-package.js';

let pkg: FixturePackage;
beforeAll(async () => {
  pkg = await fixturePackage('test/fixtures/constructs-openapi.yaml', { build: true });
}, 240_000);
afterAll(() => rmSync(pkg.dir, { recursive: true, force: true }));

const CONSUMER = `
import { ImClient, type LabMessage, type LabPost } from 'fixture-sdk';

const im = new ImClient({ baseUrl: 'http://127.0.0.1:9', appKey: 'org#app', clientId: 'id', clientSecret: 'not-a-real-secret' });

export function describeMessage(m: LabMessage): string {
  switch (m.type) {
    case 'text':
      return m.text;
    case 'image':
      return \`\${m.url} \${m.width}\`;
    default: {
      const unreachable: never = m;
      return unreachable;
    }
  }
}

export function contentOf(post: LabPost): string {
  const c = post.content;
  if (!c) return '';
  switch (c.kind) {
    case 'LabText':
      return c.text;
    case 'LabImage':
      return String(c.width);
    default: {
      const unreachable: never = c;
      return unreachable;
    }
  }
}

export async function run(): Promise<void> {
  describeMessage(await im.lab.sendMessage({ type: 'image', to: 'bob', url: 'https://cdn.example.com/a.png', width: 10 }));
  // @ts-expect-error a text message has no width (and needs text)
  await im.lab.sendMessage({ type: 'text', to: 'bob', width: 10 });

  const account = await im.lab.createAccount({ email: 'a@example.com', password: 'long-enough' });
  const id: string = account.id;
  // @ts-expect-error the writeOnly password is not in the result type
  void account.password;
  // @ts-expect-error a readOnly id cannot be sent in a create call
  await im.lab.createAccount({ id: 'x', email: 'a@example.com', password: 'long-enough' });

  await im.lab.checkFormats({ i64: 9007199254740993n, ids: [1, 2n] });

  const thing = await im.wire.putThing({ thing_id: 't', label: 'x' });
  const when: string = thing.status === 201 ? thing.data.created_at : thing.data.label;

  const file = await im.wire.download({ media_id: 'm' });
  const bytes: Uint8Array = await file.bytes();
  const nothing: void = await im.wire.deleteThing({ thing_id: 't' });
  await im.wire.postEither({ body: 'hello' }, { contentType: 'text/plain' });
  void [id, when, bytes, nothing];
}
`;

describe('the constructs fixture as a package', () => {
  it('generates with zero warnings', () => {
    expect(pkg.output.model.warnings).toEqual([]);
    expect(pkg.output.model.operations.length).toBeGreaterThanOrEqual(20);
  });

  it('builds to ESM with .d.ts, and loads from import and from require()', () => {
    for (const f of ['dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/esm/funcs/index.js', 'dist/esm/callbacks.d.ts'])
      expect(existsSync(join(pkg.dir, f)), f).toBe(true);
    const count = pkg.output.model.operations.length;
    const esm = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { operations } from ${JSON.stringify(join(pkg.dir, 'dist/esm/index.js'))}; console.log(Object.keys(operations).length)`,
      ],
      { encoding: 'utf8' },
    );
    expect(esm.stderr).toBe('');
    expect(Number(esm.stdout.trim())).toBe(count);
    const cjs = spawnSync(
      process.execPath,
      [
        '-e',
        `console.log(Object.keys(require(${JSON.stringify(join(pkg.dir, 'dist/esm/index.js'))}).operations).length)`,
      ],
      { encoding: 'utf8' },
    );
    expect(cjs.stderr).toBe('');
    expect(Number(cjs.stdout.trim())).toBe(count);
  });

  /** The consumer and its two broken variants, checked together in one child (the first test to need them starts it). */
  let checks: ReturnType<typeof checkConsumers> | undefined;
  const checkConsumers = () => {
    const missingCase = CONSUMER.replace("    case 'image':\n      return `${m.url} ${m.width}`;\n", '');
    const unusedExpectError = CONSUMER.replace("await im.lab.createAccount({ id: 'x',", 'await im.lab.createAccount({');
    expect(missingCase).not.toBe(CONSUMER);
    expect(unusedExpectError).not.toBe(CONSUMER);
    return typeCheckConsumers(pkg.dir, {
      consumer: { 'consumer.ts': CONSUMER },
      missingCase: { 'consumer.ts': missingCase },
      unusedExpectError: { 'consumer.ts': unusedExpectError },
    });
  };

  it('a strict consumer type-checks against the built types (narrowing, readOnly/writeOnly, int64, status union, binary, empty)', async () => {
    const r = (await (checks ??= checkConsumers())).consumer;
    expect(r.output).toBe('');
    expect(r.ok).toBe(true);
  }, 180_000);

  it('and the same consumer fails where it should: a missing case, a readOnly field accepted', async () => {
    const { missingCase: r, unusedExpectError: r2 } = await (checks ??= checkConsumers());
    expect(r.ok).toBe(false);
    expect(r.output).toMatch(/consumer\.ts\(\d+,\d+\): error TS2322: Type '.*' is not assignable to type 'never'/);
    expect(r2.ok).toBe(false);
    expect(r2.output).toMatch(/error TS2578: Unused '@ts-expect-error' directive/);
  }, 180_000);
});
