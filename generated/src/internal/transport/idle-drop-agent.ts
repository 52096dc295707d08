// Copied by im-openapi from templates/runtime/internal/transport/idle-drop-agent.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The node transport's default keep-alive agent (internal, unstable; issue 18): idle sockets are
 * dropped after `idleMs` (4 s: under the 5 s that Node servers keep them), or earlier when the
 * server's `Keep-Alive: timeout=N` hint says so (N s less Node's 1 s margin; a hint of 1 s or
 * less: the socket is not kept), as Node's own agent does with its `timeout` option.
 *
 * Why not that option: with `timeout` set, Node treats it as a timeout of every request too — per
 * request it adds and removes a 'timeout' listener, clears the socket's timer when the answer
 * ends and sets it again when the socket goes back to the pool (~1.5–3 µs of CPU per call at
 * concurrency 1, measured side by side). Here the socket's timer is set once (when the socket
 * first goes idle) and stays: busy or idle, it restarts with every read and write, so it fires
 * only after `idleMs` of silence. The agent destroys an idle socket on it; a busy one ignores it
 * (the attempt's own timer bounds a request). `keepSocketAlive` is the documented override point.
 */
import type * as Http from 'node:http';
import type { Socket } from 'node:net';

/** Node's own margin under the server's hint (lib/_http_agent.js HTTP_AGENT_KEEP_ALIVE_TIMEOUT_BUFFER). */
const HINT_MARGIN_MS = 1_000;

export function idleDropAgent(Base: typeof Http.Agent, options: Http.AgentOptions, idleMs: number): Http.Agent {
  const keepAliveMs = options.keepAliveMsecs ?? 1_000;
  // A server sends the same hint on every answer: parsed once, not per call.
  let lastHint: string | undefined;
  let lastIdle = idleMs;
  class IdleDropAgent extends Base {
    override keepSocketAlive(duplex: Parameters<Http.Agent['keepSocketAlive']>[0]): boolean {
      const socket = duplex as Socket & { _httpMessage?: { res?: Http.IncomingMessage } | null };
      socket.setKeepAlive(true, keepAliveMs);
      socket.unref();
      const hint = socket._httpMessage?.res?.headers['keep-alive'];
      let idle = idleMs;
      if (typeof hint === 'string') {
        if (hint !== lastHint) {
          lastHint = hint;
          lastIdle = idleFor(hint, idleMs);
        }
        idle = lastIdle;
      }
      if (idle <= 0) return false; // the server may close it any moment: not kept
      if (socket.timeout !== idle) socket.setTimeout(idle);
      return true;
    }
  }
  return new IdleDropAgent(options);
}

/** The idle time under a `Keep-Alive: timeout=N` hint (N s less Node's margin, at most idleMs); ≤ 0: do not keep. */
function idleFor(hint: string, idleMs: number): number {
  const seconds = /^timeout=(\d+)/.exec(hint)?.[1];
  if (seconds === undefined) return idleMs;
  return Math.min(idleMs, Number(seconds) * 1_000 - HINT_MARGIN_MS);
}
