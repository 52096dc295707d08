import { describe, expect, it } from 'vitest';
import { flowSettings, verifiedOf } from '../../test-support/callback-flows.js';
import { handleVerify } from './verify-flow.js';

describe('verify flow', () => {
  it('echoes the challenge after onVerify saw it', async () => {
    const seen: unknown[] = [];
    const { settings } = flowSettings({ onVerify: (body) => seen.push(body) });
    const result = await handleVerify(settings, verifiedOf('verify', { kind: 'verify', challenge: 'c-1' }));
    expect(result).toMatchObject({ status: 200, body: '{"challenge":"c-1"}' });
    expect(seen).toEqual([{ kind: 'verify', challenge: 'c-1' }]);
  });

  it('refuses a body without a string challenge (400), and answers 500 when onVerify throws', async () => {
    const { settings, logged } = flowSettings({
      onVerify: () => {
        throw new Error('no');
      },
    });
    expect((await handleVerify(settings, verifiedOf('verify', { kind: 'verify', challenge: 7 }))).status).toBe(400);
    const failed = await handleVerify(settings, verifiedOf('verify', { kind: 'verify', challenge: 'c' }));
    expect(failed).toMatchObject({ status: 500, body: '{"error":"handler_failed"}' });
    expect(logged.map((l) => l.message)).toEqual(['onVerify threw; answering 500']);
  });
});
