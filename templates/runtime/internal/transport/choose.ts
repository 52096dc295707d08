/**
 * Which transport a client sends with (internal, unstable), from its options:
 *  - `fetch` given, or `transport: 'fetch'`, or not on Node (Bun, Deno, workers, Node < 20.16):
 *    the fetch transport, exactly as before issue 18;
 *  - otherwise on Node: the node:http transport, with the `agent` given, or a keep-alive agent
 *    of this client (through a CONNECT tunnel when a proxy applies).
 * Option mistakes are ConfigErrors naming the option; a proxy URL's credentials are never shown.
 */
import { ConfigError } from '../../core/errors.js';
import type { ClientOptions } from '../../core/options.js';
import type { Transport } from '../http-attempt.js';
import { fetchOf, type TransportKind } from '../core-features.js';
import { fetchTransport } from './fetch.js';
import { bypassed, noProxyOf, parseProxy, proxyFromEnv, tunnelAgent } from './node-proxy.js';
import { nodeTransport, nodeTransportAvailable, type NodeAgent } from './node-http.js';

export function chooseTransport(o: ClientOptions, baseUrl: string): { kind: TransportKind; send: Transport } {
  if (o.transport !== undefined && o.transport !== 'node' && o.transport !== 'fetch') {
    throw new ConfigError('transport', `must be 'node' or 'fetch' (got ${JSON.stringify(String(o.transport))}).`);
  }
  if (
    o.agent !== undefined &&
    (typeof o.agent !== 'object' ||
      o.agent === null ||
      typeof (o.agent as { addRequest?: unknown }).addRequest !== 'function')
  ) {
    throw new ConfigError('agent', 'must be an http.Agent or https.Agent (for the node transport).');
  }
  if (o.proxy !== undefined && o.proxy !== false && typeof o.proxy !== 'string')
    throw new ConfigError('proxy', "must be a proxy URL, 'env' or false.");
  const wantsNode = o.transport === 'node' || (o.transport === undefined && o.fetch === undefined);
  if (o.transport === 'node' && o.fetch !== undefined)
    throw new ConfigError('transport', "'node' was given together with a fetch option; give one of them.");
  if (!wantsNode || (o.transport === undefined && !nodeTransportAvailable())) {
    for (const name of ['agent', 'proxy'] as const) {
      if (o[name] !== undefined && o[name] !== false) {
        throw new ConfigError(
          name,
          'applies to the node transport only; with fetch, pass a fetch that uses your dispatcher, e.g. (url, init) => undici.fetch(url, { ...init, dispatcher }).',
        );
      }
    }
    return { kind: 'fetch', send: fetchTransport(fetchOf(o.fetch)) };
  }
  if (!nodeTransportAvailable())
    throw new ConfigError(
      'transport',
      "'node' needs Node >= 20.16 (process.getBuiltinModule); use 'fetch' in this runtime.",
    );
  if (o.agent !== undefined && o.proxy !== undefined && o.proxy !== false)
    throw new ConfigError('proxy', 'was given together with agent; give the proxy to your agent, or drop agent.');
  const proxy = proxyOf(o.proxy, new URL(baseUrl));
  return {
    kind: 'node',
    send: nodeTransport({
      origin: baseUrl,
      agent: o.agent as NodeAgent | undefined,
      ...(proxy ? { makeAgent: (b, secure, agentOptions) => tunnelAgent(b, secure, proxy, agentOptions) } : {}),
    }),
  };
}

/**
 * The proxy of the node transport: a URL, 'env' (HTTPS_PROXY / HTTP_PROXY / NO_PROXY), false
 * (none). Default: none, unless NODE_USE_ENV_PROXY=1 (Node's own switch for its fetch and http
 * to read those variables), which makes it 'env'.
 */
function proxyOf(option: ClientOptions['proxy'], target: URL): URL | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
  const mode = option ?? (env.NODE_USE_ENV_PROXY === '1' ? 'env' : false);
  if (mode === false) return undefined;
  let text: string | undefined;
  let source = 'proxy';
  if (mode === 'env') {
    text = proxyFromEnv(target, env);
    source = target.protocol === 'https:' ? 'HTTPS_PROXY' : 'HTTP_PROXY';
  } else {
    text = mode;
    // an explicit proxy still honours NO_PROXY for the service's host
    if (bypassed(target, noProxyOf(env))) return undefined;
  }
  if (text === undefined) return undefined;
  try {
    return parseProxy(text);
  } catch (err) {
    throw new ConfigError(
      'proxy',
      `${source === 'proxy' ? 'the proxy URL' : `the ${source} variable`} ${(err as Error).message}.`,
    );
  }
}
