// Copied by im-openapi from templates/runtime/internal/rate-limit-options.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The `rateLimit` and `quotaStore` client options: their types, checks (a bad value is a
 * ConfigError naming the option and the rule) and resolved form, and the views of the limiter
 * users read (`client.rateLimit`). The limiter itself is quota-control.ts.
 */
import { ConfigError } from '../core/errors.js';
import type { RateSpec } from './gcra.js';
import type { RateLimitState } from './quota-gate.js';
import type { QuotaCounters, QuotaStore } from '../stores/quota-store.js';

/** Who waits first for a send slot: interactive calls (the default) before background ones. */
export type CallPriority = 'interactive' | 'background';

/** The `rateLimit` client option. */
export interface RateLimitOptions {
  /** Send slots per second for the whole fleet sharing `quotaStore` (this client alone without one); e.g. 0.9 × the quota. */
  perSecond: number;
  /**
   * Slots that may go out back to back after a quiet spell (default perSecond / 50, i.e. 20 ms
   * worth, at least 1): any second then holds at most perSecond + burst sends.
   */
  burst?: number | undefined;
  /**
   * The rate this client keeps to while the quota store fails (default: perSecond ÷ the number
   * of processes that shared the store in the last 5 s, as the store last said).
   */
  fallbackPerSecond?: number | undefined;
  /** Longest wait for a slot (default 60 000 ms); a call that would wait longer fails unsent (RateLimitWaitError). */
  maxWaitMs?: number | undefined;
}

export interface ResolvedRateLimit {
  rate: RateSpec;
  /** Given by the user; otherwise derived from the fleet's size. */
  fallback: RateSpec | undefined;
  maxWaitMs: number;
}

/** What a client counts, and the gate as it sees it (`client.rateLimit.metrics`). */
export interface RateLimitMetrics extends QuotaCounters {
  gate: 'open' | 'closed';
  /** Times the quota store failed (each followed by STORE_RETRY_MS of limiting alone). */
  storeFailures: number;
  /** The rate limit in force: null without one; `shared` false while the store fails or without a store. */
  limiter: { perSecond: number; shared: boolean } | null;
}

/** `client.rateLimit`: the gate, the counters, the fleet's totals. */
export interface FleetRateLimitState extends RateLimitState {
  /** This client's counters (calls sent, waited, throttled, 429s) and the gate's state. */
  readonly metrics: RateLimitMetrics;
  /** The fleet's totals from the quota store (every process adding to it), or null without a shared store. */
  fleetMetrics(): Promise<QuotaCounters | null>;
}

export function resolveRateLimit(value: unknown): ResolvedRateLimit | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null)
    throw new ConfigError('rateLimit', 'must be an object like { perSecond: 90 }.');
  const o = value as RateLimitOptions;
  /** The option's value when given (checked), else undefined. */
  const atLeast = (name: keyof RateLimitOptions, min: number): number | undefined => {
    const v = o[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min)
      throw new ConfigError(`rateLimit.${name}`, `must be a finite number >= ${min} (got ${String(v)}).`);
    return v;
  };
  const perSecond = atLeast('perSecond', Number.MIN_VALUE);
  if (perSecond === undefined)
    throw new ConfigError('rateLimit.perSecond', 'is required (slots per second, e.g. 0.9 × the application quota).');
  const burst = atLeast('burst', 1) ?? rateOf(perSecond).burst;
  const fallbackPerSecond = atLeast('fallbackPerSecond', Number.MIN_VALUE);
  const maxWaitMs = atLeast('maxWaitMs', 0) ?? 60_000;
  return {
    rate: { perSecond, burst },
    fallback: fallbackPerSecond === undefined ? undefined : rateOf(fallbackPerSecond),
    maxWaitMs,
  };
}

/** A rate with the default burst (20 ms worth, at least 1). */
export function rateOf(perSecond: number): RateSpec {
  return { perSecond, burst: Math.max(1, Math.floor(perSecond / 50)) };
}

export function resolveQuotaStore(value: unknown): QuotaStore | undefined {
  if (value === undefined) return undefined;
  const s = value as Record<string, unknown>;
  if (
    typeof value !== 'object' ||
    value === null ||
    ['reserve', 'sync', 'closeGate', 'openGate', 'counters'].some((m) => typeof s[m] !== 'function')
  ) {
    throw new ConfigError(
      'quotaStore',
      'must implement reserve, sync, closeGate, openGate and counters (e.g. new RedisQuotaStore({ client })).',
    );
  }
  return value as QuotaStore;
}
