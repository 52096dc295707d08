/**
 * `npm run postman`: a Postman collection of the REST API, converted from spec/openapi.yaml by
 * openapi-to-postmanv2 into dist-artifacts/postman/im-openapi.postman_collection.json.
 *
 * - lints the spec first (the converter does not validate: a broken spec converts with exit 0);
 * - one folder per tag, one request per operation;
 * - bearer auth at collection level from the variable `bearerToken`; the token exchange request
 *   sends no auth, takes client_id / client_secret from collection variables, and its test script
 *   stores access_token in `bearerToken`: run it first, then any other request;
 * - org_name / app_name of every path come from collection variables.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const Converter = require('openapi-to-postmanv2') as {
  convert(
    input: { type: 'string'; data: string },
    options: Record<string, unknown>,
    cb: (
      err: Error | null,
      result: { result: boolean; reason?: string; output: { type: string; data: any }[] },
    ) => void,
  ): void;
};

export const OUT = join(root, 'dist-artifacts/postman/im-openapi.postman_collection.json');
const SPEC = join(root, 'spec/openapi.yaml');

function lint(): void {
  const r = spawnSync(join(root, 'node_modules/.bin/redocly'), ['lint', 'spec/openapi.yaml', '--format', 'summary'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
  });
  if (r.status !== 0) {
    process.stderr.write(`${r.stdout}\n${r.stderr}\n`);
    throw new Error('redocly lint refused spec/openapi.yaml: fix the spec before converting it');
  }
}

function convert(text: string): Promise<any> {
  return new Promise((resolve, reject) => {
    Converter.convert(
      { type: 'string', data: text },
      {
        folderStrategy: 'Tags',
        parametersResolution: 'Example',
        requestNameSource: 'Fallback',
        includeAuthInfoInExample: false,
        enableOptionalParameters: false,
      },
      (err, result) => {
        if (err) return reject(err);
        if (!result.result) return reject(new Error(`openapi-to-postmanv2: ${result.reason}`));
        resolve(result.output[0]!.data);
      },
    );
  });
}

type Item = { name: string; item?: Item[]; request?: any; event?: any[] };

function* requests(items: Item[]): Generator<Item> {
  for (const it of items) {
    if (it.item) yield* requests(it.item);
    else yield it;
  }
}

const TOKEN_TEST = [
  "pm.test('token exchange answered 200', () => pm.response.to.have.status(200));",
  'const body = pm.response.json();',
  "pm.expect(body.access_token, 'access_token').to.be.a('string');",
  "pm.collectionVariables.set('bearerToken', body.access_token);",
  "console.log('App Token stored in {{bearerToken}}; it expires in', body.expires_in, 's');",
];

export async function buildCollection(): Promise<any> {
  const spec = readFileSync(SPEC, 'utf8');
  const collection = await convert(spec);
  const baseUrl = (collection.variable ?? []).find((v: any) => v.key === 'base_url')?.value ?? 'http://127.0.0.1:4010';

  collection.info.name = 'im-openapi: messaging service server-side REST API';
  collection.info.description = {
    content:
      'Converted from spec/openapi.yaml by openapi-to-postmanv2 (npm run postman). Set the collection variables baseUrl, org_name, app_name, client_id and client_secret, run "Token exchange" first (its test script stores the App Token in bearerToken), then any request. A local mock: npx prism mock -h 127.0.0.1 -p 4010 spec/openapi.yaml.',
    type: 'text/plain',
  };
  collection.variable = [
    { key: 'baseUrl', value: baseUrl, type: 'string' },
    { key: 'org_name', value: 'acme', type: 'string' },
    { key: 'app_name', value: 'chat', type: 'string' },
    { key: 'client_id', value: '', type: 'string' },
    { key: 'client_secret', value: '', type: 'secret' },
    { key: 'bearerToken', value: '', type: 'secret' },
  ];
  collection.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{bearerToken}}', type: 'string' }] };

  let tokenRequests = 0;
  for (const item of requests(collection.item)) {
    const url = item.request?.url ?? {};
    // The server variable {base_url} is the collection variable baseUrl (the request's host).
    url.variable = (url.variable ?? []).filter((v: any) => v.key !== 'base_url');
    for (const v of url.variable) {
      if (v.key === 'org_name' || v.key === 'app_name') v.value = `{{${v.key}}}`;
    }
    // `auth: null` from the converter; an absent auth inherits the collection's bearer auth.
    if (item.request && item.request.auth == null) delete item.request.auth;
    const path: string[] = item.request?.url?.path ?? [];
    const isToken = item.request?.method === 'POST' && path.length === 3 && path[2] === 'token';
    if (!isToken) continue;
    tokenRequests++;
    item.name = 'Token exchange (run first: stores {{bearerToken}})';
    item.request.auth = { type: 'noauth' };
    item.request.body.raw = JSON.stringify(
      { grant_type: 'client_credentials', client_id: '{{client_id}}', client_secret: '{{client_secret}}' },
      null,
      2,
    );
    item.event = [{ listen: 'test', script: { type: 'text/javascript', exec: TOKEN_TEST } }];
  }
  if (tokenRequests !== 1) throw new Error(`expected one token exchange request, found ${tokenRequests}`);
  return collection;
}

async function main(): Promise<void> {
  lint();
  const collection = await buildCollection();
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify(collection, null, 2)}\n`);
  const folders = collection.item.length;
  const count = [...requests(collection.item)].length;
  console.log(`${count} requests in ${folders} folders → ${OUT.slice(root.length)}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
