// Copied by im-openapi from templates/runtime/callbacks/inbox/memory-inbox.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The embedded inbox: one process, in memory (nothing survives a restart — the durable engine is
 * `RedisInbox`), and it keeps every event id while its event is in the inbox and for `retentionMs`
 * (7 days by default) after it was processed: size the process for a week of ids, or shorten the
 * retention (24 h at least). Every step below is synchronous between awaits, so each is atomic on its own: the
 * ordering guard's compare-and-set needs no lock.
 */
import { StoreError } from '../../core/errors.js';
import type { CallbackEvent } from '../types.js';
import { InboxBase } from './inbox-base.js';
import type { Claimed, TakeRequest } from './inbox-base.js';
import { isNewerMark } from './marks.js';
import type { EncodedMark, GuardPlan } from './marks.js';
import type {
  InboxAppendResult,
  InboxCommitOutcome,
  InboxDeadLetter,
  InboxOptions,
  InboxStateChange,
  InboxStats,
} from './types.js';

interface Entry<E> {
  entryId: string;
  eventId: string;
  event: E;
  /** Runs so far (failed, or cut by a worker that held it too long). */
  runs: number;
  owner?: string;
  claimedAt?: number;
  dueAt?: number;
  lastError?: string;
}

export class MemoryInbox<E extends CallbackEvent = CallbackEvent> extends InboxBase<E> {
  /** Ids of the events in the inbox (waiting, in flight, retrying, dead-lettered), as RedisInbox's `pending`. */
  readonly #pending = new Set<string>();
  /** Processed id → expiry of its record (insertion order is expiry order). */
  readonly #done = new Map<string, number>();
  readonly #entries = new Map<string, Entry<E>>();
  readonly #dead = new Map<string, InboxDeadLetter<E>>();
  readonly #state = new Map<string, string>();
  readonly #marks = new Map<string, EncodedMark>();
  readonly #waiters = new Set<() => void>();
  #seq = 0;
  #processed = 0;
  #superseded = 0;

  constructor(options: InboxOptions = {}) {
    super(options);
  }

  async append(events: readonly E[]): Promise<InboxAppendResult> {
    const now = this.now();
    this.#sweep(now);
    let stored = 0;
    let duplicates = 0;
    for (const event of events) {
      const id = event.id;
      if (this.#pending.has(id) || this.#wasDone(id, now)) {
        duplicates++;
        continue;
      }
      this.#pending.add(id);
      this.#add(id, event, 0);
      stored++;
    }
    this.#wake();
    return { stored, duplicates };
  }

  #add(eventId: string, event: E, runs: number): void {
    const entryId = String(++this.#seq);
    this.#entries.set(entryId, { entryId, eventId, event, runs });
  }

  protected async take(req: TakeRequest): Promise<Claimed<E>[]> {
    const out = this.#takeNow(req);
    if (out.length > 0 || req.signal.aborted) return out;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(done);
        req.signal.removeEventListener('abort', done);
        resolve();
      };
      // wake at the next due retry or expiring claim at the latest
      const timer = setTimeout(done, Math.max(1, Math.min(req.waitMs, this.#nextChange() - this.now())));
      this.#waiters.add(done);
      req.signal.addEventListener('abort', done, { once: true });
    });
    return this.#takeNow(req);
  }

