/**
 * Conversations (seed 000 §4.7): the single or group conversation a message goes into (made on
 * its first message), each member's view of it (read, cleared, deleted sequence numbers, hidden)
 * and the conversation operations. Messages themselves: messages.ts.
 */
import { invalidArgument, notFound } from '../errors.js';
import type { ConversationRecord, Json } from '../state/state.js';
import {
  copy,
  isoTime,
  page,
  pathParam,
  requireIn,
  requireUser,
  type HandlerContext,
  type OpHandler,
} from './context.js';

function findConversation(c: HandlerContext, type: 'single' | 'group', key: string): ConversationRecord | undefined {
  for (const conv of c.state.conversations.values()) if (conv.info.type === type && conv.info.key === key) return conv;
  return undefined;
}

const pairKey = (a: string, b: string): string => [a, b].sort().join('\u0000');

/** The conversation a message from `from` to `to` goes into (made on first use, with `newId` if given), or undefined without `to`. */
export function conversationFor(
  c: HandlerContext,
  from: string | undefined,
  to: string | undefined,
  chatType: string,
  newId?: string,
): ConversationRecord | undefined {
  if (to === undefined) return undefined;
  if (from !== undefined) requireUser(c, from);
  const type = chatType === 'group' ? 'group' : 'single';
  let members: string[];
  let key: string;
  if (type === 'group') {
    requireIn(c.state.groups, 'group', to);
    members = [...(c.state.groupMembers.get(to)?.items.keys() ?? [])];
    key = to;
  } else {
    requireUser(c, to);
    members = from === undefined ? [to] : [from, to];
    key = pairKey(from ?? '', to);
  }
  let conv = findConversation(c, type, key);
  if (!conv) {
    const conversation_id = newId ?? c.state.newId('conv');
    const info: Json = {
      conversation_id,
      type,
      key,
      ...(type === 'group' ? { group_id: to } : { members: [...new Set(members)].sort() }),
      created_at: isoTime(c),
    };
    conv = { info, members: new Set(members), messageIds: [], pins: [], lastSeq: 0 };
    c.state.conversations.set(conversation_id, conv);
  }
  for (const m of members) conv.members.add(m);
  return conv;
}
function conversationOf(c: HandlerContext): ConversationRecord {
  return requireIn(c.state.conversations, 'conversation', pathParam(c, 'conversation_id'));
}

/** `username`'s view of one conversation they take part in (not_found otherwise). */
function viewOf(c: HandlerContext): { conv: ConversationRecord; view: Json } {
  const username = pathParam(c, 'username');
  requireUser(c, username);
  const conv = conversationOf(c);
  if (!conv.members.has(username)) throw notFound('conversation of user', conv.info.conversation_id);
  const key = `${username}\u0000${conv.info.conversation_id}`;
  let view = c.state.userConversations.get(key);
  if (!view)
    c.state.userConversations.set(key, (view = { read_seq: 0, cleared_seq: 0, deleted_seqs: [], hidden: false }));
  return { conv, view };
}

function stateOf(conv: ConversationRecord, view: Json): Json {
  const { key: _key, ...info } = conv.info;
  return {
    ...copy(info),
    last_seq: conv.lastSeq,
    read_seq: view.read_seq,
    unread: Math.max(0, conv.lastSeq - Math.max(view.read_seq, view.cleared_seq)),
  };
}

function publicInfo(conv: ConversationRecord): Json {
  const { key: _key, ...info } = conv.info;
  return { ...copy(info), last_seq: conv.lastSeq };
}

/** Every conversation `username` takes part in and has not deleted, with their view. */
function conversationsOfUser(c: HandlerContext, username: string): Json[] {
  const out: Json[] = [];
  for (const conv of c.state.conversations.values()) {
    if (!conv.members.has(username)) continue;
    const view = c.state.userConversations.get(`${username}\u0000${conv.info.conversation_id}`) ?? {
      read_seq: 0,
      cleared_seq: 0,
      hidden: false,
    };
    if (!view.hidden) out.push(stateOf(conv, view));
  }
  return out;
}

