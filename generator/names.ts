/** Naming rules shared by the model builder and the emitters. */

export function camelCase(snake: string): string {
  return snake.replace(/[_-]([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

export function pascalCase(snake: string): string {
  const camel = camelCase(snake);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

/** `users.batch_create` → { namespace: 'users', methodName: 'batchCreate', funcName: 'usersBatchCreate' } */
export function operationNames(id: string): {
  namespace: string;
  methodName: string;
  funcName: string;
  typeStem: string;
} {
  const dot = id.indexOf('.');
  const namespace = id.slice(0, dot);
  const rest = id.slice(dot + 1).replace(/\./g, '_');
  const methodName = camelCase(rest);
  return {
    namespace,
    methodName,
    funcName: camelCase(namespace) + pascalCase(rest),
    typeStem: pascalCase(namespace) + pascalCase(rest),
  };
}

/**
 * Members of ImLeanCore and ImCore (the prototype chain of ImClient): a namespace, which becomes
 * an ImClient property, may not take one (`request` would replace the method every call goes
 * through). test/spec-limits.test.ts checks the list against the runtime's classes.
 */
export const CLIENT_MEMBERS: ReadonlySet<string> = new Set([
  'appName',
  'baseUrl',
  'clientId',
  'constructor',
  'credentialsRevoked',
  'orgName',
  'rateLimit',
  'request',
  'toJSON',
  'transport',
  'validatesRequests',
  'withOptions',
]);

/** Members of every resource class besides its methods: a method may not take one. */
export const RESOURCE_MEMBERS: ReadonlySet<string> = new Set(['constructor', 'client']);

/**
 * What the package index re-exports from the runtime (`export *` of core/index.ts and
 * helpers/index.ts): a component schema of one of these names would clash with it (TS2308), so
 * its type takes `Schema` after the name (spec-text.ts safeTypeName). test/corpus.test.ts checks
 * the list against the runtime's real exports.
 */
export const RUNTIME_EXPORTS: ReadonlySet<string> = new Set([
  // issue 31: hooks, diagnostics channels, page walkers
  'AttemptEndEvent',
  'CallEndEvent',
  'CallHooks',
  'CallStartEvent',
  'ErrorView',
  'IM_CHANNELS',
  'RateLimitWaitView',
  'RequestView',
  'ResponseView',
  'RetryReason',
  'RetryView',
  'ToArrayOptions',
  'AbortError',
  'AlreadyExistsError',
  'ApiError',
  'ApiErrorInit',
  'ApiPromise',
  'AppUnavailableError',
  'BatchChunk',
  'BatchError',
  'BatchOptions',
  'BatchResult',
  'BinaryInput',
  'BinaryResponse',
  'BodyKind',
  'CLIENT_ENV_VARS',
  'CallPriority',
  'ClientOptions',
  'ClientSecretSource',
  'ConfigError',
  'ConnectionError',
  'CredentialsRevokedError',
  'DEFAULT_PART_SIZE',
  'DedupeKeySpec',
  'ErrorContext',
  'FileInput',
  'FleetRateLimitState',
  'HttpMethod',
  'ImCore',
  'ImError',
  'ImLeanCore',
  'InvalidArgumentError',
  'InvalidClientError',
  'IoredisClientLike',
  'IpNotAllowedError',
  'Logger',
  'MemoryQuotaStore',
  'MemoryTokenStore',
  'NodeRedisClientLike',
  'NotFoundError',
  'OperationSpec',
  'Page',
  'PagePromise',
  'PaginationCycleError',
  'PaginationKind',
  'PaginationSpec',
  'ParamTest',
  'ParsedErrorBody',
  'PartEncoding',
  'PendingDecision',
  'PendingItemsOptions',
  'PendingItemsReport',
  'PermissionDeniedError',
  'QueryStyle',
  'QuotaCounters',
  'QuotaReservation',
  'QuotaStore',
  'RateLimitMetrics',
  'RateLimitOptions',
  'RateLimitPausedError',
  'RateLimitState',
  'RateLimitWaitError',
  'RateLimitedError',
  'RateSpec',
  'RedisClientLike',
  'RedisCommandClient',
  'RedisQuotaStore',
  'RedisQuotaStoreOptions',
  'RedisTokenStore',
  'RedisTokenStoreOptions',
  'RequestBodySpec',
  'RequestOptions',
  'RequestValidator',
  'ResponseDrift',
  'ResponseInfo',
  'ResponseKind',
  'ResponseTooLargeError',
  'RetryClass',
  'RetryClassCondition',
  'RuntimeInternals',
  'StoreError',
  'StoreTimeoutError',
  'StoredToken',
  'TOKEN_EXCHANGE_OPERATION',
  'TenantUnavailableError',
  'TimeoutError',
  'TokenEvent',
  'TokenStore',
  'UnauthenticatedError',
  'UploadInterruptedError',
  'UploadOptions',
  'UploadProgress',
  'UploadResult',
  'UploadSource',
  'ValidationError',
  'ValidationIssue',
  'VersionConflictError',
  'VersionedSnapshot',
  'WithResponse',
  'browserLikeScope',
  'clientOptionsFromEnv',
  'errorFromResponse',
  'fromIoredis',
  'fromNodeRedis',
  'listPages',
  'maskUrlQuery',
  'parseErrorBody',
]);

/** Names the root entry itself exports besides the runtime's (issue 32: the `Schemas` namespace of component types); a component schema may not take them either. */
export const ENTRY_EXPORTS: ReadonlySet<string> = new Set(['Schemas']);