  #takeNow(req: TakeRequest): Claimed<E>[] {
    const now = this.now();
    const out: Claimed<E>[] = [];
    for (const entry of this.#entries.values()) {
      if (out.length >= req.count) break;
      if (entry.dueAt !== undefined && entry.dueAt > now) continue;
      if (entry.owner !== undefined) {
        if (now - entry.claimedAt! < this.visibilityMs) continue;
        // its worker died or overran: that run counts
        if (entry.runs >= req.maxAttempts) {
          this.#bury(entry, entry.lastError ?? 'worker stopped before settling the event (visibility timeout)', now);
          continue;
        }
      }
      entry.owner = req.consumer;
      entry.claimedAt = now;
      entry.runs++;
      delete entry.dueAt;
      out.push({ entryId: entry.entryId, eventId: entry.eventId, event: entry.event, attempt: entry.runs });
    }
    return out;
  }

  #nextChange(): number {
    let next = Infinity;
    for (const e of this.#entries.values()) {
      if (e.owner !== undefined) next = Math.min(next, e.claimedAt! + this.visibilityMs);
      else if (e.dueAt !== undefined) next = Math.min(next, e.dueAt);
    }
    return next;
  }

  #held(consumer: string, c: Claimed<E>): Entry<E> | undefined {
    const entry = this.#entries.get(c.entryId);
    return entry && entry.owner === consumer && entry.runs === c.attempt ? entry : undefined;
  }

  protected async settle(
    consumer: string,
    c: Claimed<E>,
    changes: readonly InboxStateChange[],
    guard: GuardPlan | undefined,
  ): Promise<InboxCommitOutcome> {
    const entry = this.#held(consumer, c);
    if (!entry) return 'lost';
    const now = this.now();
    // as in Redis: check every change before writing anything
    for (const change of changes) {
      const held = this.#state.get(change.key);
      if (change.op === 'incr' && held !== undefined && !/^-?\d+$/.test(held)) {
        throw new StoreError(
          'inbox commit',
          `refused: incr of state key ${change.key}, which does not hold an integer; nothing was written`,
        );
      }
    }
    this.#entries.delete(entry.entryId);
    // the id leaves the inbox; when it was not in it (appended again after its record went), the done records decide
    if (!this.#pending.delete(c.eventId) && this.#wasDone(c.eventId, now)) return 'duplicate';
    this.#done.delete(c.eventId); // re-inserted last: the map stays in expiry order
    this.#done.set(c.eventId, now + this.retentionMs);
    this.#processed++;
    const newer = !guard || isNewerMark(guard.mark, this.#marks.get(guard.entity));
    if (guard && newer) this.#marks.set(guard.entity, guard.mark);
    if (!newer) this.#superseded++;
    for (const change of changes) {
      if (!newer && change.always !== true) continue;
      if (change.op === 'set') this.#state.set(change.key, change.value);
      else if (change.op === 'del') this.#state.delete(change.key);
      else this.#state.set(change.key, String(Number(this.#state.get(change.key) ?? 0) + (change.by ?? 1)));
    }
    return newer ? 'applied' : 'superseded';
  }

  protected async fail(consumer: string, c: Claimed<E>, error: string, dueAt: number | undefined): Promise<void> {
    const entry = this.#held(consumer, c);
    if (!entry) return;
    entry.lastError = error;
    delete entry.owner;
    delete entry.claimedAt;
    if (dueAt === undefined) this.#bury(entry, error, this.now());
    else entry.dueAt = dueAt;
    this.#wake();
  }

  #bury(entry: Entry<E>, error: string, now: number): void {
    this.#entries.delete(entry.entryId);
    this.#dead.set(entry.eventId, {
      eventId: entry.eventId,
      event: entry.event,
      attempts: entry.runs,
      lastError: error,
      failedAt: now,
    });
  }

  protected async peekMark(entity: string): Promise<EncodedMark | null> {
    return this.#marks.get(entity) ?? null;
  }

  async getState(key: string): Promise<string | null> {
    return this.#state.get(key) ?? null;
  }

  async stats(): Promise<InboxStats> {
    let retrying = 0;
    for (const e of this.#entries.values()) if (e.dueAt !== undefined) retrying++;
    return {
      pending: this.#entries.size,
      retrying,
      deadLetters: this.#dead.size,
      processed: this.#processed,
      superseded: this.#superseded,
    };
  }

  async deadLetters(limit = 100): Promise<InboxDeadLetter<E>[]> {
    return [...this.#dead.values()].slice(0, limit).map((d) => ({ ...d }));
  }

  async replay(eventId?: string): Promise<number> {
    const ids = eventId === undefined ? [...this.#dead.keys()] : this.#dead.has(eventId) ? [eventId] : [];
    for (const id of ids) {
      const d = this.#dead.get(id)!;
      this.#dead.delete(id);
      this.#add(id, d.event, 0);
    }
    this.#wake();
    return ids.length;
  }

  #wake(): void {
    for (const w of [...this.#waiters]) w();
  }

  #wasDone(id: string, now: number): boolean {
    return (this.#done.get(id) ?? 0) > now;
  }

  #sweep(now: number): void {
    // insertion order is expiry order (one retention for all), so stop at the first live one
    for (const [id, expires] of this.#done) {
      if (expires > now) break;
      this.#done.delete(id);
    }
  }
}
