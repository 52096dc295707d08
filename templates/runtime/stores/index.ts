/** Token stores shared between processes, and the minimal Redis client shape they use. */
export { RedisTokenStore } from './redis-token-store.js';
export { DEFAULT_STORE_BUDGET_MS, StoreError, StoreTimeoutError, withStoreBudget } from './store-budget.js';
export type { RedisTokenStoreOptions } from './redis-token-store.js';
export { fromIoredis, fromNodeRedis } from './redis-client.js';
export type { IoredisClientLike, NodeRedisClientLike, RedisClientLike, RedisCommandClient } from './redis-client.js';
export { MemoryQuotaStore } from './quota-store.js';
export type { QuotaCounters, QuotaReservation, QuotaStore } from './quota-store.js';
export { RedisQuotaStore } from './redis-quota-store.js';
export type { RedisQuotaStoreOptions } from './redis-quota-store.js';
