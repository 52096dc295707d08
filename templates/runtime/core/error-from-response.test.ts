import { describe, expect, test } from 'vitest';
import { errorFromResponse, parseErrorBody } from './error-from-response.js';
import {
  AlreadyExistsError,
  ApiError,
  AppUnavailableError,
  CredentialsRevokedError,
  InvalidArgumentError,
  InvalidClientError,
  IpNotAllowedError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitedError,
  TenantUnavailableError,
  UnauthenticatedError,
  VersionConflictError,
} from './errors.js';

const ctx = { operationId: 'users.get', attempts: 1, resent: false, retryClass: 'Q' as const };
const body = (code: string, details?: Record<string, unknown>) => ({
  error: { code, message: 'm', request_id: 'r1', ...(details ? { details } : {}) },
});

describe('errorFromResponse: one class per documented code', () => {
  test.each([
    [400, 'invalid_argument', InvalidArgumentError],
    [401, 'invalid_client', InvalidClientError],
    [401, 'unauthenticated', UnauthenticatedError],
    [403, 'permission_denied', PermissionDeniedError],
    [403, 'ip_not_allowed', IpNotAllowedError],
    [403, 'tenant_unavailable', TenantUnavailableError],
    [403, 'app_unavailable', AppUnavailableError],
    [429, 'rate_limited', RateLimitedError],
    [409, 'already_exists', AlreadyExistsError],
    [404, 'not_found', NotFoundError],
    [409, 'version_conflict', VersionConflictError],
    [418, 'brand_new_code', ApiError],
  ] as const)('%i %s', (status, code, cls) => {
    const err = errorFromResponse(status, JSON.stringify(body(code)), { 'X-Request-Id': 'h1' }, ctx);
    expect(err).toBeInstanceOf(cls);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status,
      code,
      requestId: 'r1',
      operationId: 'users.get',
      attempts: 1,
      mayBeEchoOfEarlierAttempt: false,
    });
    expect(err.name).toBe(cls.name);
    expect(err.message).toContain(code);
  });

  test.each(['app_deleted', 'tenant_closed'] as const)(
    'details.reason %s → CredentialsRevokedError whatever the code',
    (reason) => {
      const err = errorFromResponse(401, body('unauthenticated', { reason }), undefined, ctx);
      expect(err).toBeInstanceOf(CredentialsRevokedError);
      expect((err as CredentialsRevokedError).reason).toBe(reason);
      expect(err.message).toMatch(/discard/);
    },
  );

  test('429 without a body still is a RateLimitedError carrying the wait', () => {
    const err = errorFromResponse(429, '', undefined, { ...ctx, retryAfterMs: 3000 });
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(3000);
  });

  test('echo flag only for resent U already_exists and resent I not_found / version_conflict', () => {
    const resent = { ...ctx, resent: true };
    expect(
      errorFromResponse(409, body('already_exists'), undefined, { ...resent, retryClass: 'U' })
        .mayBeEchoOfEarlierAttempt,
    ).toBe(true);
    expect(
      errorFromResponse(404, body('not_found'), undefined, { ...resent, retryClass: 'I' }).mayBeEchoOfEarlierAttempt,
    ).toBe(true);
    expect(
      errorFromResponse(409, body('version_conflict'), undefined, { ...resent, retryClass: 'I' })
        .mayBeEchoOfEarlierAttempt,
    ).toBe(true);
    expect(
      errorFromResponse(404, body('not_found'), undefined, { ...resent, retryClass: 'Q' }).mayBeEchoOfEarlierAttempt,
    ).toBe(false);
    expect(
      errorFromResponse(409, body('already_exists'), undefined, { ...ctx, retryClass: 'U' }).mayBeEchoOfEarlierAttempt,
    ).toBe(false);
  });

  test('url_not_allowed gets its own hint; headers are redacted', () => {
    const err = errorFromResponse(
      400,
      body('invalid_argument', { reason: 'url_not_allowed', rule: 'https_only' }),
      { authorization: 'Bearer x' },
      ctx,
    );
    expect(err.message).toMatch(/callback address/);
    expect(err.details).toEqual({ reason: 'url_not_allowed', rule: 'https_only' });
    expect(err.headers.authorization).toBe('***');
  });
});

describe('parseErrorBody', () => {
  test.each([
    ['', { code: undefined, nonJson: false }],
    ['<html>oops</html>', { code: undefined, message: '<html>oops</html>', nonJson: true }],
    ['{"unexpected":true}', { code: undefined, nonJson: true }],
    ['{"error":{"code":5,"message":["x"]}}', { code: undefined, message: undefined, nonJson: false }],
    ['[1,2]', { code: undefined, nonJson: true }],
  ])('%j', (text, want) => {
    expect(parseErrorBody(text)).toMatchObject(want);
  });
});
