// Copied by im-openapi from templates/runtime/testing/ops/rtc.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Standalone RTC channels (seed 000 §4.13): PUT creates (201) or answers the channel as it is
 * (200); expires_at has three states (omitted = unchanged, null = clear, value = set); a
 * missing ban is a null ban; a removal or ticket revocation repeated with its operation_id is
 * answered as the first time. The fake closes and removes at once (200, never 202 pending).
 */
import { randomBytes } from 'node:crypto';
import { notFound } from '../errors.js';
import type { Json, RtcChannelRecord } from '../state/state.js';
import {
  changes,
  copy,
  isoTime,
  itemList,
  page,
  pathParam,
  requireIn,
  requireUser,
  type HandlerContext,
  type OpHandler,
} from './context.js';

export function newChannel(channel: Json): RtcChannelRecord {
  return { channel, bans: new Map(), sessions: [], tickets: [], operations: new Map() };
}

function channelOf(c: HandlerContext): RtcChannelRecord {
  return requireIn(c.state.rtcChannels, 'RTC channel', pathParam(c, 'channel_id'));
}

/** Applies the fields of a PATCH/PUT body, keeping expires_at's three states. */
function applyFields(target: Json, fields: Json): void {
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'expires_at' && v === null) delete target[k];
    else target[k] = v;
  }
}

/** Runs a change once per operation_id: a repeat gets the first answer (the id makes it safe to resend). */
function once(c: HandlerContext, ch: RtcChannelRecord, run: () => Json): Json {
  const id = c.params.operation_id;
  const key = `${c.op.id}\u0000${String(id)}`;
  if (typeof id === 'string' && ch.operations.has(key)) return copy(ch.operations.get(key)!);
  const answer = run();
  if (typeof id === 'string') ch.operations.set(key, answer);
  return copy(answer);
}

export const rtcHandlers: Record<string, OpHandler> = {
  'rtc.create_channel': (c) => {
    const id = pathParam(c, 'channel_id');
    const existing = c.state.rtcChannels.get(id);
    if (existing) return { status: 200, body: copy(existing.channel) };
    const channel: Json = { channel_id: id, status: 'open', created_at: isoTime(c) };
    applyFields(channel, changes(c));
    c.state.rtcChannels.set(id, newChannel(channel));
    c.emit('rtc_channel.created', copy(channel));
    return { status: 201, body: copy(channel) };
  },
  'rtc.list_channels': (c) =>
    page(
      c,
      [...c.state.rtcChannels.values()].map((r) => r.channel),
    ),
  'rtc.get_channel': (c) => ({ body: copy(channelOf(c).channel) }),
  'rtc.update_channel': (c) => {
    const ch = channelOf(c);
    applyFields(ch.channel, changes(c));
    ch.channel.channel_id = pathParam(c, 'channel_id');
    c.emit('rtc_channel.updated', copy(ch.channel));
    return { body: copy(ch.channel) };
  },
  'rtc.close_channel': (c) => {
    const ch = channelOf(c);
    if (ch.channel.status !== 'closed') {
      Object.assign(ch.channel, { status: 'closed', closed_at: isoTime(c) });
      ch.sessions.length = 0;
      c.emit('rtc_channel.closed', { channel_id: ch.channel.channel_id });
    }
    return { status: 200, body: copy(ch.channel) };
  },
  'rtc.issue_tickets': (c) => {
    const ch = channelOf(c);
    const usernames = Array.isArray(c.params.usernames) ? (c.params.usernames as unknown[]).map(String) : [];
    for (const u of usernames) requireUser(c, u);
    const expires_at = isoTime(c, c.now() + 3_600_000);
    const tickets = usernames.map((username) => ({
      channel_id: ch.channel.channel_id,
      username,
      ticket: `rtct_${randomBytes(12).toString('hex')}`,
      expires_at,
    }));
    ch.tickets.push(...tickets);
    return itemList(tickets);
  },
  'rtc.revoke_tickets': (c) => {
    const ch = channelOf(c);
    return {
      body: once(c, ch, () => {
        const who = Array.isArray(c.params.usernames)
          ? new Set((c.params.usernames as unknown[]).map(String))
          : undefined;
        const before = ch.tickets.length;
        ch.tickets = ch.tickets.filter((t) => who !== undefined && !who.has(t.username));
        return { revoked: before - ch.tickets.length };
      }),
    };
  },
  'rtc.sessions': (c) => page(c, channelOf(c).sessions),
  'rtc.remove_member': (c) => {
    const ch = channelOf(c);
    const username = pathParam(c, 'username');
    return {
      status: 200,
      body: once(c, ch, () => {
        const before = ch.sessions.length;
        ch.sessions = ch.sessions.filter((s) => s.username !== username);
        const removed = before - ch.sessions.length;
        if (removed > 0) c.emit('rtc_channel.session_left', { channel_id: ch.channel.channel_id, username });
        return { removed };
      }),
    };
  },
  'rtc.bans': (c) => page(c, [...channelOf(c).bans.values()]),
  'rtc.get_ban': (c) => ({ body: copy(channelOf(c).bans.get(pathParam(c, 'username')) ?? null) }),
  'rtc.ban': (c) => {
    const ch = channelOf(c);
    const username = pathParam(c, 'username');
    const existing = ch.bans.get(username);
    const ban: Json = existing
      ? { ...existing }
      : { channel_id: ch.channel.channel_id, username, created_at: isoTime(c) };
    applyFields(ban, changes(c));
    ch.bans.set(username, ban);
    ch.sessions = ch.sessions.filter((s) => s.username !== username);
    c.emit(existing ? 'rtc_channel.ban_updated' : 'rtc_channel.ban_added', copy(ban));
    return { body: copy(ban) };
  },
  'rtc.unban': (c) => {
    const ch = channelOf(c);
    const username = pathParam(c, 'username');
    if (!ch.bans.delete(username)) throw notFound('RTC ban', username);
    c.emit('rtc_channel.ban_removed', { channel_id: ch.channel.channel_id, username });
    return { body: {} };
  },
  'rtc.channel_stats': (c) => {
    const channels = [...c.state.rtcChannels.values()];
    return {
      body: {
        channels: channels.length,
        open: channels.filter((r) => r.channel.status !== 'closed').length,
        sessions: channels.reduce((n, r) => n + r.sessions.length, 0),
      },
    };
  },
};
