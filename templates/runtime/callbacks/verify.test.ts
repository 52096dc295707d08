import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CallbackVerificationError } from './errors.js';
import { signCallback, signCallbackRequest } from './sign.js';
import { formatSignatureHeader, parseSignatureHeader, signaturesEqual } from './signature-scheme.js';
import { computeSignature } from './signature-node.js';
import { MemoryDedupeStore } from '../stores/dedupe-store.js';
import { verifyCallback } from './verify.js';
import type { VerifyCallbackOptions } from './verify.js';

const SECRET = 'whsec_live_Q7tYxZ3p9RkS2vW8';
const OLD_SECRET = 'whsec_live_old_Mk4Nc8Jd1Lq5';
const T = 1_767_225_600;
const NOW = T * 1000;
const NONCE = '0123456789abcdef0123456789abcdef';
/**
 * The vitest project `signature-standard-webhooks` runs this file with the default scheme swapped
 * for Standard Webhooks (vitest.config.ts): the tests of the default scheme's own wire format
 * (X-IM-Signature, X-IM-Timestamp, X-IM-Nonce) skip themselves there; signature-option.test.ts
 * has the Standard Webhooks ones.
 */
const UNDER_OTHER_SCHEME = process.env.IM_TEST_SIGNATURE !== undefined;
const imOnly = UNDER_OTHER_SCHEME ? it.skip : it;
/** The replay key verify reports for `nonce` signed at T: X-IM-Nonce, or webhook-id.webhook-timestamp. */
const replayKey = (nonce: string): string => (UNDER_OTHER_SCHEME ? `${nonce}.${T}` : nonce);

interface Vector {
  name: string;
  secrets: string[];
  timestamp: string;
  nonce: string;
  body?: string;
  body_base64: string;
  expected_signature_header: string;
}
const vectors = (
  JSON.parse(
    readFileSync(
      fileURLToPath(new URL('../../../test/fixtures/callbacks/signature-vectors.json', import.meta.url)),
      'utf8',
    ),
  ) as { vectors: Vector[] }
).vectors;

function eventBody(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    kind: 'event',
    request_id: 'req_1',
    app: 'org#app',
    endpoint_id: 'ep_1',
    sent_at: '2026-01-01T00:00:00.000Z',
    events: [
      { id: 'evt_1', type: 'group.members_added', occurred_at: '2026-01-01T00:00:00.000Z', attempt: 1, data: {} },
    ],
    ...extra,
  });
}

async function refusal(options: VerifyCallbackOptions): Promise<CallbackVerificationError> {
  try {
    await verifyCallback(options);
  } catch (err) {
    expect(err).toBeInstanceOf(CallbackVerificationError);
    const e = err as CallbackVerificationError;
    // never a secret nor an expected signature in what a refusal carries
    const text = `${e.message} ${e.hint} ${JSON.stringify(e)} ${String(e.stack)}`;
    for (const s of [SECRET, OLD_SECRET]) expect(text).not.toContain(s);
    return e;
  }
  throw new Error('expected a refusal');
}

function signed(body: string | Uint8Array = eventBody(), extra: Partial<Parameters<typeof signCallback>[0]> = {}) {
  return signCallback({ body, secret: SECRET, timestamp: T, nonce: NONCE, ...extra });
}

describe('the scheme under test', () => {
  it('is the default im-v1, or the one this vitest project swapped in (signature-standard-webhooks)', () => {
    const headers = signCallback({ body: eventBody(), secret: SECRET });
    expect(Object.keys(headers)).toContain(
      process.env.IM_TEST_SIGNATURE === 'standard-webhooks' ? 'webhook-signature' : 'X-IM-Signature',
    );
  });
});

