// A consumer of the generated client. `tsc -p test/types` must pass: every @ts-expect-error
// line must really be an error (an unused one is itself an error), so this file proves that
// wrong param names and types do not compile.
import type { ImClient, UsersGetResult, FriendsListItem } from '../../generated/src/index.js';
import { ImCore, usersGet } from '../../generated/src/funcs/index.js';

declare const im: ImClient;

export async function correctCalls(): Promise<void> {
  const user: UsersGetResult = await im.users.get({ username: 'alice' });
  void user;
  await im.users.create({ username: 'alice', nickname: 'open body: extra profile fields are allowed' });
  await im.friends.setSettings({ username: 'alice', friend_add_mode: null });
  await im.groups.setRole({ group_id: 'g1', username: 'bob', role: 'admin' });
  await im.messages.send({ client_msg_id: 'm1', online_only: true, to: 'bob' }, { timeoutMs: 5_000 });
  await im.chatrooms.send({ room_id: 'r1', priority: 'a-future-priority' }); // open enum
  await im.rtc.ban({ channel_id: 'c1', username: 'bob', expires_at: null });
  for await (const friend of im.friends.list({ username: 'alice' })) {
    const f: FriendsListItem = friend;
    void f;
  }
  const page = await im.groups.ofUser({ username: 'alice' });
  void page.nextCursor;
  const core = new ImCore({ baseUrl: 'http://127.0.0.1:1', appKey: 'org#app', clientId: 'id', clientSecret: 's' });
  await usersGet(core, { username: 'alice' });
}

export async function wrongCalls(): Promise<void> {
  // @ts-expect-error a required path parameter is missing
  await im.users.get({});
  // @ts-expect-error a misspelt param on an operation whose shape is closed
  await im.users.get({ username: 'alice', usrname: 'x' });
  // @ts-expect-error a path parameter of the wrong type
  await im.users.get({ username: 42 });
  // @ts-expect-error friend_add_mode outside the seed's list
  await im.friends.setSettings({ username: 'alice', friend_add_mode: 'sometimes' });
  // @ts-expect-error role outside the seed's list
  await im.groups.setRole({ group_id: 'g1', username: 'bob', role: 'owner' });
  // @ts-expect-error online_only must be a boolean
  await im.messages.send({ online_only: 'yes' });
  // @ts-expect-error the password of set_password is required (closed shape)
  await im.users.setPassword({ username: 'alice' });
  // @ts-expect-error an unknown namespace
  await im.user.get({ username: 'alice' });
  // @ts-expect-error an unknown method
  await im.users.fetch({ username: 'alice' });
  // @ts-expect-error the mute mode of a single conversation can only be none
  await im.push.muteSingle({ username: 'a', peer: 'b', mode: 'mention_only' });
  // @ts-expect-error a typo in a request option
  await im.users.get({ username: 'alice' }, { timeout: 5 });
  // @ts-expect-error issue 31: the helper's scene is the spec's enum (the README's old 'chat' threw at run time)
  await im.moderation.processPending({ scene: 'chat', decide: () => null });
  await im.moderation.processPending({ scene: 'chatroom_message', decide: () => null });
  // @ts-expect-error issue 31: toArray needs its limit
  await im.users.list().toArray({});
}

// Callback payload types: the event union narrows by type; unknown types stay typed.
import {
  createCallbackHandler,
  isEventType,
  isKnownEvent,
  eventOrderingFields,
  type CallbackEventItem,
} from '../../generated/src/callbacks.js';

export function handleEvent(event: CallbackEventItem): string {
  if (isEventType(event, 'group.members_added')) {
    const version: number = event.data!.member_version;
    const members = event.data!.members ?? [];
    return `${event.data!.group_id} v${version} +${members.length}`;
  }
  if (isEventType(event, 'friend.added')) {
    // @ts-expect-error friend.added data has no member_version
    return String(event.data!.member_version.toFixed());
  }
  if (!isKnownEvent(event)) return `ignored ${event.type}`;
  // @ts-expect-error not an event type the spec names
  isEventType(event, 'group.members_removed');
  return eventOrderingFields[event.type] ?? '';
}

export const typedHandler = createCallbackHandler<CallbackEventItem>({
  secrets: ['s'],
  onEvent: async (event) => {
    handleEvent(event);
  },
});

// RTC: the business server hands a client only that client's own channel ticket, never the App
// Token; the types keep the two apart.
import type { RtcTicket } from '../../generated/src/index.js';
declare function handTicketToClient(ticket: RtcTicket): void;
export async function rtcTickets(): Promise<void> {
  const issued = await im.rtc.issueTickets({ channel_id: 'c1', usernames: ['alice'] });
  for (const ticket of issued.items) handTicketToClient(ticket);
  const exchanged = await im.app.token({ grant_type: 'client_credentials', client_id: 'id', client_secret: 's' });
  // @ts-expect-error the App Token is a string, not a channel ticket: it must never reach a client
  handTicketToClient(exchanged.access_token);
  // @ts-expect-error the whole token response is an object too, but not a ticket (RtcTicket is branded)
  handTicketToClient(exchanged);
  // @ts-expect-error nor is any other open object
  const forged: RtcTicket = { token: 'x' };
  void forged;
  // @ts-expect-error issueTickets answers a list of tickets, not one
  handTicketToClient(issued);
}

// Hook requests narrow by `hook`; request bodies by `kind`.
import { isHookType, type CallbackHookRequest, type CallbackRequestBody } from '../../generated/src/callbacks.js';
export function describeHook(request: CallbackHookRequest): string {
  if (isHookType(request, 'message.before_send')) {
    const hook: 'message.before_send' = request.hook;
    return hook;
  }
  // @ts-expect-error not a hook type the spec names
  isHookType(request, 'message.after_send');
  return String(request.hook);
}
export function describeBody(body: CallbackRequestBody): string {
  switch (body.kind) {
    case 'verify':
      return body.challenge;
    case 'event':
      return String(body.events.length);
    case 'hook':
      return String(body.timeout_ms);
  }
}

