import { describe, expect, it } from 'vitest';
import { budgeted, FALLBACK_HOOK_TIMEOUT_MS, hookTimeoutMsOf } from './flow-kit.js';
import { MemoryDedupeStore } from '../../stores/dedupe-store.js';

describe('flow kit', () => {
  it('reads a hook timeout_ms as a timer can hold it', () => {
    expect(hookTimeoutMsOf(1500)).toBe(1500);
    expect(hookTimeoutMsOf('1500')).toBe(FALLBACK_HOOK_TIMEOUT_MS);
    expect(hookTimeoutMsOf(0)).toBe(FALLBACK_HOOK_TIMEOUT_MS);
    expect(hookTimeoutMsOf(Number.POSITIVE_INFINITY)).toBe(FALLBACK_HOOK_TIMEOUT_MS);
    expect(hookTimeoutMsOf(1e12)).toBe(2_147_483_647);
  });

  it('puts every store call inside its budget', async () => {
    const hanging = { claim: () => new Promise<boolean>(() => {}), release: async () => {} };
    await expect(budgeted(hanging, () => 20, 'nonce store').claim('x', 1000)).rejects.toThrow(/nonce store claim/);
    const store = new MemoryDedupeStore();
    const wrapped = budgeted(store, () => 1000, 'dedupe store');
    expect(await wrapped.claim('a', 1000)).toBe(true);
    expect(await wrapped.claim('a', 1000)).toBe(false);
    expect(typeof wrapped.begin).toBe(typeof store.begin);
  });
});
