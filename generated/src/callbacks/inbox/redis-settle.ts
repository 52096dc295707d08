// Copied by im-openapi from templates/runtime/callbacks/inbox/redis-settle.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The settles of `RedisInbox`: queued and sent together. The settles requested in one turn of the
 * event loop (the events a batch of handlers finished) go out in one script call, up to 100
 * events: those without state changes or ordering guard in the short ACK script (two arguments
 * per event), the others in SETTLE. Each event still gets its own outcome.
 */
import { StoreError } from '../../core/errors.js';
import { replyText } from '../../stores/redis-reply.js';
import type { GuardPlan } from './marks.js';
import { doneBuckets, idRecord } from './redis-id-records.js';
import { ACK, SETTLE } from './redis-inbox-scripts.js';
import type { InboxCommitOutcome, InboxStateChange } from './types.js';

/** One event of a settle call. */
export interface SettleItem {
  consumer: string;
  entryId: string;
  eventId: string;
  changes: readonly InboxStateChange[];
  guard: GuardPlan | undefined;
}

interface Queued extends SettleItem {
  resolve: (outcome: InboxCommitOutcome) => void;
  reject: (err: unknown) => void;
}

const OUTCOMES = new Set<InboxCommitOutcome>(['applied', 'superseded', 'duplicate', 'lost']);
const LETTERS: Readonly<Record<string, InboxCommitOutcome>> = { a: 'applied', d: 'duplicate', l: 'lost' };
/** Events per script call at most. */
const SETTLE_BATCH = 100;

export type EvalScript = (script: string, keys: string[], args: string[]) => Promise<unknown>;

export class SettleQueue {
  readonly #queue: Queued[] = [];

  readonly #eval: EvalScript;
  readonly #prefix: string;
  readonly #group: string;
  readonly #retentionMs: number;
  readonly #now: () => number;

  constructor(run: EvalScript, prefix: string, group: string, retentionMs: number, now: () => number) {
    this.#eval = run;
    this.#prefix = prefix;
    this.#group = group;
    this.#retentionMs = retentionMs;
    this.#now = now;
  }

  settle(item: SettleItem): Promise<InboxCommitOutcome> {
    return new Promise<InboxCommitOutcome>((resolve, reject) => {
      this.#queue.push({ ...item, resolve, reject });
      if (this.#queue.length === 1) queueMicrotask(() => this.#flush());
    });
  }

  #flush(): void {
    const plain = new Map<string, Queued[]>();
    const full: Queued[] = [];
    for (const item of this.#queue.splice(0)) {
      if (item.changes.length > 0 || item.guard) full.push(item);
      else {
        const same = plain.get(item.consumer);
        if (same) same.push(item);
        else plain.set(item.consumer, [item]);
      }
    }
    for (const items of plain.values())
      for (let i = 0; i < items.length; i += SETTLE_BATCH) this.#sendAck(items.slice(i, i + SETTLE_BATCH));
    for (let i = 0; i < full.length; i += SETTLE_BATCH) this.#sendSettle(full.slice(i, i + SETTLE_BATCH));
  }

  #sendAck(batch: Queued[]): void {
    const { keys, args } = ackCall(this.#prefix, this.#group, this.#retentionMs, this.#now(), batch);
    this.#eval(ACK, keys, args).then(
      (reply) => {
        const letters = replyText(reply) ?? '';
        batch.forEach((item, i) => {
          const outcome = LETTERS[letters[i] ?? ''];
          if (outcome) item.resolve(outcome);
          else item.reject(new StoreError('RedisInbox ACK', `answered ${JSON.stringify(letters)}, not outcomes`));
        });
      },
      (err: unknown) => batch.forEach((item) => item.reject(err)),
    );
  }

  #sendSettle(batch: Queued[]): void {
    const { keys, args } = settleCall(this.#prefix, this.#group, this.#retentionMs, this.#now(), batch);
    this.#eval(SETTLE, keys, args).then(
      (reply) => {
        const outcomes = Array.isArray(reply) ? reply.map(replyText) : [];
        batch.forEach((item, i) => {
          const outcome = outcomes[i];
          if (outcome?.startsWith('E:')) item.reject(new StoreError('inbox commit', `refused: ${outcome.slice(2)}`));
          else if (outcome && OUTCOMES.has(outcome as InboxCommitOutcome)) item.resolve(outcome as InboxCommitOutcome);
          else item.reject(new StoreError('RedisInbox SETTLE', `answered ${String(outcome)}, not an outcome`));
        });
      },
      (err: unknown) => batch.forEach((item) => item.reject(err)),
    );
  }
}

