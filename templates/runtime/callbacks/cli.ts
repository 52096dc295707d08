/**
 * im-callbacks: send a correctly signed sample callback to a LOCAL receiver, to test an endpoint.
 *
 *   npx im-callbacks send --url http://127.0.0.1:3000/callbacks --secret "$SECRET" \
 *       --kind event --type group.members_added [--events 3]
 *   … --kind hook [--hook message.before_send] [--timeout-ms 3000]
 *   … --kind verify
 *   … --body sample.json            (send this JSON body as is instead of a sample)
 *   … --old-secret "$OLD"           (sign twice, as during a secret rotation)
 *   … --event-id evt_1 --repeat 3   (the same event three times, as the service's retries)
 *   … --signature standard-webhooks (another signature scheme; default im-v1, an assumption)
 *   im-callbacks simulate --url … [--seed 7] [--json report.json]   (the service's delivery behaviour:
 *       retries, breaker, duplicates, reordering …; see simulator/cli.ts)
 *   im-callbacks --help | --version
 *
 * The secret may also come from IM_CALLBACK_SECRET (keeps it out of shell history); it is never
 * printed. Only loopback URLs are accepted unless --allow-remote is given.
 * Exit code: 0 when the receiver answered 2xx (and, for verify, echoed the challenge), else 1;
 * 2 for usage errors.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { hookAnswerOption, partOptionsHelp, PartOptionError, signatureOption } from './cli-parts.js';
import type { HookAnswerFormat } from './decisions.js';
import { resend, sendOnce } from './cli-request.js';
import type { CallbackSignatureScheme } from './signature-scheme.js';
import { sampleCallbackBody } from './samples.js';
import type { EventCallbackRequest } from './types.js';
import { isLoopbackTarget, isLoopbackUrl } from './url.js';
import { runSimulateCommand, warnSecretInArgs } from './simulator/cli.js';

export { isLoopbackUrl };

const USAGE = `usage: im-callbacks send --url <url> [--secret <secret> | env IM_CALLBACK_SECRET]
                         [--kind event|hook|verify] [--type <event type>] [--events <n>]
                         [--event-id <id>] [--repeat <n>] [--hook <hook type>]
                         [--timeout-ms <n>] [--body <file.json>] [--old-secret <secret>]
                         [--signature <scheme>] [--hook-answer <module>] [--allow-remote]
       im-callbacks simulate --url <url> [options]   (im-callbacks simulate --help)
       im-callbacks --help | --version`;

const HELP = `im-callbacks: send a correctly signed sample callback to a local receiver, to test it.

${USAGE}

Options of send:
  --url <url>          the receiver, http or https; loopback only unless --allow-remote (a literal
                       127.x.x.x or [::1], or localhost when it resolves only to those)
  --secret <secret>    the address signing secret. Visible to every user of this machine in the
                       process list (ps) while the command runs, and kept in shell history:
                       prefer IM_CALLBACK_SECRET (see below)
  --old-secret <s>     also sign with this one, as during a secret rotation (two v1= values);
                       visible in the process list too: prefer IM_CALLBACK_OLD_SECRET
  --kind <kind>        event (default), hook or verify
  --type <type>        event type of the sample events (default group.members_added)
  --events <n>         events in the batch, 1 to 100 (default 1)
  --event-id <id>      id of the sample event (with several: <id>, <id>.2, …); send it again
                       later with the same id to test your deduplication
  --repeat <n>         send the same events n times (default 1), as the service's retries do:
                       the same event ids, a new request id, nonce, timestamp and signature each
                       time, attempt counting up; the receiver should process each event once
  --hook <type>        hook type (kind hook; default message.before_send)
  --timeout-ms <n>     timeout_ms of the hook request (default 3000)
  --body <file.json>   send this body as is instead of a sample (signed as read)
${partOptionsHelp(23)}
  --allow-remote       allow a URL that is not loopback
  -h, --help           this text
  -v, --version        the version of im-callbacks (the im-server-sdk package)

Environment:
  IM_CALLBACK_SECRET   the signing secret when --secret is not given; it keeps the secret out of
                       shell history and process lists. The secret is never printed.
  IM_CALLBACK_OLD_SECRET
                       the old secret when --old-secret is not given (rotation), kept out of the
                       process list the same way.
Query values of --url (e.g. ?token=…) are printed as *** (seed 001 §5).

Exit code: 0 when every answer was 2xx (and, for verify, echoed the challenge), 1 otherwise,
2 for a usage mistake.`;

/** What the bin knows about itself. */
export interface ImCallbacksInfo {
  /** The package version, printed by --version. */
  version?: string;
}

/** A usage mistake: the CLI prints it with the usage text and exits 2. */
class UsageError extends Error {}

function usage(message?: string): never {
  throw new UsageError(message ?? '');
}