// After isKnownEvent, a plain switch on `type` narrows every known event (unknown ones are out).
export function versionOf(event: CallbackEventItem): number | undefined {
  if (!isKnownEvent(event)) return undefined;
  switch (event.type) {
    case 'friend.added':
      return event.data.version;
    case 'group.members_added':
      return event.data.member_version;
    default:
      // @ts-expect-error presence.changed and the others have no member_version
      return event.data.member_version;
  }
}

// Response-side enums stay open: a scene the service adds later still compiles.
export async function newScene(): Promise<boolean> {
  const item = await im.moderation.item({ item_id: 'i1' });
  return (item as import('../../generated/src/index.js').ModerationItem).scene === 'a_scene_added_later';
}

// One event type system: with no type argument, onEvent gets the generated union and
// verifyCallback returns the generated body union (issue 17), on the Node and the edge entry.
import {
  createCallbackHandler as createDefaultHandler,
  createNodeCallbackHandler,
  verifyCallback,
  verifyCallbackSync,
  type CallbackEvent as LooseCallbackEvent,
  type CallbackHandlerOptions,
} from '../../generated/src/callbacks.js';
import * as edge from '../../generated/src/callbacks-edge.js';
export const defaultTypedHandler = createDefaultHandler({
  secrets: 's',
  onEvent: (event) => {
    const item: CallbackEventItem = event;
    if (isEventType(event, 'group.members_added')) return event.data.member_version;
    if (!isKnownEvent(event)) return `ignored ${event.type}`;
    return item.id;
  },
  onHook: (request) => {
    const body: CallbackHookRequest = request;
    return isHookType(body, 'message.before_send') ? edge.allow() : edge.reject(`no ${body.hook}`);
  },
});
export const nodeDefaultTyped = createNodeCallbackHandler({ secrets: 's', onEvent: (event) => isKnownEvent(event) });
export const edgeDefaultTyped = edge.createCallbackHandler({
  secrets: 's',
  onEvent: (event) => edge.isKnownEvent(event),
});
export const optionsDefaultTyped: CallbackHandlerOptions = { secrets: 's', onEvent: (event) => isKnownEvent(event) };
declare const loose: LooseCallbackEvent;
// @ts-expect-error the loose structural event is not the generated union: narrowing it needs the union
isKnownEvent(loose);
export async function verifiedBodies(headers: Headers, rawBody: Uint8Array): Promise<number> {
  const verified = await verifyCallback({ headers, rawBody, secrets: 's' });
  const sync = verifyCallbackSync({ headers, rawBody, secrets: 's' });
  const onEdge = await edge.verifyCallback({ headers, rawBody, secrets: 's' });
  // @ts-expect-error the WebCrypto entry has no synchronous verify (subtle.sign is async only)
  edge.verifyCallbackSync;
  for (const v of [verified, sync, onEdge]) {
    if (v.body.kind === 'event') {
      const first: CallbackEventItem | undefined = v.body.events[0];
      if (first && isEventType(first, 'friend.added')) return first.data.version ?? 0;
    }
    if (v.body.kind === 'verify') return v.body.challenge.length;
  }
  return 0;
}

// Uploads name a file explicitly: a bare string is not a path (it would read a file called "hello world").
export async function uploads(bytes: Uint8Array): Promise<void> {
  await im.media.upload({ path: '/tmp/photo.jpg' }, { contentType: 'image/jpeg' });
  await im.media.upload(bytes);
  // @ts-expect-error a string is neither bytes nor { path }
  await im.media.upload('hello world');
}

// Page walkers are named …AllPages (groups.muteAll is an operation on all members); the old names still compile.
export async function walkers(): Promise<number> {
  const snapshot = await im.friends.listAllPages({ username: 'alice' });
  const old = await im.friends.listAll({ username: 'alice' });
  const members = await im.groups.membersAllPages({ group_id: 'g1' });
  await im.groups.muteAll({ group_id: 'g1' });
  return snapshot.items.length + old.pages + members.items.length;
}

// `.withResponse()` is on every operation call; a batch (several requests) reports each chunk's requestId instead.
export async function responses(): Promise<void> {
  const { response } = await im.users.get({ username: 'alice' }).withResponse();
  void response.requestId;
  const batch = await im.users.batchCreate({ users: [{ username: 'a' }] });
  for (const chunk of batch.chunks) if (chunk.status === 'fulfilled') void chunk.requestId;
  // @ts-expect-error a batch is several requests: no single response
  void im.users.batchCreate({ users: [{ username: 'a' }] }).withResponse;
}

// ApiPromise.catch/then take handlers typed as Promise's do (reason: any).
export async function handlers(): Promise<string> {
  const a = await im.users.get({ username: 'alice' }).catch((err: Error) => err.message);
  const b = await im.users.get({ username: 'alice' }).then(undefined, (err: TypeError) => err.name);
  return `${typeof a} ${typeof b}`;
}

// A client with other options shares the token cache; it keeps its class.
export const derived: ImClient = im.withOptions({ timeoutMs: 5_000, defaultHeaders: { 'x-job': 'nightly' } });

// Issue 32: component schema types are reachable through the Schemas namespace as well as flat.
import type { Schemas, BlacklistEntry } from '../../generated/src/index.js';
export const sameEntry = (e: Schemas.BlacklistEntry): BlacklistEntry => e;
// @ts-expect-error a namespace member that is not a component schema
export type NotASchema = Schemas.NoSuchSchema;