/** `a` before `b` as stream entry ids (`<ms>-<seq>`, compared as numbers; no split: this runs per event). */
export function entryBefore(a: string, b: string): boolean {
  const ad = a.indexOf('-');
  const bd = b.indexOf('-');
  // no leading zeros: the part with fewer digits is the smaller; parts of one length compare digit by digit
  if (ad !== bd) return ad < bd;
  for (let i = 0; i < ad; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d < 0;
  }
  if (a.length !== b.length) return a.length < b.length;
  for (let i = ad + 1; i < a.length; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d < 0;
  }
  return false;
}

/** The lowest and highest entry id of each consumer's events. */
function entryRanges(items: readonly SettleItem[]): Map<string, [string, string]> {
  const ranges = new Map<string, [string, string]>();
  for (const { consumer, entryId } of items) {
    const r = ranges.get(consumer);
    if (!r) ranges.set(consumer, [entryId, entryId]);
    else if (entryBefore(entryId, r[0])) r[0] = entryId;
    else if (entryBefore(r[1], entryId)) r[1] = entryId;
  }
  return ranges;
}

/** The KEYS both settle scripts start with (stream, stats, pending, the current done bucket, the live ones) and the done buckets. */
function settleKeys(prefix: string, retentionMs: number, now: number) {
  const done = doneBuckets(prefix, retentionMs, now);
  return { done, keys: [prefix + 'events', prefix + 'stats', prefix + 'pending', done.current, ...done.live] };
}

/** KEYS and ARGV of one ACK call for `items`, all of one consumer, none with changes or a guard (layout above ACK). */
export function ackCall(
  prefix: string,
  group: string,
  retentionMs: number,
  now: number,
  items: readonly SettleItem[],
): { keys: string[]; args: string[] } {
  const { done, keys } = settleKeys(prefix, retentionMs, now);
  const [consumer, [lo, hi]] = [...entryRanges(items)][0]!;
  const args = [group, consumer, String(done.ttlMs), lo, hi];
  for (const { entryId, eventId } of items) args.push(entryId, idRecord(eventId));
  return { keys, args };
}

/** KEYS and ARGV of one SETTLE call for `items` (layout above SETTLE). */
export function settleCall(
  prefix: string,
  group: string,
  retentionMs: number,
  now: number,
  items: readonly SettleItem[],
): { keys: string[]; args: string[] } {
  const stream = prefix + 'events';
  const { done, keys } = settleKeys(prefix, retentionMs, now);
  const ranges = entryRanges(items);
  const args = [
    group,
    String(retentionMs),
    String(done.ttlMs),
    String(items.length),
    String(done.live.length),
    String(ranges.size),
  ];
  for (const [consumer, [lo, hi]] of ranges) args.push(consumer, lo, hi);
  for (const { consumer, entryId, eventId, changes, guard } of items) {
    keys.push(guard ? prefix + 'mark:' + guard.entity : stream);
    args.push(
      entryId,
      consumer,
      idRecord(eventId),
      guard ? '1' : '0',
      guard?.mark.v ?? '',
      guard?.mark.t ?? '',
      String(changes.length),
    );
    for (const change of changes) {
      keys.push(prefix + 's:' + change.key);
      args.push(
        (change.always === true ? '!' : '') + change.op,
        change.op === 'set' ? change.value : change.op === 'incr' ? String(change.by ?? 1) : '',
      );
    }
  }
  return { keys, args };
}
