/**
 * The delivery rules of seed 001 the simulator follows, as numbers and small pure functions:
 * the §8 retry table with jitter, Retry-After, the circuit breaker, the give-up
 * rules and the answer read limits. The numbers are the callbacks spec's (delivery-rules.ts).
 */
import { parseRetryAfterMs } from '../../internal/retry.js';
import {
  BREAKER_FIRST_PAUSE_MS,
  BREAKER_MAX_PAUSE_MS,
  BREAKER_PAUSE_MULTIPLIER,
  BREAKER_THRESHOLD,
  MAX_RETRY_AFTER_MS,
  RETRY_AFTER_STATUSES,
  RETRY_JITTER,
  RETRY_TABLE_MS,
} from './delivery-rules.js';

// The numbers come from the callbacks spec (x-delivery, x-limits), emitted into delivery-rules.ts;
// this file keeps the simulator's own logic and no copy of them.
export {
  APP_RATE_CAP,
  AUTO_DISABLE_AFTER_MS,
  AUTO_DISABLE_FAILURE_WITHIN_MS,
  BEST_EFFORT_TYPES,
  BREAKER_FIRST_PAUSE_MS,
  BREAKER_MAX_PAUSE_MS,
  BREAKER_PAUSE_MULTIPLIER,
  BREAKER_THRESHOLD,
  GIVE_UP_AFTER_MS,
  MAX_ADDRESSES,
  MAX_BATCH_BYTES,
  MAX_RETRY_AFTER_MS,
  MAX_SENDS,
  READ_LIMIT,
  REDELIVERY_WINDOW_MS,
  RETRY_AFTER_STATUSES,
  RETRY_JITTER,
  RETRY_TABLE_MS,
  SETTING_DEFAULTS,
  SETTING_RANGES,
  SINGLE_FROM_SEND,
  VERIFY_TIMEOUT_MS,
} from './delivery-rules.js';

/** A duration for people: `30 s`, `5 min`, `1 h`, `1.5 h`, `7 days` (the largest unit that gives at most one decimal; hours up to 24 h). */
export function formatDuration(ms: number): string {
  for (const [unit, size] of [
    ['days', 86_400_000],
    ['h', 3_600_000],
    ['min', 60_000],
    ['s', 1000],
  ] as const) {
    const n = ms / size;
    // days from 2 on: 24 h reads as the seed writes it
    if (n >= (unit === 'days' ? 2 : 1) && Number.isInteger(n * 10)) return `${n} ${unit}`;
  }
  return `${ms} ms`;
}

/**
 * A number in [0, 1) fixed by the seed and the keys, independent of the order in which the run
 * asks: the same seed gives the same jitter for send 3 of event X however the receiver timed its
 * answers. (FNV-1a over the text, then one mulberry32 step.)
 */
export function seededUnit(seed: number, ...keys: Array<string | number>): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  const text = keys.join('\u0000');
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  let t = (h + 0x6d2b79f5) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** A sequential generator for building the plan (used in one fixed order only). */
export function seededRandom(seed: number): () => number {
  let n = 0;
  return () => seededUnit(seed, 'seq', n++);
}

/** The jitter factor in [1 - RETRY_JITTER, 1 + RETRY_JITTER] of a send. */
export function jitterFactor(seed: number, key: string, send: number): number {
  return 1 - RETRY_JITTER + 2 * RETRY_JITTER * seededUnit(seed, 'jitter', key, send);
}

/**
 * The wait after failed send number `send` (1-based): the table value varied by the jitter; on
 * RETRY_AFTER_STATUSES the larger of Retry-After (capped at MAX_RETRY_AFTER_MS) and that value;
 * `undefined` after the table's last wait.
 */
export function retryWaitMs(
  send: number,
  jitter: number,
  answer?: { status: number; retryAfter?: string | null | undefined; nowEpochMs: number },
): { waitMs: number; retryAfterMs?: number } | undefined {
  const base = RETRY_TABLE_MS[send - 1];
  if (base === undefined) return undefined;
  const table = Math.round(base * jitter);
  if (answer && RETRY_AFTER_STATUSES.includes(answer.status)) {
    const given = parseRetryAfterMs(answer.retryAfter, answer.nowEpochMs);
    if (given !== undefined) {
      const retryAfterMs = Math.min(given, MAX_RETRY_AFTER_MS);
      return { waitMs: Math.max(table, retryAfterMs), retryAfterMs };
    }
  }
  return { waitMs: table };
}

/** The circuit breaker of one address (§8), in simulated ms. */
export class CircuitBreaker {
  private consecutive = 0;
  private pauseMs = BREAKER_FIRST_PAUSE_MS;
  /** Set while open: no send before this time, then one probe. */
  openUntil: number | undefined;
  /** A probe is in flight: nothing else is sent until it answers. */
  probing = false;
  openings = 0;
  readonly pauses: number[] = [];

  /** May a request start now? `probe` tells the caller that this one is the probe. */
  admit(now: number): { ok: boolean; probe: boolean } {
    if (this.probing) return { ok: false, probe: false };
    if (this.openUntil === undefined) return { ok: true, probe: false };
    if (now < this.openUntil) return { ok: false, probe: false };
    this.probing = true;
    return { ok: true, probe: true };
  }

  record(success: boolean, wasProbe: boolean, now: number): void {
    if (wasProbe) this.probing = false;
    if (success) {
      this.consecutive = 0;
      if (wasProbe || this.openUntil !== undefined) {
        this.openUntil = undefined;
        this.pauseMs = BREAKER_FIRST_PAUSE_MS;
      }
      return;
    }
    this.consecutive++;
    if (wasProbe) {
      this.pauseMs = Math.min(this.pauseMs * BREAKER_PAUSE_MULTIPLIER, BREAKER_MAX_PAUSE_MS);
      this.open(now);
    } else if (this.openUntil === undefined && this.consecutive >= BREAKER_THRESHOLD) {
      this.open(now);
    }
  }

  private open(now: number): void {
    this.openings++;
    this.pauses.push(this.pauseMs);
    this.openUntil = now + this.pauseMs;
  }
}

/**
 * Requests per second in REAL time (a sliding one-second window). The limits protect the
 * receiver, whose capacity does not compress with the clock, so they are not scaled.
 */
export class RateWindow {
  private readonly starts: number[] = [];
  constructor(readonly perSecond: number) {}

  /** 0 when a request may start at real time `now` (ms), else how long to wait. */
  waitMs(now: number): number {
    while (this.starts.length > 0 && this.starts[0]! <= now - 1000) this.starts.shift();
    return this.starts.length < this.perSecond ? 0 : this.starts[0]! + 1000 - now;
  }

  take(now: number): void {
    this.starts.push(now);
  }
}
