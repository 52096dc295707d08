/**
 * One signed request of `im-callbacks send` (cli.ts) and what its answer says: printed with the
 * URL's query masked, judged as the service would (2xx; for verify the echoed challenge; for a
 * hook a decision in the answer format, within 64 KB).
 */
import { randomBytes } from 'node:crypto';
import { maskUrlQuery } from '../internal/redact.js';
import type { HookAnswerFormat } from './decisions.js';
import { signCallbackRequestWith } from './sign.js';
import type { CallbackSignatureScheme } from './signature-scheme.js';
import type { EventCallbackRequest } from './types.js';

/** The body of send number `send` (1-based): a new request_id, `attempt` counting up. */
export function resend(body: object, send: number): object {
  if (send === 1) return body;
  const copy = structuredClone(body) as Record<string, unknown>;
  copy.request_id = `req_${randomBytes(8).toString('hex')}`;
  copy.sent_at = new Date().toISOString();
  if (Array.isArray(copy.events)) {
    for (const e of copy.events as Array<Record<string, unknown>>)
      e.attempt = (typeof e.attempt === 'number' ? e.attempt : 1) + send - 1;
  }
  return copy;
}

/** Signs and sends one request, prints it and its answer; true when the service would count it a success. */
export async function sendOnce(
  url: URL,
  body: object | string,
  secrets: string[],
  kind: 'event' | 'hook' | 'verify',
  values: { type?: string | undefined; hook?: string | undefined },
  scheme: CallbackSignatureScheme,
  hookAnswer: HookAnswerFormat,
): Promise<boolean> {
  const signed = await signCallbackRequestWith({ body, secrets, kind, signature: scheme });
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: signed.headers,
      body: typeof signed.body === 'string' ? signed.body : new Uint8Array(signed.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    // an error may quote the URL: its query (a token, seed 001 §5) is masked as the service masks it
    const why = (err instanceof Error ? err.message : String(err)).split(url.href).join(maskUrlQuery(url.href));
    console.error(`im-callbacks: request failed: ${why}`);
    return false;
  }
  const text = await res.text();
  const ms = Math.round(performance.now() - started);
  const ids =
    typeof body === 'object' && Array.isArray((body as { events?: unknown }).events)
      ? ` event_ids=${(body as EventCallbackRequest).events.map((e) => e.id).join(',')}`
      : '';
  console.log(
    `POST ${maskUrlQuery(url.href)} kind=${kind}${kind === 'event' ? ` type=${values.type}` : kind === 'hook' ? ` hook=${values.hook}` : ''} request_id=${signed.headers['X-IM-Request-Id']}${ids} signature=${scheme.name}`,
  );
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
    console.log(
      ok
        ? 'challenge echoed correctly'
        : 'challenge NOT echoed: the service would leave the address pending verification',
    );
  }
  if (ok && kind === 'hook') {
    try {
      const decision = hookAnswer.decode(JSON.parse(text));
      if (decision) console.log(`decision: ${decision.decision}`);
      else
        console.log(
          `answer carries no decision in the ${hookAnswer.name} format (the default format is an assumption: see --hook-answer)`,
        );
    } catch {
      console.log('answer is not valid JSON: the service would treat it as a failure');
      ok = false;
    }
    if (Buffer.byteLength(text) > 64 * 1024) {
      console.log('answer exceeds 64 KB: the service would treat it as a failure');
      ok = false;
    }
  }
  return ok;
}
