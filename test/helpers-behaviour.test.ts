/**
 * The helpers of seed sections 4.5–4.13 against the fake service (im-server-sdk/testing) on
 * 127.0.0.1, which keeps state and records what it received: batch splitting, resumable upload,
 * pending moderation items, set-mute-all, versioned fetch-all and the RTC rules. Where a test
 * models a service behaviour of its own (a deduplicating batch, an abort mid-batch), it answers
 * that operation with `fake.override`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BatchError, ImClient, ImError, UploadInterruptedError, ValidationError } from '../generated/src/index.js';
import { createFakeService, type FakeCall, type FakeService } from '../generated/src/testing.js';
import { watchArrayBuffers } from './helpers/memory.js';

let fake: FakeService;
let im: ImClient;
const fast = { internals: { sleep: async () => {}, random: () => 0 } };
beforeEach(async () => {
  fake = await createFakeService({ pageSize: 2 });
  im = new ImClient({ ...fake.clientOptions, ...fast });
});
afterEach(() => fake.close());

/** Calls of operations (not the token exchange). */
const operationCalls = (): FakeCall[] => fake.calls.filter((c) => c.operationId !== 'app.token');
const bodyOf = (c: FakeCall): any => c.params;
const users = (n: number, prefix = 'r') => Array.from({ length: n }, (_, i) => ({ username: `${prefix}${i}` }));

