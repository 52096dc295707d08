// Copied by im-openapi from templates/runtime/internal/token-manager.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * App Token lifecycle (internal, unstable; `TokenStore`, `StoredToken`, `MemoryTokenStore` and
 * `TokenEvent` are re-exported by `core/` as public API).
 *
 * - Cached in a `TokenStore` under a key without the secret; reused until shortly before expiry.
 * - Single flight: however many calls need a token, one exchange is in flight (and, with a
 *   store that implements `withExchangeLock`, one across processes).
 * - Refresh ahead: inside the refresh margin the old token keeps being used while one
 *   background exchange runs; only calls without a usable token wait.
 * - `invalidate(token)` after a 401 drops that token (only if it is still the cached one).
 */
import { DEFAULT_STORE_BUDGET_MS, withStoreBudget } from '../stores/store-budget.js';
import { raceSignal } from './call-scope.js';
import type { SafeLogger } from './logger.js';
import { escapeStoreKeyPart } from './store-keys.js';

export interface StoredToken {
  accessToken: string;
  /** Epoch ms. */
  expiresAt: number;
  /** Application id from the exchange answer. */
  application?: string;
  /** Epoch ms when obtained (lets the refresh margin follow the token's lifetime). */
  obtainedAt?: number;
}

/** Where App Tokens are cached. Share one between processes to share the token (e.g. Redis). */
export interface TokenStore {
  get(key: string): Promise<StoredToken | null>;
  set(key: string, token: StoredToken): Promise<void>;
  delete(key: string): Promise<void>;
  /** Optional cross-process lock held while one process exchanges. */
  withExchangeLock?<T>(key: string, fn: () => Promise<T>): Promise<T>;
  /**
   * Optional atomic compare-and-delete: delete only while the stored token is `accessToken`.
   * Used after a 401, so that a process that learns late about it never deletes the token that
   * another process already exchanged in its place (without it: get, compare, delete).
   */
  deleteIf?(key: string, accessToken: string): Promise<void>;
}

