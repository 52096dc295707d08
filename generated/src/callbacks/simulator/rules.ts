// Copied by im-openapi from templates/runtime/callbacks/simulator/rules.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The delivery rules of seed 001 the simulator follows, as numbers and small pure functions:
 * the §8 retry table with ±20 % jitter, Retry-After on 429/503, the circuit breaker, the give-up
 * rules and the answer read limits. Numbers the seed does not give are marked ASSUMED.
 */
import { parseRetryAfterMs } from '../../internal/retry.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Seed 001 §8: wait after failure 1 to 11. */
export const RETRY_TABLE_MS: readonly number[] = [
  10 * SECOND, 30 * SECOND, MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR, 8 * HOUR,
];
/** "each varied randomly by 20 percent". */
export const RETRY_JITTER = 0.2;
/** An event is failed after this many sends … */
export const MAX_SENDS = 12;
/** … or this long after queueing without success (§3, §8). */
export const GIVE_UP_AFTER_MS = 24 * HOUR;
/** Retry-After is honoured up to this (§8). */
export const MAX_RETRY_AFTER_MS = HOUR;
/** Circuit breaker (§8): after this many consecutive failures sending pauses … */
export const BREAKER_THRESHOLD = 5;
/** … first for this long, doubling after each failed probe up to the maximum. */
export const BREAKER_FIRST_PAUSE_MS = 30 * SECOND;
export const BREAKER_MAX_PAUSE_MS = 5 * MINUTE;
/** Auto-disable (§3): 24 h without success and a failure within the last hour. */
export const AUTO_DISABLE_AFTER_MS = 24 * HOUR;

/** Answer bytes the service reads (§4, §8). */
export const READ_LIMIT = { event: 16 * 1024, hook: 64 * 1024, verify: 4 * 1024 } as const;
/** Request body limit of a batch (§4.2). */
export const MAX_BATCH_BYTES = 1024 * 1024;
/** URL verification wait (§4.1). */
export const VERIFY_TIMEOUT_MS = 5 * SECOND;
/** From this send on, events go one per request (§4.2). */
export const SINGLE_FROM_SEND = 3;

/** Address settings ranges (§2.1). */
export const SETTING_RANGES = {
  eventsPerBatch: [1, 100],
  timeoutMs: [1000, 10_000],
  concurrency: [1, 50],
  ratePerSecond: [1, 1000],
} as const;
/** Application cap of requests per second over all addresses (§2.1 default). */
export const APP_RATE_CAP = 500;
/** At most this many addresses per application (§8). */
export const MAX_ADDRESSES = 5;

/**
 * Best-effort types (§6 rule 4): buffered in memory about 1 s and lost on a crash or a full
 * buffer, never replayed.
 */
export const BEST_EFFORT_TYPES: ReadonlySet<string> = new Set(['presence.changed', 'chatroom.message_sent', 'chatroom.message_recalled']);

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

/** The jitter factor in [0.8, 1.2] of a send. */
export function jitterFactor(seed: number, key: string, send: number): number {
  return 1 - RETRY_JITTER + 2 * RETRY_JITTER * seededUnit(seed, 'jitter', key, send);
}

/**
 * The wait after failed send number `send` (1-based): the table value varied by the jitter; on
 * 429/503 the larger of Retry-After (capped at 1 h) and that value. `undefined` after send 12.
 */
export function retryWaitMs(
  send: number,
  jitter: number,
  answer?: { status: number; retryAfter?: string | null | undefined; nowEpochMs: number },
): { waitMs: number; retryAfterMs?: number } | undefined {
  const base = RETRY_TABLE_MS[send - 1];
  if (base === undefined) return undefined;
  const table = Math.round(base * jitter);
  if (answer && (answer.status === 429 || answer.status === 503)) {
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
  failedProbes = 0;
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
      this.failedProbes++;
      this.pauseMs = Math.min(this.pauseMs * 2, BREAKER_MAX_PAUSE_MS);
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
