/**
 * The App Token "stands for the administrative authority of the whole application" and "is kept
 * and used on the server only" (REST seed, sections 1 and 5); the API sends no CORS headers.
 * So the client refuses to start in a browser page or a web worker, judged by the global scope
 * (not the user agent, which servers can fake and browsers can hide).
 */
import { ConfigError } from '../core/errors.js';

export type BrowserLikeScope = 'browser' | 'web worker' | undefined;

export function browserLikeScope(scope: object = globalThis): BrowserLikeScope {
  const g = scope as {
    window?: unknown;
    document?: unknown;
    importScripts?: unknown;
    WorkerGlobalScope?: unknown;
    ServiceWorkerGlobalScope?: unknown;
  };
  const workerScope = g.WorkerGlobalScope;
  if (typeof workerScope === 'function' && scope instanceof (workerScope as new () => object)) return 'web worker';
  if (
    typeof g.importScripts === 'function' &&
    (typeof workerScope === 'function' || typeof g.ServiceWorkerGlobalScope === 'function')
  )
    return 'web worker';
  const win = g.window as { document?: unknown } | undefined;
  if (win !== undefined && win === (scope as unknown) && typeof g.document === 'object' && g.document !== null)
    return 'browser';
  if (win !== undefined && typeof win === 'object' && typeof win.document === 'object' && win.document !== null)
    return 'browser';
  return undefined;
}

export function assertServerSide(allowBrowser: boolean | undefined, scope: object = globalThis): void {
  const where = browserLikeScope(scope);
  if (!where || allowBrowser === true) return;
  throw new ConfigError(
    'dangerouslyAllowBrowser',
    `the client was created in a ${where}. It holds your Client Secret and an App Token, which stands for the ` +
      'administrative authority of the whole application, and the service sends no CORS headers, so browser calls fail anyway.',
    'Call the service from your server and hand a client only what is its own (an RTC channel ticket, a User Token). ' +
      'If this really is a server-side runtime that looks like a browser, pass dangerouslyAllowBrowser: true.',
  );
}
