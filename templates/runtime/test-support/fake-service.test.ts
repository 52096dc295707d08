import { expect, test } from 'vitest';
import { makeClient, ops, startFakeService } from './fake-service.js';

test('the fake service answers a token exchange and an operation', async () => {
  const svc = await startFakeService();
  const client = makeClient(svc.baseUrl);
  await expect(client.request(ops.usersGet, { username: 'alice' })).resolves.toEqual({ ok: true });
  expect(svc.exchanges).toHaveLength(1);
  expect(svc.calls[0]?.path).toBe('/acme/chat/users/alice');
});
