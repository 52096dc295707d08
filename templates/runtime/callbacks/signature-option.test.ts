/**
 * Issue 29 item 2: the signature scheme and the hook answer format are replaceable parts, taken
 * the same way by the verifier, the handlers (Web, node:http, raw bytes, edge), the signing
 * helper, the CLI and the simulator. The Standard Webhooks scheme is checked against the spec's
 * own test vector (standard-webhooks/standard-webhooks, libraries/javascript/src/webhook.test.ts)
 * and against requests signed by hand as the spec says; a scheme of the user's own (a module
 * given to the CLI) and a hook answer format of the user's own go through every surface.
 */
import { createHmac } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { allow, assumedHookAnswer, reject } from './decisions.js';
import type { HookAnswerFormat, HookDecision } from './decisions.js';
import * as edge from './edge.js';
import { handleRawCallback } from './frameworks.js';
import { createCallbackHandler, createNodeCallbackHandler } from './node.js';
import { sampleCallbackBody } from './samples.js';
import { signCallbackRequest } from './sign.js';
import { imSignatureV1, standardWebhooksSignature } from './signature-node.js';
import type { CallbackSignatureScheme } from './signature-scheme.js';
import { imSignatureV1Web, standardWebhooksSignatureWeb } from './signature-web.js';
import { simulateDelivery } from './simulator/simulate.js';
import { verifyCallback, verifyCallbackSync } from './verify.js';

/** The spec's test vector (its JavaScript library's "sign function works" test). */
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: '1614265330',
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const SW_SECRET = 'whsec_C2FsdGVkLXNlY3JldC1mb3ItdGVzdHMtMjAyNg=='; // base64 of "salted-secret-for-tests-2026"
const OLD_SW_SECRET = 'whsec_b2xkLXNlY3JldC1mb3ItdGVzdHM=';
const cli = fileURLToPath(new URL('../../../scripts/im-callbacks.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'im-signature-option-'));
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  rmSync(dir, { recursive: true, force: true });
});

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const nowS = (): string => String(Math.floor(Date.now() / 1000));

/** A request signed by hand as the Standard Webhooks spec says (not through the kit). */
function signedByHand(body: string, secrets: string[], id = 'msg_hand_1', timestamp = nowS()): Record<string, string> {
  const sig = (secret: string): string =>
    `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
      .update(`${id}.${timestamp}.${body}`)
      .digest('base64')}`;
  return {
    'webhook-id': id,
    'webhook-timestamp': timestamp,
    'webhook-signature': secrets.map(sig).join(' '),
    'content-type': 'application/json',
  };
}

