/** Token stores shared between processes, and the minimal Redis client shape they use. */
export { RedisTokenStore } from './redis-token-store.js';
export { DEFAULT_STORE_BUDGET_MS, StoreTimeoutError, withStoreBudget } from './store-budget.js';
export type { RedisTokenStoreOptions } from './redis-token-store.js';
export { fromIoredis, fromNodeRedis } from './redis-client.js';
export type { RedisCommandClient } from './redis-client.js';
