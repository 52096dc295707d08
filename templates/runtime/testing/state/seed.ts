/**
 * `fake.seed(...)`: puts users, groups, chatrooms, messages, … into the state through the same
 * code the operations use (so a seeded group has the member list and version a created one
 * has), but sends no callbacks. Users that other entries name must be seeded too (or exist).
 */
import type { OperationSpec } from '../../operation.js';
import { FakeApiError } from '../errors.js';
import { newRoom } from '../ops/chatrooms.js';
import type { HandlerContext } from '../ops/context.js';
import { addMembers } from '../ops/groups.js';
import { newUpload } from '../ops/media.js';
import { storeMessage } from '../ops/messages.js';
import { newItem } from '../ops/moderation.js';
import { createUser } from '../ops/users.js';
import { newChannel } from '../ops/rtc.js';
import type { FakeState, Json, SeedInput } from './state.js';

const SEED_OP: OperationSpec = {
  id: 'fake.seed',
  method: 'POST',
  path: '/',
  auth: false,
  pathParams: [],
  queryParams: [],
  body: 'none',
  bodyFields: [],
  retryClass: 'N',
  successStatuses: [200],
};

/** What every part of a seed uses: an operation context on the state, the time, and the error wrapper. */
interface SeedScope {
  c: HandlerContext;
  state: FakeState;
  /** Creation time of every seeded record that has one. */
  at: string;
  /** Runs one entry; an error names the entry (`groups[2]`) and, for a missing user, what to seed first. */
  step(what: string, run: () => void): void;
}

export function applySeed(
  state: FakeState,
  input: SeedInput,
  env: { now(): number; pageSize: number; baseUrl: string },
): void {
  const c: HandlerContext = {
    op: SEED_OP,
    params: {},
    body: {},
    state,
    pageSize: env.pageSize,
    baseUrl: env.baseUrl,
    keepUploadBytes: true,
    now: env.now,
    emit: () => {},
  };
  const step = (what: string, run: () => void): void => {
    try {
      run();
    } catch (e) {
      throw new TypeError(
        `fake.seed: ${what}: ${e instanceof FakeApiError ? e.message : String(e)}${e instanceof FakeApiError && e.code === 'not_found' ? ' (seed the users it names first)' : ''}`,
      );
    }
  };
  const scope: SeedScope = { c, state, at: new Date(env.now()).toISOString(), step };
  // In this order: ids drawn from state.newId follow it, and later entries name earlier ones.
  seedUsers(scope, input);
  seedGroupsAndRooms(scope, input);
  seedMessagesAndSessions(scope, input);
  seedModeration(scope, input);
  seedMediaAndRtc(scope, input);
}

/** Users, friends, blacklists, friend requests. */
function seedUsers(sc: SeedScope, input: SeedInput): void {
  (input.users ?? []).forEach((u, i) => sc.step(`users[${i}]`, () => createUser(sc.c, u)));
  for (const [owner, friends] of Object.entries(input.friends ?? {})) {
    sc.step(`friends.${owner}`, () => {
      const list = sc.state.listOf(sc.state.friends, owner);
      for (const f of friends) {
        const record: Json = typeof f === 'string' ? { username: f } : { ...f };
        list.set(record.username, { added_at: sc.at, ...record });
      }
    });
  }
  for (const [owner, targets] of Object.entries(input.blacklists ?? {})) {
    const list = sc.state.listOf(sc.state.blacklists, owner);
    for (const username of targets) list.set(username, { username, added_at: sc.at });
  }
  for (const [owner, requests] of Object.entries(input.friendRequests ?? {}))
    sc.state.friendRequests.set(
      owner,
      requests.map((r) => ({ ...r })),
    );
}

