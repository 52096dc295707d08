/**
 * Issue 30, done-when 1: every one of the 178 operations, called through the generated client
 * (params built from the spec) against the fake with `validateResponses: true`, succeeds with a
 * body the package's own response validators accept: 0 drift, 0 errors. The fake starts each call
 * from the same seeded state (entities named as the sample params name them); a few operations
 * need a state their params cannot name (something to undo first), set up by a call before.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApiModel } from '../../generator/build-model.js';
import { parseSpec } from '../../generator/load-spec.js';
import { ImClient, type ResponseDrift } from '../../generated/src/index.js';
import { createFakeService, type FakeService, type SeedInput } from '../../generated/src/testing.js';
import { STATEFUL_HANDLERS } from '../../templates/runtime/testing/ops/index.js';
import { validParams } from '../helpers/sample-params.js';
import { repoRoot } from '../helpers/seed.js';

const model = buildApiModel(parseSpec(readFileSync(join(repoRoot, 'spec/openapi.yaml'), 'utf8'), 'spec/openapi.yaml'));

/** The sample params name every entity `a` (and a second user `b`): the state has one of each. */
const FIXTURE: SeedInput = {
  users: [{ username: 'a' }, { username: 'b' }],
  friends: { a: ['a', 'b'] },
  blacklists: { a: ['a'] },
  groups: [{ group_id: 'a', owner: 'a', members: ['b'] }],
  chatrooms: [{ room_id: 'a', name: 'a', members: ['a'], messages: [{ message_id: 'a', from: 'a', body: 'hello' }] }],
  messages: [{ message_id: 'a', conversation_id: 'a', from: 'a', to: 'b', body: 'hi' }],
  sessions: { a: [{ session_id: 'a' }] },
  pushDevices: { a: [{ session_id: 'a', platform: 'ios' }] },
  moderationItems: [{ id: 'a', scene: 'message', username: 'a' }],
  wordLists: [{ list_id: 'a', name: 'a', words: ['a'] }],
  uploads: [{ file_id: 'a', parts: [1] }],
  files: [{ file_id: 'b', group_id: 'a', size: 3 }],
  rtcChannels: [{ channel_id: 'a', bans: [{ username: 'a' }], sessions: [{ username: 'a' }] }],
  calls: [{ call_id: 'a', members: ['a'] }],
  presence: { a: { status: 'online' } },
};

type Client = Record<string, Record<string, (params?: unknown) => Promise<unknown>>>;

/** Calls that make the state an operation's sample params need, and param changes (returned). */
const PREPARE: Record<string, (im: Client, fake: FakeService) => Promise<Record<string, unknown> | undefined>> = {
  'app.token': async (_im, fake) => ({
    client_id: fake.clientOptions.clientId,
    client_secret: fake.clientOptions.clientSecret,
  }),
  'users.create': async () => ({ username: 'new-user' }),
  'users.batch_create': async () => ({ users: [{ username: 'new-1' }, { username: 'new-2' }] }),
  'users.unmute': async (im) => void (await im.users!.mute!({ username: 'a', scope: 'chat' })),
  'push.unmute_group': async (im) => void (await im.push!.muteGroup!({ username: 'a', group_id: 'a', mode: 'none' })),
  'push.unmute_single': async (im) => void (await im.push!.muteSingle!({ username: 'a', peer: 'a', mode: 'none' })),
  'messages.unpin': async (im) => void (await im.messages!.pin!({ message_id: 'a' })),
  'groups.remove_from_blacklist': async (im) =>
    void (await im.groups!.addToBlacklist!({ group_id: 'a', username: 'a' })),
  'chatrooms.remove_admin': async (im) => void (await im.chatrooms!.setAdmin!({ room_id: 'a', username: 'a' })),
  'conversations.single': async () => ({ peer: 'b' }),
  'media.file': async () => ({ file_id: 'b' }),
  'media.delete_file': async () => ({ file_id: 'b' }),
};

interface Outcome {
  operationId: string;
  ok: boolean;
  status?: number;
  error?: string;
  drift: ResponseDrift[];
  answeredBy: 'state' | 'sample';
}

let fake: FakeService;
const outcomes: Outcome[] = [];
beforeAll(async () => {
  fake = await createFakeService();
});
afterAll(() => fake?.close());

describe('the fake answers every operation as the spec says', () => {
  it('has an operation entry for each of the 178, and every stateful handler names one of them', () => {
    expect(model.operations).toHaveLength(178);
    const ids = new Set(model.operations.map((op) => op.id));
    expect(Object.keys(STATEFUL_HANDLERS).filter((id) => !ids.has(id))).toEqual([]);
    expect(Object.keys(PREPARE).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('drift is detected (control: a wrong body through an override is reported)', async () => {
    fake.reset();
    fake.seed(FIXTURE);
    const drift: ResponseDrift[] = [];
    fake.override('users.list', () => ({ body: { items: 5, next_cursor: 7 } }));
    const im = new ImClient({ ...fake.clientOptions, validateResponses: true, onResponseDrift: (d) => drift.push(d) });
    await im.users.list();
    expect(drift.map((d) => d.operationId)).toEqual(['users.list']);
  });

  it('all 178 operations through the generated client with validateResponses: 0 drift, 0 errors', async () => {
    for (const op of model.operations) {
      fake.reset();
      fake.seed(FIXTURE);
      const drift: ResponseDrift[] = [];
      const im = new ImClient({
        ...fake.clientOptions,
        validateResponses: true,
        onResponseDrift: (d) => drift.push(d),
        maxRetries: 0,
      }) as unknown as Client;
      const outcome: Outcome = {
        operationId: op.id,
        ok: false,
        drift,
        answeredBy: op.id in STATEFUL_HANDLERS ? 'state' : 'sample',
      };
      try {
        const params = { ...validParams(model, op), ...((await PREPARE[op.id]?.(im, fake)) ?? {}) };
        const fn = im[op.namespace]?.[op.methodName];
        if (typeof fn !== 'function') throw new Error(`no method im.${op.namespace}.${op.methodName}`);
        await fn.call(im[op.namespace], params);
        const last = fake.calls.at(-1)!;
        outcome.status = 'status' in last.answer ? last.answer.status : undefined;
        outcome.ok =
          last.operationId === op.id && outcome.status !== undefined && op.successStatuses.includes(outcome.status);
      } catch (e) {
        outcome.error = `${(e as Error).name}: ${(e as Error).message}`;
      }
      outcomes.push(outcome);
    }
    const failed = outcomes.filter((o) => !o.ok).map((o) => `${o.operationId}: ${o.error ?? o.status}`);
    const drifted = outcomes
      .filter((o) => o.drift.length > 0)
      .map((o) => `${o.operationId}: ${JSON.stringify(o.drift[0]!.issues)}`);
    const stateful = outcomes.filter((o) => o.answeredBy === 'state').length;
    console.log(
      `fake, 178 operations: ${outcomes.filter((o) => o.ok).length} ok, ${failed.length} errors, ${drifted.length} with drift; ${stateful} answered from state, ${outcomes.length - stateful} from the spec's sample`,
    );
    expect(outcomes).toHaveLength(178);
    expect(failed).toEqual([]);
    expect(drifted).toEqual([]);
  }, 120_000);
});
