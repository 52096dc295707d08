// Copied by im-openapi from templates/runtime/testing/ops/users.ts. Do not edit here: edit the template and run `npm run generate`.
/** Users, their sessions and mutes (seed 000 §4.2). */
import { alreadyExists, invalidArgument, notFound } from '../errors.js';
import type { Json } from '../state/state.js';
import {
  changes,
  copy,
  isoTime,
  itemList,
  microTime,
  page,
  pathParam,
  requireUser,
  stringList,
  type HandlerContext,
  type OpHandler,
} from './context.js';

/** Creates one user from a users.create / batch_create entry (already_exists on a taken username). */
export function createUser(c: HandlerContext, input: Json): Json {
  const username = input.username;
  if (typeof username !== 'string' || username === '')
    throw invalidArgument('username', 'required, a non-empty string');
  if (c.state.users.has(username)) throw alreadyExists('user', username);
  const user: Json = { ...copy(input), username, disabled: false, created_at: isoTime(c) };
  c.state.users.set(username, user);
  return user;
}

/** Removes a user and what hangs off them (friends, blacklist, settings, memberships stay where others hold them). */
function deleteUser(c: HandlerContext, username: string): void {
  c.state.users.delete(username);
  for (const map of [
    c.state.sessions,
    c.state.userMutes,
    c.state.friends,
    c.state.blacklists,
    c.state.friendSettings,
    c.state.pushSettings,
    c.state.pushMutes,
    c.state.pushDevices,
    c.state.groupInviteSettings,
  ]) {
    (map as Map<string, unknown>).delete(username);
  }
}

function sessionsOf(c: HandlerContext, username: string): Json[] {
  let list = c.state.sessions.get(username);
  if (!list) c.state.sessions.set(username, (list = []));
  return list;
}

export const userHandlers: Record<string, OpHandler> = {
  'users.create': (c) => ({ body: copy(createUser(c, c.body)) }),
  'users.batch_create': (c) => {
    const users = c.params.users;
    if (!Array.isArray(users)) throw invalidArgument('users', 'must be a list of users');
    // Checked first, so that a refused batch creates nobody.
    const seen = new Set<string>();
    for (const u of users as Json[]) {
      if (c.state.users.has(u?.username) || seen.has(u?.username)) throw alreadyExists('user', String(u?.username));
      seen.add(u?.username);
    }
    return { body: { items: users.map((u: Json) => copy(createUser(c, u))) } };
  },
  'users.list': (c) => page(c, [...c.state.users.values()]),
  'users.lookup': (c) => {
    const found = stringList(c, 'usernames')
      .map((n) => c.state.users.get(n))
      .filter((u): u is Json => u !== undefined);
    return itemList(found);
  },
  'users.get': (c) => ({ body: copy(requireUser(c)) }),
  'users.update': (c) => {
    const user = requireUser(c);
    Object.assign(user, changes(c), { username: user.username });
    return { body: copy(user) };
  },
  'users.delete': (c) => {
    requireUser(c);
    deleteUser(c, pathParam(c, 'username'));
    return { body: {} };
  },
  'users.disable': (c) => {
    requireUser(c).disabled = true;
    return { body: {} };
  },
  'users.enable': (c) => {
    requireUser(c).disabled = false;
    return { body: {} };
  },
  'users.issue_login_ticket': (c) => {
    const user = requireUser(c);
    return {
      body: { username: user.username, ticket: c.state.newId('ticket'), expires_at: isoTime(c, c.now() + 300_000) },
    };
  },
  'users.set_password': (c) => {
    requireUser(c).password_updated_at = isoTime(c);
    return { body: {} };
  },
  'users.sessions': (c) => {
    requireUser(c);
    return itemList(sessionsOf(c, pathParam(c, 'username')));
  },
  'users.kick': (c) => {
    requireUser(c);
    const list = sessionsOf(c, pathParam(c, 'username'));
    const at = list.findIndex((s) => s.session_id === pathParam(c, 'session_id'));
    if (at < 0) throw notFound('session', pathParam(c, 'session_id'));
    list.splice(at, 1);
    return { body: {} };
  },
  'users.kick_all': (c) => {
    requireUser(c);
    const username = pathParam(c, 'username');
    const revoked = sessionsOf(c, username).splice(0);
    c.emit('user.sessions_revoked', { username, revoked_before: microTime(c.now()) });
    return { body: { revoked: revoked.length } };
  },
  'users.mutes': (c) => {
    requireUser(c);
    return itemList([...(c.state.userMutes.get(pathParam(c, 'username'))?.values() ?? [])]);
  },
  'users.mute': (c) => {
    requireUser(c);
    const username = pathParam(c, 'username');
    const scope = pathParam(c, 'scope');
    let mutes = c.state.userMutes.get(username);
    if (!mutes) c.state.userMutes.set(username, (mutes = new Map()));
    const mute = { ...changes(c), username, scope, muted_at: isoTime(c) };
    mutes.set(scope, mute);
    return { body: copy(mute) };
  },
  'users.unmute': (c) => {
    requireUser(c);
    const mutes = c.state.userMutes.get(pathParam(c, 'username'));
    if (!mutes?.delete(pathParam(c, 'scope'))) throw notFound('mute', pathParam(c, 'scope'));
    return { body: {} };
  },
  'users.list_muted': (c) =>
    page(
      c,
      [...c.state.userMutes.values()].flatMap((m) => [...m.values()]),
    ),
};
