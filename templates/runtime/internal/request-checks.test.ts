import { describe, expect, test } from 'vitest';
import { ConfigError, ImError, ValidationError } from '../core/errors.js';
import type { OperationSpec, RequestValidator } from '../operation.js';
import { ops } from '../test-support/fake-service.js';
import { checkRequestOptions, validateParams, validatorOf } from './request-checks.js';

const withValidator = (load: () => Promise<RequestValidator>): OperationSpec => ({
  ...ops.usersGet,
  loadValidator: load,
});
const passes: RequestValidator = { validate: () => null };

describe('validateParams', () => {
  test('a cached validator runs without a promise; only the first call waits for the load', async () => {
    let loads = 0;
    const op = withValidator(async () => (loads++, passes));
    const first = validateParams(op, { username: 'alice' });
    expect(first).toBeInstanceOf(Promise);
    await first;
    expect(validateParams(op, { username: 'alice' })).toBeUndefined();
    expect(await validatorOf(op)).toBe(passes);
    expect(loads).toBe(1);
  });

  test('issues become a ValidationError naming the field and rule', async () => {
    const op = withValidator(async () => ({
      validate: () => [{ pointer: '/username', rule: 'minLength', message: 'too short' }],
    }));
    await expect(validateParams(op, { username: '' })).rejects.toThrow(ValidationError);
    expect(() => validateParams(op, { username: '' })).toThrow(/username/);
  });

  test('a validator that fails to load or throws is an ImError that says how to skip it', async () => {
    const broken = withValidator(() => Promise.reject(new Error('chunk missing')));
    await expect(validateParams(broken, { username: 'a' })).rejects.toThrow(
      /failed to load or run; pass \{ validate: false \}/,
    );
    const throwing = withValidator(async () => ({
      validate: () => {
        throw new Error('bug');
      },
    }));
    await expect(validateParams(throwing, { username: 'a' })).rejects.toBeInstanceOf(ImError);
    expect(() => validateParams(throwing, { username: 'a' })).toThrow(/failed to load or run/);
  });
});

describe('checkRequestOptions', () => {
  test('refuses a bad option by name and returns the checked headers', () => {
    expect(() => checkRequestOptions({ timeoutMs: -1 })).toThrow(ConfigError);
    expect(() => checkRequestOptions({ maxRetries: 1.5 })).toThrow(/requestOptions\.maxRetries/);
    expect(checkRequestOptions({ headers: { 'x-trace': 't1' } })).toEqual({ 'x-trace': 't1' });
  });
});