describe.skipIf(UNDER_OTHER_SCHEME)('fixed test vectors (test/fixtures/callbacks/signature-vectors.json)', () => {
  it.each(vectors.map((v) => [v.name, v] as const))('%s: the scheme reproduces the committed header', (_name, v) => {
    const body = Buffer.from(v.body_base64, 'base64');
    if (v.body !== undefined) expect(Buffer.from(v.body, 'utf8').equals(body)).toBe(true);
    const header = formatSignatureHeader(v.secrets.map((s) => computeSignature(s, v.timestamp, v.nonce, body)));
    expect(header).toBe(v.expected_signature_header);
    const headers = signCallback({ body, secrets: v.secrets, timestamp: v.timestamp, nonce: v.nonce, kind: 'event' });
    expect(headers['X-IM-Signature']).toBe(v.expected_signature_header);
  });

  it.each(
    vectors.filter((v) => v.name !== 'empty-body' && v.name !== 'non-utf8-bytes').map((v) => [v.name, v] as const),
  )('%s: verifies with each of its secrets alone', async (_name, v) => {
    for (const secret of v.secrets) {
      const r = await verifyCallback({
        headers: {
          'x-im-signature': v.expected_signature_header,
          'x-im-timestamp': v.timestamp,
          'x-im-nonce': v.nonce,
          'x-im-kind': 'event',
        },
        rawBody: Buffer.from(v.body_base64, 'base64'),
        secrets: secret,
        now: Number(v.timestamp) * 1000,
      });
      expect(r.body).toEqual(JSON.parse(v.body!));
    }
  });

  it('a non-UTF-8 body verifies as bytes, then is refused as malformed_body', async () => {
    const v = vectors.find((x) => x.name === 'non-utf8-bytes')!;
    const e = await refusal({
      headers: { 'X-IM-Signature': v.expected_signature_header, 'X-IM-Timestamp': v.timestamp, 'X-IM-Nonce': v.nonce },
      rawBody: Buffer.from(v.body_base64, 'base64'),
      secrets: v.secrets,
      now: Number(v.timestamp) * 1000,
    });
    expect(e.reason).toBe('malformed_body');
    expect(e.status).toBe(400);
  });
});

describe('sign / verify round trips', () => {
  imOnly('signCallback writes every header of seed 2.3', () => {
    const body = JSON.stringify({
      kind: 'hook',
      hook: 'message.before_send',
      request_id: 'req_9',
      endpoint_id: 'ep_9',
      timeout_ms: 3000,
      data: {},
    });
    const h = signCallback({ body, secret: SECRET, timestamp: T, nonce: NONCE });
    expect(Object.keys(h).sort()).toEqual(
      [
        'Content-Type',
        'User-Agent',
        'X-IM-Endpoint-Id',
        'X-IM-Hook',
        'X-IM-Kind',
        'X-IM-Nonce',
        'X-IM-Request-Id',
        'X-IM-Signature',
        'X-IM-Timestamp',
      ].sort(),
    );
    expect(h['Content-Type']).toBe('application/json; charset=utf-8');
    expect(h['User-Agent']).toBe('IM-Callback/1');
    expect(h['X-IM-Kind']).toBe('hook');
    expect(h['X-IM-Hook']).toBe('message.before_send');
    expect(h['X-IM-Request-Id']).toBe('req_9');
    expect(h['X-IM-Endpoint-Id']).toBe('ep_9');
    expect(h['X-IM-Timestamp']).toBe(String(T));
    expect(h['X-IM-Signature']).toMatch(/^v1=[0-9a-f]{64}$/);
    const fresh = signCallback({ body, secret: SECRET });
    expect(fresh['X-IM-Nonce']).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh['X-IM-Nonce']).not.toBe(signCallback({ body, secret: SECRET })['X-IM-Nonce']);
  });

  it('property: any body bytes, secret, timestamp and nonce round-trip; one flipped byte is refused', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 300 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.nat(),
        async (bytes, secret, ts, nonceBytes, flipAt) => {
          const payload = Buffer.concat([
            Buffer.from('{"kind":"event","events":[],"x":"'),
            Buffer.from(Buffer.from(bytes).toString('hex')),
            Buffer.from('"}'),
          ]);
          const nonce = Buffer.from(nonceBytes).toString('hex');
          const headers = signCallback({ body: payload, secret, timestamp: ts, nonce });
          const ok = await verifyCallback({ headers, rawBody: payload, secrets: secret, now: ts * 1000 });
          expect(ok.kind).toBe('event');
          const tampered = Buffer.from(payload);
          const i = flipAt % tampered.length;
          tampered[i] = tampered[i]! ^ 0x01;
          await expect(
            verifyCallback({ headers, rawBody: tampered, secrets: secret, now: ts * 1000 }),
          ).rejects.toMatchObject({ reason: 'signature_mismatch' });
        },
      ),
      { numRuns: 150 },
    );
  });

  it('an object body is serialised once and signCallbackRequest returns those exact bytes', async () => {
    const { headers, body } = signCallbackRequest({
      body: JSON.parse(eventBody()),
      secret: SECRET,
      timestamp: T,
      nonce: NONCE,
    });
    const r = await verifyCallback({ headers, rawBody: body, secrets: SECRET, now: NOW });
    expect(r.requestId).toBe('req_1');
    expect(r.endpointId).toBe('ep_1');
  });

  it('reports skew, timestamp, nonce and the index of the matching secret', async () => {
    const r = await verifyCallback({
      headers: signed(),
      rawBody: Buffer.from(eventBody()),
      secrets: [OLD_SECRET, SECRET],
      now: NOW + 12_500,
    });
    expect(r.timestamp).toBe(T);
    expect(r.skewSeconds).toBeCloseTo(12.5);
    expect(r.nonce).toBe(replayKey(NONCE));
    expect(r.secretIndex).toBe(1);
    expect(r.disagreements).toEqual([]);
  });
});

