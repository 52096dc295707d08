// Copied by im-openapi from templates/runtime/callbacks/inbox/redis-durability.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * What the Redis inbox's "stored before 2xx" promise rests on (issue 28 item 5): Redis keeps an
 * appended event across a crash only with its append-only file on (`appendonly yes`; RDB snapshots
 * alone lose what came since the last one), and keeps it at all only if it never evicts keys
 * (`maxmemory-policy noeviction`, or no `maxmemory`). The inbox reads these once at start
 * (`CONFIG GET`, or `INFO` where CONFIG is refused, as on most managed Redis) and, per its
 * `durability` option, refuses appends, warns once, or does neither. `waitForPersistence` makes
 * each append wait until Redis says it is on disk (`WAITAOF`, Redis 7.2+) or on replicas (`WAIT`).
 */
import { ImError } from '../../core/errors.js';
import type { RedisConnection } from '../../stores/redis-client.js';
import { replyNumber, replyPairs, replyText } from '../../stores/redis-reply.js';
import type { CallbackLogger } from '../types.js';

/** `require-aof`: refuse appends (503 to the service) unless Redis persists them; `warn`: one log line; `off`: no check. */
export type InboxDurability = 'require-aof' | 'warn' | 'off';

export interface WaitForPersistence {
  /**
   * Each append waits until Redis has fsynced it to its append-only file: `WAITAOF 1 0` on Redis
   * 7.2+; on older Redis (no WAITAOF) only with `appendfsync always`, where Redis replies after the
   * fsync anyway (else appends are refused: nothing could confirm them).
   */
  aof?: boolean;
  /** Each append waits until this many replicas have it (`WAIT n`). */
  replicas?: number;
  /** Longest wait, in ms (default 1 000); not confirmed by then → the append fails (503, the service resends). */
  timeoutMs?: number;
}

/** What the start-up check found. */
export interface InboxDurabilityReport {
  /** False when neither CONFIG GET nor INFO answered (nothing could be checked). */
  checked: boolean;
  /** How it was read: `config`, `info` (CONFIG refused), or `none`. */
  source: 'config' | 'info' | 'none';
  appendonly: boolean | undefined;
  /** `always`, `everysec` or `no` (CONFIG only). */
  appendfsync: string | undefined;
  /** RDB snapshot rules (CONFIG only); '' = none. */
  save: string | undefined;
  maxmemory: number | undefined;
  maxmemoryPolicy: string | undefined;
  /** The server has WAITAOF (Redis 7.2+). */
  waitaof: boolean;
  /** Each way events answered 2xx can be lost, as a sentence; empty when none was found. */
  problems: string[];
  /** Why CONFIG GET (and INFO) could not be used, when they could not. */
  unchecked?: string;
}

/** Appends refused because Redis would not keep them (durability 'require-aof'), or a persistence wait not confirmed. */
export class InboxDurabilityError extends ImError {
  readonly code = 'inbox_not_durable' as const;
}

type Send = RedisConnection['command'];

