/**
 * What a simulation run reports (JSON) and its text rendering. Nothing here carries a secret:
 * URLs are shown with query values masked (seed 001 §5), signatures are never recorded.
 */

/** What the receiver's test harness reports of its own state (the optional receiver report). */
export interface ReceiverState {
  /** Event id → how many times the receiver's side effect ran for it. */
  processed: Record<string, number>;
  /**
   * Ids the receiver stored durably (an inbox) before answering, when it stores first and
   * processes later; when absent, `processed` is what "stored" means.
   */
  stored?: string[];
  /** The receiver's own state key (any string) → id of the event whose data is current there. */
  current?: Record<string, string>;
  /**
   * Ids the receiver skipped on purpose because newer state of their entity was already there
   * (an ordering guard, e.g. the inbox's `onSuperseded`): handled, not processed.
   */
  superseded?: string[];
}

export type FindingSeverity = 'error' | 'warning' | 'info';

export interface SimulationFinding {
  code:
    | 'verify_timeout'
    | 'verify_wrong_challenge'
    | 'verify_failed'
    | 'answered_after_timeout'
    | 'no_answer'
    | 'connection_failed'
    | 'redirect'
    | 'error_status'
    | 'signature_rejected'
    | 'retry_after'
    | 'breaker_opened'
    | 'gave_up'
    | 'auto_disabled'
    | 'event_answer_over_limit'
    | 'hook_failed'
    | 'acknowledged_before_storing'
    | 'processed_twice'
    | 'older_over_newer'
    | 'acknowledged_not_processed'
    | 'receiver_not_settled';
  severity: FindingSeverity;
  message: string;
  /** How many requests / events it concerns. */
  count: number;
  /** Up to 10 examples (event ids or request ids). */
  examples: string[];
}

export interface RequestRecord {
  n: number;
  address: number;
  kind: 'verify' | 'event' | 'hook';
  /** Empty when no request was sent (`notSent`). */
  requestId: string;
  /** A hook of an address pending verification: no request, handled as a failure (§3). */
  notSent?: boolean;
  eventIds?: string[];
  /** Send number of the event(s) in this request (1-based). */
  send?: number;
  duplicate?: boolean;
  probe?: boolean;
  /** Simulated ms from the start of the run when it was sent. */
  atMs: number;
  status?: number;
  outcome: 'ok' | 'failed';
  reason?: string;
  /** Real ms until the answer (or the timeout). */
  durationMs: number;
  lateAnswerMs?: number;
  retryAfterMs?: number;
  /** Simulated ms the service waits before the next send of these events. */
  nextWaitMs?: number;
  /** For a hook: the decision the operation got (the answer's, or the policy's on failure). */
  decision?: string;
}

export interface EventDelivery {
  address: number;
  sends: number;
  state: 'delivered' | 'failed' | 'pending' | 'not_created';
  reason?: string;
  lastStatus?: number;
  duplicateSends: number;
}

export interface EventRecord {
  id: string;
  type: string;
  entity?: string;
  version?: number;
  /** Best effort, lost before queueing: never sent. */
  lost: boolean;
  truncated: boolean;
  deliveries: EventDelivery[];
}

export interface AddressRecord {
  index: number;
  url: string;
  endpointId: string;
  state: 'normal' | 'pending verification' | 'auto-disabled';
  breakerOpenings: number;
  breakerPausesMs: number[];
}

export interface SimulationReport {
  seed: number;
  settings: Record<string, number | string | boolean>;
  /** Real ms the run took, and the simulated ms it covered. */
  realMs: number;
  simulatedMs: number;
  complete: boolean;
  addresses: AddressRecord[];
  totals: Record<string, number>;
  findings: SimulationFinding[];
  events: EventRecord[];
  requests: RequestRecord[];
  plan: { queueOrder: string[]; batches: string[][]; hooks: Array<{ id: string; atMs: number }> };
  /** Whether the receiver's state (stateUrl / observe) was available. */
  receiverReport: boolean;
  /**
   * How the receiver's state was read at the end: until every delivered event was handled and the
   * state stayed the same (`handled`), until it stopped changing (`quiet`), or until `settleMs` ran
   * out (`timeout`); the real ms waited after the last delivery.
   */
  settle?: { outcome: 'handled' | 'quiet' | 'timeout'; waitedMs: number };
}

