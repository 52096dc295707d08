/**
 * Push settings (seed 000 §4.9: per-user settings, devices, conversation mutes as a versioned
 * list), calls and presence (§4.12). Calls and presence change on the clients' side, which the
 * REST API does not reach: the fake answers what was seeded (`fake.seed({ calls, presence })`).
 */
import { notFound } from '../errors.js';
import type { Json } from '../state/state.js';
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
  userSettingsHandlers,
  versionedPage,
  type HandlerContext,
  type OpHandler,
} from './context.js';

function muteKey(type: 'group' | 'single', id: string): string {
  return `${type}:${id}`;
}

function mute(c: HandlerContext, type: 'group' | 'single', id: string): Json {
  const username = pathParam(c, 'username');
  const record = { ...copy(changes(c)), type, [type === 'group' ? 'group_id' : 'peer']: id, muted_at: isoTime(c) };
  c.state.listOf(c.state.pushMutes, username).set(muteKey(type, id), record);
  return record;
}

function unmute(c: HandlerContext, type: 'group' | 'single', id: string): void {
  if (!c.state.listOf(c.state.pushMutes, pathParam(c, 'username')).delete(muteKey(type, id)))
    throw notFound('conversation mute', id);
}

function callOf(c: HandlerContext): Json {
  return requireIn(c.state.calls, 'call', pathParam(c, 'call_id'));
}

const pushSettings = userSettingsHandlers((c) => c.state.pushSettings, {});

export const pushAndCallHandlers: Record<string, OpHandler> = {
  'push.settings': pushSettings[0],
  'push.update_settings': pushSettings[1],
  'push.devices': (c) => {
    requireUser(c);
    return itemList(c.state.pushDevices.get(pathParam(c, 'username')) ?? []);
  },
  'push.unbind_device': (c) => {
    requireUser(c);
    const list = c.state.pushDevices.get(pathParam(c, 'username')) ?? [];
    const at = list.findIndex((d) => d.session_id === pathParam(c, 'session_id'));
    if (at < 0) throw notFound('push device', pathParam(c, 'session_id'));
    list.splice(at, 1);
    return { body: {} };
  },
  'push.mutes': (c) => {
    requireUser(c);
    return versionedPage(c, c.state.pushMutes.get(pathParam(c, 'username')));
  },
  'push.mute_group': (c) => {
    requireUser(c);
    requireIn(c.state.groups, 'group', pathParam(c, 'group_id'));
    return { body: copy(mute(c, 'group', pathParam(c, 'group_id'))) };
  },
  'push.unmute_group': (c) => {
    requireUser(c);
    unmute(c, 'group', pathParam(c, 'group_id'));
    return { body: {} };
  },
  'push.mute_single': (c) => {
    requireUser(c);
    requireUser(c, pathParam(c, 'peer'));
    return { body: copy(mute(c, 'single', pathParam(c, 'peer'))) };
  },
  'push.unmute_single': (c) => {
    requireUser(c);
    unmute(c, 'single', pathParam(c, 'peer'));
    return { body: {} };
  },

  'calls.list': (c) => page(c, [...c.state.calls.values()]),
  'calls.get': (c) => ({ body: copy(callOf(c)) }),
  'calls.end': (c) => {
    const call = callOf(c);
    if (call.status !== 'ended')
      Object.assign(call, {
        status: 'ended',
        ended_at: isoTime(c),
        ...(c.params.reason !== undefined ? { end_reason: c.params.reason } : {}),
      });
    return { body: {} };
  },
  'calls.remove_member': (c) => {
    const call = callOf(c);
    const members: unknown[] = Array.isArray(call.members) ? call.members : [];
    const at = members.indexOf(pathParam(c, 'username'));
    if (at < 0) throw notFound('call member', pathParam(c, 'username'));
    members.splice(at, 1);
    return { body: {} };
  },
  'calls.active_of': (c) => {
    const username = pathParam(c, 'username');
    requireUser(c, username);
    const active = [...c.state.calls.values()].filter(
      (call) => call.status !== 'ended' && Array.isArray(call.members) && call.members.includes(username),
    );
    return { body: { username, items: copy(active) } };
  },
  'presence.get': (c) => {
    requireUser(c);
    return { body: copy(c.state.presence.get(pathParam(c, 'username')) ?? { username: pathParam(c, 'username') }) };
  },
  'presence.query': (c) =>
    itemList(
      stringList(c, 'usernames')
        .filter((u) => c.state.users.has(u))
        .map((u) => c.state.presence.get(u) ?? { username: u }),
    ),
};
