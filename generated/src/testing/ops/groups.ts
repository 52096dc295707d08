// Copied by im-openapi from templates/runtime/testing/ops/groups.ts. Do not edit here: edit the template and run `npm run generate`.
/** Groups, their members (a versioned list), blacklist, requests and invite settings (seed 000 §4.5). */
import { invalidArgument, notFound } from '../errors.js';
import type { Json, VersionedList } from '../state/state.js';
import {
  changes,
  copy,
  isoTime,
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

function groupOf(c: HandlerContext): Json {
  return requireIn(c.state.groups, 'group', pathParam(c, 'group_id'));
}

function membersOf(c: HandlerContext, groupId: string): VersionedList {
  return c.state.listOf(c.state.groupMembers, groupId);
}

function memberOf(c: HandlerContext): Json {
  groupOf(c);
  const member = membersOf(c, pathParam(c, 'group_id')).items.get(pathParam(c, 'username'));
  if (!member) throw notFound('group member', pathParam(c, 'username'));
  return member;
}

/**
 * Adds the users not yet members and sends group.members_added (seed 001 §2.6) for them. The
 * seed gives joined_via `create` only: other joins carry no joined_via, and no inviter or
 * operator (a server action names no user).
 */
export function addMembers(
  c: HandlerContext,
  groupId: string,
  usernames: readonly string[],
  how: { joinedVia?: 'create'; ownerName?: string },
): Json[] {
  for (const name of usernames) requireUser(c, name);
  const list = membersOf(c, groupId);
  const at = isoTime(c);
  const added: Json[] = [];
  for (const username of new Set(usernames)) {
    if (list.items.has(username)) continue;
    const member: Json = {
      username,
      role: username === how.ownerName ? 'admin' : 'member',
      joined_at: at,
      ...(how.joinedVia ? { joined_via: how.joinedVia } : {}),
    };
    list.set(username, member);
    added.push(member);
  }
  if (added.length > 0) {
    c.emit('group.members_added', {
      group_id: groupId,
      member_version: list.version,
      member_count: list.items.size,
      members: copy(added),
    });
  }
  return added;
}

const inviteSettings = userSettingsHandlers((c) => c.state.groupInviteSettings, { invite_mode: null });

export const groupHandlers: Record<string, OpHandler> = {
  'groups.create': (c) => {
    const owner = c.params.owner;
    if (typeof owner !== 'string') throw invalidArgument('owner', 'required, a username');
    requireUser(c, owner);
    const group_id = c.state.newId('group');
    const { members, ...profile } = c.body;
    const group = { ...copy(profile), group_id, owner, disabled: false, mute_all: false, created_at: isoTime(c) };
    c.state.groups.set(group_id, group);
    const initial = Array.isArray(members)
      ? (members as unknown[]).filter((m): m is string => typeof m === 'string')
      : [];
    addMembers(c, group_id, [owner, ...initial], { joinedVia: 'create', ownerName: owner });
    return { body: { group_id } };
  },
  'groups.list': (c) => page(c, [...c.state.groups.values()]),
  'groups.get': (c) => ({ body: copy(groupOf(c)) }),
  'groups.update': (c) => {
    const group = groupOf(c);
    Object.assign(group, changes(c), { group_id: group.group_id, owner: group.owner });
    return { body: copy(group) };
  },
  'groups.delete': (c) => {
    groupOf(c);
    const id = pathParam(c, 'group_id');
    c.state.groups.delete(id);
    c.state.groupMembers.delete(id);
    c.state.groupBlacklists.delete(id);
    c.state.groupRequests.delete(id);
    return { body: {} };
  },
  'groups.disable': (c) => {
    groupOf(c).disabled = true;
    return { body: {} };
  },
  'groups.enable': (c) => {
    groupOf(c).disabled = false;
    return { body: {} };
  },
  'groups.members': (c) => {
    groupOf(c);
    return versionedPage(c, c.state.groupMembers.get(pathParam(c, 'group_id')));
  },
  'groups.add_members': (c) => {
    const group = groupOf(c);
    return {
      body: { items: copy(addMembers(c, group.group_id, stringList(c, 'usernames'), { ownerName: group.owner })) },
    };
  },
  'groups.remove_members': (c) => {
    const group = groupOf(c);
    const list = membersOf(c, group.group_id);
    const removed = stringList(c, 'usernames').filter((n) => n !== group.owner && list.delete(n));
    return { body: { removed } };
  },
  'groups.member': (c) => ({ body: copy(memberOf(c)) }),
  'groups.update_member': (c) => {
    const member = memberOf(c);
    const updated = { ...member, ...changes(c), username: member.username, role: member.role };
    membersOf(c, pathParam(c, 'group_id')).set(member.username, updated);
    return { body: copy(updated) };
  },
  'groups.mute_member': (c) => {
    const member = memberOf(c);
    const seconds = c.params.duration;
    const until = typeof seconds === 'number' ? isoTime(c, c.now() + seconds * 1000) : null;
    membersOf(c, pathParam(c, 'group_id')).set(member.username, { ...member, muted: true, muted_until: until });
    return { body: {} };
  },
  'groups.unmute_member': (c) => {
    const member = memberOf(c);
    membersOf(c, pathParam(c, 'group_id')).set(member.username, { ...member, muted: false, muted_until: null });
    return { body: {} };
  },
  'groups.set_role': (c) => {
    const member = memberOf(c);
    membersOf(c, pathParam(c, 'group_id')).set(member.username, { ...member, role: c.params.role });
    return { body: {} };
  },
  'groups.mute_all': (c) => {
    groupOf(c).mute_all = true;
    return { body: {} };
  },
  'groups.unmute_all': (c) => {
    groupOf(c).mute_all = false;
    return { body: {} };
  },
  'groups.transfer_owner': (c) => {
    const group = groupOf(c);
    const next = String(c.params.username);
    if (!membersOf(c, group.group_id).items.has(next)) throw notFound('group member', next);
    group.owner = next;
    return { body: {} };
  },
  'groups.blacklist': (c) => {
    groupOf(c);
    return page(c, [...(c.state.groupBlacklists.get(pathParam(c, 'group_id'))?.values() ?? [])]);
  },
  'groups.add_to_blacklist': (c) => {
    groupOf(c);
    requireUser(c);
    const id = pathParam(c, 'group_id');
    let list = c.state.groupBlacklists.get(id);
    if (!list) c.state.groupBlacklists.set(id, (list = new Map()));
    list.set(pathParam(c, 'username'), {
      username: pathParam(c, 'username'),
      ...(c.params.reason !== undefined ? { reason: c.params.reason } : {}),
      added_at: isoTime(c),
    });
    return { body: {} };
  },
  'groups.remove_from_blacklist': (c) => {
    groupOf(c);
    if (!c.state.groupBlacklists.get(pathParam(c, 'group_id'))?.delete(pathParam(c, 'username')))
      throw notFound('group blacklist entry', pathParam(c, 'username'));
    return { body: {} };
  },
  'groups.requests': (c) => {
    groupOf(c);
    return page(c, c.state.groupRequests.get(pathParam(c, 'group_id')) ?? []);
  },
  'groups.invite_settings': inviteSettings[0],
  'groups.set_invite_settings': inviteSettings[1],
  'groups.of_user': (c) => {
    const username = pathParam(c, 'username');
    requireUser(c, username);
    const mine = [...c.state.groupMembers.entries()].flatMap(([group_id, list]) => {
      const member = list.items.get(username);
      const group = c.state.groups.get(group_id);
      return member && group ? [{ group_id, name: group.name, role: member.role, joined_at: member.joined_at }] : [];
    });
    return page(c, mine);
  },
};
