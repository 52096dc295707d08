/**
 * Every feature of the core (internal, unstable): the transport picked from the options at run
 * time (node:http by default on Node, with proxy support; fetch when given or off Node) and the
 * fleet quota. `ImCore`, and so `ImClient`, are built with these.
 */
import type { CoreFeatures } from './core-features.js';
import { QuotaControl } from './quota-control.js';
import { resolveQuotaStore, resolveRateLimit } from './rate-limit-options.js';
import { quotaKey } from './store-keys.js';
import { chooseTransport } from './transport/choose.js';

export const FULL_FEATURES: CoreFeatures = {
  transport: chooseTransport,
  quota: {
    resolve: (o) => ({ store: resolveQuotaStore(o.quotaStore), rateLimit: resolveRateLimit(o.rateLimit) }),
    create: (options, app) => new QuotaControl({ ...options, key: quotaKey(app.baseUrl, app.orgName, app.appName) }),
  },
};