describe('header forms', () => {
  const body = eventBody();
  const h = signed(body);
  const rawBody = Buffer.from(body);

  it('Web Headers', async () => {
    await expect(
      verifyCallback({ headers: new Headers(h), rawBody, secrets: SECRET, now: NOW }),
    ).resolves.toMatchObject({ kind: 'event' });
  });
  it('Node IncomingHttpHeaders (lower case, string[] values)', async () => {
    const node: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(h)) node[k.toLowerCase()] = v;
    node['x-im-signature'] = [h['X-IM-Signature']!];
    await expect(verifyCallback({ headers: node, rawBody, secrets: SECRET, now: NOW })).resolves.toMatchObject({
      kind: 'event',
    });
  });
  it('plain record in odd letter case, and a Map', async () => {
    const odd: Record<string, string> = {};
    for (const [k, v] of Object.entries(h)) odd[k.toUpperCase()] = v;
    await expect(verifyCallback({ headers: odd, rawBody, secrets: SECRET, now: NOW })).resolves.toMatchObject({
      kind: 'event',
    });
    await expect(
      verifyCallback({ headers: new Map(Object.entries(h)), rawBody, secrets: SECRET, now: NOW }),
    ).resolves.toMatchObject({ kind: 'event' });
  });
  it('ArrayBuffer and Uint8Array view bodies', async () => {
    const ab = new Uint8Array(Buffer.from(body)).buffer;
    await expect(verifyCallback({ headers: h, rawBody: ab, secrets: SECRET, now: NOW })).resolves.toBeTruthy();
    const padded = Buffer.from(`xx${body}yy`);
    await expect(
      verifyCallback({ headers: h, rawBody: padded.subarray(2, padded.length - 2), secrets: SECRET, now: NOW }),
    ).resolves.toBeTruthy();
  });
});