/** Reads Redis's persistence and eviction settings. Never throws: what could not be read is said in the report. */
export async function checkRedisDurability(send: Send): Promise<InboxDurabilityReport> {
  const report: InboxDurabilityReport = {
    checked: false,
    source: 'none',
    appendonly: undefined,
    appendfsync: undefined,
    save: undefined,
    maxmemory: undefined,
    maxmemoryPolicy: undefined,
    waitaof: false,
    problems: [],
  };
  report.waitaof = await send(['COMMAND', 'INFO', 'WAITAOF']).then(
    (r) => Array.isArray(r) && r[0] !== null && r[0] !== undefined,
    () => false,
  );
  const config = async (name: string): Promise<string | undefined> => {
    // [name, value] (the connection gives RESP3's { name: value } in that shape too)
    const value = replyPairs(await send(['CONFIG', 'GET', name])).find(([key]) => key === name)?.[1];
    return replyText(value) ?? undefined;
  };
  try {
    const [appendonly, appendfsync, save, maxmemory, policy] = await Promise.all(
      ['appendonly', 'appendfsync', 'save', 'maxmemory', 'maxmemory-policy'].map(config),
    );
    Object.assign(report, {
      checked: true,
      source: 'config',
      appendonly: appendonly === 'yes',
      appendfsync,
      save,
      maxmemory: Number(maxmemory ?? 0),
      maxmemoryPolicy: policy,
    });
  } catch (configErr) {
    try {
      const info = `${replyText(await send(['INFO', 'persistence'])) ?? ''}\n${replyText(await send(['INFO', 'memory'])) ?? ''}`;
      const field = (name: string): string | undefined => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
      if (field('aof_enabled') === undefined) throw new Error('INFO has no aof_enabled');
      Object.assign(report, {
        checked: true,
        source: 'info',
        appendonly: field('aof_enabled') === '1',
        maxmemory: Number(field('maxmemory') ?? 0),
        maxmemoryPolicy: field('maxmemory_policy'),
      });
      report.unchecked = `CONFIG GET refused (${errorLine(configErr)}); read from INFO instead`;
    } catch (infoErr) {
      report.unchecked = `CONFIG GET refused (${errorLine(configErr)}) and INFO too (${errorLine(infoErr)})`;
    }
  }
  if (report.checked) {
    if (!report.appendonly) {
      const rdb =
        report.save === undefined
          ? ''
          : report.save === ''
            ? ' and no RDB snapshots (save "")'
            : `; RDB snapshots (save "${report.save}") keep only what came before the last one`;
      report.problems.push(
        `the append-only file is off (appendonly no)${rdb}: events answered 2xx are lost when Redis crashes or restarts`,
      );
    } else if (report.appendfsync === 'no') {
      report.problems.push(
        'appendfsync no: the OS writes the append-only file when it likes (about every 30 s): a machine crash loses that much',
      );
    }
    if (
      (report.maxmemory ?? 0) > 0 &&
      report.maxmemoryPolicy !== undefined &&
      report.maxmemoryPolicy !== 'noeviction'
    ) {
      report.problems.push(
        `maxmemory-policy ${report.maxmemoryPolicy} evicts keys under memory pressure: an evicted stream loses events, an evicted dedupe key lets a duplicate in (use noeviction)`,
      );
    }
  }
  return report;
}

/** Whether `report` allows appends under `durability` 'require-aof'; the reason when not. */
export function refusalOf(report: InboxDurabilityReport, wait: WaitForPersistence | undefined): string | undefined {
  if (!report.checked)
    return `Redis persistence could not be checked (${report.unchecked}); with durability 'require-aof' appends are refused. On a managed Redis whose persistence you know, use durability 'warn'`;
  const blocking = report.problems.filter((p) => !p.startsWith('appendfsync no'));
  if (blocking.length > 0) return `Redis would lose events answered 2xx: ${blocking.join('; ')}`;
  return waitRefusal(report, wait);
}

/** Why `waitForPersistence.aof` cannot be kept on this server, if it cannot. */
export function waitRefusal(report: InboxDurabilityReport, wait: WaitForPersistence | undefined): string | undefined {
  if (!wait?.aof || report.waitaof) return undefined;
  if (report.appendonly && report.appendfsync === 'always') return undefined; // the reply already comes after the fsync
  return `waitForPersistence.aof needs WAITAOF (Redis 7.2 or later) or appendonly yes with appendfsync always; this server has ${report.waitaof ? 'WAITAOF' : 'no WAITAOF'}, appendonly ${report.appendonly === undefined ? 'unknown' : report.appendonly ? 'yes' : 'no'}, appendfsync ${report.appendfsync ?? 'unknown'}`;
}

/** After an append on `send`'s connection: waits until it is persisted as asked, or throws InboxDurabilityError. */
export async function waitForPersisted(
  send: Send,
  wait: WaitForPersistence,
  report: InboxDurabilityReport,
): Promise<void> {
  const timeoutMs = String(Math.max(1, Math.round(wait.timeoutMs ?? 1000)));
  if (wait.aof && report.waitaof) {
    const reply = await send(['WAITAOF', '1', '0', timeoutMs]);
    const local = Array.isArray(reply) ? replyNumber(reply[0]) : 0;
    if (!(local >= 1))
      throw new InboxDurabilityError(
        `the append was not fsynced to Redis's append-only file within ${timeoutMs} ms (WAITAOF): answering 503 so the service resends`,
      );
  }
  if (wait.replicas !== undefined && wait.replicas > 0) {
    const acked = replyNumber(await send(['WAIT', String(wait.replicas), timeoutMs]));
    if (!(acked >= wait.replicas))
      throw new InboxDurabilityError(
        `the append reached ${acked} of ${wait.replicas} replicas within ${timeoutMs} ms (WAIT): answering 503 so the service resends`,
      );
  }
}