describe('standardWebhooksSignature', () => {
  it("matches the spec's test vector, on node:crypto and on WebCrypto", async () => {
    for (const scheme of [standardWebhooksSignature, standardWebhooksSignatureWeb]) {
      const headers = await scheme.sign({
        body: bytes(VECTOR.body),
        secrets: [VECTOR.secret],
        timestamp: VECTOR.timestamp,
        id: VECTOR.id,
      });
      expect(headers).toEqual({
        'webhook-id': VECTOR.id,
        'webhook-timestamp': VECTOR.timestamp,
        'webhook-signature': VECTOR.signature,
      });
      const check = await scheme.verify({
        body: bytes(VECTOR.body),
        secrets: ['whsec_bm90LXRoaXMtb25l', VECTOR.secret],
        header: (n) => (headers as Record<string, string>)[n],
      });
      expect(check).toEqual({ secretIndex: 1, timestamp: 1614265330, replayKey: `${VECTOR.id}.${VECTOR.timestamp}` });
    }
  });

  it('verifies requests signed by hand, with rotation (two signatures), and refuses what the spec refuses', async () => {
    const body = JSON.stringify(sampleCallbackBody('event'));
    const headers = signedByHand(body, [SW_SECRET, OLD_SW_SECRET]);
    const verified = await verifyCallback({
      headers,
      rawBody: bytes(body),
      secrets: [OLD_SW_SECRET],
      signature: standardWebhooksSignature,
    });
    expect(verified.secretIndex).toBe(0);
    expect(verified.kind).toBe('event');
    expect(
      verifyCallbackSync({ headers, rawBody: bytes(body), secrets: SW_SECRET, signature: standardWebhooksSignature })
        .nonce,
    ).toBe(`msg_hand_1.${headers['webhook-timestamp']}`);
    const refused = async (h: Record<string, string>, b = body, secrets = SW_SECRET): Promise<string> =>
      verifyCallback({ headers: h, rawBody: bytes(b), secrets, signature: standardWebhooksSignature }).then(
        () => 'accepted',
        (e: { reason: string }) => e.reason,
      );
    expect(await refused(headers, `${body} `)).toBe('signature_mismatch');
    expect(await refused({ ...headers, 'webhook-id': 'msg_other' })).toBe('signature_mismatch');
    expect(
      await refused({ ...headers, 'webhook-signature': headers['webhook-signature']!.replace(/v1,/g, 'v1a,') }),
    ).toBe('signature_mismatch');
    expect(await refused({ ...headers, 'webhook-signature': 'garbage' })).toBe('malformed_signature');
    expect(await refused({ ...headers, 'webhook-timestamp': 'now' })).toBe('malformed_timestamp');
    expect(await refused(signedByHand(body, [SW_SECRET], 'msg_old', String(Math.floor(Date.now() / 1000) - 600)))).toBe(
      'timestamp_out_of_tolerance',
    );
    const { 'webhook-id': _drop, ...noId } = headers;
    expect(await refused(noId)).toBe('missing_header');
    expect(await refused(headers, body, 'whsec_not base64!')).toBe('no_secret_configured');
    // the default scheme does not read these headers: a Standard Webhooks request is not an im-v1 one
    expect(
      await verifyCallback({ headers, rawBody: bytes(body), secrets: SW_SECRET }).then(
        () => 'accepted',
        (e: { reason: string }) => e.reason,
      ),
    ).toBe('missing_header');
  });

  it('refuses, when a handler is made, a secret that is not a Standard Webhooks secret (without quoting it)', () => {
    expect(() =>
      createCallbackHandler({ secrets: ['whsec_s3cr3t_value!'], signature: standardWebhooksSignature }),
    ).toThrow(/secrets\[0\] does not suit the signature scheme standard-webhooks/);
    expect(() =>
      createCallbackHandler({ secrets: ['whsec_s3cr3t_value!'], signature: standardWebhooksSignature }),
    ).not.toThrow(/s3cr3t/);
    expect(() =>
      createCallbackHandler({ secrets: SW_SECRET, signature: { name: 'x' } as unknown as CallbackSignatureScheme }),
    ).toThrow(/signature must be a signature scheme/);
  });
});

