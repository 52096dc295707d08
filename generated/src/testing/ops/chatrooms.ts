// Copied by im-openapi from templates/runtime/testing/ops/chatrooms.ts. Do not edit here: edit the template and run `npm run generate`.
/** Chatrooms (seed 000 §4.10): rooms, admins, allowlist, attributes, bans, mutes, members, messages. */
import { invalidArgument, notFound } from '../errors.js';
import type { ChatroomRecord, Json } from '../state/state.js';
import {
  changes,
  copy,
  isoTime,
  itemList,
  page,
  pathParam,
  requireIn,
  requireUser,
  stringList,
  type HandlerContext,
  type OpHandler,
} from './context.js';

function roomOf(c: HandlerContext): ChatroomRecord {
  return requireIn(c.state.chatrooms, 'chatroom', pathParam(c, 'room_id'));
}

/** A new room record (also used by seeding). */
export function newRoom(room: Json): ChatroomRecord {
  return {
    room,
    members: new Map(),
    admins: new Set(),
    allowlist: new Map(),
    bans: new Map(),
    mutes: new Map(),
    attributes: new Map(),
    messages: [],
  };
}

/** Adds a user entry to one of the room's per-user maps for each name (users must exist). */
function putUsers(c: HandlerContext, map: Map<string, Json>, extra: Json): Json[] {
  const names = stringList(c, 'usernames');
  for (const n of names) requireUser(c, n);
  return names.map((username) => {
    const entry = { ...copy(extra), username, at: isoTime(c) };
    map.set(username, entry);
    return entry;
  });
}

function dropUsers(c: HandlerContext, map: Map<string, Json>): Json {
  return { removed: stringList(c, 'usernames').filter((n) => map.delete(n)) };
}

/** The penalty params of a ban or mute: the body without the usernames. */
function penalty(c: HandlerContext): Json {
  const { usernames: _ignored, ...rest } = changes(c);
  return rest;
}

