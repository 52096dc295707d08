// Copied by im-openapi from templates/runtime/internal/send-call.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * One call of the core client (internal, unstable): the checks and the request before the attempt
 * loop (`send-with-retries.ts`), and the response check after it. A call with nothing to wait for
 * before its loop (a cached validator, or validation off) and nothing to do after it (no deadline
 * timer or caller signal to let go, no response validation) IS its loop's promise: no async frame
 * and no promise of its own, on the path every call of a client with default options takes.
 */
import type { OperationSpec } from '../operation.js';
import type { RequestOptions } from '../core/options.js';
import type { CallObserver } from './observe.js';
import type { WithResponse } from './attempt-types.js';
import { CallScope } from './call-scope.js';
import type { ResolvedConfig } from './config.js';
import { fillDedupeKey } from './dedupe-key.js';
import type { SafeLogger } from './logger.js';
import { checkRequestOptions, validateParams } from './request-checks.js';
import { asParams, buildRequest } from './request-builder.js';
import { reportDrift } from './response-drift.js';
import { retryPolicyFor } from './retry.js';
import { sendWithRetries, type CallSettings, type RuntimeContext } from './send-with-retries.js';

/** What a call reads of its client. */
export interface CallClient {
  runtime: RuntimeContext;
  config: ResolvedConfig;
  logger: SafeLogger;
}

const NO_OPTIONS: RequestOptions = Object.freeze({});

/** Sends one call; every refusal (revoked, bad options, bad params) comes as a rejection, never thrown. */
export function sendCall(
  client: CallClient,
  op: OperationSpec,
  rawParams: unknown,
  options: RequestOptions = NO_OPTIONS,
  observer: CallObserver | undefined,
): Promise<WithResponse<unknown>> {
  try {
    const revoked = client.runtime.revokedError(op.id);
    if (revoked) throw revoked;
    const ownHeaders = checkRequestOptions(options);
    const params = asParams(op.id, rawParams);
    const loading = (options.validate ?? client.config.validateRequests) ? validateParams(op, params) : undefined;
    if (loading) return loading.then(() => afterChecks(client, op, params, ownHeaders, options, observer));
    return afterChecks(client, op, params, ownHeaders, options, observer);
  } catch (err) {
    return Promise.reject(err);
  }
}

/** The request and its scope, then the loop (with its response check and scope release when there is one). */
function afterChecks(
  client: CallClient,
  op: OperationSpec,
  params: Record<string, unknown>,
  ownHeaders: Record<string, string>,
  options: RequestOptions,
  observer: CallObserver | undefined,
): Promise<WithResponse<unknown>> {
  const config = client.config;
  const policy = retryPolicyFor(op, params);
  const filled = fillDedupeKey(op, params, ownHeaders, options.idempotencyKey);
  const request = buildRequest(op, filled.params, config, options.contentType);
  // (plain fields, no spreads: this runs on every call; undefined means "none" to both)
  const scope = new CallScope({
    operationId: op.id,
    signal: options.signal || undefined,
    deadlineMs: options.deadlineMs ?? config.deadlineMs,
    now: config.now,
  });
  const settings: CallSettings = {
    op,
    request,
    policy,
    headers: filled.headers,
    maxRetries: options.maxRetries ?? config.maxRetries,
    timeoutMs: options.timeoutMs ?? config.timeoutMs,
    scope,
    maxResponseBytes: options.maxResponseBytes ?? config.maxResponseBytes,
    priority: options.priority || undefined,
    maxRetryAfterMs: options.maxRetryAfterMs,
    observer,
  };
  const checksResponse = (options.validateResponse ?? config.validateResponses) && op.loadValidator !== undefined;
  if (!checksResponse && !scope.holdsResources()) return sendWithRetries(client.runtime, settings);
  return sendAndCheck(client, settings, checksResponse);
}

async function sendAndCheck(
  client: CallClient,
  settings: CallSettings,
  checksResponse: boolean,
): Promise<WithResponse<unknown>> {
  try {
    const result = await sendWithRetries(client.runtime, settings);
    if (checksResponse) await reportDrift(settings.op, result, client.logger, client.config.onResponseDrift);
    return result;
  } finally {
    settings.scope.dispose();
  }
}
