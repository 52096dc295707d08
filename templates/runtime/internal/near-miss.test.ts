import { describe, expect, test } from 'vitest';
import { ValidationError } from '../core/errors.js';
import { makeClient, ops, startFakeService } from '../test-support/fake-service.js';
import type { OperationSpec } from '../operation.js';
import { nearMissIssues, nearMissOf } from './near-miss.js';

const send: OperationSpec = { ...ops.messagesSend, bodyFields: ['client_msg_id', 'online_only', 'to', 'body'] };

describe('nearMissOf', () => {
  test.each([
    ['clientMsgId', 'client_msg_id'],
    ['ClientMsgID', 'client_msg_id'],
    ['client-msg-id', 'client_msg_id'],
    ['client_msg_ids', 'client_msg_id'],
    ['clinet_msg_id', 'client_msg_id'],
    ['onlineOnly', 'online_only'],
    ['online_onyl', 'online_only'],
  ])('%s is a miss of %s', (given, meant) => {
    expect(nearMissOf(given, send.bodyFields)).toBe(meant);
  });

  test.each(['nickname', 'ext', 'id', 'client_tag', 'priority', 'custom_payload'])('%s is its own field', (given) => {
    expect(nearMissOf(given, send.bodyFields)).toBeUndefined();
  });
});

describe('nearMissIssues', () => {
  test('names both the given and the declared name', () => {
    expect(nearMissIssues(send, { clientMsgId: 'k1', to: 'bob' })).toEqual([
      expect.objectContaining({
        pointer: '/clientMsgId',
        rule: 'nearMiss',
        message: expect.stringMatching(/`clientMsgId`.*`client_msg_id`/),
      }),
    ]);
  });
  test('declared names, undefined values and operations without a body are left alone', () => {
    expect(nearMissIssues(send, { client_msg_id: 'k', clientMsgId: undefined })).toEqual([]);
    expect(nearMissIssues({ ...ops.usersGet, bodyFields: [] }, { userName: 'a' })).toEqual([]);
  });
});

describe('the client refuses a near miss before anything is sent', () => {
  test('messages.send with clientMsgId: ValidationError naming both names, no request (not even the token)', async () => {
    const svc = await startFakeService();
    const err = await makeClient(svc.baseUrl)
      .request(send, { clientMsgId: 'dedupe-1', to: 'bob' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as Error).message).toMatch(/clientMsgId/);
    expect((err as Error).message).toMatch(/client_msg_id/);
    expect(svc.requests).toHaveLength(0);
  });
  test('{ validate: false } sends it as given', async () => {
    const svc = await startFakeService();
    await makeClient(svc.baseUrl).request(send, { clientMsgId: 'dedupe-1', to: 'bob' }, { validate: false });
    expect(svc.calls[0]!.json).toMatchObject({ clientMsgId: 'dedupe-1' });
  });
});