/** Runs `im-callbacks <argv…>`; resolves to the exit code (0 ok, 1 failed, 2 usage). */
export async function runImCallbacks(argv: string[], info: ImCallbacksInfo = {}): Promise<number> {
  if (argv[0] === 'simulate') return runSimulateCommand(argv.slice(1));
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    console.log(HELP);
    return 0;
  }
  if (argv[0] === '--version' || argv[0] === '-v' || (argv.length === 1 && argv[0] === 'version')) {
    console.log(info.version ?? 'unknown');
    return 0;
  }
  try {
    return await send(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    if (err.message) console.error(`im-callbacks: ${err.message}`);
    console.error(USAGE);
    return 2;
  }
}

/** The receiver's URL: http(s), no credentials, loopback unless --allow-remote. */
async function checkedTarget(given: string | undefined, allowRemote: boolean | undefined): Promise<URL> {
  if (!given) usage('--url is required');
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    usage('--url is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') usage('--url must be http or https');
  // seed 001 §2.2: an address has no user:password; refusing it also keeps credentials out of every line printed
  if (url.username || url.password) usage('--url must not contain user:password (callback addresses have none)');
  if (!allowRemote && !(await isLoopbackTarget(url))) {
    usage(
      `refusing to send to ${url.hostname}: not a loopback address (127.0.0.1, [::1] or localhost resolving only to them); pass --allow-remote to do it anyway`,
    );
  }
  return url;
}

/** The --body file as is, or a sample of the kind (with --event-id's ids). */
function bodyToSend(
  values: ReturnType<typeof parseSendArgs>,
  kind: 'event' | 'hook' | 'verify',
  eventId: string | undefined,
): object | string {
  const body: object | string = values.body
    ? readFileSync(values.body, 'utf8')
    : sampleCallbackBody(kind, {
        type: values.type,
        events: Number(values.events),
        hook: values.hook,
        timeoutMs: Number(values['timeout-ms']),
      });
  if (eventId !== undefined && typeof body === 'object' && 'events' in body) {
    (body as EventCallbackRequest).events.forEach((e, i) => (e.id = i === 0 ? eventId : `${eventId}.${i + 1}`));
  }
  return body;
}

/** `send`'s options as `parseArgs` reads them (it throws on an unknown or malformed one). */
function parseSendArgs(args: string[]) {
  return parseArgs({
    args,
    options: {
      url: { type: 'string' },
      secret: { type: 'string' },
      'old-secret': { type: 'string' },
      kind: { type: 'string', default: 'event' },
      type: { type: 'string', default: 'group.members_added' },
      events: { type: 'string', default: '1' },
      hook: { type: 'string', default: 'message.before_send' },
      'timeout-ms': { type: 'string', default: '3000' },
      body: { type: 'string' },
      'event-id': { type: 'string' },
      repeat: { type: 'string', default: '1' },
      signature: { type: 'string' },
      'hook-answer': { type: 'string' },
      'allow-remote': { type: 'boolean', default: false },
    },
    strict: true,
  }).values;
}

async function send(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'send') usage(command ? `unknown command ${command}` : undefined);
  let values: ReturnType<typeof parseSendArgs>;
  try {
    values = parseSendArgs(rest);
  } catch (err) {
    usage(err instanceof Error ? err.message : String(err));
  }
  let scheme: CallbackSignatureScheme;
  let hookAnswer: HookAnswerFormat;
  try {
    [scheme, hookAnswer] = await Promise.all([
      signatureOption(values.signature),
      hookAnswerOption(values['hook-answer']),
    ]);
  } catch (err) {
    if (err instanceof PartOptionError) usage(err.message);
    throw err;
  }
  const url = await checkedTarget(values.url, values['allow-remote']);
  if (values.secret !== undefined || values['old-secret'] !== undefined) warnSecretInArgs();
  const secret = values.secret ?? process.env.IM_CALLBACK_SECRET;
  if (!secret) usage('--secret (or IM_CALLBACK_SECRET) is required');
  const kind = values.kind;
  if (kind !== 'event' && kind !== 'hook' && kind !== 'verify') usage('--kind must be event, hook or verify');

  const repeat = Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1 || repeat > 100) usage('--repeat must be a whole number from 1 to 100');
  const eventId = values['event-id'];
  if (eventId !== undefined && (kind !== 'event' || values.body))
    usage('--event-id applies to sample events (--kind event, no --body)');
  if (eventId !== undefined && eventId.trim() === '') usage('--event-id must not be empty');

  const body = bodyToSend(values, kind, eventId);
  const oldSecret = values['old-secret'] ?? process.env.IM_CALLBACK_OLD_SECRET;
  const secrets = oldSecret ? [secret, oldSecret] : [secret];
  for (const [i, s] of secrets.entries()) {
    const problem = scheme.checkSecret?.(s);
    if (problem !== undefined)
      usage(
        `${i === 0 ? 'the secret' : 'the old secret'} does not suit the signature scheme ${scheme.name}: ${problem}`,
      );
  }
  let allOk = true;
  for (let send = 1; send <= repeat; send++) {
    // A resend is what the service's retry is: same events, fresh request id, nonce and signature.
    const thisBody = typeof body === 'object' ? resend(body, send) : body;
    allOk = (await sendOnce(url, thisBody, secrets, kind, values, scheme, hookAnswer)) && allOk;
  }
  return allOk ? 0 : 1;
}
