// Copied by im-openapi from templates/runtime/callbacks/samples.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Sample callback bodies (sample data, `test: true`) for users' tests and the im-callbacks CLI.
 * Shapes follow seed 001 sections 2.4 to 2.6; fields the seed does not show are illustrative.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { EventCallbackRequest, HookCallbackRequest, VerifyCallbackRequest, CallbackEvent } from './types.js';

export interface SampleOptions {
  app?: string;
  endpointId?: string;
  /** Event type (kind event). Default group.members_added. */
  type?: string;
  /** Number of events in the batch (kind event). Default 1. */
  events?: number;
  /** Hook type (kind hook). Default message.before_send. */
  hook?: string;
  timeoutMs?: number;
  /** Fixed time (ms since epoch) for reproducible samples. */
  now?: number;
}

function common(kind: string, o: SampleOptions): Record<string, unknown> {
  return {
    kind,
    request_id: `req_${randomBytes(8).toString('hex')}`,
    app: o.app ?? 'demo-org#demo-app',
    endpoint_id: o.endpointId ?? 'ep_test',
    sent_at: new Date(o.now ?? Date.now()).toISOString(),
  };
}

export function sampleEvent(type = 'group.members_added', now = Date.now()): CallbackEvent {
  const at = new Date(now).toISOString();
  const data: Record<string, unknown> =
    type === 'group.members_added'
      ? {
          origin: 'server',
          group_id: '100000000000000001',
          member_version: 7,
          member_count: 3,
          members: [{ username: 'bob', role: 'member', joined_via: 'invite', inviter: 'alice', joined_at: at }],
          operator: 'alice',
        }
      : type === 'friend.added'
        ? { origin: 'client', username: 'alice', friend: 'bob', version: 3 }
        : type === 'presence.changed'
          ? { origin: null, username: 'alice', status: 'online', version: 12 }
          : { origin: 'server' };
  return { id: `evt_${randomUUID()}`, type, occurred_at: at, attempt: 1, test: true, data };
}

export function sampleCallbackBody(kind: 'verify', o?: SampleOptions): VerifyCallbackRequest;
export function sampleCallbackBody(kind: 'event', o?: SampleOptions): EventCallbackRequest;
export function sampleCallbackBody(kind: 'hook', o?: SampleOptions): HookCallbackRequest;
export function sampleCallbackBody(
  kind: 'verify' | 'event' | 'hook',
  o?: SampleOptions,
): VerifyCallbackRequest | EventCallbackRequest | HookCallbackRequest;
export function sampleCallbackBody(
  kind: 'verify' | 'event' | 'hook',
  o: SampleOptions = {},
): VerifyCallbackRequest | EventCallbackRequest | HookCallbackRequest {
  const now = o.now ?? Date.now();
  if (kind === 'verify') {
    return { ...common('verify', o), kind: 'verify', challenge: randomBytes(16).toString('hex') };
  }
  if (kind === 'event') {
    const n = Math.max(1, Math.min(100, o.events ?? 1));
    return {
      ...common('event', o),
      kind: 'event',
      events: Array.from({ length: n }, () => sampleEvent(o.type ?? 'group.members_added', now)),
    };
  }
  return {
    ...common('hook', o),
    kind: 'hook',
    hook: o.hook ?? 'message.before_send',
    timeout_ms: o.timeoutMs ?? 3000,
    test: true,
    data: { origin: 'client', from: 'alice', to: 'bob', chat_type: 'single', body: { type: 'txt', text: 'hello' } },
  };
}
