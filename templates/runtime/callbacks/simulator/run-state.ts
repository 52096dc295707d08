/**
 * The state one `simulateDelivery` run shares between its parts (sending, events, hooks, the
 * scheduler, the report): the addresses and their queues, every delivery item, the request log,
 * the findings, and the two clocks (real, and simulated at `timeScale`).
 */
import type { DeliveryPlan, PlannedEvent, PlannedHook } from './plan.js';
import type { AddressRecord, RequestRecord, SimulationFinding } from './report.js';
import { APP_RATE_CAP, CircuitBreaker, RateWindow } from './rules.js';
import type { RunSettings } from './simulate-options.js';

/** One receiver address: its state, breaker, rate window and queue of units due. */
export interface Address {
  index: number;
  url: URL;
  endpointId: string;
  state: AddressRecord['state'];
  breaker: CircuitBreaker;
  rate: RateWindow;
  inFlight: number;
  units: Unit[];
  lastSuccessAt?: number;
  lastFailureAt?: number;
}

/** One planned event on its way to one address. */
export interface Item {
  ev: PlannedEvent;
  address: Address;
  sends: number;
  duplicateSends: number;
  state: 'pending' | 'delivered' | 'failed' | 'not_created';
  reason?: string;
  lastStatus?: number;
}

/** What one request carries: items due together (a batch, a retry group or a duplicate). */
export interface Unit {
  key: string;
  items: Item[];
  send: number;
  dueAt: number;
  duplicate?: boolean;
}

export class RunState {
  /** Real start of the run (limits, report) … */
  readonly runStarted = performance.now();
  /**
   * … and the origin of the simulated clock, moved to the end of URL verification: events are
   * created once the address is normal (§3), so the first connection's warm-up is no service time.
   */
  started = performance.now();
  readonly addresses: Address[];
  readonly items: Item[] = [];
  readonly requests: RequestRecord[] = [];
  readonly findings = new Map<string, SimulationFinding>();
  readonly appRate = new RateWindow(APP_RATE_CAP);
  readonly hooksDue: PlannedHook[];
  readonly eventsById: Map<string, PlannedEvent>;
  inFlight = 0;
  wake: (() => void) | undefined;
  readonly lateGraces: Array<Promise<void>> = [];
  complete = true;
  /** occurred_at of the events is set back from here (deliver-events.ts). */
  readonly wallStart = Date.now();

  constructor(
    readonly plan: DeliveryPlan,
    urls: URL[],
    readonly s: RunSettings,
  ) {
    this.addresses = urls.map((url, index) => ({
      index,
      url,
      endpointId: `ep_sim_${index + 1}`,
      state: 'pending verification',
      breaker: new CircuitBreaker(),
      rate: new RateWindow(s.ratePerSecond),
      inFlight: 0,
      units: [],
    }));
    this.hooksDue = [...plan.hooks].sort((a, b) => a.atMs - b.atMs);
    this.eventsById = new Map(plan.events.map((e) => [e.id, e]));
  }

  simNow(): number {
    return (performance.now() - this.started) * this.s.timeScale;
  }

  realNow(): number {
    return performance.now() - this.runStarted;
  }

  /** Counts one occurrence of a finding, keeping up to 10 distinct examples. */
  finding(
    code: SimulationFinding['code'],
    severity: SimulationFinding['severity'],
    message: string,
    example?: string,
  ): void {
    const f = this.findings.get(code) ?? { code, severity, message, count: 0, examples: [] };
    f.count++;
    if (example !== undefined && f.examples.length < 10 && !f.examples.includes(example)) f.examples.push(example);
    this.findings.set(code, f);
  }
}
