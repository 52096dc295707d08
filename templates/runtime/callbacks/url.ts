/**
 * Client-side check of a callback URL against seed 001 section 2.2, answering the rule name the
 * service would put in details.rule of its 400 invalid_argument / url_not_allowed.
 *
 * Rules checked here: scheme, host, port, userinfo, fragment, length, masked_query (syntax,
 * synchronous, no DNS) and private_address, resolve_failed (async, through a resolver).
 * `denied_host` and `disabled_host` depend on the platform's own lists: only the service can
 * give them, so a URL that passes here may still be refused with one of those two.
 * Certificate, TLS version and redirect rules are checked by the service when it connects.
 *
 * The raw string is judged as well as what the WHATWG URL parser makes of it: the parser
 * silently repairs input (strips spaces and tabs, turns `\` into `/`, percent-decodes and IDNA-
 * maps the host, rewrites IPv4 in decimal/octal/hex such as `0x7f.1` or `2130706433` to dotted
 * form, drops a default port).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPublicAddress, nonPublicRangeOf } from './address-ranges.js';

export type CallbackUrlRule =
  | 'scheme'
  | 'host'
  | 'port'
  | 'userinfo'
  | 'fragment'
  | 'length'
  | 'masked_query'
  | 'private_address'
  | 'resolve_failed'
  /** Server-side only (platform-denied domain): never returned by this module. */
  | 'denied_host'
  /** Server-side only (a platform-disabled address exists on this host): never returned here. */
  | 'disabled_host';

export type CallbackUrlVerdict =
  | { ok: true; url: URL; hostname: string }
  | { ok: false; rule: CallbackUrlRule; detail: string };

export const MAX_CALLBACK_URL_LENGTH = 1024;

const refuse = (rule: CallbackUrlRule, detail: string): CallbackUrlVerdict => ({ ok: false, rule, detail });

function portAllowed(port: number): boolean {
  return port === 443 || (port >= 1024 && port <= 65535);
}

/** inet_aton-style numeric host (decimal, 0-octal, 0x-hex parts; 1 to 4 parts; optional trailing dot). */
function looksLikeNumericIPv4(host: string): boolean {
  const h = host.endsWith('.') ? host.slice(0, -1) : host;
  const parts = h.split('.');
  if (parts.length < 1 || parts.length > 4) return false;
  return parts.every((p) => /^(0x[0-9a-f]*|0[0-7]*|[1-9][0-9]*)$/i.test(p));
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const INTERNAL_SUFFIXES = ['.local', '.internal', '.localhost'];

function judgeHostname(hostname: string): string | undefined {
  if (hostname === '') return 'the host is empty';
  if (hostname.startsWith('[') || isIP(hostname) !== 0) return 'the host is an IP address';
  if (looksLikeNumericIPv4(hostname)) return 'the host is an IP address in numeric notation';
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (name === 'localhost') return 'the host is localhost';
  if (INTERNAL_SUFFIXES.some((s) => name.endsWith(s)))
    return 'the host is an internal name (.local, .internal, .localhost)';
  const labels = name.split('.');
  if (labels.length < 2) return 'the host is a single label without a dot';
  if (name.length > 253) return 'the host name is longer than 253 characters';
  if (!labels.every((l) => LABEL.test(l))) return 'the host is not a valid domain name';
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return 'the top-level label is numeric';
  return undefined;
}

/** The synchronous part: every rule that needs no DNS. */
export function validateCallbackUrlSyntax(input: string): CallbackUrlVerdict {
  if (typeof input !== 'string') return refuse('host', 'the URL is not a string');
  if ([...input].length > MAX_CALLBACK_URL_LENGTH) {
    return refuse('length', `the URL is longer than ${MAX_CALLBACK_URL_LENGTH} characters`);
  }
  // Seed 001 §2.2 puts a malformed URL under `host`; `scheme` is kept for a URL whose scheme
  // is present and not https. Text without any `scheme:` prefix is not a URL at all.
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(input);
  if (!scheme) return refuse('host', 'the text is not an absolute URL: no scheme (malformed)');
  if (scheme[1]!.toLowerCase() !== 'https') return refuse('scheme', 'the scheme is not https');
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f\\]/.test(input)) {
    return refuse('host', 'the URL contains whitespace, a control character or a backslash (malformed)');
  }
  if (!/^https:\/\//i.test(input)) return refuse('host', 'the URL does not start with https:// (malformed)');

  const afterScheme = input.slice('https://'.length);
  const authorityEnd = afterScheme.search(/[/?#]/);
  const authority = authorityEnd < 0 ? afterScheme : afterScheme.slice(0, authorityEnd);
  if (authority.includes('@')) return refuse('userinfo', 'the URL contains user information (user@ or user:password@)');
  if (input.includes('#')) return refuse('fragment', 'the URL contains a # fragment');

  // Raw host and port, before the parser repairs anything.
  let rawHost = authority;
  let rawPort: string | undefined;
  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    if (close < 0) return refuse('host', 'unclosed IPv6 literal (malformed)');
    rawHost = authority.slice(0, close + 1);
    const rest = authority.slice(close + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) return refuse('host', 'characters after the IPv6 literal (malformed)');
      rawPort = rest.slice(1);
    }
  } else {
    const colon = authority.lastIndexOf(':');
    if (colon >= 0) {
      rawHost = authority.slice(0, colon);
      rawPort = authority.slice(colon + 1);
    }
  }
  if (rawPort !== undefined && rawPort !== '') {
    if (!/^[0-9]+$/.test(rawPort)) return refuse('port', 'the port is not a number');
    const n = Number(rawPort);
    if (!portAllowed(n)) return refuse('port', `port ${n} is outside 443 and 1024-65535`);
  }
  if (rawHost.includes('%')) return refuse('host', 'the host is percent-encoded');
  const rawHostProblem = rawHost.startsWith('[')
    ? 'the host is an IPv6 address'
    : /^[\x21-\x7e]*$/.test(rawHost)
      ? judgeHostname(rawHost.toLowerCase())
      : undefined; // non-ASCII: judged after IDNA mapping below
  if (rawHostProblem) return refuse('host', rawHostProblem);

  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return refuse('host', 'the URL cannot be parsed (malformed)');
  }
  if (url.protocol !== 'https:') return refuse('scheme', 'the scheme is not https');
  if (url.username !== '' || url.password !== '') return refuse('userinfo', 'the URL contains user information');
  if (url.hash !== '') return refuse('fragment', 'the URL contains a # fragment');
  if (url.port !== '' && !portAllowed(Number(url.port))) {
    return refuse('port', `port ${url.port} is outside 443 and 1024-65535`);
  }
  const parsedProblem = judgeHostname(url.hostname);
  if (parsedProblem) return refuse('host', parsedProblem);
  for (const value of url.searchParams.values()) {
    if (value === '***') return refuse('masked_query', 'a query value is *** (a masked value: submit the full URL)');
  }
  return { ok: true, url, hostname: url.hostname };
}

