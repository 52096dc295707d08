/**
 * `im-server-sdk/callbacks/edge`: bundles for the browser platform (esbuild refuses any Node
 * built-in there), and the bundle verifies and handles signed callbacks in a fresh `node:vm`
 * context that has only Web-standard globals (WebCrypto, TextEncoder/Decoder, fetch classes,
 * timers): no `require`, `process`, `Buffer`, node:crypto, node:net or node:dns.
 */
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { runInContext, createContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { signCallbackRequest } from '../generated/src/callbacks.js';
import { sampleCallbackBody } from '../generated/src/callbacks.js';
import { repoRoot } from './helpers/seed.js';

const SECRET = 'whsec_edge_Qm4Tz8';
let bundle = '';

/** The edge entry as one IIFE script; `kit` is its exports. */
async function bundleEdge(minify: boolean): Promise<string> {
  const result = await build({
    entryPoints: [join(repoRoot, 'generated/src/callbacks-edge.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'kit',
    target: 'es2022',
    minify,
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

interface EdgeKit {
  verifyCallback(
    options: object,
  ): Promise<{ kind: string; body: { events?: Array<{ id: string }> }; secretIndex: number }>;
  createCallbackHandler(options: object): (request: Request) => Promise<Response>;
  computeSignatureWeb(secret: string, timestamp: string, nonce: string, body: Uint8Array): Promise<Uint8Array>;
  isKnownEvent(event: object): boolean;
}

/** A fresh realm with Web-standard globals only, the bundle evaluated in it. */
function edgeRealm(): { kit: EdgeKit; globals: Record<string, unknown> } {
  const globals: Record<string, unknown> = {
    crypto: globalThis.crypto,
    TextEncoder,
    TextDecoder,
    Request,
    Response,
    Headers,
    AbortController,
    setTimeout,
    clearTimeout,
  };
  const context = createContext({ ...globals });
  runInContext(`${bundle}\n;globalThis.kit = kit;`, context, { filename: 'callbacks-edge.bundle.js' });
  return { kit: (context as { kit: EdgeKit }).kit, globals: context as Record<string, unknown> };
}

beforeAll(async () => {
  bundle = await bundleEdge(false);
}, 60_000);

describe('im-server-sdk/callbacks/edge', () => {
  it('bundles with esbuild --platform=browser: no Node built-in is reached', async () => {
    expect(bundle.length).toBeGreaterThan(1000);
    expect(bundle).not.toMatch(/\brequire\(|node:crypto|node:net|node:dns|node:http|\bBuffer\./);
    // the Node entry, by contrast, cannot be bundled for the browser (it uses node:crypto, node:net, node:dns)
    await expect(
      build({
        entryPoints: [join(repoRoot, 'generated/src/callbacks.ts')],
        bundle: true,
        platform: 'browser',
        write: false,
        logLevel: 'silent',
      }),
    ).rejects.toThrow(/node:(crypto|net|dns)/);
  });

  it('the bundle verifies a signed request in a realm without require/process/Buffer, and refuses a tampered one', async () => {
    const { kit, globals } = edgeRealm();
    expect(runInContext('typeof require + typeof process + typeof Buffer', createContext(globals))).toBe(
      'undefinedundefinedundefined',
    );
    const body = sampleCallbackBody('event', { events: 2 });
    const signed = signCallbackRequest({ body, secrets: ['rotated-new-secret', SECRET] });
    const verified = await kit.verifyCallback({
      headers: signed.headers,
      rawBody: new TextEncoder().encode(signed.body),
      secrets: [SECRET],
    });
    expect(verified.kind).toBe('event');
    expect(verified.body.events!.map((e) => e.id)).toEqual(body.events.map((e) => e.id));
    expect(verified.secretIndex).toBe(0);
    const tampered = signed.body.replace('"events"', '"events" ');
    await expect(
      kit.verifyCallback({ headers: signed.headers, rawBody: new TextEncoder().encode(tampered), secrets: [SECRET] }),
    ).rejects.toMatchObject({
      reason: 'signature_mismatch',
    });
  });

  it('WebCrypto signatures equal node:crypto ones (HMAC-SHA256 over timestamp.nonce.body)', async () => {
    const { kit } = edgeRealm();
    for (const text of ['', '{}', '{"kind":"event","events":[]}', 'ü€😀'.repeat(100)]) {
      const bytes = new TextEncoder().encode(text);
      const web = await kit.computeSignatureWeb(SECRET, '1767225600', 'a'.repeat(32), bytes);
      const node = createHmac('sha256', SECRET)
        .update(`1767225600.${'a'.repeat(32)}.`)
        .update(bytes)
        .digest();
      expect(Buffer.from(web).toString('hex')).toBe(node.toString('hex'));
    }
  });

  it('the bundled Web handler answers verify, dedupes events, refuses a bad signature with 401', async () => {
    const { kit } = edgeRealm();
    const seen: string[] = [];
    const handler = kit.createCallbackHandler({
      secrets: SECRET,
      onEvent: (event: { id: string }) => void seen.push(event.id),
    });
    const post = async (body: object, secret = SECRET): Promise<Response> => {
      const s = signCallbackRequest({ body, secrets: secret });
      return handler(new Request('https://edge.example/cb', { method: 'POST', headers: s.headers, body: s.body }));
    };
    const verify = sampleCallbackBody('verify');
    const v = await post(verify);
    expect([v.status, await v.json()]).toEqual([200, { challenge: verify.challenge }]);
    const event = sampleCallbackBody('event');
    expect((await post(event)).status).toBe(200);
    expect((await post(event)).status).toBe(200); // a redelivery: acknowledged, not processed again
    expect(seen).toEqual([event.events[0]!.id]);
    expect((await post(sampleCallbackBody('event'), 'wrong-secret')).status).toBe(401);
    expect(seen).toHaveLength(1);
  });

  it('reports the minified and gzipped size of the edge bundle', async () => {
    const min = await bundleEdge(true);
    const gz = gzipSync(min).byteLength;
    console.info(`[edge bundle] generated/src/callbacks-edge.ts: ${min.length} bytes minified, ${gz} bytes gzip`);
    expect(gz).toBeGreaterThan(0);
  });
});
