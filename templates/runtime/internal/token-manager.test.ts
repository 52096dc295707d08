import { describe, expect, it } from 'vitest';
import { safeLogger } from './logger.js';
import { SecretRedactor } from './redact.js';
import { MemoryTokenStore, TokenManager, type StoredToken } from './token-manager.js';

/** A manager over a memory store whose exchange hands out tok-1, tok-2… valid for 1 h from `clock.now`. */
function manager(clock: { now: number }) {
  let n = 0;
  const tokens = new TokenManager({
    store: new MemoryTokenStore(),
    key: 'k',
    exchange: async (): Promise<StoredToken> => ({
      accessToken: `tok-${++n}`,
      expiresAt: clock.now + 3_600_000,
      obtainedAt: clock.now,
    }),
    now: () => clock.now,
    onEvent: () => {},
    logger: safeLogger(undefined, new SecretRedactor()),
  });
  return tokens;
}

describe('TokenManager.readyToken (the hot path: a token with no promise)', () => {
  it('gives the cached token only while it is usable and no refresh is due', async () => {
    const clock = { now: 1_000_000 };
    const tokens = manager(clock);
    expect(tokens.readyToken()).toBeUndefined(); // nothing exchanged yet: the caller takes getToken
    expect(await tokens.getToken()).toBe('tok-1');
    expect(tokens.readyToken()).toBe('tok-1');
    // inside the refresh margin (10 % of 1 h): getToken's background refresh must run, so no fast answer
    clock.now += 3_600_000 - 300_000;
    expect(tokens.readyToken()).toBeUndefined();
    expect(await tokens.getToken()).toBe('tok-1');
  });

  it('never gives a token after a 401 dropped it', async () => {
    const clock = { now: 1_000_000 };
    const tokens = manager(clock);
    const first = await tokens.getToken();
    await tokens.invalidate(first);
    expect(tokens.readyToken()).toBeUndefined();
    expect(await tokens.getToken()).toBe('tok-2');
    expect(tokens.readyToken()).toBe('tok-2');
  });
});
