import { describe, expect, it } from 'vitest';
import { flowSettings, verifiedOf } from '../../test-support/callback-flows.js';
import { reject, rewrite } from '../decisions.js';
import { handleHook } from './hook-flow.js';

const hook = (timeout_ms?: number) =>
  verifiedOf(
    'hook',
    { kind: 'hook', hook: 'message.before_send', timeout_ms, data: {} },
    { hook: 'message.before_send' },
  );

describe('hook flow', () => {
  it("answers onHook's decision", async () => {
    const { settings } = flowSettings({ onHook: () => reject('spam') });
    const result = await handleHook(settings, hook(3000), Date.now());
    expect(result.status).toBe(200);
    expect(result.headers['x-im-hook-fallback']).toBeUndefined();
    expect(JSON.parse(result.body)).toMatchObject({ decision: 'reject' });
  });

  it('answers the default decision, saying why, when onHook is missing, throws, answers nonsense or too much', async () => {
    const cases: [Parameters<typeof flowSettings>[0], string][] = [
      [{}, 'no_handler'],
      [
        {
          onHook: () => {
            throw new Error('bug');
          },
        },
        'handler_failed',
      ],
      [{ onHook: () => 'yes' as never }, 'invalid_decision'],
      [{ onHook: () => rewrite({ text: 'x'.repeat(70_000) }) }, 'too_large'],
    ];
    for (const [more, why] of cases) {
      const { settings } = flowSettings(more);
      const result = await handleHook(settings, hook(3000), Date.now());
      expect(result.headers['x-im-hook-fallback'], why).toBe(why);
      expect(result.body).toBe(settings.defaultAnswer);
    }
  });

  it('answers the default decision when onHook is slower than timeout_ms less the safety margin, and aborts its signal', async () => {
    let signal: AbortSignal | undefined;
    const { settings } = flowSettings({
      safetyMs: 0,
      onHook: (_r, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
    });
    const result = await handleHook(settings, hook(50), Date.now());
    expect(result.headers['x-im-hook-fallback']).toBe('timeout');
    expect(signal?.aborted).toBe(true);
    // no time left at all: onHook is not even called
    const late = await handleHook(
      flowSettings({
        onHook: () => {
          throw new Error('called');
        },
      }).settings,
      hook(100),
      Date.now() - 10_000,
    );
    expect(late.headers['x-im-hook-fallback']).toBe('timeout');
  });
});