function errorLine(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** When neither CONFIG nor INFO answered (Redis down?), the check is made again after this long. */
const RECHECK_MS = 10_000;

/** The inbox's side of it: the check made once, one log line, appends refused or waited for. */
export class DurabilityGuard {
  readonly #send: Send;
  readonly #durability: InboxDurability;
  readonly #wait: WaitForPersistence | undefined;
  readonly #logger: CallbackLogger;
  readonly #now: () => number;
  #checked: Promise<InboxDurabilityReport> | undefined;
  #recheckAt: number | undefined;
  /** Why appends are refused (durability 'require-aof', or a persistence wait this server cannot keep). */
  #refusal: string | undefined;
  #said = false;

  constructor(
    send: Send,
    options: { durability?: InboxDurability; waitForPersistence?: WaitForPersistence; logger?: CallbackLogger },
    now: () => number,
  ) {
    this.#send = send;
    this.#now = now;
    this.#durability = options.durability ?? 'warn';
    if (!['require-aof', 'warn', 'off'].includes(this.#durability))
      throw new TypeError("RedisInbox: durability must be 'require-aof', 'warn' or 'off'");
    const wait = options.waitForPersistence;
    if (wait !== undefined) {
      if (wait === null || typeof wait !== 'object')
        throw new TypeError('RedisInbox: waitForPersistence must be an object like { aof: true } or { replicas: 1 }');
      if (wait.replicas !== undefined && !(Number.isSafeInteger(wait.replicas) && wait.replicas >= 0))
        throw new TypeError('RedisInbox: waitForPersistence.replicas must be an integer >= 0');
      if (wait.timeoutMs !== undefined && !(wait.timeoutMs >= 1 && wait.timeoutMs <= 60_000))
        throw new TypeError('RedisInbox: waitForPersistence.timeoutMs must be from 1 to 60000 ms');
    }
    this.#wait = wait;
    this.#logger = options.logger ?? console;
  }

  /** The check, made once (again after RECHECK_MS when Redis did not answer it). */
  report(): Promise<InboxDurabilityReport> {
    if (this.#recheckAt !== undefined && this.#now() >= this.#recheckAt) {
      this.#recheckAt = undefined;
      this.#checked = undefined;
    }
    this.#checked ??=
      this.#durability === 'off' && !this.#wait?.aof
        ? Promise.resolve({
            checked: false,
            source: 'none',
            appendonly: undefined,
            appendfsync: undefined,
            save: undefined,
            maxmemory: undefined,
            maxmemoryPolicy: undefined,
            waitaof: false,
            problems: [],
            unchecked: "durability 'off'",
          })
        : checkRedisDurability(this.#send).then((report) => {
            if (!report.checked) this.#recheckAt = this.#now() + RECHECK_MS;
            return this.#judge(report);
          });
    return this.#checked;
  }

  /** Before an append: the report, or InboxDurabilityError when appends are refused. */
  async beforeAppend(): Promise<InboxDurabilityReport> {
    const report = await this.report();
    if (this.#refusal !== undefined) throw new InboxDurabilityError(`RedisInbox refuses the append: ${this.#refusal}`);
    return report;
  }

  /** After an append's write, on the same connection: waits until it is persisted, if asked. */
  async afterAppend(report: InboxDurabilityReport): Promise<void> {
    if (this.#wait) await waitForPersisted(this.#send, this.#wait, report);
  }

  /** Decides on the report: the one log line, and whether appends are refused. */
  #judge(report: InboxDurabilityReport): InboxDurabilityReport {
    const refusal =
      this.#durability === 'require-aof' ? refusalOf(report, this.#wait) : waitRefusal(report, this.#wait);
    this.#refusal = refusal;
    if (this.#said) return report; // one line, however often it is checked
    this.#said = true;
    if (refusal !== undefined) {
      this.#logger.error?.(
        `RedisInbox refuses appends (the handler answers 503 and the service keeps the events): ${refusal}.`,
      );
    } else if (this.#durability === 'warn') {
      if (!report.checked)
        this.#logger.warn?.(
          `RedisInbox could not check that Redis keeps the events it answers 2xx for: ${report.unchecked}. Make sure the append-only file is on (appendonly yes) and maxmemory-policy is noeviction, then set durability: 'off' to silence this.`,
        );
      else if (report.problems.length > 0)
        this.#logger.warn?.(
          `RedisInbox: Redis may lose events the handler answered 2xx for: ${report.problems.join('; ')}. Set appendonly yes and maxmemory-policy noeviction, or durability: 'require-aof' to refuse appends until then ('off' silences this).`,
        );
    }
    return report;
  }
}
