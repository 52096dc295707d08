// Copied by im-openapi from templates/runtime/callbacks/cli.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * im-callbacks: send a correctly signed sample callback to a LOCAL receiver, to test an endpoint.
 *
 *   npx im-callbacks send --url http://127.0.0.1:3000/callbacks --secret "$SECRET" \
 *       --kind event --type group.members_added [--events 3]
 *   … --kind hook [--hook message.before_send] [--timeout-ms 3000]
 *   … --kind verify
 *   … --body sample.json            (send this JSON body as is instead of a sample)
 *   … --old-secret "$OLD"           (sign twice, as during a secret rotation)
 *
 * The secret may also come from IM_CALLBACK_SECRET (keeps it out of shell history); it is never
 * printed. Only loopback URLs are accepted unless --allow-remote is given.
 * Exit code: 0 when the receiver answered 2xx (and, for verify, echoed the challenge), else 1;
 * 2 for usage errors.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { signCallbackRequest } from './sign.js';
import { sampleCallbackBody } from './samples.js';

const USAGE = `usage: im-callbacks send --url <url> [--secret <secret> | env IM_CALLBACK_SECRET]
                         [--kind event|hook|verify] [--type <event type>] [--events <n>]
                         [--hook <hook type>] [--timeout-ms <n>] [--body <file.json>]
                         [--old-secret <secret>] [--allow-remote]`;

/** A usage mistake: the CLI prints it with the usage text and exits 2. */
class UsageError extends Error {}

function usage(message?: string): never {
  throw new UsageError(message ?? '');
}

export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || /^::ffff:(127\.|7f)/.test(host);
  return false;
}

/** Runs `im-callbacks <argv…>`; resolves to the exit code (0 ok, 1 failed, 2 usage). */
export async function runImCallbacks(argv: string[]): Promise<number> {
  try {
    return await send(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    if (err.message) console.error(`im-callbacks: ${err.message}`);
    console.error(USAGE);
    return 2;
  }
}

async function send(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'send') usage(command ? `unknown command ${command}` : undefined);
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
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
        'allow-remote': { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (err) {
    usage(err instanceof Error ? err.message : String(err));
  }
  if (!values.url) usage('--url is required');
  let url: URL;
  try {
    url = new URL(values.url);
  } catch {
    usage('--url is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') usage('--url must be http or https');
  if (!isLoopbackUrl(url) && !values['allow-remote']) {
    usage(`refusing to send to a non-loopback host (${url.hostname}); pass --allow-remote to do it anyway`);
  }
  const secret = values.secret ?? process.env.IM_CALLBACK_SECRET;
  if (!secret) usage('--secret (or IM_CALLBACK_SECRET) is required');
  const kind = values.kind;
  if (kind !== 'event' && kind !== 'hook' && kind !== 'verify') usage('--kind must be event, hook or verify');

  const body: object | string = values.body
    ? readFileSync(values.body, 'utf8')
    : sampleCallbackBody(kind, {
        type: values.type,
        events: Number(values.events),
        hook: values.hook,
        timeoutMs: Number(values['timeout-ms']),
      });
  const secrets = values['old-secret'] ? [secret, values['old-secret']] : [secret];
  const signed = signCallbackRequest({ body, secrets, kind });

  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: signed.headers, body: signed.body, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
  } catch (err) {
    console.error(`im-callbacks: request failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  const text = await res.text();
  const ms = Math.round(performance.now() - started);
  console.log(`POST ${url.href} kind=${kind}${kind === 'event' ? ` type=${values.type}` : kind === 'hook' ? ` hook=${values.hook}` : ''} request_id=${signed.headers['X-IM-Request-Id']}`);
  console.log(`→ ${res.status} ${res.statusText} in ${ms} ms`);
  if (text) console.log(text.length > 2000 ? `${text.slice(0, 2000)}…` : text);

  let ok = res.status >= 200 && res.status < 300;
  if (ok && kind === 'verify' && typeof body === 'object') {
    let echoed: unknown;
    try {
      echoed = (JSON.parse(text) as { challenge?: unknown }).challenge;
    } catch {
      echoed = undefined;
    }
    const expected = (body as { challenge: string }).challenge;
    ok = echoed === expected;
    console.log(ok ? 'challenge echoed correctly' : 'challenge NOT echoed: the service would leave the address pending verification');
  }
  if (ok && kind === 'hook') {
    try {
      const decision = (JSON.parse(text) as { decision?: unknown }).decision;
      if (decision !== 'allow' && decision !== 'reject' && decision !== 'rewrite') {
        console.log('answer has no decision allow/reject/rewrite (assumed answer shape)');
      }
    } catch {
      console.log('answer is not valid JSON: the service would treat it as a failure');
      ok = false;
    }
    if (Buffer.byteLength(text) > 64 * 1024) {
      console.log('answer exceeds 64 KB: the service would treat it as a failure');
      ok = false;
    }
  }
  return ok ? 0 : 1;
}

