/**
 * Logging (internal, unstable). The caller's logger gets every line through the client's
 * redactor, and a throwing logger never breaks a call. Default: silent.
 */
import type { SecretRedactor } from './redact.js';

type LogFn = (message: string, meta?: Record<string, unknown>) => void;

/** Any subset of console-like methods; e.g. `console`, pino or winston loggers. */
export interface Logger {
  debug?: LogFn;
  info?: LogFn;
  warn?: LogFn;
  error?: LogFn;
}

export interface SafeLogger {
  debug(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
  error(message: string, meta?: Record<string, unknown>): void;
  /** False when debug lines go nowhere: the hot path then skips building them (absent = assume they are wanted). */
  debugEnabled?(): boolean;
}

export function safeLogger(logger: Logger | undefined, redactor: SecretRedactor): SafeLogger {
  const make =
    (level: keyof Logger) =>
    (message: string, meta?: Record<string, unknown>): void => {
      const fn = logger?.[level];
      if (typeof fn !== 'function') return;
      try {
        const text = `[im-server-sdk] ${redactor.text(message)}`;
        if (meta === undefined) fn.call(logger, text);
        else fn.call(logger, text, redactor.value(meta) as Record<string, unknown>);
      } catch {
        // A logger must never break a call.
      }
    };
  return {
    debug: make('debug'),
    info: make('info'),
    warn: make('warn'),
    error: make('error'),
    debugEnabled: () => typeof logger?.debug === 'function',
  };
}