export const chatroomHandlers: Record<string, OpHandler> = {
  'chatrooms.create': (c) => {
    const name = c.params.name;
    if (typeof name !== 'string' || name === '') throw invalidArgument('name', 'required, a non-empty string');
    if (typeof c.body.owner === 'string') requireUser(c, c.body.owner);
    const room_id = c.state.newId('room');
    const record = newRoom({
      ...copy(c.body),
      room_id,
      name,
      disabled: false,
      mute_all: false,
      created_at: isoTime(c),
    });
    c.state.chatrooms.set(room_id, record);
    return { body: copy(record.room) };
  },
  'chatrooms.list': (c) =>
    page(
      c,
      [...c.state.chatrooms.values()].map((r) => r.room),
    ),
  'chatrooms.get': (c) => ({ body: copy(roomOf(c).room) }),
  'chatrooms.update': (c) => {
    const r = roomOf(c);
    Object.assign(r.room, changes(c), { room_id: r.room.room_id });
    return { body: copy(r.room) };
  },
  'chatrooms.delete': (c) => {
    roomOf(c);
    c.state.chatrooms.delete(pathParam(c, 'room_id'));
    return { body: {} };
  },
  'chatrooms.disable': (c) => {
    roomOf(c).room.disabled = true;
    return { body: {} };
  },
  'chatrooms.enable': (c) => {
    roomOf(c).room.disabled = false;
    return { body: {} };
  },
  'chatrooms.set_admin': (c) => {
    const r = roomOf(c);
    requireUser(c);
    r.admins.add(pathParam(c, 'username'));
    return { body: {} };
  },
  'chatrooms.remove_admin': (c) => {
    if (!roomOf(c).admins.delete(pathParam(c, 'username'))) throw notFound('chatroom admin', pathParam(c, 'username'));
    return { body: {} };
  },
  'chatrooms.allowlist': (c) => page(c, [...roomOf(c).allowlist.values()]),
  'chatrooms.add_to_allowlist': (c) => ({ body: { items: putUsers(c, roomOf(c).allowlist, {}) } }),
  'chatrooms.remove_from_allowlist': (c) => ({ body: dropUsers(c, roomOf(c).allowlist) }),
  'chatrooms.attributes': (c) => {
    const r = roomOf(c);
    const keys = c.params.keys === undefined ? undefined : new Set(([] as unknown[]).concat(c.params.keys).map(String));
    return { body: Object.fromEntries([...r.attributes].filter(([k]) => !keys || keys.has(k))) };
  },
  'chatrooms.set_attributes': (c) => {
    const r = roomOf(c);
    const attributes = c.params.attributes;
    if (!attributes || typeof attributes !== 'object' || Object.values(attributes).some((v) => typeof v !== 'string'))
      throw invalidArgument('attributes', 'must map strings to strings');
    for (const [k, v] of Object.entries(attributes as Record<string, string>)) r.attributes.set(k, v);
    return { body: Object.fromEntries(r.attributes) };
  },
  'chatrooms.remove_attributes': (c) => {
    const r = roomOf(c);
    const keys = c.params.keys;
    if (!Array.isArray(keys)) throw invalidArgument('keys', 'must be a list of keys');
    return { body: { removed: keys.filter((k) => r.attributes.delete(String(k))) } };
  },
  'chatrooms.bans': (c) => page(c, [...roomOf(c).bans.values()]),
  'chatrooms.ban': (c) => ({ body: { items: putUsers(c, roomOf(c).bans, penalty(c)) } }),
  'chatrooms.unban': (c) => ({ body: dropUsers(c, roomOf(c).bans) }),
  'chatrooms.mutes': (c) => page(c, [...roomOf(c).mutes.values()]),
  'chatrooms.mute': (c) => ({ body: { items: putUsers(c, roomOf(c).mutes, penalty(c)) } }),
  'chatrooms.unmute': (c) => ({ body: dropUsers(c, roomOf(c).mutes) }),
  'chatrooms.mute_all': (c) => {
    roomOf(c).room.mute_all = true;
    return { body: {} };
  },
  'chatrooms.unmute_all': (c) => {
    roomOf(c).room.mute_all = false;
    return { body: {} };
  },
  'chatrooms.members': (c) => page(c, [...roomOf(c).members.values()]),
  'chatrooms.member': (c) => ({
    body: copy(requireIn(roomOf(c).members, 'chatroom member', pathParam(c, 'username'))),
  }),
  'chatrooms.kick': (c) => ({ body: dropUsers(c, roomOf(c).members) }),
  'chatrooms.transfer_owner': (c) => {
    const r = roomOf(c);
    const next = c.params.username;
    if (next !== null) requireUser(c, String(next));
    r.room.owner = next;
    return { body: {} };
  },
  'chatrooms.online_counts': (c) =>
    itemList(
      stringList(c, 'room_ids').flatMap((room_id) => {
        const r = c.state.chatrooms.get(room_id);
        return r ? [{ room_id, count: r.members.size }] : [];
      }),
    ),
  'chatrooms.send': (c) => {
    const r = roomOf(c);
    const key =
      typeof c.params.client_msg_id === 'string'
        ? `room\u0000${r.room.room_id}\u0000${c.params.client_msg_id}`
        : undefined;
    const earlier = key === undefined ? undefined : c.state.sentKeys.get(key);
    const known = earlier === undefined ? undefined : r.messages.find((m) => m.message_id === earlier);
    if (known) return { body: copy(known) };
    const message = {
      ...copy(changes(c)),
      message_id: c.state.newId('room-msg'),
      room_id: r.room.room_id,
      sent_at: isoTime(c),
    };
    r.messages.push(message);
    if (key !== undefined) c.state.sentKeys.set(key, message.message_id);
    c.emit('chatroom.message_sent', copy(message));
    return { body: copy(message) };
  },
  'chatrooms.recent_messages': (c) => {
    const messages = roomOf(c).messages;
    const limit = c.params.limit === undefined ? c.pageSize : Number(c.params.limit);
    if (!Number.isInteger(limit) || limit < 1) throw invalidArgument('limit', 'must be a whole number from 1');
    return itemList(messages.slice(-limit));
  },
  'chatrooms.recall': (c) => {
    const r = roomOf(c);
    const message = r.messages.find((m) => m.message_id === pathParam(c, 'message_id'));
    if (!message) throw notFound('chatroom message', pathParam(c, 'message_id'));
    if (!message.recalled) {
      message.recalled = true;
      c.emit('chatroom.message_recalled', {
        room_id: r.room.room_id,
        message_id: message.message_id,
        ...(c.params.reason !== undefined ? { reason: c.params.reason } : {}),
      });
    }
    return { body: {} };
  },
};