describe('refusals', () => {
  const body = eventBody();
  const rawBody = Buffer.from(body);
  const h = signed(body);
  const base = (): VerifyCallbackOptions => ({ headers: { ...h }, rawBody, secrets: SECRET, now: NOW });

  imOnly.each(['X-IM-Signature', 'X-IM-Timestamp', 'X-IM-Nonce'])('missing %s', async (name) => {
    const o = base();
    delete (o.headers as Record<string, string>)[name];
    expect((await refusal(o)).reason).toBe('missing_header');
  });

  imOnly.each([
    ['', 'missing_header'],
    ['sha256=abc', 'malformed_signature'],
    ['v1=', 'malformed_signature'],
    ['v1=xyz', 'malformed_signature'],
    ['v1=abc', 'malformed_signature'],
    ['v1', 'malformed_signature'],
    ['v2=' + 'a'.repeat(64), 'malformed_signature'],
    [
      Array(9)
        .fill('v1=' + 'a'.repeat(64))
        .join(','),
      'malformed_signature',
    ],
    ['v1=' + 'a'.repeat(62), 'signature_mismatch'], // wrong length: refused, never a throw
    ['v1=' + 'a'.repeat(66), 'signature_mismatch'],
    ['v1=' + 'a'.repeat(64), 'signature_mismatch'],
  ])('signature header %j → %s', async (value, reason) => {
    const o = base();
    (o.headers as Record<string, string>)['X-IM-Signature'] = value;
    expect((await refusal(o)).reason).toBe(reason);
  });

  it('tampered body (one byte, whitespace, re-serialised)', async () => {
    const o = base();
    expect((await refusal({ ...o, rawBody: Buffer.from(body.replace('evt_1', 'evt_2')) })).reason).toBe(
      'signature_mismatch',
    );
    expect((await refusal({ ...o, rawBody: Buffer.from(body + ' ') })).reason).toBe('signature_mismatch');
    const reserialised = await refusal({ ...o, rawBody: JSON.stringify(JSON.parse(body), null, 2) });
    expect(reserialised.reason).toBe('signature_mismatch');
    expect(reserialised.hint).toContain('did you pass a parsed/re-serialised body?');
  });

  imOnly('tampered timestamp and nonce headers (still well-formed)', async () => {
    const o1 = base();
    (o1.headers as Record<string, string>)['X-IM-Timestamp'] = String(T + 1);
    expect((await refusal(o1)).reason).toBe('signature_mismatch');
    const o2 = base();
    (o2.headers as Record<string, string>)['X-IM-Nonce'] = NONCE.replace('0', '1');
    expect((await refusal(o2)).reason).toBe('signature_mismatch');
  });

  imOnly('tampered signature (one hex digit) and a wrong secret', async () => {
    const o = base();
    const sig = h['X-IM-Signature']!;
    (o.headers as Record<string, string>)['X-IM-Signature'] = sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0');
    expect((await refusal(o)).reason).toBe('signature_mismatch');
    expect((await refusal({ ...base(), secrets: OLD_SECRET })).reason).toBe('signature_mismatch');
  });

  imOnly.each([
    '-1',
    '1.5',
    '1767225600000x',
    ' ',
    'abc',
    '1e9',
    '0x10',
    '1'.repeat(16),
    '\u0011767225600',
    '１767225600',
  ])('malformed timestamp %j', async (ts) => {
    const o = base();
    (o.headers as Record<string, string>)['X-IM-Timestamp'] = ts;
    expect((await refusal(o)).reason).toBe(ts.trim() === '' ? 'missing_header' : 'malformed_timestamp');
  });

  imOnly.each([
    '0123',
    'g'.repeat(32),
    'a'.repeat(31),
    'a'.repeat(33),
    '0123456789abcdef-123456789abcdef',
    '\u0010'.repeat(32),
    `${'A'.repeat(31)}\u0016`,
    `${'a'.repeat(31)}G`,
    `${'0'.repeat(31)}@`,
  ])('malformed nonce %j', async (n) => {
    const o = base();
    (o.headers as Record<string, string>)['X-IM-Nonce'] = n;
    expect((await refusal(o)).reason).toBe('malformed_nonce');
  });

  it('an upper-case nonce and a 15-digit timestamp are well-formed (refused only by the clock)', async () => {
    const body = eventBody();
    const upper = signed(body, { nonce: NONCE.toUpperCase() });
    await expect(verifyCallback({ ...base(), headers: upper })).resolves.toMatchObject({
      nonce: replayKey(NONCE.toUpperCase()),
    });
    const far = signed(body, { timestamp: '9'.repeat(15) });
    expect((await refusal({ ...base(), headers: far })).reason).toBe('timestamp_out_of_tolerance');
  });

  it('timestamp tolerance applies in both directions, inclusive at the edge, configurable', async () => {
    await expect(verifyCallback({ ...base(), now: NOW + 300_000 })).resolves.toBeTruthy();
    await expect(verifyCallback({ ...base(), now: NOW - 300_000 })).resolves.toBeTruthy();
    const late = await refusal({ ...base(), now: NOW + 301_000 });
    expect(late.reason).toBe('timestamp_out_of_tolerance');
    expect(late.message).toContain('in the past');
    const early = await refusal({ ...base(), now: NOW - 301_000 });
    expect(early.reason).toBe('timestamp_out_of_tolerance');
    expect(early.message).toContain('in the future');
    expect((await refusal({ ...base(), now: new Date(NOW + 11_000), toleranceSeconds: 10 })).reason).toBe(
      'timestamp_out_of_tolerance',
    );
    await expect(verifyCallback({ ...base(), now: () => NOW + 9_000, toleranceSeconds: 10 })).resolves.toBeTruthy();
  });

  it('an unsigned (forged) request with a stale timestamp reports the signature, not the clock', async () => {
    const forged = signed(body, { secret: 'not-the-secret' });
    expect((await refusal({ ...base(), headers: forged, now: NOW + 10_000_000 })).reason).toBe('signature_mismatch');
  });

  it('body_not_raw: a parsed object, an array, null', async () => {
    for (const rawBody of [JSON.parse(body), [1], null, 42]) {
      const e = await refusal({ ...base(), rawBody });
      expect(e.reason).toBe('body_not_raw');
      expect(e.hint).toMatch(/did you pass a parsed\/re-serialised body\?|raw/i);
    }
  });

  it('a raw string is accepted when it is byte-exact', async () => {
    await expect(verifyCallback({ ...base(), rawBody: body })).resolves.toMatchObject({ kind: 'event' });
  });

  it('malformed JSON and non-object JSON behind a valid signature → malformed_body', async () => {
    for (const b of ['{"kind":"event",', '[1,2]', '"x"', '{"kind":5}', '{}']) {
      const headers = signCallback({ body: b, secret: SECRET, timestamp: T, nonce: NONCE, kind: 'event' });
      delete headers['X-IM-Kind'];
      const e = await refusal({ headers, rawBody: Buffer.from(b), secrets: SECRET, now: NOW });
      expect(e.reason).toBe('malformed_body');
    }
  });

  it('no usable secret', async () => {
    expect((await refusal({ ...base(), secrets: [] })).reason).toBe('no_secret_configured');
    expect((await refusal({ ...base(), secrets: '' })).reason).toBe('no_secret_configured');
  });

  it('no refusal message ever contains a secret or the expected signature', async () => {
    const expected = (h['X-IM-Signature'] ?? h['webhook-signature'])!.slice(3); // after v1= (v1, with Standard Webhooks)
    const cases: VerifyCallbackOptions[] = [
      { ...base(), rawBody: Buffer.from(body + 'x') },
      { ...base(), secrets: [OLD_SECRET, 'another-secret-value-123'] },
      { ...base(), now: NOW + 999_000 },
      { ...base(), rawBody: JSON.parse(body) },
    ];
    for (const c of cases) {
      const e = await refusal(c);
      const text = `${e.message} ${e.hint} ${JSON.stringify(e)}`;
      expect(text).not.toContain(expected);
      expect(text).not.toContain('another-secret-value-123');
    }
  });
});

