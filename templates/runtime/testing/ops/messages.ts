/**
 * Messages (seed 000 §4.6): a send gets a message id and the next sequence number of its
 * conversation (conversations.ts); a repeat with the same client_msg_id answers the first
 * message and sends nothing twice (class D).
 *
 * The message params are not shown by the seed. The fake reads `from`, `to` and `chat_type`
 * (`single`, default, or `group`: `to` is then a group_id), the names the package's own examples
 * and the callback samples use, and keeps every other field as given.
 */
import { invalidArgument, notFound } from '../errors.js';
import type { Json } from '../state/state.js';
import {
  changes,
  copy,
  isoTime,
  page,
  pathParam,
  requireIn,
  requireUser,
  stringList,
  type HandlerContext,
  type OpHandler,
} from './context.js';
import { conversationFor } from './conversations.js';

/**
 * Stores one message (the send params as given, plus id, conversation and sequence number) and
 * queues message.sent. `conversationId`: the id of its conversation if this makes it (seeding).
 */
export function storeMessage(c: HandlerContext, params: Json, conversationId?: string): Json {
  const from = typeof params.from === 'string' ? params.from : undefined;
  const to = typeof params.to === 'string' ? params.to : undefined;
  const chatType = typeof params.chat_type === 'string' ? params.chat_type : 'single';
  const conv = conversationFor(c, from, to, chatType, conversationId);
  const message: Json = {
    ...copy(params),
    message_id: typeof params.message_id === 'string' ? params.message_id : c.state.newId('msg'),
    chat_type: chatType,
    sent_at: isoTime(c),
    recalled: false,
  };
  if (conv) {
    conv.lastSeq += 1;
    message.conversation_id = conv.info.conversation_id;
    message.seq = conv.lastSeq;
    conv.messageIds.push(message.message_id);
  }
  c.state.messages.set(message.message_id, message);
  c.emit('message.sent', copy(message));
  return message;
}

/** The earlier message of a dedupe key, or a new one. */
function sendOnce(c: HandlerContext, key: string | undefined, params: Json): Json {
  const earlier = key === undefined ? undefined : c.state.sentKeys.get(key);
  const known = earlier === undefined ? undefined : c.state.messages.get(earlier);
  if (known) return known;
  const message = storeMessage(c, params);
  if (key !== undefined) c.state.sentKeys.set(key, message.message_id);
  return message;
}

function messageOf(c: HandlerContext, id = pathParam(c, 'message_id')): Json {
  return requireIn(c.state.messages, 'message', id);
}

function recall(c: HandlerContext, message: Json): void {
  if (message.recalled) return;
  message.recalled = true;
  c.emit('message.recalled', {
    message_id: message.message_id,
    conversation_id: message.conversation_id,
    ...(c.params.reason !== undefined ? { reason: c.params.reason } : {}),
  });
}

export const messageHandlers: Record<string, OpHandler> = {
  'messages.send': (c) => {
    const key = typeof c.params.client_msg_id === 'string' ? `msg\u0000${c.params.client_msg_id}` : undefined;
    return { body: copy(sendOnce(c, key, changes(c))) };
  },
  'messages.batch_send': (c) => {
    const { usernames: _list, ...params } = changes(c);
    const recipients = stringList(c, 'usernames');
    for (const r of recipients) requireUser(c, r);
    const id = c.params.client_msg_id;
    const items = recipients.map((to) => {
      const m = sendOnce(c, typeof id === 'string' ? `batch\u0000${id}\u0000${to}` : undefined, {
        ...params,
        to,
        chat_type: 'single',
      });
      return { to, message_id: m.message_id };
    });
    return { body: { items } };
  },
  'messages.get': (c) => ({ body: copy(messageOf(c)) }),
  'messages.edit': (c) => {
    const message = messageOf(c);
    Object.assign(message, changes(c), { message_id: message.message_id, edited_at: isoTime(c) });
    c.emit('message.edited', copy(message));
    return { body: copy(message) };
  },
  'messages.recall': (c) => {
    recall(c, messageOf(c));
    return { body: {} };
  },
  'messages.batch_recall': (c) => {
    const ids = stringList(c, 'message_ids');
    const messages = ids.map((id) => messageOf(c, id));
    for (const m of messages) recall(c, m);
    return { body: { recalled: ids } };
  },
  'messages.pin': (c) => {
    const message = messageOf(c);
    const conv = c.state.conversations.get(message.conversation_id);
    if (!conv) throw invalidArgument('message_id', 'the message is in no conversation (sent without `to`)');
    if (!conv.pins.includes(message.message_id)) conv.pins.push(message.message_id);
    return { body: {} };
  },
  'messages.unpin': (c) => {
    const message = messageOf(c);
    const conv = c.state.conversations.get(message.conversation_id);
    const at = conv?.pins.indexOf(message.message_id) ?? -1;
    if (!conv || at < 0) throw notFound('pin', message.message_id);
    conv.pins.splice(at, 1);
    return { body: {} };
  },
  'messages.export': (c) => page(c, [...c.state.messages.values()]),
  'messages.sent_by': (c) => {
    const username = pathParam(c, 'username');
    requireUser(c, username);
    return page(
      c,
      [...c.state.messages.values()].filter((m) => m.from === username),
    );
  },
};