/** The conversation operations. */
export const conversationHandlers: Record<string, OpHandler> = {
  'conversations.get': (c) => ({ body: publicInfo(conversationOf(c)) }),
  'conversations.single': (c) => {
    requireUser(c);
    const conv = findConversation(c, 'single', pairKey(pathParam(c, 'username'), pathParam(c, 'peer')));
    if (!conv) throw notFound('single conversation', `${pathParam(c, 'username')}/${pathParam(c, 'peer')}`);
    return { body: publicInfo(conv) };
  },
  'conversations.messages': (c) => {
    const conv = conversationOf(c);
    const list = conv.messageIds.map((id) => c.state.messages.get(id)).filter((m): m is Json => m !== undefined);
    if (c.params.around_seq !== undefined && c.params.cursor === undefined) {
      const around = Number(c.params.around_seq);
      if (!Number.isInteger(around) || around < 0) throw invalidArgument('around_seq', 'must be a sequence number');
      const found = list.findIndex((m) => m.seq >= around);
      const at = found < 0 ? Math.max(0, list.length - 1) : found;
      return page(c, list, {}, Math.max(0, at - Math.floor(c.pageSize / 2)));
    }
    return page(c, list);
  },
  'conversations.pins': (c) => {
    const conv = conversationOf(c);
    return page(
      c,
      conv.pins.map((id) => c.state.messages.get(id)).filter((m): m is Json => m !== undefined),
    );
  },
  'conversations.of_user': (c) => {
    requireUser(c);
    return page(c, conversationsOfUser(c, pathParam(c, 'username')));
  },
  'conversations.state_of_user': (c) => {
    const { conv, view } = viewOf(c);
    return { body: stateOf(conv, view) };
  },
  'conversations.mark_read': (c) => {
    const { conv, view } = viewOf(c);
    const seq = c.params.seq === undefined ? conv.lastSeq : Number(c.params.seq);
    view.read_seq = Math.max(view.read_seq, Math.min(seq, conv.lastSeq));
    return { body: {} };
  },
  'conversations.mark_all_read': (c) => {
    const username = pathParam(c, 'username');
    requireUser(c, username);
    for (const conv of c.state.conversations.values()) {
      if (!conv.members.has(username)) continue;
      const key = `${username}\u0000${conv.info.conversation_id}`;
      c.state.userConversations.set(key, {
        cleared_seq: 0,
        deleted_seqs: [],
        hidden: false,
        ...c.state.userConversations.get(key),
        read_seq: conv.lastSeq,
      });
    }
    return { body: {} };
  },
  'conversations.delete': (c) => {
    const { conv, view } = viewOf(c);
    view.hidden = true;
    if (c.params.clear_messages === true || c.params.clear_messages === 'true') view.cleared_seq = conv.lastSeq;
    return { body: {} };
  },
  'conversations.clear': (c) => {
    const { conv, view } = viewOf(c);
    view.cleared_seq = conv.lastSeq;
    return { body: {} };
  },
  'conversations.delete_messages': (c) => {
    const { view } = viewOf(c);
    const seqs = c.params.seqs;
    if (!Array.isArray(seqs) || seqs.some((s) => !Number.isInteger(s)))
      throw invalidArgument('seqs', 'must be a list of sequence numbers');
    view.deleted_seqs = [...new Set([...(view.deleted_seqs as number[]), ...(seqs as number[])])].sort((a, b) => a - b);
    return { body: { deleted_seqs: seqs } };
  },
  'conversations.unread_count': (c) => {
    requireUser(c);
    return { body: { unread: conversationsOfUser(c, pathParam(c, 'username')).reduce((n, s) => n + s.unread, 0) } };
  },
};
