/**
 * The fake's own surface: mounted as a handler in your server (listen: false), refusing to listen
 * beyond loopback unless asked, and bad options refused with the option and the rule named.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ImClient } from '../../generated/src/index.js';
import { createFakeService } from '../../generated/src/testing.js';

describe('createFakeService', () => {
  it('listen: false gives a handler for your own server; part upload addresses point at that server', async () => {
    const fake = await createFakeService({ listen: false, initialState: { users: [{ username: 'alice' }] } });
    const server = createServer((req, res) =>
      req.url?.startsWith('/health') ? res.end('ok') : fake.handler(req, res),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect(fake.baseUrl).toBe('');
      const im = new ImClient({ ...fake.clientOptions, baseUrl });
      expect(await im.users.get({ username: 'alice' })).toMatchObject({ username: 'alice' });
      const uploaded = await im.media.upload(new Uint8Array(10).fill(1), { partSize: 5 });
      expect(uploaded.parts).toBe(2);
      expect(fake.callsTo('fake.part_upload')).toHaveLength(2);
      // the completed file's url serves its bytes
      const file = fake.state.files.get(uploaded.fileId)!;
      expect(file.url).toMatch(new RegExp(`^${baseUrl}/`));
      expect(new Uint8Array(await (await fetch(file.url)).arrayBuffer())).toEqual(new Uint8Array(10).fill(1));
    } finally {
      server.close();
      await fake.close();
    }
  });

  it('never listens beyond loopback unless asked; bad options name the option and the rule', async () => {
    await expect(createFakeService({ host: '0.0.0.0' })).rejects.toThrow(
      /host "0\.0\.0\.0" is not loopback; pass allowRemote: true/,
    );
    await expect(createFakeService({ tokenTtlSeconds: 10 })).rejects.toThrow(
      /tokenTtlSeconds must be a whole number from 300 to 31536000.*advanceTime/,
    );
    await expect(createFakeService({ appKey: 'no-hash' })).rejects.toThrow(/appKey must be "org#app"/);
    await expect(createFakeService({ pageSize: 0 })).rejects.toThrow(/pageSize must be a whole number from 1 to 1000/);
    const fake = await createFakeService();
    try {
      expect(() => fake.fault({ kind: 'explode' as never })).toThrow(/kind must be one of rate_limited, server_error/);
      expect(() => fake.override('users.nope', () => undefined)).toThrow(/no operation "users.nope"/);
      await expect(fake.callbacks.register({ url: 'http://example.com/cb', secret: 's' })).rejects.toThrow(
        /not loopback.*allowRemote/,
      );
      expect(fake.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await fake.close();
    }
  });

  it('masks secrets in what it records: the client secret, the App Token, the password, part upload tokens', async () => {
    const fake = await createFakeService({ initialState: { users: [{ username: 'alice' }] } });
    try {
      const im = new ImClient(fake.clientOptions);
      await im.users.setPassword({ username: 'alice', password: 'hunter2-SHOULD-NOT-SHOW' });
      await im.media.upload(new Uint8Array(3), { partSize: 3 });
      const shown = JSON.stringify(fake.calls);
      expect(shown).not.toContain(fake.clientOptions.clientSecret);
      expect(shown).not.toContain('hunter2-SHOULD-NOT-SHOW');
      expect(shown).not.toMatch(/fake-app-token-[0-9a-f]/);
      expect(fake.callsTo('fake.part_upload')[0]!.query.token).toBe('***');
      expect(fake.calls.find((c) => c.operationId === 'users.set_password')!.headers.authorization).toBe('***');
    } finally {
      await fake.close();
    }
  });
});
