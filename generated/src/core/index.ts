// Copied by im-openapi from templates/runtime/core/index.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * Public surface of the runtime. Everything under `../internal/` is unstable and may change
 * in any release; import from here (the package entry point re-exports it).
 */
export { ImLeanCore } from './lean-core.js';
export { ImCore } from './im-core.js';
export { TOKEN_EXCHANGE_OPERATION } from '../internal/token-exchange.js';
export type { ClientOptions, ClientSecretSource, RequestOptions, ResponseDrift, RuntimeInternals } from './options.js';
export { ApiPromise } from './api-promise.js';
export { IM_CHANNELS } from './hooks.js';
export type {
  AttemptEndEvent,
  CallEndEvent,
  CallHooks,
  CallStartEvent,
  ErrorView,
  RateLimitWaitView,
  RequestView,
  ResponseView,
  RetryReason,
  RetryView,
} from './hooks.js';
export type { ResponseInfo, WithResponse } from './api-promise.js';
export { Page, PagePromise, listPages, type ToArrayOptions } from './pagination.js';
export { BinaryResponse } from './binary-response.js';
export type { BinaryInput, FileInput } from '../internal/request-body.js';
export {
  AbortError,
  AlreadyExistsError,
  ApiError,
  AppUnavailableError,
  ConfigError,
  ConnectionError,
  CredentialsRevokedError,
  ImError,
  InvalidArgumentError,
  InvalidClientError,
  IpNotAllowedError,
  NotFoundError,
  PaginationCycleError,
  PermissionDeniedError,
  RateLimitPausedError,
  RateLimitWaitError,
  RateLimitedError,
  ResponseTooLargeError,
  StoreError,
  TenantUnavailableError,
  TimeoutError,
  UnauthenticatedError,
  ValidationError,
  VersionConflictError,
} from './errors.js';
export type { ApiErrorInit } from './errors.js';
export { errorFromResponse, parseErrorBody } from './error-from-response.js';
export type { ErrorContext, ParsedErrorBody } from './error-from-response.js';
export { maskUrlQuery } from '../internal/redact.js';
export { CLIENT_ENV_VARS, clientOptionsFromEnv } from './from-env.js';
export { browserLikeScope } from '../internal/server-only.js';
export { MemoryTokenStore } from '../internal/token-manager.js';
export type { RateLimitState } from '../internal/quota-gate.js';
export type { StoredToken, TokenEvent, TokenStore } from '../internal/token-manager.js';
export {
  MemoryQuotaStore,
  RedisQuotaStore,
  RedisTokenStore,
  StoreTimeoutError,
  fromIoredis,
  fromNodeRedis,
} from '../stores/index.js';
export type {
  IoredisClientLike,
  NodeRedisClientLike,
  QuotaCounters,
  QuotaReservation,
  QuotaStore,
  RedisClientLike,
  RedisCommandClient,
  RedisQuotaStoreOptions,
  RedisTokenStoreOptions,
} from '../stores/index.js';
export type {
  CallPriority,
  FleetRateLimitState,
  RateLimitMetrics,
  RateLimitOptions,
} from '../internal/rate-limit-options.js';
export type { RateSpec } from '../internal/gcra.js';
export type { Logger } from '../internal/logger.js';
export type {
  DedupeKeySpec,
  HttpMethod,
  OperationSpec,
  BodyKind,
  PaginationKind,
  PaginationSpec,
  ParamTest,
  PartEncoding,
  QueryStyle,
  RequestBodySpec,
  RequestValidator,
  ResponseKind,
  RetryClass,
  RetryClassCondition,
  ValidationIssue,
} from '../operation.js';