describe('batch splitting (x-batch-split)', () => {
  it("250 users go out as 100/100/50, results in the caller's order", async () => {
    const list = users(250, 'u');
    const result = await im.users.batchCreate({ users: list }, { concurrency: 3 });
    expect(
      fake
        .callsTo('users.batch_create')
        .map((r) => bodyOf(r).users.length)
        .sort(),
    ).toEqual([100, 100, 50]);
    expect(result.ok).toBe(true);
    expect(result.chunks.map((c) => [c.start, c.end])).toEqual([
      [0, 100],
      [100, 200],
      [200, 250],
    ]);
    expect(result.results.flatMap((r: any) => r.items.map((u: any) => u.username))).toEqual(
      list.map((u) => u.username),
    );
    expect(fake.state.users.size).toBe(250);
  });

  it('2,500 recipients go out as 3 requests, each chunk with its own dedupe key kept across resends', async () => {
    fake.seed({ users: users(2500) });
    fake.fault({
      operation: 'messages.batch_send',
      kind: 'server_error',
      when: (c) => (c.params.usernames as unknown[]).length === 500,
    });
    const usernames = users(2500).map((u) => u.username);
    const result = await im.messages.batchSend({ usernames, body: 'hi' });
    const calls = fake.callsTo('messages.batch_send');
    expect(calls.map((r) => bodyOf(r).usernames.length)).toEqual(expect.arrayContaining([1000, 1000, 500, 500]));
    expect(calls).toHaveLength(4); // the 500-chunk was resent once
    const keys = calls.map((r) => bodyOf(r).client_msg_id);
    const lastChunk = calls.filter((r) => bodyOf(r).usernames.length === 500).map((r) => bodyOf(r).client_msg_id);
    expect(lastChunk[0]).toBe(lastChunk[1]); // the resend carries the same key
    expect(new Set(keys).size).toBe(3); // one key per chunk
    expect(result.ok).toBe(true);
    expect(fake.state.messages.size).toBe(2500); // one message per recipient, none twice
  });

  it("a caller's key gives each chunk a derived key, the same on every run, within the 128-character limit", async () => {
    fake.seed({ users: users(1500) });
    const usernames = users(1500).map((u) => u.username);
    const first = await im.messages.batchSend({ usernames, client_msg_id: 'promo-7' }, { concurrency: 1 });
    const again = await im.messages.batchSend({ usernames, client_msg_id: 'promo-7' }, { concurrency: 1 });
    const sent = fake.callsTo('messages.batch_send').map((r) => bodyOf(r).client_msg_id);
    expect(sent.slice(0, 2)).toEqual(sent.slice(2));
    expect(new Set(sent.slice(0, 2)).size).toBe(2);
    expect(sent.every((k: string) => /^b1-[A-Za-z0-9_-]{43}$/.test(k))).toBe(true);
    expect(first.chunks.map((c) => c.dedupeKey)).toEqual(sent.slice(0, 2));
    expect(first.batchKey).toBe('promo-7');
    expect(again.chunks.map((c) => c.dedupeKey)).toEqual(first.chunks.map((c) => c.dedupeKey));
    expect(fake.state.messages.size).toBe(1500); // the second run was deduplicated
  });

  it("resending only the failed chunk under the same key reuses THAT chunk's key, never chunk 0's (issue 16 item 7)", async () => {
    // Before: chunk keys were `<key>:<index>`; the resent slice became chunk 0 and got "promo-8:0", the key
    // the service had already seen for the first 1,000 recipients: a deduplicating service dropped it.
    const seen = new Map<string, string>(); // key → first recipient it was used for
    let dropped = 0;
    let failSecond = true;
    // this test's service deduplicates by the key alone: a reused key drops whoever it carries
    fake.override('messages.batch_send', (req) => {
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
    const err = await im.messages
      .batchSend({ usernames, client_msg_id: 'promo-8' }, { concurrency: 1 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BatchError);
    const outcome = (err as BatchError).result;
    expect(outcome.chunks.map((c) => c.status)).toEqual(['fulfilled', 'rejected']);
    const failed = outcome.chunks[1]!;
    const resend = await im.messages.batchSend({
      usernames: usernames.slice(failed.start, failed.end),
      client_msg_id: 'promo-8',
    });
    expect(resend.ok).toBe(true);
    expect(resend.chunks[0]!.dedupeKey).toBe(failed.dedupeKey);
    expect(resend.chunks[0]!.dedupeKey).not.toBe(outcome.chunks[0]!.dedupeKey);
    expect(dropped).toBe(0);
  });

  it('the caller\'s key is checked before anything is derived or sent: "" and 129 characters are refused, 128 is fine', async () => {
    // Before: "" was sent as ":0", and a valid 128-character key became an invalid 130-character one.
    fake.seed({ users: [{ username: 'a' }, { username: 'b' }] });
    const usernames = ['a', 'b'];
    const empty = await im.messages.batchSend({ usernames, client_msg_id: '' }).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(ValidationError);
    expect((empty as ValidationError).issues[0]!.pointer).toBe('/client_msg_id');
    // null is not "no key": the key is a string, so null is refused, not replaced (found by bad-input.test.ts's random params)
    const nullKey = await im.messages
      .batchSend({ usernames, client_msg_id: null as unknown as string })
      .catch((e: unknown) => e);
    expect(nullKey).toBeInstanceOf(ValidationError);
    expect((nullKey as ValidationError).issues[0]!.pointer).toBe('/client_msg_id');
    const long = await im.messages.batchSend({ usernames, client_msg_id: 'k'.repeat(129) }).catch((e: unknown) => e);
    expect(long).toBeInstanceOf(ValidationError);
    expect((long as ValidationError).issues.map((i) => i.rule)).toContain('maxLength');
    expect(operationCalls()).toHaveLength(0);
    const ok = await im.messages.batchSend({ usernames, client_msg_id: 'k'.repeat(128) });
    expect(ok.ok).toBe(true);
    expect(bodyOf(operationCalls()[0]!).client_msg_id.length).toBeLessThanOrEqual(128);
  });

  it('a near miss of a declared field (clientMsgId for client_msg_id) is refused, naming both, before anything is sent', async () => {
    // Before: the open body took clientMsgId as an extra field and a fresh client_msg_id was generated: the caller's dedupe key was lost.
    const batch = await im.messages
      .batchSend({ usernames: ['a', 'b'], clientMsgId: 'promo-9' } as never)
      .catch((e: unknown) => e);
    expect(batch).toBeInstanceOf(ValidationError);
    expect((batch as ValidationError).issues[0]).toMatchObject({ pointer: '/clientMsgId', rule: 'nearMiss' });
    expect((batch as Error).message).toMatch(/client_msg_id/);
    const single = await im.messages.send({ to: 'bob', clientMsgId: 'm-1' } as never).catch((e: unknown) => e);
    expect(single).toBeInstanceOf(ValidationError);
    expect((single as Error).message).toMatch(/`clientMsgId` is not a field of messages\.send, but `client_msg_id` is/);
    expect(operationCalls()).toHaveLength(0);
  });

  it('a client built with validateRequests: false is not second-guessed by the batch helper either (the call sends)', async () => {
    fake.seed({ users: [{ username: 'a' }, { username: 'b' }] });
    const lax = new ImClient({ ...fake.clientOptions, validateRequests: false, ...fast });
    const result = await lax.messages.batchSend({ usernames: ['a', 'b'], clientMsgId: 'promo-9' } as never);
    expect(result.ok).toBe(true);
    expect(fake.callsTo('messages.batch_send')).toHaveLength(1);
  });

  it("an invalid entry in a later chunk refuses the whole batch before anything is sent, named in the caller's numbering", async () => {
    const usernames: unknown[] = Array.from({ length: 1500 }, (_, i) => `r${i}`);
    usernames[1200] = 42;
    const err = await im.messages.batchSend({ usernames: usernames as string[] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).issues.map((i) => i.pointer)).toContain('/usernames/1200');
    expect(operationCalls()).toHaveLength(0);
  });

  it("without a key of the caller's, a batch key is generated and exposed with each chunk's key", async () => {
    fake.seed({ users: users(1200) });
    const result = await im.messages.batchSend({ usernames: users(1200).map((u) => u.username) });
    expect(result.batchKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.chunks.map((c) => c.dedupeKey)).toEqual(
      fake.callsTo('messages.batch_send').map((r) => bodyOf(r).client_msg_id),
    );
  });

  it("a chunk failing in the middle does not lose the others; the batch rejects with every chunk's outcome", async () => {
    const badChunk = {
      operation: 'users.batch_create',
      kind: 'error',
      status: 400,
      code: 'invalid_argument',
      message: 'bad user',
      when: (c: { params: any }) => c.params.users[0].username === 'u100',
    } as const;
    fake.fault(badChunk);
    const list = users(250, 'u');
    // Before: this resolved with ok: false, which looks like success to a caller who does not read `ok`.
    const err = await im.users.batchCreate({ users: list }, { concurrency: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BatchError);
    expect((err as Error).message).toMatch(/2 of 3 chunk\(s\) succeeded, 1 failed/);
    const result = (err as BatchError).result;
    expect(result.ok).toBe(false);
    expect(result.chunks.map((c) => c.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const failed = result.chunks[1]!;
    expect(failed.status === 'rejected' && failed.error.message).toMatch(/bad user/);
    expect(result.results.map((r: any) => r.items.length)).toEqual([100, 50]);
    // The settled form, asked for explicitly, resolves with the same outcome (from a fresh state).
    fake.reset();
    fake.fault(badChunk);
    const settled = await im.users.batchCreate({ users: list }, { concurrency: 1, settled: true });
    expect(settled.ok).toBe(false);
    expect(settled.chunks.map((c) => c.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('an aborted batch reports the chunks it did not attempt', async () => {
    const controller = new AbortController();
    let calls = 0;
    fake.override('users.batch_create', () => {
      if (++calls === 2) controller.abort(); // while the second chunk is in flight
      return { body: {} };
    });
    const result = await im.users.batchCreate(
      { users: users(300, 'u') },
      { concurrency: 1, signal: controller.signal, settled: true },
    );
    expect(result.chunks.map((c) => c.status)).toEqual(['fulfilled', 'rejected', 'not_attempted']);
  });
});

describe('resumable upload (seed 4.8)', () => {
  it('streams a generated 50 MB source in small parts with bounded memory, no App Token on part addresses', async () => {
    await fake.close();
    fake = await createFakeService({ keepUploadBytes: false }); // the fake counts part bytes, keeps none
    im = new ImClient(fake.clientOptions);
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
    const result = await im.media.upload(generated(), {
      partSize,
      concurrency: 3,
      size: total,
      onProgress: () => (progressCalls++, sample()),
    });
    memory.stop();
    const peak = memory.peak;
    expect(result).toMatchObject({ fileId: 'file-1', parts: 50, bytesSent: total });
    expect(progressCalls).toBe(50);
    const put = fake.callsTo('fake.part_upload');
    expect(put).toHaveLength(50);
    expect(put.every((r) => r.method === 'PUT')).toBe(true);
    expect(put.reduce((a, r) => a + r.bodyBytes, 0)).toBe(total);
    expect(fake.state.files.get('file-1')).toMatchObject({ size: total, parts: 50 });
    // Part addresses come 16 at a time when the size is known: 4 calls for 50 parts, not 50.
    expect(fake.callsTo('media.part_urls')).toHaveLength(4);
    for (const r of put) expect(r.headers.authorization).toBeUndefined();
    // Bounded by parts in flight, not by the 50 MB: allow 4 × partSize × concurrency plus slack.
    console.log(
      `upload 50 MB in 1 MiB parts × 3: peak retained arrayBuffers growth ${(peak / 1024 / 1024).toFixed(1)} MiB`,
    );
    // Bounded by the parts in flight (3 × 1 MiB, plus the one being read, the copies fetch makes
    // and garbage the last gc had not reached: 6–12 MiB seen), not by the 50 MB.
    expect(peak).toBeLessThan(20 * partSize);
  }, 60_000);

  it('a part that keeps failing interrupts with the file id; resume sends only the missing parts', async () => {
    fake.fault({
      operation: 'fake.part_upload',
      kind: 'server_error',
      status: 500,
      times: 3,
      when: (c) => c.params.part_number === 3,
    });
    const source = new Uint8Array(5 * 1000).fill(1);
    const error = await im.media.upload(source, { partSize: 1000, concurrency: 1, partRetries: 2 }).catch((e) => e);
    expect(error).toBeInstanceOf(UploadInterruptedError);
    expect(error.fileId).toBe('file-1');
    expect(error.uploadedParts).toEqual([1, 2]);
    expect([...fake.state.uploads.get('file-1')!.parts.keys()].sort()).toEqual([1, 2]);
    const before = fake.callsTo('fake.part_upload').length;
    const result = await im.media.resumeUpload(error.fileId, source, { partSize: 1000 });
    const resumed = fake
      .callsTo('fake.part_upload')
      .slice(before)
      .map((r) => r.params.part_number);
    expect(resumed.sort()).toEqual([3, 4, 5]);
    expect(result.file).toMatchObject({ parts: 5, size: 5000 });
  });
});

describe('upload sources and abort', () => {
  const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => i % 251);

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
        [
          'web stream',
          () =>
            new ReadableStream<Uint8Array>({
              start(c) {
                for (let i = 0; i < data.length; i += 999) c.enqueue(data.subarray(i, i + 999));
                c.close();
              },
            }),
        ],
      ];
      for (const [name, source] of sources) {
        const result = await im.media.upload(source() as never, { partSize: 4_000, concurrency: 2 });
        expect(result.parts, name).toBe(3);
        expect(Buffer.from(fake.state.fileContents.get(result.fileId)!).equals(Buffer.from(data)), name).toBe(true);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a bare string is never read as a path, and a missing file is a ValidationError: both before anything is sent', async () => {
    // Before: upload('hello world') opened a file called "hello world" and threw a plain ENOENT.
    const before = fake.calls.length;
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
    expect(fake.calls.length).toBe(before);
  });

  it('abort cancels the parts in flight and ends with the file id to resume', async () => {
    const controller = new AbortController();
    let started = 0;
    // a slow upload address: every part answers 300 ms late; the second to start aborts the upload
    fake.fault({
      operation: 'fake.part_upload',
      kind: 'slow',
      delayMs: 300,
      times: Infinity,
      when: () => (++started === 2 && controller.abort(), true),
    });
    const error = await im.media
      .upload(bytes(20_000), { partSize: 2_000, concurrency: 2, signal: controller.signal })
      .catch((e) => e);
    expect(error).toBeInstanceOf(UploadInterruptedError);
    expect(error.fileId).toBe('file-1');
    expect(started).toBeLessThan(10); // stopped early: not every part was started (no stopwatch: it holds under load)
    expect(fake.callsTo('media.complete_upload')).toHaveLength(0);
  });
});

describe('pending moderation items', () => {
  it('decides with the item version, skips a version_conflict, walks both statuses', async () => {
    fake.seed({
      moderationItems: [
        { id: 'i1', version: 3 },
        { id: 'i2', version: 8 },
        { id: 'i3', version: 1, status: 'auto_violation' },
      ],
    });
    // i2 is decided by someone else between the listing and our decision
    fake.fault({
      operation: 'moderation.decide',
      kind: 'error',
      status: 409,
      code: 'version_conflict',
      message: 'decided by someone else',
      when: (c) => c.params.item_id === 'i2',
    });
    const report = await im.moderation.processPending({ decide: () => ({ decision: 'no_violation' }) });
    expect(report.decided.map((d) => d.itemId)).toEqual(['i1', 'i3']);
    expect(report.skipped).toEqual([expect.objectContaining({ itemId: 'i2', reason: 'version_conflict' })]);
    expect(fake.callsTo('moderation.items').every((r) => r.query.limit === '20')).toBe(true);
    const decides = fake.callsTo('moderation.decide');
    expect(decides.map((r) => r.params.version)).toEqual([3, 8, 1]);
    expect(decides.filter((r) => r.params.item_id === 'i2')).toHaveLength(1); // not retried
  });
});

describe('small helpers', () => {
  it('setMuteAll: PUT when on is true, DELETE when false', async () => {
    fake.seed({
      users: [{ username: 'alice' }],
      groups: [{ group_id: 'g1', owner: 'alice' }],
      chatrooms: [{ room_id: 'r1', name: 'lobby' }],
    });
    await im.groups.setMuteAll({ group_id: 'g1', on: true });
    expect(fake.state.groups.get('g1')!.mute_all).toBe(true);
    await im.groups.setMuteAll({ group_id: 'g1', on: false });
    await im.chatrooms.setMuteAll({ room_id: 'r1', on: true });
    expect(fake.state.chatrooms.get('r1')!.room.mute_all).toBe(true);
    await im.chatrooms.setMuteAll({ room_id: 'r1', on: false });
    const prefix = `/${fake.orgName}/${fake.appName}`;
    expect(operationCalls().map((r) => `${r.method} ${r.path.slice(prefix.length)}`)).toEqual([
      'PUT /groups/g1/mute-all',
      'DELETE /groups/g1/mute-all',
      'PUT /chatrooms/r1/mute-all',
      'DELETE /chatrooms/r1/mute-all',
    ]);
    expect(operationCalls().every((r) => r.bodyBytes === 0 || !('on' in r.params))).toBe(true);
    expect([fake.state.groups.get('g1')!.mute_all, fake.state.chatrooms.get('r1')!.room.mute_all]).toEqual([
      false,
      false,
    ]);
    await expect(im.groups.setMuteAll({ group_id: 'g1', on: 'yes' as never })).rejects.toBeInstanceOf(ValidationError);
  });

  it('versioned fetch-all: every page with known_version, items and the next version', async () => {
    fake.seed({
      users: ['alice', 'a', 'b', 'c'].map((username) => ({ username })),
      friends: { alice: ['a', 'b', 'c'] },
    });
    const version = String(fake.state.friends.get('alice')!.version);
    const snapshot = await im.friends.listAllPages({ username: 'alice', known_version: 'v7' });
    expect(snapshot).toMatchObject({ version, knownVersion: 'v7', pages: 2 }); // 3 friends at 2 a page
    expect(snapshot.items.map((f) => f.username)).toEqual(['a', 'b', 'c']);
    expect(fake.callsTo('friends.list').map((r) => r.query.known_version)).toEqual(['v7', 'v7']);
  });

  it('RTC expires_at keeps its three forms on the wire', async () => {
    fake.seed({ rtcChannels: [{ channel_id: 'c1' }] });
    await im.rtc.ban({ channel_id: 'c1', username: 'bob' });
    await im.rtc.ban({ channel_id: 'c1', username: 'bob', expires_at: null });
    await im.rtc.ban({ channel_id: 'c1', username: 'bob', expires_at: '2027-01-01T00:00:00Z' });
    expect(await im.rtc.getBan({ channel_id: 'c1', username: 'bob' })).toMatchObject({
      expires_at: '2027-01-01T00:00:00Z',
    });
    const bodies = fake.callsTo('rtc.ban').map((r) => {
      const { channel_id: _c, username: _u, ...body } = r.params;
      return body;
    });
    expect('expires_at' in (bodies[0] ?? {})).toBe(false);
    expect(bodies[1]).toHaveProperty('expires_at', null);
    expect(bodies[2]).toHaveProperty('expires_at', '2027-01-01T00:00:00Z');
  });

  it('RTC: a missing ban is null, 202 is visible, removal reuses its operation_id, tickets are never resent', async () => {
    fake.seed({ users: [{ username: 'bob' }], rtcChannels: [{ channel_id: 'c1', sessions: [{ username: 'bob' }] }] });
    fake.fault({ operation: 'rtc.remove_member', kind: 'server_error' });
    // this service finishes the removal later: 202 pending (the fake itself removes at once, 200)
    fake.override('rtc.remove_member', async (call) => ({
      status: 202,
      body: { pending: true, ...((await call.answer()).body as object) },
    }));
    fake.fault({ operation: 'rtc.issue_tickets', kind: 'server_error' });
    expect(await im.rtc.getBan({ channel_id: 'c1', username: 'bob' })).toBeNull();
    const { response } = await im.rtc.removeMember({ channel_id: 'c1', username: 'bob' }).withResponse();
    expect(response.status).toBe(202);
    const removeCalls = fake.callsTo('rtc.remove_member');
    expect(removeCalls).toHaveLength(2);
    expect(removeCalls[0]!.params.operation_id).toBeTruthy();
    expect(removeCalls[1]!.params.operation_id).toBe(removeCalls[0]!.params.operation_id);
    expect(fake.state.rtcChannels.get('c1')!.sessions).toEqual([]);
    await expect(im.rtc.issueTickets({ channel_id: 'c1', usernames: ['bob'] })).rejects.toMatchObject({ status: 503 });
    expect(fake.callsTo('rtc.issue_tickets')).toHaveLength(1);
  });
});
