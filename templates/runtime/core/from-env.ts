/**
 * Client options from environment variables, so that credentials live in the deployment's
 * secret store rather than in code:
 *
 * | variable | option |
 * |---|---|
 * | IM_BASE_URL | baseUrl |
 * | IM_APP_KEY | appKey (`org_name#app_name`) |
 * | IM_CLIENT_ID | clientId |
 * | IM_CLIENT_SECRET | clientSecret |
 */
import { ConfigError } from './errors.js';
import type { ClientOptions } from './options.js';

export const CLIENT_ENV_VARS = {
  baseUrl: 'IM_BASE_URL',
  appKey: 'IM_APP_KEY',
  clientId: 'IM_CLIENT_ID',
  clientSecret: 'IM_CLIENT_SECRET',
} as const;

export type Env = Readonly<Record<string, string | undefined>>;

function processEnv(): Env {
  return (globalThis as { process?: { env?: Env } }).process?.env ?? {};
}

/**
 * The options read from `env` (overrides win). Every variable that is missing or empty is named
 * in one ConfigError, so a deployment is fixed in one round, not one variable per run.
 */
export function clientOptionsFromEnv(overrides: Partial<ClientOptions> = {}, env: Env = processEnv()): ClientOptions {
  const fromEnv: Partial<Record<keyof typeof CLIENT_ENV_VARS, string>> = {};
  const missing: (keyof typeof CLIENT_ENV_VARS)[] = [];
  const appKeyGiven = overrides.orgName !== undefined || overrides.appName !== undefined;
  for (const option of Object.keys(CLIENT_ENV_VARS) as (keyof typeof CLIENT_ENV_VARS)[]) {
    if (overrides[option] !== undefined || (option === 'appKey' && appKeyGiven)) continue;
    const value = env[CLIENT_ENV_VARS[option]];
    if (value === undefined || value.trim() === '') missing.push(option);
    else fromEnv[option] = value.trim();
  }
  if (missing.length > 0) {
    const names = missing.map((option) => CLIENT_ENV_VARS[option]);
    const plural = names.length > 1;
    throw new ConfigError(
      missing.join(', '),
      `${plural ? 'are' : 'is'} not set: the environment variable${plural ? 's' : ''} ${names.join(', ')} ${plural ? 'are' : 'is'} missing or empty.`,
      `Set ${names.join(', ')}, or pass ${missing.join(', ')} to fromEnv().`,
    );
  }
  return { ...fromEnv, ...overrides } as ClientOptions;
}
