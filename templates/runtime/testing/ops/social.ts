/** Friends, friend settings and requests, and the blacklist (seed 000 §4.3, §4.4): versioned lists. */
import { invalidArgument, notFound } from '../errors.js';
import type { Json, VersionedList } from '../state/state.js';
import {
  changes,
  copy,
  isoTime,
  page,
  pathParam,
  requireUser,
  stringList,
  userSettingsHandlers,
  versionedPage,
  type HandlerContext,
  type OpHandler,
} from './context.js';

function friendsOf(c: HandlerContext, username: string): VersionedList {
  return c.state.listOf(c.state.friends, username);
}

/** Adds `friend` to `username`'s list (both must exist); friend.added goes out when it is new. Friendship is one-directional in the fake. */
function addFriend(c: HandlerContext, username: string, friend: string, extra: Json): Json {
  requireUser(c, username);
  requireUser(c, friend);
  const list = friendsOf(c, username);
  const existing = list.items.get(friend);
  if (existing) return existing;
  const record: Json = { ...copy(extra), username: friend, added_at: isoTime(c) };
  list.set(friend, record);
  c.emit('friend.added', { username, friend, version: list.version });
  return record;
}

function blacklistOf(c: HandlerContext, username: string): VersionedList {
  return c.state.listOf(c.state.blacklists, username);
}

function block(c: HandlerContext, username: string, target: string): Json {
  requireUser(c, target);
  const list = blacklistOf(c, username);
  const existing = list.items.get(target);
  if (existing) return existing;
  const record = { username: target, added_at: isoTime(c) };
  list.set(target, record);
  return record;
}

const friendSettings = userSettingsHandlers((c) => c.state.friendSettings, { friend_add_mode: null });

export const socialHandlers: Record<string, OpHandler> = {
  'friends.add': (c) => ({ body: copy(addFriend(c, pathParam(c, 'username'), pathParam(c, 'friend'), changes(c))) }),
  'friends.batch_add': (c) => {
    const username = pathParam(c, 'username');
    requireUser(c, username);
    const items = c.params.friends;
    if (!Array.isArray(items)) throw invalidArgument('friends', 'must be a list of friend items');
    for (const item of items as Json[]) requireUser(c, item?.username);
    return { body: { items: items.map((item: Json) => copy(addFriend(c, username, item.username, item))) } };
  },
  'friends.list': (c) => {
    requireUser(c);
    return versionedPage(c, c.state.friends.get(pathParam(c, 'username')));
  },
  'friends.get': (c) => {
    requireUser(c);
    const friend = c.state.friends.get(pathParam(c, 'username'))?.items.get(pathParam(c, 'friend'));
    if (!friend) throw notFound('friend', pathParam(c, 'friend'));
    return { body: copy(friend) };
  },
  'friends.update': (c) => {
    requireUser(c);
    const list = friendsOf(c, pathParam(c, 'username'));
    const friend = list.items.get(pathParam(c, 'friend'));
    if (!friend) throw notFound('friend', pathParam(c, 'friend'));
    const updated = { ...friend, ...changes(c), username: friend.username };
    list.set(friend.username, updated);
    return { body: copy(updated) };
  },
  'friends.delete': (c) => {
    requireUser(c);
    if (!friendsOf(c, pathParam(c, 'username')).delete(pathParam(c, 'friend')))
      throw notFound('friend', pathParam(c, 'friend'));
    return { body: {} };
  },
  'friends.delete_all': (c) => {
    requireUser(c);
    return { body: { count: friendsOf(c, pathParam(c, 'username')).clear() } };
  },
  'friends.batch_delete': (c) => {
    requireUser(c);
    const list = friendsOf(c, pathParam(c, 'username'));
    const deleted = stringList(c, 'usernames').filter((n) => list.delete(n));
    return { body: { deleted } };
  },
  'friends.check': (c) => {
    requireUser(c);
    const list = c.state.friends.get(pathParam(c, 'username'));
    return {
      body: {
        items: stringList(c, 'usernames').map((username) => ({
          username,
          is_friend: list?.items.has(username) ?? false,
        })),
      },
    };
  },
  'friends.settings': friendSettings[0],
  'friends.set_settings': friendSettings[1],
  'friends.requests': (c) => {
    requireUser(c);
    return page(c, c.state.friendRequests.get(pathParam(c, 'username')) ?? []);
  },

  'blacklist.add': (c) => {
    requireUser(c);
    return { body: copy(block(c, pathParam(c, 'username'), pathParam(c, 'target'))) };
  },
  'blacklist.batch_add': (c) => {
    requireUser(c);
    const targets = stringList(c, 'usernames');
    for (const t of targets) requireUser(c, t);
    return { body: { items: targets.map((t) => copy(block(c, pathParam(c, 'username'), t))) } };
  },
  'blacklist.batch_remove': (c) => {
    requireUser(c);
    const list = blacklistOf(c, pathParam(c, 'username'));
    return { body: { removed: stringList(c, 'usernames').filter((n) => list.delete(n)) } };
  },
  'blacklist.list': (c) => {
    requireUser(c);
    return versionedPage(c, c.state.blacklists.get(pathParam(c, 'username')));
  },
  'blacklist.remove': (c) => {
    requireUser(c);
    if (!blacklistOf(c, pathParam(c, 'username')).delete(pathParam(c, 'target')))
      throw notFound('blacklist entry', pathParam(c, 'target'));
    return { body: {} };
  },
};