describe('the signature option on every surface', () => {
  const body = sampleCallbackBody('event');
  const signedSw = () => signCallbackRequest({ body, secret: SW_SECRET, signature: standardWebhooksSignature });

  it('signCallbackRequest writes the scheme headers (and the X-IM-* ones that are no signature)', () => {
    const { headers } = signedSw();
    expect(Object.keys(headers).sort()).toEqual(
      [
        'Content-Type',
        'User-Agent',
        'X-IM-Endpoint-Id',
        'X-IM-Kind',
        'X-IM-Request-Id',
        'webhook-id',
        'webhook-signature',
        'webhook-timestamp',
      ].sort(),
    );
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('Web handler, node:http handler, raw bytes and the edge entry accept it and refuse the other scheme', async () => {
    const seen: string[] = [];
    const options = {
      secrets: SW_SECRET,
      signature: standardWebhooksSignature,
      onEvent: (e: { id: string }) => void seen.push(e.id),
      logger: {},
    };
    const web = createCallbackHandler(options);
    const edgeHandler = edge.createCallbackHandler({
      ...options,
      signature: edge.standardWebhooksSignature,
      dedupeStore: new edge.MemoryDedupeStore(),
    });
    const request = (h: Record<string, string>, b: string): Request =>
      new Request('http://x/cb', { method: 'POST', headers: h, body: b });
    let s = signedSw();
    expect((await web(request(s.headers, s.body))).status).toBe(200);
    s = signedSw();
    expect((await edgeHandler(request(s.headers, s.body))).status).toBe(200);
    s = signedSw();
    expect((await handleRawCallback(web, { method: 'POST', headers: s.headers, rawBody: bytes(s.body) })).status).toBe(
      200,
    );
    const node = createNodeCallbackHandler({ ...options, dedupeStore: undefined });
    const server = createServer((req, res) => void node(req, res));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    s = signedSw();
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`, {
      method: 'POST',
      headers: s.headers,
      body: s.body,
    });
    expect(res.status).toBe(200);
    const imSigned = signCallbackRequest({ body, secret: SW_SECRET });
    expect((await web(request(imSigned.headers, imSigned.body))).status).toBe(401);
    expect(seen.length).toBeGreaterThanOrEqual(2);
  });

  it('the ready schemes on node:crypto and WebCrypto write the same headers', async () => {
    for (const [node, web] of [
      [imSignatureV1, imSignatureV1Web],
      [standardWebhooksSignature, standardWebhooksSignatureWeb],
    ] as const) {
      const input = {
        body: bytes('{"a":1}'),
        secrets: [SW_SECRET, OLD_SW_SECRET],
        timestamp: '1767225600',
        id: node === imSignatureV1 ? 'ab'.repeat(16) : 'msg_1',
      };
      expect(await web.sign(input)).toEqual(node.sign(input));
    }
  });
});

/** A receiver built with the kit, for the CLI and the simulator. */
async function receiver(options: {
  signature?: CallbackSignatureScheme;
  hookAnswer?: HookAnswerFormat;
  secret: string;
  onHook?: () => HookDecision;
}): Promise<{ url: string; processed: Record<string, number> }> {
  const processed: Record<string, number> = {};
  const handler = createNodeCallbackHandler({
    secrets: options.secret,
    ...(options.signature ? { signature: options.signature } : {}),
    ...(options.hookAnswer ? { hookAnswer: options.hookAnswer } : {}),
    logger: {},
    onEvent: (e) => void (processed[e.id] = (processed[e.id] ?? 0) + 1),
    onHook: options.onHook ?? (() => allow()),
  });
  const server = createServer((req, res) => void handler(req, res));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`, processed };
}

function run(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', cli, ...args],
      { env: { ...process.env, IM_CALLBACK_SIGNATURE: '', IM_CALLBACK_HOOK_ANSWER: '', ...env }, timeout: 30_000 },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : 1
          : 0;
        resolve({ code, out: stdout + stderr });
      },
    );
  });
}

/** A scheme of the user's own, as a module: X-Test-Sig = hex HMAC-SHA256 of "<ts>:<body>", X-Test-Ts. */
const OWN_SCHEME_MODULE = `import { createHmac, randomBytes } from 'node:crypto';
const hmac = (secret, ts, body) => createHmac('sha256', secret).update(ts + ':').update(body).digest('hex');
export default {
  name: 'own-test-scheme',
  headers: ['X-Test-Sig', 'X-Test-Ts'],
  sign: ({ body, secrets, timestamp }) => ({ 'X-Test-Ts': timestamp, 'X-Test-Sig': hmac(secrets[0], timestamp, body), 'X-Test-Id': randomBytes(8).toString('hex') }),
  verify: ({ body, secrets, header }) => {
    const ts = header('x-test-ts') ?? '0';
    return { secretIndex: secrets.findIndex((s) => hmac(s, ts, body) === header('x-test-sig')), timestamp: Number(ts), replayKey: header('x-test-id') ?? '' };
  },
};
`;

/** A hook answer format of the user's own: {"allowed": true} / {"allowed": false, "why": "…"}. */
const OWN_HOOK_ANSWER_MODULE = `export default {
  name: 'allowed flag',
  encode: (d) => (d.decision === 'reject' ? { allowed: false, why: d.reason ?? '' } : { allowed: true }),
  decode: (a) => (a && typeof a.allowed === 'boolean' ? (a.allowed ? { decision: 'allow' } : { decision: 'reject', reason: a.why }) : undefined),
};
`;

