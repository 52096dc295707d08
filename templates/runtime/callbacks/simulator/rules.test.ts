/** The simulator's delivery rules (seed 001 §8) and its seeded plan, without a network. */
import { describe, expect, it } from 'vitest';
import { buildPlan } from './plan.js';
import type { PlanOptions } from './plan.js';
import {
  CircuitBreaker,
  formatDuration,
  jitterFactor,
  MAX_RETRY_AFTER_MS,
  RETRY_TABLE_MS,
  retryWaitMs,
} from './rules.js';

const planOptions: PlanOptions = {
  seed: 5,
  events: 200,
  eventsPerBatch: 7,
  duplicateRate: 0.2,
  bestEffortLossRate: 0.3,
  truncatedRate: 0.2,
  hooks: 4,
  hookTimeoutMs: 3000,
};

describe('retry waits', () => {
  it('follow the §8 table varied by at most 20 %, the same for the same seed, key and send', () => {
    for (let send = 1; send <= 11; send++) {
      for (const key of ['evt_a', 'evt_b', 'batch:x']) {
        const f = jitterFactor(9, key, send);
        expect(f).toBeGreaterThanOrEqual(0.8);
        expect(f).toBeLessThanOrEqual(1.2);
        expect(jitterFactor(9, key, send)).toBe(f);
        expect(retryWaitMs(send, f)!.waitMs).toBe(Math.round(RETRY_TABLE_MS[send - 1]! * f));
      }
    }
    expect(retryWaitMs(12, 1)).toBeUndefined();
    const spread = new Set(Array.from({ length: 50 }, (_, i) => jitterFactor(9, `e${i}`, 1).toFixed(3)));
    expect(spread.size).toBeGreaterThan(40);
  });

  it('on 429/503 take the larger of Retry-After (seconds or HTTP date, capped at 1 h) and the table; not on other statuses', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(retryWaitMs(1, 1, { status: 429, retryAfter: '3', nowEpochMs: now })).toEqual({
      waitMs: 10_000,
      retryAfterMs: 3000,
    });
    expect(retryWaitMs(1, 1, { status: 503, retryAfter: '90', nowEpochMs: now })).toEqual({
      waitMs: 90_000,
      retryAfterMs: 90_000,
    });
    expect(retryWaitMs(1, 1, { status: 429, retryAfter: '99999', nowEpochMs: now })!.waitMs).toBe(MAX_RETRY_AFTER_MS);
    expect(
      retryWaitMs(2, 1, { status: 429, retryAfter: new Date(now + 120_000).toUTCString(), nowEpochMs: now })!.waitMs,
    ).toBe(120_000);
    expect(retryWaitMs(1, 1, { status: 500, retryAfter: '90', nowEpochMs: now })).toEqual({ waitMs: 10_000 });
    expect(retryWaitMs(1, 1, { status: 429, retryAfter: 'soon', nowEpochMs: now })).toEqual({ waitMs: 10_000 });
  });
});

describe("formatDuration (the texts built from the spec's numbers)", () => {
  it('names the largest unit that gives at most one decimal', () => {
    expect(
      [30_000, 300_000, 3_600_000, 86_400_000, 5_400_000, 90_000, 1500, 250, 7 * 86_400_000].map(formatDuration),
    ).toEqual(['30 s', '5 min', '1 h', '24 h', '1.5 h', '1.5 min', '1.5 s', '250 ms', '7 days']);
  });
});

describe('circuit breaker', () => {
  it('opens after 5 consecutive failures for 30 s, admits one probe, doubles up to 5 min, closes on success', () => {
    const b = new CircuitBreaker();
    for (let i = 0; i < 4; i++) b.record(false, false, 0);
    expect(b.admit(0)).toEqual({ ok: true, probe: false });
    b.record(false, false, 0);
    expect(b.admit(29_999).ok).toBe(false);
    expect(b.admit(30_000)).toEqual({ ok: true, probe: true });
    expect(b.admit(30_000).ok).toBe(false); // one probe at a time
    let t = 30_000;
    for (const pause of [60_000, 120_000, 240_000, 300_000, 300_000]) {
      b.record(false, true, t);
      expect(b.openUntil).toBe(t + pause);
      t += pause;
      expect(b.admit(t).probe).toBe(true);
    }
    b.record(true, true, t);
    expect(b.openUntil).toBeUndefined();
    expect(b.admit(t)).toEqual({ ok: true, probe: false });
    expect(b.pauses).toEqual([30_000, 60_000, 120_000, 240_000, 300_000, 300_000]);
  });
});

describe('the plan', () => {
  it('is a function of the seed: events, versions, queue order, batches, losses, truncation, duplicates, hooks', () => {
    expect(buildPlan(planOptions)).toEqual(buildPlan(planOptions));
    const other = buildPlan({ ...planOptions, seed: 6 });
    expect(other.queueOrder.map((id) => id.split('_').pop())).not.toEqual(
      buildPlan(planOptions).queueOrder.map((id) => id.split('_').pop()),
    );
  });

  it('keeps the seed rules: batches ≤ eventsPerBatch, versions rise per entity in creation order, only best-effort types lost, truncated data keeps its version', () => {
    const plan = buildPlan(planOptions);
    expect(plan.batches.every((b) => b.length >= 1 && b.length <= 7)).toBe(true);
    expect(plan.batches.flat()).toEqual(plan.queueOrder);
    const last = new Map<string, number>();
    for (const e of plan.events) {
      if (e.entity === undefined) continue;
      expect(e.version).toBe((last.get(e.entity) ?? 0) + 1);
      last.set(e.entity, e.version!);
    }
    const lost = plan.events.filter((e) => e.lost);
    expect(lost.length).toBeGreaterThan(0);
    expect(
      lost.every((e) => ['presence.changed', 'chatroom.message_sent', 'chatroom.message_recalled'].includes(e.type)),
    ).toBe(true);
    expect(plan.queueOrder).not.toContain(lost[0]!.id);
    const truncated = plan.events.filter((e) => e.truncated);
    expect(truncated.length).toBeGreaterThan(0);
    for (const e of truncated)
      expect(e.data).toMatchObject({ truncated: true, member_version: e.version }),
        expect(e.data.members).toBeUndefined();
    // Out of time order: some entity's newer version is queued before an older one.
    const pos = new Map(plan.queueOrder.map((id, i) => [id, i]));
    const inversions = plan.events.filter((a) =>
      plan.events.some(
        (b) =>
          b.entity === a.entity && a.entity !== undefined && b.version! > a.version! && pos.get(b.id)! < pos.get(a.id)!,
      ),
    );
    expect(inversions.length).toBeGreaterThan(0);
    expect(plan.hooks).toHaveLength(4);
  });
});