describe.skipIf(UNDER_OTHER_SCHEME)('rotation', () => {
  const body = eventBody();
  const rawBody = Buffer.from(body);
  const NEW = 'whsec_new_Zp0Qm3';
  const pair = signCallback({ body, secrets: [NEW, OLD_SECRET], timestamp: T, nonce: NONCE });

  it('the service sends two comma-separated values', () => {
    expect(pair['X-IM-Signature']).toMatch(/^v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    const parsed = parseSignatureHeader(pair['X-IM-Signature']!);
    expect(parsed.ok && parsed.candidates.length).toBe(2);
  });

  it.each([
    ['receiver has only the old secret', [OLD_SECRET], 0],
    ['receiver has only the new secret', [NEW], 0],
    ['receiver has both (new first)', [NEW, OLD_SECRET], 0],
    ['receiver has both (old first)', [OLD_SECRET, NEW], 0],
    ['receiver has a wrong one and the old one', ['wrong', OLD_SECRET], 1],
  ])('%s → accepted', async (_l, secrets, index) => {
    const r = await verifyCallback({ headers: pair, rawBody, secrets, now: NOW });
    expect(r.secretIndex).toBe(index);
  });

  it('either value alone, with spaces around the comma, is accepted; neither secret → refused', async () => {
    const [a, b] = pair['X-IM-Signature']!.split(',');
    for (const sig of [`${a}`, `${b}`, `${a} , ${b}`, `${b},${a}`, `v2=${'f'.repeat(64)},${b}`]) {
      await expect(
        verifyCallback({ headers: { ...pair, 'X-IM-Signature': sig }, rawBody, secrets: [NEW, OLD_SECRET], now: NOW }),
      ).resolves.toBeTruthy();
    }
    expect((await refusal({ headers: pair, rawBody, secrets: ['third'], now: NOW })).reason).toBe('signature_mismatch');
  });
});

describe('replay and disagreement', () => {
  it('a nonce store refuses the second use of a nonce within the window', async () => {
    const store = new MemoryDedupeStore();
    const body = eventBody();
    const h = signed(body);
    await verifyCallback({ headers: h, rawBody: Buffer.from(body), secrets: SECRET, now: NOW, nonceStore: store });
    const e = await refusal({
      headers: h,
      rawBody: Buffer.from(body),
      secrets: SECRET,
      now: NOW + 1000,
      nonceStore: store,
    });
    expect(e.reason).toBe('replayed_nonce');
    // a forged request never burns a nonce
    const forgedStore = new MemoryDedupeStore();
    await refusal({
      headers: signed(body, { secret: 'not-the-secret' }),
      rawBody: Buffer.from(body),
      secrets: SECRET,
      now: NOW,
      nonceStore: forgedStore,
    });
    expect(forgedStore.size).toBe(0);
  });

  it('the signed body is authoritative over kind / request id / endpoint id / hook headers', async () => {
    const body = JSON.stringify({
      kind: 'hook',
      hook: 'message.before_send',
      request_id: 'req_body',
      endpoint_id: 'ep_body',
      timeout_ms: 1000,
      data: {},
    });
    const h = signCallback({
      body,
      secret: SECRET,
      timestamp: T,
      nonce: NONCE,
      kind: 'event',
      requestId: 'req_header',
      endpointId: 'ep_header',
    });
    h['X-IM-Hook'] = 'friend.before_add';
    const r = await verifyCallback({ headers: h, rawBody: Buffer.from(body), secrets: SECRET, now: NOW });
    expect(r.kind).toBe('hook');
    expect(r.requestId).toBe('req_body');
    expect(r.endpointId).toBe('ep_body');
    expect(r.hook).toBe('message.before_send');
    expect(r.disagreements.map((d) => d.header).sort()).toEqual([
      'X-IM-Endpoint-Id',
      'X-IM-Hook',
      'X-IM-Kind',
      'X-IM-Request-Id',
    ]);
  });
});

describe('constant-time comparison helper', () => {
  it('length mismatch is false, never a throw', () => {
    expect(signaturesEqual(Buffer.alloc(32), Buffer.alloc(31))).toBe(false);
    expect(signaturesEqual(Buffer.alloc(32), Buffer.alloc(0))).toBe(false);
    expect(signaturesEqual(Buffer.alloc(32, 1), Buffer.alloc(32, 1))).toBe(true);
  });
});

describe('verifyCallbackSync (node:crypto) and the WebCrypto verify of the edge entry', () => {
  it('give the same result as verifyCallback for good requests and the same refusals for bad ones', async () => {
    const { verifyCallbackSync } = await import('./verify.js');
    const edge = await import('./edge.js');
    const body = JSON.stringify({
      kind: 'event',
      request_id: 'req_1',
      events: [{ id: 'evt_1', type: 'friend.added', occurred_at: '2026-01-01T00:00:00.000Z', data: {} }],
    });
    const signed = signCallbackRequest({ body, secrets: ['old-one', 'whsec_sync_9Kd2'] });
    const options = {
      headers: signed.headers,
      rawBody: new TextEncoder().encode(signed.body),
      secrets: ['whsec_sync_9Kd2'],
      now: Date.now(),
    };
    const asyncResult = await verifyCallback(options);
    expect(verifyCallbackSync(options)).toEqual(asyncResult);
    expect(await edge.verifyCallback(options)).toEqual(asyncResult);
    const bad = { ...options, secrets: ['not-it'] };
    expect(() => verifyCallbackSync(bad)).toThrow(CallbackVerificationError);
    await expect(edge.verifyCallback(bad)).rejects.toMatchObject({ reason: 'signature_mismatch' });
    expect(() => verifyCallbackSync({ ...options, nonceStore: new MemoryDedupeStore() })).toThrow(/no nonceStore/);
  });
});

describe('verifyCallback without a nonce store (the synchronous checks in one promise)', () => {
  it('a refusal is a rejected promise, never a synchronous throw; a good request resolves like verifyCallbackSync', async () => {
    const body = eventBody();
    const options = { headers: signed(body), rawBody: Buffer.from(body), secrets: SECRET, now: NOW };
    const good = verifyCallback(options);
    expect(good).toBeInstanceOf(Promise);
    const { verifyCallbackSync } = await import('./verify.js');
    expect(await good).toEqual(verifyCallbackSync(options));
    let bad: Promise<unknown> | undefined;
    expect(() => {
      bad = verifyCallback({ ...options, secrets: 'not-it' });
    }).not.toThrow();
    await expect(bad).rejects.toMatchObject({ reason: 'signature_mismatch' });
    await expect(verifyCallback({ ...options, rawBody: { parsed: true } as never })).rejects.toMatchObject({
      reason: 'body_not_raw',
    });
    let missing: Promise<unknown> | undefined;
    expect(() => {
      missing = verifyCallback(undefined as never);
    }).not.toThrow();
    await expect(missing).rejects.toBeInstanceOf(TypeError);
  });
});