/** Groups with their members, group requests, chatrooms with members and messages. */
function seedGroupsAndRooms(sc: SeedScope, input: SeedInput): void {
  (input.groups ?? []).forEach((g, i) =>
    sc.step(`groups[${i}]`, () => {
      const { members = [], ...profile } = g;
      const group_id = g.group_id ?? sc.state.newId('group');
      sc.state.groups.set(group_id, { disabled: false, mute_all: false, created_at: sc.at, ...profile, group_id });
      addMembers(sc.c, group_id, [g.owner, ...members], { joinedVia: 'create', ownerName: g.owner });
    }),
  );
  for (const [groupId, requests] of Object.entries(input.groupRequests ?? {}))
    sc.state.groupRequests.set(
      groupId,
      requests.map((r) => ({ ...r })),
    );
  (input.chatrooms ?? []).forEach((r, i) =>
    sc.step(`chatrooms[${i}]`, () => {
      const { members = [], messages = [], ...profile } = r;
      const room_id = r.room_id ?? sc.state.newId('room');
      const record = newRoom({ disabled: false, mute_all: false, created_at: sc.at, ...profile, room_id });
      for (const username of members) record.members.set(username, { username, joined_at: sc.at });
      for (const m of messages)
        record.messages.push({
          sent_at: sc.at,
          ...m,
          message_id: typeof m.message_id === 'string' ? m.message_id : sc.state.newId('room-msg'),
          room_id,
        });
      sc.state.chatrooms.set(room_id, record);
    }),
  );
}

/** Messages (through the send code), sessions, push devices. */
function seedMessagesAndSessions(sc: SeedScope, input: SeedInput): void {
  (input.messages ?? []).forEach((m, i) =>
    sc.step(`messages[${i}]`, () => {
      const { conversation_id, ...params } = m;
      storeMessage(sc.c, params, typeof conversation_id === 'string' ? conversation_id : undefined);
    }),
  );
  for (const [username, sessions] of Object.entries(input.sessions ?? {}))
    sc.state.sessions.set(
      username,
      sessions.map((x) => ({ session_id: sc.state.newId('session'), created_at: sc.at, ...x })),
    );
  for (const [username, devices] of Object.entries(input.pushDevices ?? {}))
    sc.state.pushDevices.set(
      username,
      devices.map((d) => ({ session_id: sc.state.newId('session'), ...d })),
    );
}

/** Moderation items, word lists, violations, platform actions. */
function seedModeration(sc: SeedScope, input: SeedInput): void {
  (input.moderationItems ?? []).forEach((item) => newItem(sc.c, item));
  (input.wordLists ?? []).forEach((l) => {
    const { words = [], ...list } = l;
    const list_id = l.list_id ?? sc.state.newId('list');
    sc.state.moderation.wordLists.set(list_id, {
      list: { created_at: sc.at, ...list, list_id },
      words: new Set(words),
    });
  });
  for (const [username, list] of Object.entries(input.violations ?? {}))
    sc.state.moderation.violations.set(
      username,
      list.map((v) => ({ ...v })),
    );
  sc.state.moderation.platformActions.push(...(input.platformActions ?? []).map((a) => ({ ...a })));
}

/** Uploads, files, RTC channels, calls, presence. */
function seedMediaAndRtc(sc: SeedScope, input: SeedInput): void {
  (input.uploads ?? []).forEach((u) => {
    const record = newUpload(sc.c, u);
    for (const n of u.parts ?? []) record.parts.set(n, { size: 0 });
  });
  (input.files ?? []).forEach((f) => {
    const file_id = f.file_id ?? sc.state.newId('file');
    sc.state.files.set(file_id, { status: 'ready', created_at: sc.at, ...f, file_id });
  });
  (input.rtcChannels ?? []).forEach((ch) => {
    const { bans = [], sessions = [], ...channel } = ch;
    const record = newChannel({ status: 'open', created_at: sc.at, ...channel });
    for (const b of bans) record.bans.set(b.username, { channel_id: ch.channel_id, created_at: sc.at, ...b });
    record.sessions.push(...sessions.map((x) => ({ session_id: sc.state.newId('rtc-session'), ...x })));
    sc.state.rtcChannels.set(ch.channel_id, record);
  });
  (input.calls ?? []).forEach((call) => {
    const call_id = call.call_id ?? sc.state.newId('call');
    sc.state.calls.set(call_id, { status: 'active', started_at: sc.at, members: [], ...call, call_id });
  });
  for (const [username, presence] of Object.entries(input.presence ?? {}))
    sc.state.presence.set(username, { username, ...presence });
}