/** True when no finding is a warning or an error. */
export function isCleanReport(report: SimulationReport): boolean {
  return report.findings.every((f) => f.severity === 'info');
}

function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 7_200_000) return `${(ms / 60_000).toFixed(1)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

/** The report as text: summary, findings, then per event and per request (capped at `maxLines` each). */
export function formatSimulationReport(report: SimulationReport, maxLines = 200): string {
  const out: string[] = [];
  const s = report.settings;
  out.push(
    `im-callbacks simulate: seed ${report.seed}, time scale ${s.timeScale}×, timeout scale ${s.timeoutScale}×${s.signature ? `, signed ${s.signature}` : ''}`,
  );
  out.push(
    `  ran ${duration(report.realMs)} real, covering ${duration(report.simulatedMs)} of service time${report.complete ? '' : ' (INCOMPLETE: stopped at maxRealMs)'}`,
  );
  for (const a of report.addresses) {
    out.push(
      `  address ${a.index} ${a.url} (${a.endpointId}): ${a.state}; breaker opened ${a.breakerOpenings}×${a.breakerPausesMs.length ? ` (pauses ${a.breakerPausesMs.map(duration).join(', ')})` : ''}`,
    );
  }
  out.push(
    `  totals: ${Object.entries(report.totals)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
  out.push(
    `  receiver report: ${report.receiverReport ? 'used' : 'none (give --state-url or observe() for duplicate/ordering findings)'}`,
  );
  if (report.settle) {
    const why = {
      handled: 'every delivered event handled and the state unchanged',
      quiet: 'the state stopped changing',
      timeout: 'the settle timeout ran out',
    }[report.settle.outcome];
    out.push(`  receiver state read ${duration(report.settle.waitedMs)} after the last delivery (${why})`);
  }
  out.push('');
  out.push(report.findings.length === 0 ? 'Findings: none, the receiver behaved as the service expects.' : 'Findings:');
  for (const f of report.findings) {
    out.push(
      `  [${f.severity}] ${f.code} ×${f.count}: ${f.message}${f.examples.length ? ` (e.g. ${f.examples.slice(0, 3).join(', ')})` : ''}`,
    );
  }
  out.push('');
  out.push('Events (id type entity@version: per address sends → state):');
  for (const e of report.events.slice(0, maxLines)) {
    const what = e.lost
      ? 'lost before queueing (best effort)'
      : e.deliveries
          .map(
            (d) =>
              `#${d.address} ${d.sends} send${d.sends === 1 ? '' : 's'}${d.duplicateSends ? ` (+${d.duplicateSends} duplicate)` : ''} → ${d.state}${d.reason ? ` (${d.reason})` : ''}`,
          )
          .join('; ');
    out.push(
      `  ${e.id} ${e.type}${e.entity ? ` ${e.entity}@${e.version}` : ''}${e.truncated ? ' truncated' : ''}: ${what}`,
    );
  }
  if (report.events.length > maxLines) out.push(`  … ${report.events.length - maxLines} more in the JSON report`);
  out.push('');
  out.push('Requests (n @service-time address kind send → status in real ms):');
  for (const r of report.requests.slice(0, maxLines)) {
    const ids = r.eventIds ? ` [${r.eventIds.length} event${r.eventIds.length === 1 ? '' : 's'}]` : '';
    const extra = [
      r.notSent ? 'not sent' : '',
      r.probe ? 'probe' : '',
      r.duplicate ? 'duplicate' : '',
      r.reason ? r.reason : '',
      r.lateAnswerMs !== undefined ? `answered late after ${r.lateAnswerMs} ms` : '',
      r.retryAfterMs !== undefined ? `Retry-After ${duration(r.retryAfterMs)}` : '',
      r.nextWaitMs !== undefined ? `next send in ${duration(r.nextWaitMs)}` : '',
      r.decision ? `decision ${r.decision}` : '',
    ].filter(Boolean);
    out.push(
      `  ${r.n} @${duration(r.atMs)} #${r.address} ${r.kind}${r.send ? ` send ${r.send}` : ''}${ids} → ${r.status ?? '-'} ${r.outcome} in ${r.durationMs} ms${extra.length ? ` (${extra.join(', ')})` : ''}`,
    );
  }
  if (report.requests.length > maxLines) out.push(`  … ${report.requests.length - maxLines} more in the JSON report`);
  return out.join('\n');
}
