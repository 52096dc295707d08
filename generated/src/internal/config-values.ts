// Copied by im-openapi from templates/runtime/internal/config-values.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The checks of single client option values (internal): strings, org/app segments, numbers in a
 * range, callbacks, the hooks object and header maps. Each problem is a `ConfigError` naming the
 * option; no value of a secret is echoed.
 */
import type { CallHooks } from '../core/hooks.js';
import { ConfigError } from '../core/errors.js';

const HOOK_NAMES = ['onRequest', 'onResponse', 'onRetry', 'onError'] as const;

/** The hooks option: an object of the four hook names, each a function. */
export function hooksOf(value: unknown): CallHooks | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null)
    throw new ConfigError(
      'hooks',
      `must be an object with any of ${HOOK_NAMES.join(', ')} (got ${value === null ? 'null' : typeof value}).`,
    );
  for (const name of Object.keys(value)) {
    if (!(HOOK_NAMES as readonly string[]).includes(name))
      throw new ConfigError(`hooks.${name}`, `is not a hook; the hooks are ${HOOK_NAMES.join(', ')}.`);
    optionalFunction(`hooks.${name}`, (value as Record<string, unknown>)[name]);
  }
  return value as CallHooks;
}

const CONTROL = /[\u0000-\u001f\u007f]/;

/** A required string option: not empty, no control characters. */
export function nonEmptyString(option: string, value: unknown, hint?: string): string {
  if (typeof value !== 'string') {
    throw new ConfigError(
      option,
      value === undefined ? 'is required.' : `must be a string (got ${typeof value}).`,
      hint,
    );
  }
  if (value.trim() === '') throw new ConfigError(option, 'must not be empty.', hint);
  if (CONTROL.test(value)) throw new ConfigError(option, 'must not contain control characters.', hint);
  return value;
}

/** An org or app name: a non-empty string that is no path step ("." / "..") and has no outer spaces. */
export function segment(option: string, value: unknown, hint: string): string {
  const s = nonEmptyString(option, value, hint);
  if (s === '.' || s === '..') throw new ConfigError(option, 'must not be "." or "..".', hint);
  if (s !== s.trim()) throw new ConfigError(option, 'must not start or end with spaces.', hint);
  return s;
}

/**
 * The longest wait a timer can hold (2^31 − 1 ms, about 24.8 days). Node turns a longer one into
 * 1 ms, so a huge timeout would end every call at once: such values are refused instead.
 */
export const MAX_TIMER_MS = 2_147_483_647;

/** A number option within its range (`fallback` when not given). */
export function number(
  option: string,
  value: unknown,
  fallback: number,
  min: number,
  integer = false,
  max = Number.MAX_VALUE,
): number {
  if (value === undefined) return fallback;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < min ||
    value > max ||
    (integer && !Number.isInteger(value))
  ) {
    const range =
      max === Number.MAX_VALUE
        ? `>= ${min}`
        : `from ${min} to ${max}${max === MAX_TIMER_MS ? ' (the longest timer wait)' : ''}`;
    throw new ConfigError(
      option,
      `must be ${integer ? 'an integer' : 'a finite number'} ${range} (got ${String(value)}).`,
    );
  }
  return value;
}

/** An optional callback option. */
export function optionalFunction<T>(option: string, value: unknown): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw new ConfigError(option, `must be a function (got ${typeof value}).`);
  return value as T;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Checks a headers option (names RFC 9110 tokens, values strings without CR/LF/NUL) and returns
 * it with lower-case names. `option` names it in the error.
 */
export function checkedHeaders(option: string, headers: unknown): Record<string, string> {
  if (headers === undefined) return {};
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers))
    throw new ConfigError(option, 'must be an object of header names to values.');
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name)) throw new ConfigError(option, `has an invalid header name ${JSON.stringify(name)}.`);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value))
      throw new ConfigError(option, `the value of ${name} must be a string without CR, LF or NUL.`);
    out[name.toLowerCase()] = value;
  }
  return out;
}
