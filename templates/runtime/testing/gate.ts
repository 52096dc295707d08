/**
 * The checks of seed 000 §5 before a request reaches its operation, in the seed's order, and the
 * token exchange (§4.1, §2.1) with its own per-IP limit (§8): tokens with an expiry on the fake's
 * clock, the application's requests-per-second quota, revoked and suspended applications.
 */
import { randomBytes } from 'node:crypto';
import { FakeApiError } from './errors.js';

export interface GateOptions {
  orgName: string;
  appName: string;
  clientId: string;
  clientSecret: string;
  tokenTtlSeconds: number;
  perSecond: number | undefined;
  tokenExchangesPerMinute: number;
  ipAllowlist: readonly string[] | undefined;
  now(): number;
}

interface TokenRecord {
  expiresAt: number;
}

/** A sliding window of request times: how many fit in `windowMs`, and how long until the next fits. */
class SlidingWindow {
  private readonly times: number[] = [];
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** 0 and the time taken when there is room at `now`, else the ms until there is. */
  take(now: number): number {
    while (this.times.length > 0 && this.times[0]! <= now - this.windowMs) this.times.shift();
    if (this.times.length < this.limit) {
      this.times.push(now);
      return 0;
    }
    return this.times[0]! + this.windowMs - now;
  }

  clear(): void {
    this.times.length = 0;
  }
}

function rateLimited(waitMs: number, message: string): FakeApiError {
  return new FakeApiError(429, 'rate_limited', message, undefined, {
    'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
  });
}

export class Gate {
  private readonly tokens = new Map<string, TokenRecord>();
  private readonly exchangesByIp = new Map<string, SlidingWindow>();
  private readonly quota: SlidingWindow | undefined;
  revoked: 'app_deleted' | 'tenant_closed' | undefined;
  suspended: 'app' | 'tenant' | false = false;

  constructor(private readonly o: GateOptions) {
    this.quota = o.perSecond === undefined ? undefined : new SlidingWindow(o.perSecond, 1000);
  }

  reset(): void {
    this.tokens.clear();
    this.exchangesByIp.clear();
    this.quota?.clear();
    this.revoked = undefined;
    this.suspended = false;
  }

  expireAll(): void {
    this.tokens.clear();
  }

  /** Suspending invalidates every token issued before (seed 000 §5: step 1 then answers 401). */
  suspend(what: 'app' | 'tenant' | false): void {
    if (what) this.tokens.clear();
    this.suspended = what;
  }

  private revokedError(code: string, status: number): FakeApiError {
    return new FakeApiError(
      status,
      code,
      this.revoked === 'app_deleted' ? 'the application was deleted' : 'the tenant was closed',
      { reason: this.revoked },
    );
  }

  /** POST /{org}/{app}/token: the App Token, or the error of seed 000 §7. */
  exchange(
    ip: string,
    org: string,
    app: string,
    body: unknown,
  ): { access_token: string; expires_in: number; application: string } {
    let window = this.exchangesByIp.get(ip);
    if (!window) this.exchangesByIp.set(ip, (window = new SlidingWindow(this.o.tokenExchangesPerMinute, 60_000)));
    const wait = window.take(this.o.now());
    if (wait > 0)
      throw rateLimited(wait, `more than ${this.o.tokenExchangesPerMinute} token exchanges a minute from ${ip}`);
    const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    if (b.grant_type !== 'client_credentials')
      throw new FakeApiError(400, 'invalid_argument', 'grant_type must be client_credentials', {
        field: 'grant_type',
        problem: 'must be client_credentials',
      });
    if (this.revoked) throw this.revokedError('invalid_client', 401);
    if (
      org !== this.o.orgName ||
      app !== this.o.appName ||
      b.client_id !== this.o.clientId ||
      b.client_secret !== this.o.clientSecret
    ) {
      throw new FakeApiError(
        401,
        'invalid_client',
        'wrong Client ID or Client Secret, or org_name/app_name does not exist',
      );
    }
    // seed 000 §8: a successful-credential exchange also counts against the application's quota
    const quotaWait = this.quota?.take(this.o.now()) ?? 0;
    if (quotaWait > 0) throw rateLimited(quotaWait, "the application's OpenAPI quota is used up");
    const token = `fake-app-token-${randomBytes(16).toString('hex')}`;
    this.tokens.set(token, { expiresAt: this.o.now() + this.o.tokenTtlSeconds * 1000 });
    return {
      access_token: token,
      expires_in: this.o.tokenTtlSeconds,
      application: `${this.o.orgName}#${this.o.appName}`,
    };
  }

  /** The per-request checks 1 to 5 of seed 000 §5; throws the first failure. */
  check(ip: string, authorization: string | undefined, org: string, app: string): void {
    const token = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
    const record = token === undefined ? undefined : this.tokens.get(token);
    if (this.revoked) throw this.revokedError('unauthenticated', 401);
    if (!record || record.expiresAt <= this.o.now()) {
      if (record) this.tokens.delete(token!);
      throw new FakeApiError(401, 'unauthenticated', 'App Token invalid or expired');
    }
    if (org !== this.o.orgName || app !== this.o.appName)
      throw new FakeApiError(403, 'permission_denied', "the token's application differs from the path");
    if (this.o.ipAllowlist && !this.o.ipAllowlist.includes(ip))
      throw new FakeApiError(403, 'ip_not_allowed', 'source IP not in the allowlist');
    if (this.suspended === 'tenant')
      throw new FakeApiError(403, 'tenant_unavailable', 'tenant suspended or in the closure cooling-off period');
    if (this.suspended === 'app') throw new FakeApiError(403, 'app_unavailable', 'application disabled or suspended');
    const wait = this.quota?.take(this.o.now()) ?? 0;
    if (wait > 0) throw rateLimited(wait, "the application's OpenAPI quota is used up");
  }
}
