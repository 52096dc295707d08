/**
 * `ImCore`: the core client with every feature — the transport picked from the options (node:http
 * with a keep-alive agent by default on Node, proxy support, fetch when given or off Node) and the
 * fleet quota (`rateLimit`, `quotaStore`, `client.rateLimit.metrics`). The standalone functions
 * take it or the smaller `ImLeanCore`; `ImClient` extends it.
 */
import { ImLeanCore } from './lean-core.js';
import type { CoreFeatures } from '../internal/core-features.js';
import { FULL_FEATURES } from '../internal/full-features.js';
import type { FleetRateLimitState } from '../internal/rate-limit-options.js';

export class ImCore extends ImLeanCore {
  protected static override readonly features: CoreFeatures = FULL_FEATURES;

  /**
   * The client-wide pause after a 429 (the quota is per application): `pausedUntil` (epoch ms, or
   * null when calls go out), `remainingMs`, and `clear()` to open it now. A pause lasts at most
   * 1 hour whatever Retry-After says. With a `quotaStore` the pause is the fleet's. `metrics`:
   * this client's calls sent, waited (count, ms), throttled, 429s, gate state;
   * `fleetMetrics()`: the same totals of every process sharing the quota store.
   */
  override get rateLimit(): FleetRateLimitState {
    return super.rateLimit as FleetRateLimitState;
  }
}