describe('the CLI and the simulator take the same parts', () => {
  it('send --signature standard-webhooks | <module>, --hook-answer <module>; a receiver on the other scheme answers 401', async () => {
    writeFileSync(join(dir, 'own-scheme.mjs'), OWN_SCHEME_MODULE);
    writeFileSync(join(dir, 'own-answer.mjs'), OWN_HOOK_ANSWER_MODULE);
    const ownScheme = (await import(join(dir, 'own-scheme.mjs'))).default as CallbackSignatureScheme;
    const ownAnswer = (await import(join(dir, 'own-answer.mjs'))).default as HookAnswerFormat;
    const sw = await receiver({ secret: SW_SECRET, signature: standardWebhooksSignature });
    const own = await receiver({
      secret: 'own-secret',
      signature: ownScheme,
      hookAnswer: ownAnswer,
      onHook: () => reject('no'),
    });
    const [ok, byEnv, wrong, badSecret, viaModule, hook, hookDefaultFormat] = await Promise.all([
      run(['send', '--url', sw.url, '--signature', 'standard-webhooks', '--event-id', 'evt_sw_1'], {
        IM_CALLBACK_SECRET: SW_SECRET,
      }),
      run(['send', '--url', sw.url, '--event-id', 'evt_sw_2'], {
        IM_CALLBACK_SECRET: SW_SECRET,
        IM_CALLBACK_SIGNATURE: 'standard-webhooks',
      }),
      run(['send', '--url', sw.url], { IM_CALLBACK_SECRET: SW_SECRET }),
      run(['send', '--url', sw.url, '--signature', 'standard-webhooks'], { IM_CALLBACK_SECRET: 'whsec_not base64' }),
      run(['send', '--url', own.url, '--signature', join(dir, 'own-scheme.mjs'), '--event-id', 'evt_own_1'], {
        IM_CALLBACK_SECRET: 'own-secret',
      }),
      run(
        [
          'send',
          '--url',
          own.url,
          '--signature',
          join(dir, 'own-scheme.mjs'),
          '--hook-answer',
          join(dir, 'own-answer.mjs'),
          '--kind',
          'hook',
        ],
        { IM_CALLBACK_SECRET: 'own-secret' },
      ),
      run(['send', '--url', own.url, '--signature', join(dir, 'own-scheme.mjs'), '--kind', 'hook'], {
        IM_CALLBACK_SECRET: 'own-secret',
      }),
    ]);
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toContain('signature=standard-webhooks');
    expect(byEnv.code, byEnv.out).toBe(0);
    expect(sw.processed).toMatchObject({ evt_sw_1: 1, evt_sw_2: 1 });
    expect(wrong.code).toBe(1);
    expect(wrong.out).toContain('401');
    expect(badSecret.code).toBe(2);
    expect(badSecret.out).toContain('does not suit the signature scheme standard-webhooks');
    expect(badSecret.out).not.toContain('not base64');
    expect(viaModule.code, viaModule.out).toBe(0);
    expect(own.processed).toMatchObject({ evt_own_1: 1 });
    expect(hook.code, hook.out).toBe(0);
    expect(hook.out).toContain('decision: reject');
    expect(hookDefaultFormat.out).toContain('answer carries no decision in the assumed decision object format');
  }, 60_000);

  it('simulate with the same scheme and hook answer format as the receiver: a clean report; with the assumed ones: the receiver refuses', async () => {
    writeFileSync(join(dir, 'own-answer.mjs'), OWN_HOOK_ANSWER_MODULE);
    const ownAnswer = (await import(join(dir, 'own-answer.mjs'))).default as HookAnswerFormat;
    const r = await receiver({ secret: SW_SECRET, signature: standardWebhooksSignature, hookAnswer: ownAnswer });
    const base = {
      url: r.url,
      secret: SW_SECRET,
      oldSecret: OLD_SW_SECRET,
      seed: 3,
      events: 12,
      hooks: 2,
      settleMs: 2000,
      observe: () => ({ processed: r.processed }),
    };
    const clean = await simulateDelivery({ ...base, signature: standardWebhooksSignature, hookAnswer: ownAnswer });
    expect(clean.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    const assumedAnswer = await simulateDelivery({
      ...base,
      signature: standardWebhooksSignature,
      hookAnswer: assumedHookAnswer,
      events: 1,
    });
    expect(assumedAnswer.findings.map((f) => f.code)).toContain('hook_failed');
    const otherScheme = await simulateDelivery({ ...base, events: 1, hooks: 0 });
    expect(otherScheme.findings.map((f) => f.code)).toContain('verify_failed');
    await expect(
      simulateDelivery({ ...base, secret: 'whsec_no!', signature: standardWebhooksSignature }),
    ).rejects.toThrow(/does not suit the signature scheme standard-webhooks/);
  }, 60_000);
});
