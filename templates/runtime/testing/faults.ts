/**
 * Faults on demand (rules added with `fake.fault()` or the `faults` option) and at random
 * (`randomFaults`, reproducible from the seed): which fault, if any, hits a call.
 */
import { seededUnit } from '../callbacks/simulator/rules.js';
import type { FaultHandle, FaultKind, FaultRule, RandomFaults } from './types.js';

const KINDS: readonly FaultKind[] = [
  'rate_limited',
  'server_error',
  'drop_before',
  'drop_after',
  'slow',
  'unauthenticated',
  'error',
];
const RANDOM_DEFAULT: readonly FaultKind[] = ['server_error', 'rate_limited', 'drop_before', 'drop_after', 'slow'];
const TOKEN_EXCHANGE = 'app.token';

interface ActiveRule {
  rule: FaultRule;
  hits: number;
  seen: number;
  removed: boolean;
}

function checkRule(rule: FaultRule, where: string): void {
  if (!rule || !KINDS.includes(rule.kind))
    throw new TypeError(`${where}: kind must be one of ${KINDS.join(', ')}, got ${JSON.stringify(rule?.kind)}`);
  if (rule.times !== undefined && !(rule.times >= 1))
    throw new RangeError(`${where}: times must be 1 or more (Infinity for every call)`);
  if (rule.after !== undefined && !(Number.isInteger(rule.after) && rule.after >= 0))
    throw new RangeError(`${where}: after must be a whole number from 0`);
  if (
    rule.retryAfterSeconds !== undefined &&
    !(Number.isInteger(rule.retryAfterSeconds) && rule.retryAfterSeconds >= 0)
  )
    throw new RangeError(`${where}: retryAfterSeconds must be a whole number of seconds`);
  if (rule.status !== undefined && !(Number.isInteger(rule.status) && rule.status >= 400 && rule.status <= 599))
    throw new RangeError(`${where}: status must be an HTTP error status (400 to 599)`);
  if (rule.delayMs !== undefined && !(rule.delayMs >= 0)) throw new RangeError(`${where}: delayMs must be 0 or more`);
}

function applies(operation: FaultRule['operation'], operationId: string): boolean {
  if (operation === undefined || operation === '*') return operationId !== TOKEN_EXCHANGE;
  return typeof operation === 'string' ? operation === operationId : operation.includes(operationId);
}

export class Faults {
  private rules: ActiveRule[] = [];
  private draws = 0;

  constructor(
    private readonly seed: number,
    private readonly random: RandomFaults | undefined,
  ) {
    if (random) {
      if (!(random.rate >= 0 && random.rate <= 1))
        throw new RangeError(`randomFaults.rate must be from 0 to 1, got ${String(random.rate)}`);
      for (const k of random.kinds ?? []) checkRule({ kind: k }, 'randomFaults.kinds');
    }
  }

  add(rule: FaultRule): FaultHandle {
    checkRule(rule, 'fake.fault');
    const active: ActiveRule = { rule, hits: 0, seen: 0, removed: false };
    this.rules.push(active);
    return {
      rule,
      get hits() {
        return active.hits;
      },
      remove: () => {
        active.removed = true;
        this.rules = this.rules.filter((r) => r !== active);
      },
    };
  }

  clear(): void {
    this.rules = [];
  }

  resetDraws(): void {
    this.draws = 0;
  }

  /** The fault that hits this call: the first matching rule with hits left, else a random one. */
  pick(operationId: string, params: Readonly<Record<string, unknown>>): FaultRule | undefined {
    for (const r of this.rules) {
      if (!applies(r.rule.operation, operationId)) continue;
      if (r.rule.when && !r.rule.when({ operationId, params })) continue;
      r.seen++;
      if (r.seen <= (r.rule.after ?? 0)) continue;
      if (r.hits >= (r.rule.times ?? 1)) continue;
      r.hits++;
      return r.rule;
    }
    const random = this.random;
    if (!random || random.rate === 0) return undefined;
    const inScope = random.operations ? random.operations.includes(operationId) : operationId !== TOKEN_EXCHANGE;
    if (!inScope) return undefined;
    const n = this.draws++;
    if (seededUnit(this.seed, 'fault', n) >= random.rate) return undefined;
    const kinds = random.kinds ?? RANDOM_DEFAULT;
    const kind = kinds[Math.floor(seededUnit(this.seed, 'fault-kind', n) * kinds.length)]!;
    return { kind, ...(random.delayMs !== undefined ? { delayMs: random.delayMs } : {}) };
  }
}
