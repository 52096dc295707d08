/**
 * The helpers of seed sections 4.5–4.13 against a real HTTP server on 127.0.0.1 that records what
 * it received: batch splitting, resumable upload, pending moderation items, set-mute-all,
 * versioned fetch-all and the RTC rules.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchError, ImClient, ImError, UploadInterruptedError, ValidationError } from '../generated/src/index.js';
import { clientOptions, startFakeService, type FakeService } from './helpers/fake-service.js';
import { watchArrayBuffers } from './helpers/memory.js';

let service: FakeService;
let im: ImClient;
beforeEach(async () => {
  service = await startFakeService({ rawBody: false });
  im = new ImClient({ ...clientOptions(service), internals: { sleep: async () => {}, random: () => 0 } });
});
afterEach(() => service.close());

describe('batch splitting (x-batch-split)', () => {
  it('250 users go out as 100/100/50, results in the caller\'s order', async () => {
    service.on('POST', '/users/batch', (req) => ({ body: { created: req.body.users.map((u: any) => u.username) } }));
    const users = Array.from({ length: 250 }, (_, i) => ({ username: `u${i}` }));
    const result = await im.users.batchCreate({ users }, { concurrency: 3 });
    expect(service.calls().map((r) => r.body.users.length).sort()).toEqual([100, 100, 50]);
    expect(result.ok).toBe(true);
    expect(result.chunks.map((c) => [c.start, c.end])).toEqual([[0, 100], [100, 200], [200, 250]]);
    expect(result.results.flatMap((r: any) => r.created)).toEqual(users.map((u) => u.username));
  });

  it('2,500 recipients go out as 3 requests, each chunk with its own dedupe key kept across resends', async () => {
    let failedOnce = false;
    service.on('POST', '/messages/batch', (req) => {
      if (req.body.usernames.length === 500 && !failedOnce) {
        failedOnce = true;
        return { status: 503, body: { error: { code: 'unavailable', message: 'try again', request_id: 'r1' } } };
      }
      return { body: { sent: req.body.usernames.length } };
    });
    const usernames = Array.from({ length: 2500 }, (_, i) => `r${i}`);
    const result = await im.messages.batchSend({ usernames, body: 'hi' });
    const calls = service.calls();
    expect(calls.map((r) => r.body.usernames.length)).toEqual(expect.arrayContaining([1000, 1000, 500, 500]));
    expect(calls).toHaveLength(4); // the 500-chunk was resent once
    const keys = calls.map((r) => r.body.client_msg_id);
    const lastChunk = calls.filter((r) => r.body.usernames.length === 500).map((r) => r.body.client_msg_id);
    expect(lastChunk[0]).toBe(lastChunk[1]); // the resend carries the same key
    expect(new Set(keys).size).toBe(3); // one key per chunk
    expect(result.ok).toBe(true);
  });

  it('a caller\'s key gives each chunk a derived key, the same on every run, within the 128-character limit', async () => {
    service.on('POST', '/messages/batch', () => ({ body: {} }));
    const usernames = Array.from({ length: 1500 }, (_, i) => `r${i}`);
    const first = await im.messages.batchSend({ usernames, client_msg_id: 'promo-7' }, { concurrency: 1 });
    const again = await im.messages.batchSend({ usernames, client_msg_id: 'promo-7' }, { concurrency: 1 });
    const sent = service.calls().map((r) => r.body.client_msg_id);
    expect(sent.slice(0, 2)).toEqual(sent.slice(2));
    expect(new Set(sent.slice(0, 2)).size).toBe(2);
    expect(sent.every((k: string) => /^b1-[A-Za-z0-9_-]{43}$/.test(k))).toBe(true);
    expect(first.chunks.map((c) => c.dedupeKey)).toEqual(sent.slice(0, 2));
    expect(first.batchKey).toBe('promo-7');
    expect(again.chunks.map((c) => c.dedupeKey)).toEqual(first.chunks.map((c) => c.dedupeKey));
  });

  it('resending only the failed chunk under the same key reuses THAT chunk\'s key, never chunk 0\'s (issue 16 item 7)', async () => {
    // Before: chunk keys were `<key>:<index>`; the resent slice became chunk 0 and got "promo-8:0", the key
    // the service had already seen for the first 1,000 recipients: a deduplicating service dropped it.
    const seen = new Map<string, string>(); // key → first recipient it was used for
    let dropped = 0;
    let failSecond = true;
    service.on('POST', '/messages/batch', (req) => {
      const key = req.body.client_msg_id as string;
      const firstRecipient = req.body.usernames[0] as string;
      if (firstRecipient === 'r1000' && failSecond) {
        failSecond = false;
        return { status: 400, body: { error: { code: 'invalid_argument', message: 'try later', request_id: 'r-x' } } };
      }
      if (seen.has(key)) {
        if (seen.get(key) !== firstRecipient) dropped += req.body.usernames.length; // dedupe drops other recipients
        return { body: { duplicate: true } };
      }
      seen.set(key, firstRecipient);
      return { body: { sent: req.body.usernames.length } };
    });
    const usernames = Array.from({ length: 2000 }, (_, i) => `r${i}`);
    const err = await im.messages.batchSend({ usernames, client_msg_id: 'promo-8' }, { concurrency: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BatchError);
    const outcome = (err as BatchError).result;
    expect(outcome.chunks.map((c) => c.status)).toEqual(['fulfilled', 'rejected']);
    const failed = outcome.chunks[1]!;
    const resend = await im.messages.batchSend({ usernames: usernames.slice(failed.start, failed.end), client_msg_id: 'promo-8' });
    expect(resend.ok).toBe(true);
    expect(resend.chunks[0]!.dedupeKey).toBe(failed.dedupeKey);
    expect(resend.chunks[0]!.dedupeKey).not.toBe(outcome.chunks[0]!.dedupeKey);
    expect(dropped).toBe(0);
  });

  it('the caller\'s key is checked before anything is derived or sent: "" and 129 characters are refused, 128 is fine', async () => {
    // Before: "" was sent as ":0", and a valid 128-character key became an invalid 130-character one.
    service.on('POST', '/messages/batch', () => ({ body: {} }));
    const usernames = ['a', 'b'];
    const empty = await im.messages.batchSend({ usernames, client_msg_id: '' }).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(ValidationError);
    expect((empty as ValidationError).issues[0]!.pointer).toBe('/client_msg_id');
    // null is not "no key": the key is a string, so null is refused, not replaced (found by bad-input.test.ts's random params)
    const nullKey = await im.messages.batchSend({ usernames, client_msg_id: null as unknown as string }).catch((e: unknown) => e);
    expect(nullKey).toBeInstanceOf(ValidationError);
    expect((nullKey as ValidationError).issues[0]!.pointer).toBe('/client_msg_id');
    const long = await im.messages.batchSend({ usernames, client_msg_id: 'k'.repeat(129) }).catch((e: unknown) => e);
    expect(long).toBeInstanceOf(ValidationError);
    expect((long as ValidationError).issues.map((i) => i.rule)).toContain('maxLength');
    expect(service.calls()).toHaveLength(0);
    const ok = await im.messages.batchSend({ usernames, client_msg_id: 'k'.repeat(128) });
    expect(ok.ok).toBe(true);
    expect(service.calls()[0]!.body.client_msg_id.length).toBeLessThanOrEqual(128);
  });

  it('a near miss of a declared field (clientMsgId for client_msg_id) is refused, naming both, before anything is sent', async () => {
    // Before: the open body took clientMsgId as an extra field and a fresh client_msg_id was generated: the caller's dedupe key was lost.
    service.on('POST', '/messages/batch', () => ({ body: {} }));
    service.on('POST', '/messages', () => ({ body: {} }));
    const batch = await im.messages.batchSend({ usernames: ['a', 'b'], clientMsgId: 'promo-9' } as never).catch((e: unknown) => e);
    expect(batch).toBeInstanceOf(ValidationError);
    expect((batch as ValidationError).issues[0]).toMatchObject({ pointer: '/clientMsgId', rule: 'nearMiss' });
    expect((batch as Error).message).toMatch(/client_msg_id/);
    const single = await im.messages.send({ to: 'bob', clientMsgId: 'm-1' } as never).catch((e: unknown) => e);
    expect(single).toBeInstanceOf(ValidationError);
    expect((single as Error).message).toMatch(/`clientMsgId` is not a field of messages\.send, but `client_msg_id` is/);
    expect(service.calls()).toHaveLength(0);
  });

  it('a client built with validateRequests: false is not second-guessed by the batch helper either (the call sends)', async () => {
    service.on('POST', '/messages/batch', () => ({ body: {} }));
    const lax = new ImClient({ ...clientOptions(service), validateRequests: false, internals: { sleep: async () => {}, random: () => 0 } });
    const result = await lax.messages.batchSend({ usernames: ['a', 'b'], clientMsgId: 'promo-9' } as never);
    expect(result.ok).toBe(true);
    expect(service.calls()).toHaveLength(1);
  });

  it('an invalid entry in a later chunk refuses the whole batch before anything is sent, named in the caller\'s numbering', async () => {
    service.on('POST', '/messages/batch', () => ({ body: {} }));
    const usernames: unknown[] = Array.from({ length: 1500 }, (_, i) => `r${i}`);
    usernames[1200] = 42;
    const err = await im.messages.batchSend({ usernames: usernames as string[] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues.map((i) => i.pointer)).toContain('/usernames/1200');
    expect(service.calls()).toHaveLength(0);
  });

  it('without a key of the caller\'s, a batch key is generated and exposed with each chunk\'s key', async () => {
    service.on('POST', '/messages/batch', () => ({ body: {} }));
    const result = await im.messages.batchSend({ usernames: Array.from({ length: 1200 }, (_, i) => `r${i}`) });
    expect(result.batchKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.chunks.map((c) => c.dedupeKey)).toEqual(service.calls().map((r) => r.body.client_msg_id));
  });

  it('a chunk failing in the middle does not lose the others; the batch rejects with every chunk\'s outcome', async () => {
    service.on('POST', '/users/batch', (req) =>
      req.body.users[0].username === 'u100'
        ? { status: 400, body: { error: { code: 'invalid_argument', message: 'bad user', request_id: 'r-bad' } } }
        : { body: { n: req.body.users.length } },
    );
    const users = Array.from({ length: 250 }, (_, i) => ({ username: `u${i}` }));
    // Before: this resolved with ok: false, which looks like success to a caller who does not read `ok`.
    const err = await im.users.batchCreate({ users }, { concurrency: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BatchError);
    expect((err as Error).message).toMatch(/2 of 3 chunk\(s\) succeeded, 1 failed/);
    const result = (err as BatchError).result;
    expect(result.ok).toBe(false);
    expect(result.chunks.map((c) => c.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const failed = result.chunks[1]!;
    expect(failed.status === 'rejected' && failed.error.message).toMatch(/bad user/);
    expect(result.results).toEqual([{ n: 100 }, { n: 50 }]);
    // The settled form, asked for explicitly, resolves with the same outcome.
    const settled = await im.users.batchCreate({ users }, { concurrency: 1, settled: true });
    expect(settled.ok).toBe(false);
    expect(settled.chunks.map((c) => c.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('an aborted batch reports the chunks it did not attempt', async () => {
    const controller = new AbortController();
    let calls = 0;
    service.on('POST', '/users/batch', () => {
      if (++calls === 2) controller.abort(); // while the second chunk is in flight
      return { body: {} };
    });
    const users = Array.from({ length: 300 }, (_, i) => ({ username: `u${i}` }));
    const result = await im.users.batchCreate({ users }, { concurrency: 1, signal: controller.signal, settled: true });
    expect(result.chunks.map((c) => c.status)).toEqual(['fulfilled', 'rejected', 'not_attempted']);
  });
});

describe('resumable upload (seed 4.8)', () => {
  function uploadRoutes(options: { failPart?: number; failTimes?: number } = {}) {
    const received = new Map<number, number>();
    let failures = 0;
    let authSeen = false;
    service.on('POST', '/media/uploads', () => ({ body: { file_id: 'file-1' } }));
    service.on('POST', '/media/uploads/{file_id}/parts', (req, m) => ({
      body: { items: req.body.part_numbers.map((n: number) => ({ part_number: n, url: `${service.baseUrl}/upload/${m.file_id}/${n}` })) },
    }));
    service.on('GET', '/media/uploads/{file_id}/parts', () => ({ body: { items: [...received.keys()].map((n) => ({ part_number: n })) } }));
    service.on('POST', '/media/uploads/{file_id}/complete', (_req, m) => ({ body: { file_id: m.file_id, parts: received.size, bytes: [...received.values()].reduce((a, b) => a + b, 0) } }));
    for (let n = 1; n <= 200; n++) {
      service.onRaw('PUT', `/upload/file-1/${n}`, (req, res, body) => {
        if (req.headers.authorization) authSeen = true;
        if (n === options.failPart && failures < (options.failTimes ?? 0)) {
          failures++;
          res.writeHead(500).end();
          return;
        }
        received.set(n, body.length || Number(req.headers['content-length']));
        res.writeHead(200).end();
      });
    }
    return { received, authSeen: () => authSeen };
  }

  it('streams a generated 50 MB source in small parts with bounded memory, no App Token on part addresses', async () => {
    await service.close();
    service = await startFakeService({ rawBody: true }); // the server counts bytes, keeps none
    im = new ImClient(clientOptions(service));
    const routes = uploadRoutes();
    const partSize = 1024 * 1024;
    const total = 50 * partSize;
    async function* generated() {
      const chunk = new Uint8Array(64 * 1024).fill(7);
      for (let sent = 0; sent < total; sent += chunk.length) yield chunk;
    }
    // Part bytes live in ArrayBuffers (outside the JS heap): their peak shows what is held.
    const memory = watchArrayBuffers();
    const sample = memory.sample;
    let progressCalls = 0;
    const result = await im.media.upload(generated(), { partSize, concurrency: 3, size: total, onProgress: () => (progressCalls++, sample()) });
    memory.stop();
    const peak = memory.peak;
    expect(result).toMatchObject({ fileId: 'file-1', parts: 50, bytesSent: total });
    expect(progressCalls).toBe(50);
    const put = service.requests.filter((r) => r.method === 'PUT');
    expect(put).toHaveLength(50);
    expect(put.reduce((a, r) => a + r.rawBytes, 0)).toBe(total);
    expect(routes.authSeen()).toBe(false);
    // Part addresses come 16 at a time when the size is known: 4 calls for 50 parts, not 50.
    expect(service.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/parts'))).toHaveLength(4);
    for (const r of put) expect(r.headers.authorization).toBeUndefined();
    // Bounded by parts in flight, not by the 50 MB: allow 4 × partSize × concurrency plus slack.
    console.log(`upload 50 MB in 1 MiB parts × 3: peak retained arrayBuffers growth ${(peak / 1024 / 1024).toFixed(1)} MiB`);
    // Bounded by the parts in flight (3 × 1 MiB, plus the one being read, the copies fetch makes
    // and garbage the last gc had not reached: 6–12 MiB seen), not by the 50 MB.
    expect(peak).toBeLessThan(20 * partSize);
  }, 60_000);

  it('a part that keeps failing interrupts with the file id; resume sends only the missing parts', async () => {
    const routes = uploadRoutes({ failPart: 3, failTimes: 3 });
    const source = new Uint8Array(5 * 1000).fill(1);
    const error = await im.media.upload(source, { partSize: 1000, concurrency: 1, partRetries: 2 }).catch((e) => e);
    expect(error).toBeInstanceOf(UploadInterruptedError);
    expect(error.fileId).toBe('file-1');
    expect(error.uploadedParts).toEqual([1, 2]);
    expect([...routes.received.keys()].sort()).toEqual([1, 2]);
    const before = service.requests.filter((r) => r.method === 'PUT').length;
    const result = await im.media.resumeUpload(error.fileId, source, { partSize: 1000 });
    const resumed = service.requests.filter((r) => r.method === 'PUT').slice(before).map((r) => Number(r.path.split('/').pop()));
    expect(resumed.sort()).toEqual([3, 4, 5]);
    expect(result.file).toMatchObject({ parts: 5, bytes: 5000 });
  });
});

describe('upload sources and abort', () => {
  function partRoutes(onPart?: (n: number) => Promise<void> | void) {
    const received = new Map<number, Buffer>();
    service.on('POST', '/media/uploads', () => ({ body: { file_id: 'f2' } }));
    service.on('POST', '/media/uploads/{file_id}/parts', (req) => ({ body: { items: req.body.part_numbers.map((n: number) => ({ part_number: n, url: `${service.baseUrl}/up/${n}` })) } }));
    service.on('POST', '/media/uploads/{file_id}/complete', () => ({ body: { bytes: [...received.values()].reduce((a, b) => a + b.length, 0) } }));
    for (let n = 1; n <= 20; n++) {
      service.onRaw('PUT', `/up/${n}`, async (_req, res, body) => {
        await onPart?.(n);
        received.set(n, body);
        if (!res.destroyed) res.writeHead(200).end();
      });
    }
    return received;
  }
  const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => i % 251);
  const joined = (received: Map<number, Buffer>) => Buffer.concat([...received.entries()].sort(([a], [b]) => a - b).map(([, b]) => b));

  it('a file path, a Blob and a Web ReadableStream of unknown size all arrive byte for byte', async () => {
    const data = bytes(10_500);
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(`${tmpdir()}/im-upload-`);
    try {
      writeFileSync(`${dir}/f.bin`, data);
      const sources: [string, () => unknown][] = [
        ['path', () => ({ path: `${dir}/f.bin` })],
        ['blob', () => new Blob([data])],
        ['web stream', () => new ReadableStream<Uint8Array>({ start(c) { for (let i = 0; i < data.length; i += 999) c.enqueue(data.subarray(i, i + 999)); c.close(); } })],
      ];
      for (const [name, source] of sources) {
        const received = partRoutes();
        const result = await im.media.upload(source() as never, { partSize: 4_000, concurrency: 2 });
        expect(result.parts, name).toBe(3);
        expect(joined(received).equals(Buffer.from(data)), name).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a bare string is never read as a path, and a missing file is a ValidationError: both before anything is sent', async () => {
    // Before: upload('hello world') opened a file called "hello world" and threw a plain ENOENT.
    const before = service.requests.length;
    const asText = await im.media.upload('hello world' as never).catch((e: unknown) => e);
    expect(asText).toBeInstanceOf(ValidationError);
    expect(asText).toBeInstanceOf(ImError);
    expect((asText as ValidationError).issues[0]).toMatchObject({ pointer: '/source', rule: 'type' });
    expect((asText as Error).message).toMatch(/media\.upload.*\{ path/s);
    expect((asText as Error).message).not.toContain('hello world');
    const missing = await im.media.upload({ path: '/nonexistent/dir/file.bin' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ValidationError);
    expect((missing as ValidationError).issues[0]).toMatchObject({ pointer: '/source/path', rule: 'file' });
    expect((missing as Error).message).toMatch(/ENOENT/);
    const resumed = await im.media.resumeUpload('f2', { path: '/nonexistent/dir/file.bin' }).catch((e: unknown) => e);
    expect((resumed as ValidationError).issues[0]).toMatchObject({ pointer: '/source/path', rule: 'file' });
    expect((resumed as Error).message).toMatch(/media\.resumeUpload/);
    expect(service.requests.length).toBe(before);
  });

  it('abort cancels the parts in flight and ends with the file id to resume', async () => {
    const controller = new AbortController();
    let started = 0;
    partRoutes(async () => {
      if (++started === 2) controller.abort();
      await new Promise((r) => setTimeout(r, 300)); // a slow upload address
    });
    const began = Date.now();
    const error = await im.media.upload(bytes(20_000), { partSize: 2_000, concurrency: 2, signal: controller.signal }).catch((e) => e);
    expect(error).toBeInstanceOf(UploadInterruptedError);
    expect(error.fileId).toBe('f2');
    expect(Date.now() - began).toBeLessThan(2_000); // not 10 parts × 300 ms
    expect(started).toBeLessThan(10);
    expect(service.calls().some((r) => r.path.endsWith('/complete'))).toBe(false);
  });
});

describe('pending moderation items', () => {
  it('decides with the item version, skips a version_conflict, walks both statuses', async () => {
    service.on('GET', '/moderation/items', (req) => {
      const status = req.query.get('status');
      expect(req.query.get('limit')).toBe('20');
      if (status === 'pending') return { body: { items: [{ id: 'i1', version: 3 }, { id: 'i2', version: 8 }], next_cursor: null } };
      return { body: { items: [{ id: 'i3', version: 1 }], next_cursor: null } };
    });
    service.on('POST', '/moderation/items/{item_id}/decide', (req, m) =>
      m.item_id === 'i2'
        ? { status: 409, body: { error: { code: 'version_conflict', message: 'decided by someone else', request_id: 'r' } } }
        : { body: { id: m.item_id, decided: req.body.decision } },
    );
    const report = await im.moderation.processPending({ decide: () => ({ decision: 'no_violation' }) });
    expect(report.decided.map((d) => d.itemId)).toEqual(['i1', 'i3']);
    expect(report.skipped).toEqual([expect.objectContaining({ itemId: 'i2', reason: 'version_conflict' })]);
    const decides = service.calls().filter((r) => r.path.endsWith('/decide'));
    expect(decides.map((r) => r.body.version)).toEqual([3, 8, 1]);
    expect(decides.filter((r) => r.path.includes('i2'))).toHaveLength(1); // not retried
  });
});

describe('small helpers', () => {
  it('setMuteAll: PUT when on is true, DELETE when false', async () => {
    service.on('PUT', '/groups/{group_id}/mute-all', () => ({ body: {} }));
    service.on('DELETE', '/groups/{group_id}/mute-all', () => ({ body: {} }));
    service.on('PUT', '/chatrooms/{room_id}/mute-all', () => ({ body: {} }));
    service.on('DELETE', '/chatrooms/{room_id}/mute-all', () => ({ body: {} }));
    await im.groups.setMuteAll({ group_id: 'g1', on: true });
    await im.groups.setMuteAll({ group_id: 'g1', on: false });
    await im.chatrooms.setMuteAll({ room_id: 'r1', on: true });
    await im.chatrooms.setMuteAll({ room_id: 'r1', on: false });
    expect(service.calls().map((r) => `${r.method} ${r.path}`)).toEqual(['PUT /groups/g1/mute-all', 'DELETE /groups/g1/mute-all', 'PUT /chatrooms/r1/mute-all', 'DELETE /chatrooms/r1/mute-all']);
    expect(service.calls().every((r) => r.body === undefined || !('on' in r.body))).toBe(true);
    await expect(im.groups.setMuteAll({ group_id: 'g1', on: 'yes' as never })).rejects.toBeInstanceOf(ValidationError);
  });

  it('versioned fetch-all: every page with known_version, items and the next version', async () => {
    service.on('GET', '/users/{username}/friends', (req) => {
      expect(req.query.get('known_version')).toBe('v7');
      return req.query.get('cursor') === 'c2'
        ? { body: { items: [{ username: 'c' }], next_cursor: null, version: 'v9' } }
        : { body: { items: [{ username: 'a' }, { username: 'b' }], next_cursor: 'c2', version: 'v9' } };
    });
    const snapshot = await im.friends.listAllPages({ username: 'alice', known_version: 'v7' });
    expect(snapshot).toEqual({ items: [{ username: 'a' }, { username: 'b' }, { username: 'c' }], version: 'v9', knownVersion: 'v7', pages: 2 });
  });

  it('RTC expires_at keeps its three forms on the wire', async () => {
    service.on('PUT', '/rtc/channels/{channel_id}/bans/{username}', () => ({ body: {} }));
    await im.rtc.ban({ channel_id: 'c1', username: 'bob' });
    await im.rtc.ban({ channel_id: 'c1', username: 'bob', expires_at: null });
    await im.rtc.ban({ channel_id: 'c1', username: 'bob', expires_at: '2027-01-01T00:00:00Z' });
    const bodies = service.calls().map((r) => r.body);
    expect('expires_at' in (bodies[0] ?? {})).toBe(false);
    expect(bodies[1]).toHaveProperty('expires_at', null);
    expect(bodies[2]).toHaveProperty('expires_at', '2027-01-01T00:00:00Z');
  });

  it('RTC: a missing ban is null, 202 is visible, removal reuses its operation_id, tickets are never resent', async () => {
    service.on('GET', '/rtc/channels/{channel_id}/bans/{username}', () => ({ body: null }));
    let removals = 0;
    service.on('POST', '/rtc/channels/{channel_id}/members/{username}/remove', () =>
      ++removals === 1 ? { status: 503, body: { error: { code: 'unavailable', message: 'x', request_id: 'r' } } } : { status: 202, body: { pending: true } },
    );
    service.on('POST', '/rtc/channels/{channel_id}/tickets', () => ({ status: 503, body: { error: { code: 'unavailable', message: 'x', request_id: 'r' } } }));
    expect(await im.rtc.getBan({ channel_id: 'c1', username: 'bob' })).toBeNull();
    const { response } = await im.rtc.removeMember({ channel_id: 'c1', username: 'bob' }).withResponse();
    expect(response.status).toBe(202);
    const removeCalls = service.calls().filter((r) => r.path.endsWith('/remove'));
    expect(removeCalls).toHaveLength(2);
    expect(removeCalls[0]!.body.operation_id).toBeTruthy();
    expect(removeCalls[1]!.body.operation_id).toBe(removeCalls[0]!.body.operation_id);
    await expect(im.rtc.issueTickets({ channel_id: 'c1' })).rejects.toMatchObject({ status: 503 });
    expect(service.calls().filter((r) => r.path.endsWith('/tickets'))).toHaveLength(1);
  });
});
