// Copied by im-openapi from templates/runtime/testing/state/seed.ts. Do not edit here: edit the template and run `npm run generate`.
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
  const at = new Date(env.now()).toISOString();
  const step = (what: string, run: () => void): void => {
    try {
      run();
    } catch (e) {
      throw new TypeError(
        `fake.seed: ${what}: ${e instanceof FakeApiError ? e.message : String(e)}${e instanceof FakeApiError && e.code === 'not_found' ? ' (seed the users it names first)' : ''}`,
      );
    }
  };
  (input.users ?? []).forEach((u, i) => step(`users[${i}]`, () => createUser(c, u)));
  for (const [owner, friends] of Object.entries(input.friends ?? {})) {
    step(`friends.${owner}`, () => {
      const list = state.listOf(state.friends, owner);
      for (const f of friends) {
        const record: Json = typeof f === 'string' ? { username: f } : { ...f };
        list.set(record.username, { added_at: at, ...record });
      }
    });
  }
  for (const [owner, targets] of Object.entries(input.blacklists ?? {})) {
    const list = state.listOf(state.blacklists, owner);
    for (const username of targets) list.set(username, { username, added_at: at });
  }
  for (const [owner, requests] of Object.entries(input.friendRequests ?? {}))
    state.friendRequests.set(
      owner,
      requests.map((r) => ({ ...r })),
    );
  (input.groups ?? []).forEach((g, i) =>
    step(`groups[${i}]`, () => {
      const { members = [], ...profile } = g;
      const group_id = g.group_id ?? state.newId('group');
      state.groups.set(group_id, { disabled: false, mute_all: false, created_at: at, ...profile, group_id });
      addMembers(c, group_id, [g.owner, ...members], { joinedVia: 'create', ownerName: g.owner });
    }),
  );
  for (const [groupId, requests] of Object.entries(input.groupRequests ?? {}))
    state.groupRequests.set(
      groupId,
      requests.map((r) => ({ ...r })),
    );
  (input.chatrooms ?? []).forEach((r, i) =>
    step(`chatrooms[${i}]`, () => {
      const { members = [], messages = [], ...profile } = r;
      const room_id = r.room_id ?? state.newId('room');
      const record = newRoom({ disabled: false, mute_all: false, created_at: at, ...profile, room_id });
      for (const username of members) record.members.set(username, { username, joined_at: at });
      for (const m of messages)
        record.messages.push({
          sent_at: at,
          ...m,
          message_id: typeof m.message_id === 'string' ? m.message_id : state.newId('room-msg'),
          room_id,
        });
      state.chatrooms.set(room_id, record);
    }),
  );
  (input.messages ?? []).forEach((m, i) =>
    step(`messages[${i}]`, () => {
      const { conversation_id, ...params } = m;
      storeMessage(c, params, typeof conversation_id === 'string' ? conversation_id : undefined);
    }),
  );
  for (const [username, sessions] of Object.entries(input.sessions ?? {}))
    state.sessions.set(
      username,
      sessions.map((s) => ({ session_id: state.newId('session'), created_at: at, ...s })),
    );
  for (const [username, devices] of Object.entries(input.pushDevices ?? {}))
    state.pushDevices.set(
      username,
      devices.map((d) => ({ session_id: state.newId('session'), ...d })),
    );
  (input.moderationItems ?? []).forEach((item) => newItem(c, item));
  (input.wordLists ?? []).forEach((l) => {
    const { words = [], ...list } = l;
    const list_id = l.list_id ?? state.newId('list');
    state.moderation.wordLists.set(list_id, { list: { created_at: at, ...list, list_id }, words: new Set(words) });
  });
  for (const [username, list] of Object.entries(input.violations ?? {}))
    state.moderation.violations.set(
      username,
      list.map((v) => ({ ...v })),
    );
  state.moderation.platformActions.push(...(input.platformActions ?? []).map((a) => ({ ...a })));
  (input.uploads ?? []).forEach((u) => {
    const record = newUpload(c, u);
    for (const n of u.parts ?? []) record.parts.set(n, { size: 0 });
  });
  (input.files ?? []).forEach((f) => {
    const file_id = f.file_id ?? state.newId('file');
    state.files.set(file_id, { status: 'ready', created_at: at, ...f, file_id });
  });
  (input.rtcChannels ?? []).forEach((ch) => {
    const { bans = [], sessions = [], ...channel } = ch;
    const record = newChannel({ status: 'open', created_at: at, ...channel });
    for (const b of bans) record.bans.set(b.username, { channel_id: ch.channel_id, created_at: at, ...b });
    record.sessions.push(...sessions.map((s) => ({ session_id: state.newId('rtc-session'), ...s })));
    state.rtcChannels.set(ch.channel_id, record);
  });
  (input.calls ?? []).forEach((call) => {
    const call_id = call.call_id ?? state.newId('call');
    state.calls.set(call_id, { status: 'active', started_at: at, members: [], ...call, call_id });
  });
  for (const [username, presence] of Object.entries(input.presence ?? {}))
    state.presence.set(username, { username, ...presence });
}
