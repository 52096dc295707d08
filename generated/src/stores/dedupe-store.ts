// Copied by im-openapi from templates/runtime/stores/dedupe-store.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Deduplication (event ids, seed 6 rule 1) and replay (nonces) stores behind one interface.
 * The package has no Redis dependency: the Redis store takes the application's node-redis or
 * ioredis client as is, through the one seam of the Redis stores (`redis-client.ts`).
 */

import { redisConnection, replyText, type RedisClientLike, type RedisConnection } from './redis-client.js';

export const DEFAULT_DEDUPE_TTL_MS = 24 * 60 * 60 * 1000;

export interface DedupeStore {
  /**
   * Atomically records `id` for `ttlMs`. Resolves true when this caller is the first
   * (process the item), false when the id is already recorded (a duplicate).
   */
  claim(id: string, ttlMs: number): Promise<boolean>;
  /** Forgets `id` (processing failed: a redelivery must process it again). */
  release(id: string): Promise<void>;
  /**
   * Optional two-phase claim, used by the event handler when present: records `id` as being
   * processed for `processingTtlMs` and answers `claimed`; or tells that another delivery is
   * processing it right now (`in_progress`) or has processed it (`done`). Without it, a duplicate
   * that arrives while the first copy is still being processed would be acknowledged, and lost
   * if that first copy then failed.
   */
  begin?(id: string, processingTtlMs: number): Promise<'claimed' | 'in_progress' | 'done'>;
  /** Optional second phase: `id` was processed; keep it for `ttlMs`. */
  complete?(id: string, ttlMs: number): Promise<void>;
}

/** Nonce stores are dedupe stores keyed by nonce. */
export type NonceStore = DedupeStore;

export interface MemoryDedupeStoreOptions {
  /** Most ids kept; beyond that the oldest are evicted (dedupe then weakens: size it). Default 100 000. */
  maxEntries?: number;
  /** Clock in ms (tests). */
  now?: () => number;
}

/**
 * In-process store: bounded, oldest-first eviction (insertion order, refreshed on claim),
 * expiry per entry. Only safe with ONE receiver process; use `RedisDedupeStore` for several.
 */
export class MemoryDedupeStore implements DedupeStore {
  /** id → expiry (ms); ids in #processing are claimed but not yet processed. */
  readonly #entries = new Map<string, number>();
  readonly #processing = new Set<string>();
  readonly #max: number;
  readonly #now: () => number;
  #evicted = 0;

  constructor(options: MemoryDedupeStoreOptions = {}) {
    this.#max = Math.max(1, options.maxEntries ?? 100_000);
    this.#now = options.now ?? Date.now;
  }

  async claim(id: string, ttlMs: number = DEFAULT_DEDUPE_TTL_MS): Promise<boolean> {
    const now = this.#now();
    const expires = this.#entries.get(id);
    if (expires !== undefined && expires > now) return false;
    this.#entries.delete(id);
    this.#entries.set(id, now + ttlMs);
    this.#sweep(now);
    return true;
  }

  async release(id: string): Promise<void> {
    this.#entries.delete(id);
    this.#processing.delete(id);
  }

  async begin(id: string, processingTtlMs: number): Promise<'claimed' | 'in_progress' | 'done'> {
    const now = this.#now();
    const expires = this.#entries.get(id);
    if (expires !== undefined && expires > now) return this.#processing.has(id) ? 'in_progress' : 'done';
    this.#entries.delete(id);
    this.#entries.set(id, now + processingTtlMs);
    this.#processing.add(id);
    this.#sweep(now);
    return 'claimed';
  }

  async complete(id: string, ttlMs: number = DEFAULT_DEDUPE_TTL_MS): Promise<void> {
    const now = this.#now();
    this.#processing.delete(id);
    this.#entries.delete(id);
    this.#entries.set(id, now + ttlMs);
    this.#sweep(now);
  }

  /** Number of ids currently held (expired ones may still be counted until swept). */
  get size(): number {
    return this.#entries.size;
  }

  /** Ids dropped before expiry because the store was full. */
  get evicted(): number {
    return this.#evicted;
  }

  #sweep(now: number): void {
    // Drop expired entries at the front (oldest inserted), then enforce the bound.
    for (const [key, expires] of this.#entries) {
      if (expires > now) break;
      this.#entries.delete(key);
      this.#processing.delete(key);
    }
    while (this.#entries.size > this.#max) {
      const oldest = this.#entries.keys().next();
      if (oldest.done) break;
      this.#entries.delete(oldest.value);
      this.#processing.delete(oldest.value);
      this.#evicted++;
    }
  }
}

export interface RedisDedupeStoreOptions {
  /** The application's Redis client as is: node-redis 4/5/6 or ioredis 5/6, single node or Cluster (or a `RedisCommandClient`). */
  client: RedisClientLike;
  /** Key prefix; default "im:callbacks:". */
  prefix?: string;
}

/**
 * Redis store: `SET <prefix><id> 1 NX PX <ttl>` is atomic, so it is safe across any number of
 * receiver processes sharing one Redis.
 */
export class RedisDedupeStore implements DedupeStore {
  readonly #client: RedisConnection;
  readonly #prefix: string;

  constructor(options: RedisDedupeStoreOptions) {
    if (!options) throw new TypeError('RedisDedupeStore needs { client }: your node-redis or ioredis client');
    this.#client = redisConnection(options.client, 'RedisDedupeStore');
    this.#prefix = options.prefix ?? 'im:callbacks:';
  }

  async claim(id: string, ttlMs: number = DEFAULT_DEDUPE_TTL_MS): Promise<boolean> {
    const ttl = Math.max(1, Math.ceil(ttlMs));
    return isOk(await this.#client.command(['SET', this.#prefix + id, DONE, 'NX', 'PX', String(ttl)]));
  }

  async release(id: string): Promise<void> {
    await this.#client.command(['DEL', this.#prefix + id]);
  }

  async begin(id: string, processingTtlMs: number): Promise<'claimed' | 'in_progress' | 'done'> {
    const key = this.#prefix + id;
    const ttl = String(Math.max(1, Math.ceil(processingTtlMs)));
    // Twice at most: the entry may expire between the SET and the GET.
    for (let round = 0; round < 2; round++) {
      if (isOk(await this.#client.command(['SET', key, PROCESSING, 'NX', 'PX', ttl]))) return 'claimed';
      const state = textOf(await this.#client.command(['GET', key]));
      if (state === PROCESSING) return 'in_progress';
      if (state !== undefined) return 'done';
    }
    return 'in_progress';
  }

  async complete(id: string, ttlMs: number = DEFAULT_DEDUPE_TTL_MS): Promise<void> {
    await this.#client.command(['SET', this.#prefix + id, DONE, 'PX', String(Math.max(1, Math.ceil(ttlMs)))]);
  }
}

const PROCESSING = 'processing';
const DONE = '1';

function textOf(reply: unknown): string | undefined {
  return replyText(reply) ?? undefined;
}

function isOk(reply: unknown): boolean {
  return textOf(reply) === 'OK';
}
