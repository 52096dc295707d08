/**
 * `npm run postman` converts spec/openapi.yaml with openapi-to-postmanv2 (after linting it):
 * one request per operation, one folder per tag, bearer auth at collection level from a
 * variable, and the token exchange ready to run (its test script stores access_token).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/seed.js';
import { loadYaml, specOperations } from '../helpers/spec.js';

const OUT = join(repoRoot, 'dist-artifacts/postman/im-openapi.postman_collection.json');
const spec = loadYaml('spec/openapi.yaml');
const ops = specOperations(spec);
let collection: any;

type Item = { name: string; item?: Item[]; request?: any; event?: any[] };
const leaves = (items: Item[]): Item[] => items.flatMap((i) => (i.item ? leaves(i.item) : [i]));

beforeAll(() => {
  const r = spawnSync(join(repoRoot, 'node_modules/.bin/tsx'), ['scripts/postman.ts'], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`npm run postman failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  expect(r.stdout).toMatch(/178 requests in 13 folders/);
  collection = JSON.parse(readFileSync(OUT, 'utf8'));
}, 150_000);

describe('npm run postman', () => {
  it('has one folder per tag and one request per operation (178), each in its tag folder', () => {
    const tags: string[] = spec.tags.map((t: { name: string }) => t.name);
    expect(tags).toHaveLength(13);
    expect(collection.item.map((f: Item) => f.name)).toEqual(tags);
    expect(leaves(collection.item)).toHaveLength(178);
    for (const folder of collection.item as Item[]) {
      expect(folder.item, folder.name).toBeDefined();
      const want = ops
        .filter((o) => o.operation.tags[0] === folder.name)
        .map((o) => `${o.method} ${o.path}`)
        .sort();
      const got = leaves(folder.item!)
        .map(
          (i) =>
            `${i.request.method} /${i.request.url.path.map((s: string) => s.replace(/^:(.*)$/, '{$1}')).join('/')}`,
        )
        .sort();
      expect(got, folder.name).toEqual(want);
    }
  });

  it('uses bearer auth at collection level from {{bearerToken}}; every request but the exchange inherits it', () => {
    expect(collection.auth).toEqual({
      type: 'bearer',
      bearer: [{ key: 'token', value: '{{bearerToken}}', type: 'string' }],
    });
    const vars = Object.fromEntries(collection.variable.map((v: { key: string; value: string }) => [v.key, v.value]));
    expect(Object.keys(vars).sort()).toEqual([
      'app_name',
      'baseUrl',
      'bearerToken',
      'client_id',
      'client_secret',
      'org_name',
    ]);
    expect(vars.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const withOwnAuth = leaves(collection.item).filter((i) => i.request.auth !== undefined);
    expect(withOwnAuth.map((i) => i.request.url.path.join('/'))).toEqual([':org_name/:app_name/token']);
    for (const i of leaves(collection.item)) {
      expect(i.request.url.host).toEqual(['{{baseUrl}}']);
      const pathVars = Object.fromEntries(
        (i.request.url.variable ?? []).map((v: { key: string; value: string }) => [v.key, v.value]),
      );
      expect(pathVars.org_name, i.name).toBe('{{org_name}}');
      expect(pathVars.app_name, i.name).toBe('{{app_name}}');
    }
  });

  it('has the token exchange ready to run: no auth, credentials from variables, a test that stores access_token', () => {
    const [token] = collection.item[0].item as Item[];
    expect(token!.request.method).toBe('POST');
    expect(token!.request.auth).toEqual({ type: 'noauth' });
    expect(JSON.parse(token!.request.body.raw)).toEqual({
      grant_type: 'client_credentials',
      client_id: '{{client_id}}',
      client_secret: '{{client_secret}}',
    });
    const test = token!.event!.find((e) => e.listen === 'test');
    const script = (test.script.exec as string[]).join('\n');
    expect(script).toContain("pm.collectionVariables.set('bearerToken', body.access_token)");
    // The script is plain JavaScript: run it against a fake `pm` to prove it stores the token.
    const stored: Record<string, string> = {};
    const pm = {
      test: (_name: string, fn: () => void) => fn(),
      expect: () => ({ to: { be: { a: () => undefined } } }),
      response: {
        json: () => ({ access_token: 'tok-1', expires_in: 3600 }),
        to: { have: { status: () => undefined } },
      },
      collectionVariables: { set: (k: string, v: string) => void (stored[k] = v) },
    };
    new Function('pm', 'console', script)(pm, { log: () => undefined });
    expect(stored).toEqual({ bearerToken: 'tok-1' });
  });
});