/** The default store: this process only. */
export class MemoryTokenStore implements TokenStore {
  readonly #tokens = new Map<string, StoredToken>();
  async get(key: string): Promise<StoredToken | null> {
    return this.#tokens.get(key) ?? null;
  }
  async set(key: string, token: StoredToken): Promise<void> {
    this.#tokens.set(key, { ...token });
  }
  async delete(key: string): Promise<void> {
    this.#tokens.delete(key);
  }
  toJSON(): Record<string, unknown> {
    return { type: 'MemoryTokenStore', entries: this.#tokens.size };
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `MemoryTokenStore { entries: ${this.#tokens.size} }`;
  }
}

/**
 * The store key of a client's App Token: base URL, org, app and client id, with `%`, `|` and `#`
 * percent-encoded in each part, so that a separator inside a name can never make two clients
 * share a key (the key stays readable: URLs keep their `:` and `/`) (an org named
 * "a|b" once collided with another app: the second client got 403 for the token's whole life).
 * Never the secret. `v2`: keys of the old, unescaped form are never read.
 */
export function tokenStoreKey(baseUrl: string, orgName: string, appName: string, clientId: string): string {
  const e = (part: string): string => escapeStoreKeyPart(part, /[%|#]/g);
  return `im-openapi:app-token:v2:${e(baseUrl)}|${e(orgName)}#${e(appName)}|${e(clientId)}`;
}

/** Observable token lifecycle events. They never carry the token or the secret. */
export interface TokenEvent {
  type: 'exchanged' | 'refreshed' | 'refresh_failed' | 'invalidated' | 'revoked';
  /** Token store key (base URL, org#app and client id; no secret). */
  key: string;
  expiresAt?: number;
  application?: string;
  reason?: string;
  error?: { name: string; code?: string; message: string };
}

export interface TokenManagerOptions {
  store: TokenStore;
  key: string;
  /** Performs one exchange (with its own retries); never called concurrently by this manager. */
  exchange: () => Promise<StoredToken>;
  now: () => number;
  /** Explicit refresh margin; default min(5 min, 10 % of the token's lifetime). */
  refreshMarginMs?: number;
  onEvent: (event: TokenEvent) => void;
  logger: SafeLogger;
  /**
   * Budget of each get/set/delete/deleteIf of the store (default 2 000 ms). Past it the call is
   * given up and the manager falls back: exchanges itself, keeps the token in memory only, or
   * goes on without the delete; a log line says so (never the token).
   */
  storeBudgetMs?: number;
}

const DEFAULT_MARGIN_MS = 5 * 60_000;
const BACKGROUND_RETRY_PAUSE_MS = 10_000;

export class TokenManager {
  readonly #o: TokenManagerOptions;
  #current: StoredToken | null = null;
  #inflight: Promise<StoredToken> | null = null;
  #backgroundPausedUntil = 0;
  readonly #rejected = new Set<string>();
  /** Tokens this manager read from the store rather than exchanged itself (bounded). */
  readonly #fromStore = new Set<string>();

  constructor(options: TokenManagerOptions) {
    this.#o = options;
  }

  /** The App Token to send now; waits (abortably) only when no usable token is cached. */
  async getToken(signal?: AbortSignal): Promise<string> {
    const now = this.#o.now();
    const current = this.#current;
    if (current && this.#usable(current, now)) {
      if (this.#due(current, now)) this.#refreshInBackground();
      return current.accessToken;
    }
    if (signal?.aborted) throw signal.reason;
    const token = await raceSignal(this.#acquire(), signal);
    if (this.#due(token, this.#o.now())) this.#refreshInBackground();
    return token.accessToken;
  }

  /**
   * The cached token when it can be sent now and no refresh is due, else undefined: the hot path's
   * check, with no promise.
   */
  readyToken(): string | undefined {
    const current = this.#current;
    if (current === null) return undefined;
    const now = this.#o.now();
    return this.#usable(current, now) && !this.#due(current, now) ? current.accessToken : undefined;
  }

  /**
   * After a 403 permission_denied (the token's application differs from the path): when `token`
   * came from the store, not from an exchange of this client, the store gave this client another
   * application's token (a key collision, or a writer with the wrong key). Drops it as after a
   * 401 and answers true, so that the call exchanges its own token and is resent once. A token
   * this client exchanged itself is its own: the 403 is real, answers false.
   */
  async dropIfForeign(token: string): Promise<boolean> {
    if (!this.#fromStore.has(token)) return false;
    this.#o.logger.warn(
      'permission_denied with a token read from the token store: it may belong to another application; dropping it and exchanging',
    );
    await this.invalidate(token, 'permission_denied');
    return true;
  }

  /** Drops `token` after a 401 unauthenticated (no-op when another call already replaced it). */
  async invalidate(token: string, reason = 'unauthenticated'): Promise<void> {
    if (this.#rejected.has(token)) return;
    this.#rejected.add(token);
    if (this.#rejected.size > 32) this.#rejected.delete(this.#rejected.values().next().value as string);
    if (this.#current?.accessToken === token) this.#current = null;
    try {
      const { store, key } = this.#o;
      if (store.deleteIf) await this.#budget(store.deleteIf(key, token), 'token store deleteIf');
      else if ((await this.#budget(store.get(key), 'token store get'))?.accessToken === token)
        await this.#budget(store.delete(key), 'token store delete');
    } catch (err) {
      this.#o.logger.warn(`token store failed while invalidating a token: ${describe(err)}`);
    }
    this.#emit({ type: 'invalidated', reason });
  }

  /** Forgets the token here and in the store (credentials revoked). */
  async discard(reason: string): Promise<void> {
    this.#current = null;
    try {
      await this.#budget(this.#o.store.delete(this.#o.key), 'token store delete');
    } catch (err) {
      this.#o.logger.warn(`token store failed while discarding the token: ${describe(err)}`);
    }
    this.#emit({ type: 'revoked', reason });
  }

  /** Expiry of the cached token (for diagnostics; never the token itself). */
  get cachedExpiresAt(): number | undefined {
    return this.#current?.expiresAt;
  }

  /** One store call within its budget (a store that stops answering must not hang calls). */
  #budget<T>(call: Promise<T>, what: string): Promise<T> {
    return withStoreBudget(call, this.#o.storeBudgetMs ?? DEFAULT_STORE_BUDGET_MS, what);
  }

  #marginMs(token: StoredToken): number {
    const lifetime = token.obtainedAt !== undefined ? token.expiresAt - token.obtainedAt : undefined;
    if (this.#o.refreshMarginMs !== undefined) {
      return lifetime !== undefined ? Math.min(this.#o.refreshMarginMs, lifetime / 2) : this.#o.refreshMarginMs;
    }
    return lifetime !== undefined ? Math.min(DEFAULT_MARGIN_MS, lifetime * 0.1) : DEFAULT_MARGIN_MS;
  }

  /** Still safe to send: not expired and not within a small skew of expiry, not rejected. */
  #usable(token: StoredToken, now: number): boolean {
    const skew = Math.min(10_000, this.#marginMs(token) / 2);
    return !this.#rejected.has(token.accessToken) && now < token.expiresAt - skew;
  }

  #due(token: StoredToken, now: number): boolean {
    return now >= token.expiresAt - this.#marginMs(token);
  }

  #acquire(): Promise<StoredToken> {
    if (!this.#inflight) {
      const refreshing = this.#current !== null && this.#usable(this.#current, this.#o.now());
      const flight = this.#loadOrExchange(refreshing).finally(() => {
        this.#inflight = null;
      });
      // Every waiter may have given up (aborted); the flight's failure must not go unhandled.
      flight.catch(() => {});
      this.#inflight = flight;
    }
    return this.#inflight;
  }

  async #loadOrExchange(refreshing: boolean): Promise<StoredToken> {
    const { store, key } = this.#o;
    const run = async (): Promise<StoredToken> => {
      let stored: StoredToken | null = null;
      try {
        stored = await this.#budget(store.get(key), 'token store get');
      } catch (err) {
        this.#o.logger.warn(`token store get failed, exchanging instead: ${describe(err)}`);
      }
      const now = this.#o.now();
      if (stored && this.#usable(stored, now) && (!refreshing || !this.#due(stored, now))) {
        this.#current = stored;
        this.#fromStore.add(stored.accessToken);
        if (this.#fromStore.size > 32) this.#fromStore.delete(this.#fromStore.values().next().value as string);
        return stored;
      }
      const fresh = await this.#o.exchange();
      this.#current = fresh;
      try {
        await this.#budget(store.set(key, fresh), 'token store set');
      } catch (err) {
        this.#o.logger.warn(`token store set failed; the token is kept in memory only: ${describe(err)}`);
      }
      this.#emit({
        type: refreshing ? 'refreshed' : 'exchanged',
        expiresAt: fresh.expiresAt,
        ...(fresh.application ? { application: fresh.application } : {}),
      });
      return fresh;
    };
    return store.withExchangeLock ? store.withExchangeLock(key, run) : run();
  }

  #refreshInBackground(): void {
    if (this.#inflight || this.#o.now() < this.#backgroundPausedUntil) return;
    this.#o.logger.debug('App Token is close to expiry; refreshing it in the background');
    this.#acquire().catch((err: unknown) => {
      this.#backgroundPausedUntil = this.#o.now() + BACKGROUND_RETRY_PAUSE_MS;
      const e = err as { name?: string; code?: string; message?: string };
      this.#o.logger.warn(`background App Token refresh failed; the current token stays in use: ${describe(err)}`);
      this.#emit({
        type: 'refresh_failed',
        error: {
          name: String(e?.name ?? 'Error'),
          ...(typeof e?.code === 'string' ? { code: e.code } : {}),
          message: String(e?.message ?? err),
        },
      });
    });
  }

  #emit(event: Omit<TokenEvent, 'key'>): void {
    try {
      this.#o.onEvent({ key: this.#o.key, ...event });
    } catch (err) {
      this.#o.logger.warn(`onTokenEvent hook threw: ${describe(err)}`);
    }
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
