/**
 * What a core class adds to the lean core (internal, unstable). The parts that only some apps
 * use (the node:http transport and its proxy, the fleet quota) are chosen by which class an app
 * imports, not by an option read at run time, so an app that does not import them does not ship
 * them (issue 18: the one-operation bundle). `ImLeanCore` has `LEAN_FEATURES`; `ImCore` and
 * `ImClient` have every feature (full-features.ts).
 */
import { ConfigError } from '../core/errors.js';
import type { ClientOptions } from '../core/options.js';
import type { FetchLike, Transport } from './http-attempt.js';
import type { QuotaControl, QuotaControlOptions } from './quota-control.js';
import type { ResolvedRateLimit } from './rate-limit-options.js';
import type { QuotaStore } from '../stores/quota-store.js';
import { fetchTransport } from './transport/fetch.js';

export type TransportKind = 'node' | 'fetch';

export interface CoreFeatures {
  /** Checks the transport options and makes the transport the client sends with. */
  transport(options: ClientOptions, baseUrl: string): { kind: TransportKind; send: Transport };
  /** The fleet side of the quota (rateLimit, quotaStore, counters); absent: the client-wide 429 pause only. */
  quota?: {
    resolve(options: ClientOptions): { store: QuotaStore | undefined; rateLimit: ResolvedRateLimit | undefined };
    /** `app`: whose quota (its store key is made from these, never from a secret). */
    create(
      options: Omit<QuotaControlOptions, 'key'>,
      app: { baseUrl: string; orgName: string; appName: string },
    ): QuotaControl;
  };
}

/** Where an option of a left-out feature is refused, the error says which class has it. */
function leftOut(option: string, what: string): ConfigError {
  return new ConfigError(
    option,
    `needs ${what}, which ImLeanCore leaves out to stay small; use ImCore (or ImClient) from 'im-server-sdk' or 'im-server-sdk/funcs'.`,
  );
}

/** The lean core's features: it sends with fetch (the global one, or the `fetch` option) and has no fleet quota. */
export const LEAN_FEATURES: CoreFeatures = {
  transport(o) {
    if (o.transport === 'node') throw leftOut('transport', 'the node:http transport');
    if (o.transport !== undefined && o.transport !== 'fetch')
      throw new ConfigError(
        'transport',
        `must be 'fetch' for ImLeanCore (got ${JSON.stringify(String(o.transport))}).`,
      );
    if (o.agent !== undefined) throw leftOut('agent', 'the node:http transport');
    if (o.proxy !== undefined && o.proxy !== false) throw leftOut('proxy', 'the node:http transport (proxy support)');
    return { kind: 'fetch', send: fetchTransport(fetchOf(o.fetch)) };
  },
};

/** The quota options of a client whose class has no fleet quota: refused when given. */
export function refuseQuotaOptions(o: ClientOptions): { store: undefined; rateLimit: undefined } {
  if (o.rateLimit !== undefined) throw leftOut('rateLimit', 'the fleet quota');
  if (o.quotaStore !== undefined) throw leftOut('quotaStore', 'the fleet quota');
  return { store: undefined, rateLimit: undefined };
}

export function fetchOf(given: FetchLike | undefined): FetchLike {
  if (given !== undefined && typeof given !== 'function') throw new ConfigError('fetch', 'must be a function.');
  if (given === undefined && typeof globalThis.fetch !== 'function')
    throw new ConfigError('fetch', 'this runtime has no global fetch; pass one.');
  // Called unbound: browsers and workers refuse a fetch called with another `this`.
  return given ? (input, init) => given(input, init) : (input, init) => globalThis.fetch(input, init);
}