export type ResolvedAddress = string | { address: string; family?: number };

export interface ValidateCallbackUrlOptions {
  /** Resolves a host name to ALL its addresses. Default: node:dns/promises lookup({ all: true }). */
  resolve?: (hostname: string) => Promise<readonly ResolvedAddress[]>;
  /** Default 5000 ms; a slower answer is resolve_failed. */
  timeoutMs?: number;
}

export async function defaultResolve(hostname: string): Promise<ResolvedAddress[]> {
  return lookup(hostname, { all: true, verbatim: true });
}

/**
 * The syntax rules, then name resolution: resolve_failed when the name does not resolve,
 * private_address when ANY address of the answer is not public. (The service checks again at
 * every send; a check here cannot see later DNS changes.)
 */
export async function validateCallbackUrl(
  input: string,
  options: ValidateCallbackUrlOptions = {},
): Promise<CallbackUrlVerdict> {
  const syntax = validateCallbackUrlSyntax(input);
  if (!syntax.ok) return syntax;
  const resolve = options.resolve ?? defaultResolve;
  const name = syntax.hostname.endsWith('.') ? syntax.hostname.slice(0, -1) : syntax.hostname;
  let answer: readonly ResolvedAddress[];
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    answer = await Promise.race([
      resolve(name),
      new Promise<never>((_, rejectTimeout) => {
        timer = setTimeout(() => rejectTimeout(new Error('timeout')), options.timeoutMs ?? 5000);
      }),
    ]);
  } catch (err) {
    return refuse('resolve_failed', `name resolution failed (${err instanceof Error ? err.message : String(err)})`);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  if (!Array.isArray(answer) || answer.length === 0) return refuse('resolve_failed', 'the name has no addresses');
  for (const entry of answer) {
    const address = typeof entry === 'string' ? entry : entry?.address;
    if (typeof address !== 'string' || isIP(address.replace(/%.*$/, '')) === 0) {
      return refuse('resolve_failed', 'the resolver returned something that is not an IP address');
    }
    if (!isPublicAddress(address)) {
      const range = nonPublicRangeOf(address);
      return refuse(
        'private_address',
        `resolves to ${address}${range ? ` (${range.name})` : ''}, not a public address`,
      );
    }
  }
  return syntax;
}

/**
 * True for a literal loopback address (127/8, ::1, ::ffff:127.x) or the name `localhost` exactly:
 * where the im-callbacks tools send without --allow-remote. Other names (`evil.localhost`,
 * `localhost.` with its dot) go to the system resolver, which may answer anything: refused.
 */
export function isLoopbackUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost') return true;
  return isLoopbackIp(host);
}

function isLoopbackIp(host: string): boolean {
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || /^::ffff:(127\.|7f)/.test(host) || /^(0{1,4}:){7}0{0,3}1$/.test(host);
  return false;
}

/**
 * `isLoopbackUrl`, and for `localhost` every address the system resolves it to is loopback too
 * (a hosts file may say otherwise): the check the im-callbacks tools make before they send.
 */
export async function isLoopbackTarget(
  url: URL,
  resolve: (host: string) => Promise<readonly ResolvedAddress[]> = defaultResolve,
): Promise<boolean> {
  if (!isLoopbackUrl(url)) return false;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host) !== 0) return true;
  try {
    const addresses = await resolve(host);
    return (
      addresses.length > 0 &&
      addresses.every((a) => isLoopbackIp((typeof a === 'string' ? a : a.address).toLowerCase()))
    );
  } catch {
    return false;
  }
}
