// Copied by im-openapi from templates/runtime/core/from-env.ts. Do not edit here: edit the template and run `npm run generate`.
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

export function clientOptionsFromEnv(overrides: Partial<ClientOptions> = {}, env: Env = processEnv()): ClientOptions {
  const read = (option: keyof typeof CLIENT_ENV_VARS): string | undefined => {
    if (overrides[option] !== undefined) return undefined;
    const name = CLIENT_ENV_VARS[option];
    const value = env[name];
    if (value === undefined || value.trim() === '') {
      throw new ConfigError(option, `is not set: the environment variable ${name} is missing or empty.`, `Set ${name}, or pass ${option} to fromEnv().`);
    }
    return value.trim();
  };
  const fromEnv: Partial<ClientOptions> = {};
  const baseUrl = read('baseUrl');
  if (baseUrl !== undefined) fromEnv.baseUrl = baseUrl;
  if (overrides.orgName === undefined && overrides.appName === undefined) {
    const appKey = read('appKey');
    if (appKey !== undefined) fromEnv.appKey = appKey;
  }
  const clientId = read('clientId');
  if (clientId !== undefined) fromEnv.clientId = clientId;
  const clientSecret = read('clientSecret');
  if (clientSecret !== undefined) fromEnv.clientSecret = clientSecret;
  return { ...fromEnv, ...overrides } as ClientOptions;
}
