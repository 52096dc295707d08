/**
 * Issue 30, done-when 1 (stateful part): round trips through the generated client against the
 * fake: create → get → list → delete for each resource the seed models, the documented "already
 * exists" on a unique create, finite pages with the spec's cursor fields, versions that move on
 * every write, sequence numbers, uploads with resume, and the moderation queue.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  AlreadyExistsError,
  ImClient,
  NotFoundError,
  UploadInterruptedError,
  VersionConflictError,
  type ResponseDrift,
} from '../../generated/src/index.js';
import { createFakeService, type FakeService } from '../../generated/src/testing.js';

let fake: FakeService;
let im: ImClient;
const drift: ResponseDrift[] = [];
beforeAll(async () => {
  fake = await createFakeService({ pageSize: 2 });
});
afterAll(() => fake?.close());
beforeEach(() => {
  fake.reset();
  drift.length = 0;
  im = new ImClient({ ...fake.clientOptions, validateResponses: true, onResponseDrift: (d) => drift.push(d) });
});
// every answer of every round trip is valid against the spec
afterEach(() => expect(drift.map((d) => `${d.operationId}: ${JSON.stringify(d.issues)}`)).toEqual([]));

async function all<T>(walk: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of walk) out.push(x);
  return out;
}

describe('users', () => {
  it('create → get → list (finite pages) → update → delete; a second create is AlreadyExistsError', async () => {
    for (const username of ['alice', 'bob', 'carol', 'dave', 'erin'])
      await im.users.create({ username, nickname: username.toUpperCase() });
    expect(await im.users.get({ username: 'bob' })).toMatchObject({ username: 'bob', nickname: 'BOB' });
    const first = await im.users.list();
    expect(first.items).toHaveLength(2);
    expect(typeof first.nextCursor).toBe('string');
    expect((await all(im.users.list())).map((u) => u.username)).toEqual(['alice', 'bob', 'carol', 'dave', 'erin']);
    // 5 users at 2 a page: 3 pages, the last with next_cursor null
    expect(
      fake
        .callsTo('users.list')
        .slice(1)
        .map((c) => 'body' in c.answer && (c.answer.body as { next_cursor: unknown }).next_cursor === null),
    ).toEqual([false, false, true]);
    await expect(im.users.create({ username: 'alice' })).rejects.toBeInstanceOf(AlreadyExistsError);
    await im.users.update({ username: 'bob', nickname: 'Bobby' });
    expect(fake.state.users.get('bob')).toMatchObject({ nickname: 'Bobby' });
    await im.users.delete({ username: 'bob' });
    await expect(im.users.get({ username: 'bob' })).rejects.toBeInstanceOf(NotFoundError);
    expect((await all(im.users.list())).map((u) => u.username)).not.toContain('bob');
    const batch = await im.users.batchCreate({ users: [{ username: 'f1' }, { username: 'f2' }] });
    expect(batch.ok).toBe(true);
    expect(fake.state.users.has('f2')).toBe(true);
  });

  it('mutes: mute → list → unmute; unmuting again is NotFoundError', async () => {
    fake.seed({ users: [{ username: 'alice' }] });
    await im.users.mute({ username: 'alice', scope: 'chat', duration: 60 });
    expect((await im.users.mutes({ username: 'alice' })).items).toEqual([
      expect.objectContaining({ scope: 'chat', duration: 60 }),
    ]);
    expect((await all(im.users.listMuted())).length).toBe(1);
    await im.users.unmute({ username: 'alice', scope: 'chat' });
    await expect(im.users.unmute({ username: 'alice', scope: 'chat' })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('friends and blacklist (versioned lists)', () => {
  it('add → get → list with a version that moves on each write → delete', async () => {
    fake.seed({ users: ['alice', 'bob', 'carol', 'dave'].map((username) => ({ username })) });
    await im.friends.add({ username: 'alice', friend: 'bob' });
    const v1 = await im.friends.listAllPages({ username: 'alice' });
    await im.friends.batchAdd({ username: 'alice', friends: [{ username: 'carol' }, { username: 'dave' }] });
    const v2 = await im.friends.listAllPages({ username: 'alice', known_version: String(v1.version) });
    expect(v2.items.map((f) => f.username)).toEqual(['bob', 'carol', 'dave']);
    expect(v2.pages).toBe(2);
    expect(Number(v2.version)).toBeGreaterThan(Number(v1.version));
    expect(await im.friends.get({ username: 'alice', friend: 'carol' })).toMatchObject({ username: 'carol' });
    await im.friends.delete({ username: 'alice', friend: 'carol' });
    const v3 = await im.friends.listAllPages({ username: 'alice' });
    expect(v3.items.map((f) => f.username)).toEqual(['bob', 'dave']);
    expect(Number(v3.version)).toBeGreaterThan(Number(v2.version));
    await expect(im.friends.get({ username: 'alice', friend: 'carol' })).rejects.toBeInstanceOf(NotFoundError);
    expect(await im.friends.deleteAll({ username: 'alice' })).toEqual({ count: 2 });
  });

  it('a friend who is not a user is NotFoundError, and nothing is added', async () => {
    fake.seed({ users: [{ username: 'alice' }] });
    await expect(im.friends.add({ username: 'alice', friend: 'ghost' })).rejects.toBeInstanceOf(NotFoundError);
    expect(fake.state.friends.get('alice')?.items.size ?? 0).toBe(0);
  });

  it('blacklist: add → list → remove, with its own version', async () => {
    fake.seed({ users: ['alice', 'bob', 'carol'].map((username) => ({ username })) });
    await im.blacklist.add({ username: 'alice', target: 'bob' });
    await im.blacklist.batchAdd({ username: 'alice', usernames: ['carol'] });
    const listed = await im.blacklist.listAllPages({ username: 'alice' });
    expect(listed.items.map((e) => e.username)).toEqual(['bob', 'carol']);
    await im.blacklist.remove({ username: 'alice', target: 'bob' });
    const after = await im.blacklist.listAllPages({ username: 'alice' });
    expect(after.items.map((e) => e.username)).toEqual(['carol']);
    expect(after.version).not.toBe(listed.version);
  });
});

describe('groups and members', () => {
  it('create → get → members (versioned) → add/remove members → of_user → delete', async () => {
    fake.seed({ users: ['alice', 'bob', 'carol'].map((username) => ({ username })) });
    const created = (await im.groups.create({ owner: 'alice', name: 'team' })) as { group_id: string };
    expect(await im.groups.get({ group_id: created.group_id })).toMatchObject({
      group_id: created.group_id,
      owner: 'alice',
      name: 'team',
    });
    const before = await im.groups.membersAllPages({ group_id: created.group_id });
    await im.groups.addMembers({ group_id: created.group_id, usernames: ['bob', 'carol'] });
    const after = await im.groups.membersAllPages({ group_id: created.group_id });
    expect(after.items.map((m) => m.username)).toEqual(['alice', 'bob', 'carol']);
    expect(after.version).not.toBe(before.version);
    expect((await all(im.groups.ofUser({ username: 'bob' }))).map((g) => g.group_id)).toEqual([created.group_id]);
    await im.groups.setRole({ group_id: created.group_id, username: 'bob', role: 'admin' });
    expect(await im.groups.member({ group_id: created.group_id, username: 'bob' })).toMatchObject({ role: 'admin' });
    await im.groups.removeMembers({ group_id: created.group_id, usernames: ['bob'] });
    await expect(im.groups.member({ group_id: created.group_id, username: 'bob' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await im.groups.delete({ group_id: created.group_id });
    await expect(im.groups.get({ group_id: created.group_id })).rejects.toBeInstanceOf(NotFoundError);
    expect((await all(im.groups.list())).length).toBe(0);
  });
});

describe('chatrooms', () => {
  it('create → get → list → attributes, bans, mutes → send → recent → delete', async () => {
    fake.seed({ users: ['alice', 'bob'].map((username) => ({ username })) });
    const room = (await im.chatrooms.create({ name: 'lobby' })) as { room_id: string };
    expect(await im.chatrooms.get({ room_id: room.room_id })).toMatchObject({ name: 'lobby' });
    await im.chatrooms.setAttributes({ room_id: room.room_id, attributes: { topic: 'news', lang: 'en' } });
    await im.chatrooms.removeAttributes({ room_id: room.room_id, keys: ['lang'] });
    expect(await im.chatrooms.attributes({ room_id: room.room_id })).toEqual({ topic: 'news' });
    await im.chatrooms.ban({ room_id: room.room_id, usernames: ['bob'] });
    await im.chatrooms.mute({ room_id: room.room_id, usernames: ['alice'], duration: 30 });
    expect((await all(im.chatrooms.bans({ room_id: room.room_id }))).map((b) => b.username)).toEqual(['bob']);
    expect((await all(im.chatrooms.mutes({ room_id: room.room_id }))).map((m) => m.username)).toEqual(['alice']);
    await im.chatrooms.unban({ room_id: room.room_id, usernames: ['bob'] });
    expect(await all(im.chatrooms.bans({ room_id: room.room_id }))).toEqual([]);
    const sent = (await im.chatrooms.send({
      room_id: room.room_id,
      from: 'alice',
      body: 'hi',
      client_msg_id: 'room-1',
    })) as { message_id: string };
    const again = (await im.chatrooms.send({
      room_id: room.room_id,
      from: 'alice',
      body: 'hi',
      client_msg_id: 'room-1',
    })) as { message_id: string };
    expect(again.message_id).toBe(sent.message_id);
    expect(await im.chatrooms.recentMessages({ room_id: room.room_id })).toEqual({
      items: [expect.objectContaining({ message_id: sent.message_id })],
    });
    await im.chatrooms.delete({ room_id: room.room_id });
    await expect(im.chatrooms.get({ room_id: room.room_id })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('messages and conversations', () => {
  it('each send takes the next sequence number; a resend with the same client_msg_id is the same message; history pages in order', async () => {
    fake.seed({ users: ['alice', 'bob'].map((username) => ({ username })) });
    const sent: { message_id: string; seq: number; conversation_id: string }[] = [];
    for (let i = 1; i <= 5; i++)
      sent.push((await im.messages.send({ from: 'alice', to: 'bob', body: `m${i}`, client_msg_id: `k${i}` })) as never);
    expect(sent.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
    const repeat = (await im.messages.send({ from: 'alice', to: 'bob', body: 'm3', client_msg_id: 'k3' })) as {
      message_id: string;
      seq: number;
    };
    expect(repeat).toMatchObject({ message_id: sent[2]!.message_id, seq: 3 });
    const conv = sent[0]!.conversation_id;
    expect(await im.conversations.single({ username: 'bob', peer: 'alice' })).toMatchObject({
      conversation_id: conv,
      last_seq: 5,
    });
    const history = await all(im.conversations.messages({ conversation_id: conv }));
    expect(history.map((m) => (m as { seq: number }).seq)).toEqual([1, 2, 3, 4, 5]);
    const around = await im.conversations.messages({ conversation_id: conv, around_seq: 4 });
    expect(around.items.map((m) => (m as { seq: number }).seq)).toEqual([3, 4]);
    expect(await im.conversations.unreadCount({ username: 'bob' })).toEqual({ unread: 5 });
    await im.conversations.markRead({ username: 'bob', conversation_id: conv, seq: 2 });
    expect(await im.conversations.stateOfUser({ username: 'bob', conversation_id: conv })).toMatchObject({
      read_seq: 2,
      unread: 3,
    });
    await im.messages.recall({ message_id: sent[0]!.message_id });
    expect(await im.messages.get({ message_id: sent[0]!.message_id })).toMatchObject({ recalled: true });
    expect((await all(im.messages.sentBy({ username: 'alice' }))).length).toBe(5);
    await im.conversations.delete({ username: 'bob', conversation_id: conv });
    expect(await all(im.conversations.ofUser({ username: 'bob' }))).toEqual([]);
  });
});

describe('uploads', () => {
  it('create → parts → complete makes the file byte for byte; a failed part resumes with only the missing parts', async () => {
    const bytes = Uint8Array.from({ length: 5000 }, (_, i) => i % 251);
    const whole = await im.media.upload(bytes, { partSize: 1000, concurrency: 2 });
    expect(whole).toMatchObject({ parts: 5, bytesSent: 5000 });
    expect(await im.media.file({ file_id: whole.fileId })).toMatchObject({ size: 5000, parts: 5 });
    // the part upload addresses never get the App Token
    expect(fake.callsTo('fake.part_upload').every((c) => c.headers.authorization === undefined)).toBe(true);
    fake.fault({
      operation: 'fake.part_upload',
      kind: 'server_error',
      when: (c) => c.params.part_number === 3,
      times: 3,
    });
    const failed = await im.media
      .upload(bytes, { partSize: 1000, concurrency: 1, partRetries: 2 })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(UploadInterruptedError);
    const fileId = (failed as UploadInterruptedError).fileId;
    expect([...fake.state.uploads.get(fileId)!.parts.keys()].sort()).toEqual([1, 2]);
    const before = fake.callsTo('fake.part_upload').length;
    const resumed = await im.media.resumeUpload(fileId, bytes, { partSize: 1000 });
    expect(
      fake
        .callsTo('fake.part_upload')
        .slice(before)
        .map((c) => c.params.part_number),
    ).toEqual([3, 4, 5]);
    expect(resumed.file).toMatchObject({ size: 5000, parts: 5 });
    const stored = fake.state.files.get(fileId)!;
    expect(stored.size).toBe(5000);
    await im.media.deleteFile({ file_id: fileId });
    await expect(im.media.file({ file_id: fileId })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('moderation', () => {
  it('processPending decides every pending item once with its version; a decided item answers version_conflict', async () => {
    fake.seed({
      moderationItems: Array.from({ length: 5 }, (_, i) => ({
        id: `i${i}`,
        scene: 'message',
        status: i === 4 ? 'auto_violation' : 'pending',
      })),
    });
    const report = await im.moderation.processPending({ decide: () => ({ decision: 'no_violation' }) });
    expect(report.decided.map((d) => d.itemId).sort()).toEqual(['i0', 'i1', 'i2', 'i3', 'i4']);
    expect(fake.callsTo('moderation.decide')).toHaveLength(5);
    expect(fake.state.moderation.items.get('i0')).toMatchObject({ decision: 'no_violation', version: 2 });
    await expect(im.moderation.decide({ item_id: 'i0', decision: 'no_violation', version: 1 })).rejects.toBeInstanceOf(
      VersionConflictError,
    );
    expect((await im.moderation.processPending({ decide: () => ({ decision: 'no_violation' }) })).decided).toEqual([]);
  });
});

describe('RTC channels', () => {
  it('PUT creates (201) then answers 200; get → list → ban (null when none) → unban → close', async () => {
    fake.seed({ users: [{ username: 'bob' }] });
    const first = await im.rtc.createChannel({ channel_id: 'c1', name: 'standup' }).withResponse();
    const again = await im.rtc.createChannel({ channel_id: 'c1', name: 'standup' }).withResponse();
    expect([first.response.status, again.response.status]).toEqual([201, 200]);
    expect((await all(im.rtc.listChannels())).map((c) => c.channel_id)).toEqual(['c1']);
    expect(await im.rtc.getBan({ channel_id: 'c1', username: 'bob' })).toBeNull();
    await im.rtc.ban({ channel_id: 'c1', username: 'bob', expires_at: '2030-01-01T00:00:00Z' });
    expect(await im.rtc.getBan({ channel_id: 'c1', username: 'bob' })).toMatchObject({
      expires_at: '2030-01-01T00:00:00Z',
    });
    await im.rtc.ban({ channel_id: 'c1', username: 'bob', expires_at: null });
    expect(await im.rtc.getBan({ channel_id: 'c1', username: 'bob' })).not.toHaveProperty('expires_at');
    await im.rtc.unban({ channel_id: 'c1', username: 'bob' });
    expect(await im.rtc.getBan({ channel_id: 'c1', username: 'bob' })).toBeNull();
    await im.rtc.closeChannel({ channel_id: 'c1' });
    expect(await im.rtc.getChannel({ channel_id: 'c1' })).toMatchObject({ status: 'closed' });
  });
});
