// Copied by im-openapi from templates/runtime/internal/transport/node-proxy.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Proxy support of the node transport (internal, unstable): which proxy a base URL goes
 * through (HTTPS_PROXY / HTTP_PROXY / NO_PROXY, read as curl and undici's EnvHttpProxyAgent
 * read them) and an agent that reaches the service through an HTTP CONNECT tunnel, kept alive
 * like any other connection. No dependency: a CONNECT request and, for https, TLS over the
 * tunnel's socket.
 *
 * The proxy's credentials (`http://user:pass@proxy:3128`) go only into Proxy-Authorization;
 * every message names the proxy by `proxyLabel`, which never carries them.
 */
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type * as Tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { TUNNEL_ATTEMPT, type TunnelAttempt } from './node-http.js';

/** The proxy for a request to `target`, from the environment; undefined: go direct. */
export function proxyFromEnv(target: URL, env: Record<string, string | undefined>): string | undefined {
  const proxy = target.protocol === 'https:' ? envValue(env, 'https_proxy') : envValue(env, 'http_proxy');
  if (proxy === undefined) return undefined;
  return bypassed(target, noProxyOf(env)) ? undefined : proxy;
}

/** NO_PROXY as every proxy path reads it (an explicit proxy option honours it too); '' when unset. */
export function noProxyOf(env: Record<string, string | undefined>): string {
  return envValue(env, 'no_proxy') ?? '';
}

/** A proxy variable: lower case first, as curl and undici read them; empty counts as unset. */
function envValue(env: Record<string, string | undefined>, name: string): string | undefined {
  return nonEmpty(env[name]) ?? nonEmpty(env[name.toUpperCase()]);
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

/**
 * NO_PROXY: entries split by commas or spaces. `*` bypasses everything; `example.com` and
 * `.example.com` match that host and its subdomains; `host:port` matches that port only; an IP
 * matches itself. (No CIDR ranges, as in curl before 7.86 and undici.)
 */
export function bypassed(target: URL, noProxy: string): boolean {
  const host = target.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = target.port || (target.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[\s,]+/)) {
    let entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    let entryPort: string | undefined;
    const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(entry);
    if (m) {
      entry = m[1]!;
      entryPort = m[2];
    }
    entry = entry.replace(/^\[|\]$/g, '').replace(/^\*?\./, '');
    if (entryPort !== undefined && entryPort !== port) continue;
    if (host === entry || host.endsWith(`.${entry}`)) return true;
  }
  return false;
}

/** The proxy URL without user info (for messages and logs). */
export function proxyLabel(proxy: URL): string {
  return `${proxy.protocol}//${proxy.host}`;
}

/** Parses a proxy URL; throws a plain Error (the caller names the option) that never repeats its credentials. */
export function parseProxy(text: string): URL {
  let url: URL;
  try {
    url = new URL(text.includes('://') ? text : `http://${text}`);
  } catch {
    throw new Error('is not a URL like http://proxy.example:3128');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`must be an http:// or https:// proxy (got ${url.protocol})`);
  // the credentials are percent-decoded for Proxy-Authorization: a stray `%` would fail there, on the first call
  for (const [part, value] of [
    ['user name', url.username],
    ['password', url.password],
  ] as const) {
    try {
      decodeURIComponent(value);
    } catch {
      throw new Error(`has a malformed percent-encoding in its ${part} (write a literal % as %25)`);
    }
  }
  return url;
}

type Builtins = { http: typeof Http; https: typeof Https; tls: typeof Tls };

/** What a tunnel needs of the proxy URL: where it is, how it is named in errors, its Basic credentials. */
interface ProxyEndpoint {
  label: string;
  credentials: string | undefined;
  host: string;
  port: number;
  https: boolean;
}

function proxyEndpointOf(proxy: URL): ProxyEndpoint {
  return {
    label: proxyLabel(proxy),
    credentials:
      proxy.username || proxy.password
        ? `Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}`
        : undefined,
    host: proxy.hostname.replace(/^\[|\]$/g, ''),
    port: Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80)),
    https: proxy.protocol === 'https:',
  };
}

