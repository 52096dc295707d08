// Copied by im-openapi from templates/runtime/callbacks/simulator/simulate-options.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The options of `simulateDelivery` (simulate.ts), and the settings a run uses once they are
 * checked and resolved (resolve-simulation.ts).
 */
import type { HookAnswerFormat } from '../decisions.js';
import type { CallbackSignatureScheme } from '../signature-scheme.js';
import type { ReceiverState } from './report.js';

export interface SimulateDeliveryOptions {
  /** The receiver; two (up to 5) addresses get every event each, with the same ids. Loopback only unless `allowRemote`. */
  url: string | readonly string[];
  /**
   * The address signing secret, or one per address in `url` order (each address has its own,
   * seed 001 §2.1). Never printed or reported.
   */
  secret: string | readonly string[];
  /** Rotation: during the grace period requests carry two signatures (new, old). One, or one per address. */
  oldSecret?: string | readonly string[];
  /**
   * How requests are signed: default `imSignatureV1` (ASSUMED: seed 001 §5 does not show the
   * algorithm); `standardWebhooksSignature` or your own scheme, the one your receiver verifies with.
   */
  signature?: CallbackSignatureScheme;
  /** How hook answers are read (default `assumedHookAnswer`, `{"decision": …}`, ASSUMED): the format your receiver answers in. */
  hookAnswer?: HookAnswerFormat;
  /** Simulated length of the rotation grace period from the start. ASSUMED default 1 h (seed: not shown). */
  rotationGraceMs?: number;
  /** Fixes the plan (events, order, batches, duplicates, losses, jitter). Default: random, reported. */
  seed?: number;
  /** Simulated ms per real ms. Default 1000. */
  timeScale?: number;
  /** Divides the answer timeouts (verify 5 s, event timeout, hook timeout_ms). Default 1 (real). */
  timeoutScale?: number;
  /** Events created. Default 100. */
  events?: number;
  /** Address setting "events per batch", 1 to 100. Default 10 (the service's default is 1). */
  eventsPerBatch?: number;
  /** Address timeout for event answers, 1000 to 10000 ms. Default 5000. */
  timeoutMs?: number;
  /** Simultaneous event requests per address, 1 to 50. Default 10. */
  concurrency?: number;
  /** Requests per second per address, 1 to 1000. Default 100 (all addresses together at most 500). */
  ratePerSecond?: number;
  duplicateRate?: number;
  bestEffortLossRate?: number;
  truncatedRate?: number;
  /** Synchronous callbacks sent to the first address. Default 3. */
  hooks?: number;
  /** timeout_ms of the hooks. ASSUMED default 3000 (seed: not shown). */
  hookTimeoutMs?: number;
  /** The hook's setting when the receiver fails or is late. Default allow-on-failure (the seed's advice to start with). */
  hookPolicy?: 'allow-on-failure' | 'reject-on-failure';
  /** GET → ReceiverState JSON, served by the receiver's test harness. */
  stateUrl?: string;
  /** Or the same, in process. */
  observe?: () => ReceiverState | Promise<ReceiverState>;
  allowRemote?: boolean;
  /** Stop (report marked incomplete) after this many real ms. Default 600 000. */
  maxRealMs?: number;
  /**
   * Longest real wait, after the last delivery, for the receiver's state (`stateUrl` / `observe`)
   * to settle before the report: read every 100 ms until every delivered event is processed or
   * superseded and the state stays the same for a quarter of `settleQuietMs`, or until it does not
   * change for `settleQuietMs`. Default 60 000 ms.
   */
  settleMs?: number;
  /** How long the receiver's state must stay the same to count as settled. Default 2 000 ms. */
  settleQuietMs?: number;
  app?: string;
}

/** The options as the run uses them: checked, defaults applied, one secret per address. */
export interface RunSettings {
  seed: number;
  timeScale: number;
  timeoutScale: number;
  timeoutMs: number;
  concurrency: number;
  ratePerSecond: number;
  hookPolicy: 'allow-on-failure' | 'reject-on-failure';
  maxRealMs: number;
  settleMs: number;
  settleQuietMs: number;
  rotationGraceMs: number;
  app: string;
  secrets: string[];
  oldSecrets: string[] | undefined;
  observe: (() => Promise<ReceiverState>) | undefined;
  signature: CallbackSignatureScheme | undefined;
  hookAnswer: HookAnswerFormat;
}

/** What the event counts of the report are measured against. */
export interface RunShape {
  eventsPerBatch: number;
  events: number;
  hooks: number;
  hookTimeoutMs: number;
}
