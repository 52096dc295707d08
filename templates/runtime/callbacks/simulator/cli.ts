/**
 * `im-callbacks simulate`: the delivery simulator from the command line (see simulate.ts).
 *
 *   npx im-callbacks simulate --url http://127.0.0.1:3000/callbacks --seed 7 --json report.json
 *
 * The secret comes from --secret or IM_CALLBACK_SECRET and is never printed; URL query values
 * are printed as ***. Exit code 0 when the report has no warning or error finding, 1 otherwise,
 * 2 for a usage mistake.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { formatSimulationReport, isCleanReport } from './report.js';
import {
  BREAKER_FIRST_PAUSE_MS,
  BREAKER_MAX_PAUSE_MS,
  BREAKER_PAUSE_MULTIPLIER,
  BREAKER_THRESHOLD,
  formatDuration,
  GIVE_UP_AFTER_MS,
  MAX_RETRY_AFTER_MS,
  MAX_SENDS,
  READ_LIMIT,
  RETRY_AFTER_STATUSES,
  RETRY_JITTER,
  RETRY_TABLE_MS,
  SETTING_DEFAULTS,
  SETTING_RANGES,
  SINGLE_FROM_SEND,
  VERIFY_TIMEOUT_MS,
} from './rules.js';
import { simulateDelivery } from './simulate.js';
import { isLoopbackTarget } from '../url.js';
import { hookAnswerOption, partOptionsHelp, PartOptionError, signatureOption } from '../cli-parts.js';
import { DEFAULT_SETTLE_QUIET_MS, DEFAULT_SETTLE_TIMEOUT_MS } from './settle.js';
import type { SimulateDeliveryOptions } from './simulate-options.js';

export const SIMULATE_USAGE = `usage: im-callbacks simulate --url <url> [--url <second url>] [--secret <secret> | env IM_CALLBACK_SECRET]
                         [--seed <n>] [--time-scale <n>] [--timeout-scale <n>] [--events <n>]
                         [--batch <n>] [--timeout-ms <n>] [--concurrency <n>] [--rate <n>]
                         [--duplicates <0..1>] [--hooks <n>] [--hook-timeout-ms <n>]
                         [--hook-policy allow-on-failure|reject-on-failure] [--old-secret <s>]
                         [--state-url <url>] [--settle-timeout-ms <n>] [--settle-quiet-ms <n>]
                         [--signature <scheme>] [--hook-answer <module>]
                         [--json <file>] [--max-real-seconds <n>] [--allow-remote]`;

/** `16384` → `16 KB` (the spec reads KB as 1024 bytes). */
function kb(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`;
}

function range(setting: keyof typeof SETTING_RANGES): string {
  return `${SETTING_RANGES[setting][0]} to ${SETTING_RANGES[setting][1]}`;
}

export const SIMULATE_HELP = `im-callbacks simulate: deliver events to your receiver the way the service does (seed 001), on a
fast clock, and report how it fared.

${SIMULATE_USAGE}

What it does: URL verification first (challenge, ${formatDuration(VERIFY_TIMEOUT_MS)}, ${kb(READ_LIMIT.verify)} read); then events in batches (not in
time order; one per request from send ${SINGLE_FROM_SEND}), at-least-once duplicates (also across two
--url addresses), lost best-effort events, truncated events, hooks with timeout_ms; failures are
retried on the §8 schedule (${formatDuration(RETRY_TABLE_MS[0]!)} … ${formatDuration(Math.max(...RETRY_TABLE_MS))}, ±${Math.round(RETRY_JITTER * 100)} %), Retry-After honoured on ${RETRY_AFTER_STATUSES.join('/')} (≤ ${formatDuration(MAX_RETRY_AFTER_MS)}), the
circuit breaker (${BREAKER_THRESHOLD} failures → ${formatDuration(BREAKER_FIRST_PAUSE_MS)} pause, probe, ×${BREAKER_PAUSE_MULTIPLIER} up to ${formatDuration(BREAKER_MAX_PAUSE_MS)}), 3xx is a failure, answers read
up to ${kb(READ_LIMIT.event)} (events) / ${kb(READ_LIMIT.hook)} (hooks) / ${kb(READ_LIMIT.verify)} (verify); an event fails after ${MAX_SENDS} sends or ${formatDuration(GIVE_UP_AFTER_MS)}.

  --url <url>             the receiver (give twice for two addresses); loopback only unless --allow-remote
                          (a literal 127.x.x.x or [::1], or localhost when it resolves only to those)
  --secret <secret>       the address signing secret; give it once per --url when the addresses have
                          their own secrets. Visible to other users in the process list (ps) and kept
                          in shell history: prefer IM_CALLBACK_SECRET
  --old-secret <s>        rotation: requests carry two signatures (new, old) during the grace period
                          (1 h of service time); IM_CALLBACK_OLD_SECRET works too
  --seed <n>              fixes the plan: events, order, batches, duplicates, losses, jitter (default random, printed)
  --time-scale <n>        simulated ms per real ms (default 1000: the ${formatDuration(GIVE_UP_AFTER_MS)} give-up takes ${Math.round(GIVE_UP_AFTER_MS / 1000 / 1000)} s)
  --timeout-scale <n>     divide the answer timeouts by this (default 1: timeouts stay real)
  --events <n>            events created (default 100)
  --batch <n>             events per batch, ${range('eventsPerBatch')} (default 10)
  --timeout-ms <n>        the address timeout, ${range('timeoutMs')} (default ${SETTING_DEFAULTS.timeoutMs})
  --concurrency <n>       simultaneous event requests, ${range('concurrency')} (default ${SETTING_DEFAULTS.concurrency})
  --rate <n>              requests per second, ${range('ratePerSecond')} (default ${SETTING_DEFAULTS.ratePerSecond})
  --duplicates <r>        share of events delivered twice (default 0.1)
  --hooks <n>             synchronous callbacks sent (default 3); --hook-timeout-ms (default 3000)
  --hook-policy <p>       allow-on-failure (default) or reject-on-failure
  --state-url <url>       GET → {"processed": {id: count}, "stored"?: [id], "current"?: {key: id},
                          "superseded"?: [id]} served by your test harness: enables the duplicate,
                          lost-after-2xx, store-before-2xx and older-over-newer findings; ids in
                          "superseded" (skipped by an ordering guard as older) count as handled
  --settle-timeout-ms <n> after the last delivery, read the state every 100 ms until every delivered
                          event is processed or superseded and the state stays the same for a quarter
                          of --settle-quiet-ms, or until it does not change for --settle-quiet-ms
                          (default ${DEFAULT_SETTLE_QUIET_MS}); judge then, or after this long at most (default ${DEFAULT_SETTLE_TIMEOUT_MS})
  --settle-quiet-ms <n>   see --settle-timeout-ms
${partOptionsHelp(26)}
  --json <file>           write the full report as JSON
  --max-real-seconds <n>  stop after this long (default 600)

Exit code: 0 when no finding is a warning or an error, 1 otherwise, 2 for a usage mistake.`;

class SimulateUsageError extends Error {}

function num(values: Record<string, unknown>, name: string): number | undefined {
  const v = values[name];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(n))
    throw new SimulateUsageError(`--${name} must be a number`);
  return n;
}

/** One line on stderr: a secret given as an argument is in the process list (never the secret itself). */
export function warnSecretInArgs(): void {
  console.error(
    'im-callbacks: note: --secret/--old-secret are visible to other users in the process list (ps) and in shell history; prefer IM_CALLBACK_SECRET / IM_CALLBACK_OLD_SECRET',
  );
}

/** The options as `parseArgs` reads them; its errors (unknown or malformed option) are usage errors. */
function parseSimulateArgs(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        url: { type: 'string', multiple: true },
        secret: { type: 'string', multiple: true },
        'old-secret': { type: 'string', multiple: true },
        seed: { type: 'string' },
        'time-scale': { type: 'string' },
        'timeout-scale': { type: 'string' },
        events: { type: 'string' },
        batch: { type: 'string' },
        'timeout-ms': { type: 'string' },
        concurrency: { type: 'string' },
        rate: { type: 'string' },
        duplicates: { type: 'string' },
        hooks: { type: 'string' },
        'hook-timeout-ms': { type: 'string' },
        'hook-policy': { type: 'string' },
        'state-url': { type: 'string' },
        'settle-timeout-ms': { type: 'string' },
        'settle-quiet-ms': { type: 'string' },
        signature: { type: 'string' },
        'hook-answer': { type: 'string' },
        json: { type: 'string' },
        'max-real-seconds': { type: 'string' },
        'allow-remote': { type: 'boolean', default: false },
      },
      strict: true,
    }).values;
  } catch (err) {
    throw new SimulateUsageError(err instanceof Error ? err.message : String(err));
  }
}

/** The command line as `simulateDelivery` options, or a SimulateUsageError naming the option. */
async function simulateOptionsFrom(values: ReturnType<typeof parseSimulateArgs>): Promise<SimulateDeliveryOptions> {
  if (!values.url || values.url.length === 0) throw new SimulateUsageError('--url is required');
  const envSecret = process.env.IM_CALLBACK_SECRET;
  const secret = values.secret ?? (envSecret ? [envSecret] : undefined);
  if (!secret) throw new SimulateUsageError('--secret (or IM_CALLBACK_SECRET) is required');
  if (values.secret !== undefined || values['old-secret'] !== undefined) warnSecretInArgs();
  if (values['allow-remote'] !== true) {
    for (const u of [...values.url, ...(values['state-url'] ? [values['state-url']] : [])]) {
      let url: URL | undefined;
      try {
        url = new URL(u);
      } catch {
        continue; // simulateDelivery names the bad URL
      }
      if (!(await isLoopbackTarget(url)))
        throw new SimulateUsageError(
          `refusing to drive ${url.hostname}: not a loopback address (127.0.0.1, [::1] or localhost resolving only to them); pass --allow-remote`,
        );
    }
  }
  const envOld = process.env.IM_CALLBACK_OLD_SECRET;
  const oldSecret = values['old-secret'] ?? (envOld ? [envOld] : undefined);
  const policy = values['hook-policy'];
  if (policy !== undefined && policy !== 'allow-on-failure' && policy !== 'reject-on-failure')
    throw new SimulateUsageError('--hook-policy must be allow-on-failure or reject-on-failure');
  const maxReal = num(values, 'max-real-seconds');
  const picked: Array<[keyof SimulateDeliveryOptions, number | undefined]> = [
    ['seed', num(values, 'seed')],
    ['timeScale', num(values, 'time-scale')],
    ['timeoutScale', num(values, 'timeout-scale')],
    ['events', num(values, 'events')],
    ['eventsPerBatch', num(values, 'batch')],
    ['timeoutMs', num(values, 'timeout-ms')],
    ['concurrency', num(values, 'concurrency')],
    ['ratePerSecond', num(values, 'rate')],
    ['duplicateRate', num(values, 'duplicates')],
    ['hooks', num(values, 'hooks')],
    ['hookTimeoutMs', num(values, 'hook-timeout-ms')],
    ['maxRealMs', maxReal === undefined ? undefined : maxReal * 1000],
    ['settleMs', num(values, 'settle-timeout-ms')],
    ['settleQuietMs', num(values, 'settle-quiet-ms')],
  ];
  const [signature, hookAnswer] = await Promise.all([
    signatureOption(values.signature),
    hookAnswerOption(values['hook-answer']),
  ]).catch((err: unknown) => {
    throw err instanceof PartOptionError ? new SimulateUsageError(err.message) : err;
  });
  return {
    url: values.url,
    // One value serves every address; else one per --url, in order.
    secret: secret.length === 1 ? secret[0]! : secret,
    ...(oldSecret ? { oldSecret: oldSecret.length === 1 ? oldSecret[0]! : oldSecret } : {}),
    ...(policy ? { hookPolicy: policy } : {}),
    ...(values['state-url'] ? { stateUrl: values['state-url'] } : {}),
    allowRemote: values['allow-remote'] === true,
    signature,
    hookAnswer,
    ...Object.fromEntries(picked.filter(([, v]) => v !== undefined)),
  };
}

/** Runs `im-callbacks simulate <args…>`; resolves to the exit code. */
export async function runSimulateCommand(args: string[]): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(SIMULATE_HELP);
    return 0;
  }
  let options: SimulateDeliveryOptions;
  let jsonFile: string | undefined;
  try {
    const values = parseSimulateArgs(args);
    options = await simulateOptionsFrom(values);
    jsonFile = values.json;
  } catch (err) {
    if (!(err instanceof SimulateUsageError)) throw err;
    console.error(`im-callbacks simulate: ${err.message}`);
    console.error(SIMULATE_USAGE);
    return 2;
  }
  let report: Awaited<ReturnType<typeof simulateDelivery>>;
  try {
    report = await simulateDelivery(options);
  } catch (err) {
    // Option errors name the option and the rule; none of them quotes the secret.
    if (err instanceof RangeError || err instanceof TypeError) {
      console.error(`im-callbacks simulate: ${err.message}`);
      return 2;
    }
    throw err;
  }
  console.log(formatSimulationReport(report));
  if (jsonFile) writeFileSync(jsonFile, `${JSON.stringify(report, null, 2)}\n`);
  return isCleanReport(report) ? 0 : 1;
}