type TunnelCallback = (err: Error | null, socket?: Duplex) => void;
type TunnelOptions = Http.ClientRequestArgs & Tls.ConnectionOptions & { [TUNNEL_ATTEMPT]?: TunnelAttempt };

/**
 * A keep-alive agent whose connections are CONNECT tunnels through `proxy` (https targets: TLS
 * inside the tunnel, so the proxy sees only host:port).
 */
export function tunnelAgent(b: Builtins, secure: boolean, proxy: URL, agentOptions: Https.AgentOptions): Http.Agent {
  const endpoint = proxyEndpointOf(proxy);
  const Base = (secure ? b.https.Agent : b.http.Agent) as typeof Http.Agent;

  class TunnelAgent extends Base {
    override createConnection(options: TunnelOptions, callback: TunnelCallback): undefined {
      openTunnel(b, secure, endpoint, options, callback);
      return undefined;
    }
  }
  return new TunnelAgent(agentOptions);
}

/** Sends CONNECT for the target of `options` and hands the tunnel (TLS inside it when `secure`) to `callback`. */
function openTunnel(
  b: Builtins,
  secure: boolean,
  endpoint: ProxyEndpoint,
  options: TunnelOptions,
  callback: TunnelCallback,
): void {
  const host = String(options.host ?? options.hostname ?? 'localhost').replace(/^\[|\]$/g, '');
  const target = `${host.includes(':') ? `[${host}]` : host}:${options.port}`;
  const headers: Record<string, string> = { host: target };
  if (endpoint.credentials) headers['proxy-authorization'] = endpoint.credentials;
  const connect = (endpoint.https ? b.https : b.http).request({
    host: endpoint.host,
    port: endpoint.port,
    method: 'CONNECT',
    path: target,
    headers,
    agent: false,
    servername: endpoint.host,
  });
  let settled = false;
  const fail = (why: string, code: string, cause?: unknown): void => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    connect.destroy();
    callback(
      Object.assign(new Error(`proxy ${endpoint.label}: ${why} (tunnel to ${target})`), {
        code,
        ...(cause !== undefined ? { cause } : {}),
      }),
    );
  };
  // A proxy that never answers CONNECT must not hold a socket (and a file descriptor) past the
  // attempt: the CONNECT gets the attempt's timeout and ends with the attempt's request.
  const attempt = options[TUNNEL_ATTEMPT];
  let timer: ReturnType<typeof setTimeout> | undefined;
  if (attempt) {
    timer = setTimeout(
      () => fail(`did not answer CONNECT within ${attempt.timeoutMs} ms`, 'ETIMEDOUT'),
      attempt.timeoutMs,
    );
    attempt.onEnd(() => fail('CONNECT given up: the call ended first', 'ERR_PROXY_TUNNEL'));
  }
  connect.once('connect', (res: Http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (settled) return void socket.destroy();
    settled = true;
    clearTimeout(timer);
    if (res.statusCode !== 200) {
      socket.destroy();
      settled = false;
      return fail(
        `answered ${res.statusCode ?? 0} to CONNECT${res.statusCode === 407 ? ' (proxy authentication required or refused)' : ''}`,
        'ERR_PROXY_TUNNEL',
      );
    }
    if (head.byteLength > 0) socket.unshift(head);
    if (!secure) return callback(null, socket);
    const tls = b.tls.connect({
      ...options,
      socket,
      servername: options.servername ?? (isIp(host) ? undefined : host),
    } as Tls.ConnectionOptions);
    callback(null, tls);
  });
  // the proxy's own address is in these messages; its credentials are not
  connect.once('error', (err: Error & { code?: string }) =>
    fail(`could not connect (${err.code ?? err.message})`, err.code ?? 'ERR_PROXY_TUNNEL', err),
  );
  connect.end();
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}
