/**
 * Issue 9, fault matrix: every retry class × every fault, through the generated client against
 * a fault-injecting server on 127.0.0.1 (fault on the first operation request of the call,
 * except "refused": nothing listens at all, and the "401 twice" case). For each cell: the
 * requests the server saw and executed, the dedupe keys on them, the waits (fake clock) and
 * what the caller got. Across the matrix: no N call executed twice, no D call with two keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiError,
  ConnectionError,
  CredentialsRevokedError,
  ImError,
  TimeoutError,
} from '../../generated/src/index.js';
import { FAULTS, FaultServer } from './fault-server.js';
import { transportUnderTest } from '../../templates/runtime/test-support/fake-service.js';
import { expectedCell, ROWS, runCell, SEEDED_TOKEN, type Observed } from './matrix.js';

const server = new FaultServer();
const results = new Map<string, Observed>();

beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.stop();
  const cells = ROWS.length * FAULTS.length;
  const width = Math.max(...ROWS.map((r) => r.name.length));
  const lines = [
    `[fault-matrix, ${transportUnderTest()} transport] ${ROWS.length} call kinds × ${FAULTS.length} faults = ${cells} cells (${results.size} run)`,
  ];
  lines.push(`${''.padEnd(width)} | ${FAULTS.map((f) => f.padEnd(8).slice(0, 8)).join(' ')}`);
  for (const row of ROWS) {
    const cellsText = FAULTS.map((f) => {
      const o = results.get(`${row.name}|${f}`);
      if (!o) return '   -    ';
      const got = o.outcome === 'ok' ? 'ok' : o.outcome.replace(/Error$/, '').slice(0, 4);
      return `${o.requests.length}r${o.requests.filter((r) => r.executed).length}x${got}`.padEnd(8).slice(0, 8);
    });
    lines.push(`${row.name.padEnd(width)} | ${cellsText.join(' ')}`);
  }
  lines.push('(cell: requests the server saw "r", executed "x", outcome)');
  console.log(lines.join('\n'));
});

describe('fault matrix', () => {
  const cases = ROWS.flatMap((row) => FAULTS.map((fault) => [row.name, fault, row] as const));

  it.each(cases)('%s × %s', async (_name, fault, row) => {
    const want = expectedCell(row, fault);
    const got = await runCell(server, row, fault);
    results.set(`${row.name}|${fault}`, got);

    // What the caller got: success, or a typed error of the documented class.
    if (want.outcome === 'ok') {
      expect(got.error, String(got.error)).toBeUndefined();
      expect(got.result).toMatchObject({ ok: true });
    } else {
      expect(got.error).toBeInstanceOf(ImError);
      expect(got.outcome).toBe(want.outcome);
      if (want.status !== undefined) expect((got.error as ApiError).status).toBe(want.status);
      if (got.error instanceof ConnectionError && fault === 'refused') expect(got.error.errorCode).toBe('ECONNREFUSED');
      if (got.error instanceof TimeoutError) expect(got.error.kind).toBe('attempt');
      if (
        row.cls === 'N' &&
        want.outcome !== 'UnauthenticatedError' &&
        fault !== '401-app-deleted' &&
        fault !== '403-app-unavailable' &&
        fault !== '429-huge'
      ) {
        expect((got.error as Error).message).toContain('Not resent');
      }
    }

    // Requests, executions, attempts, exchanges and waits.
    expect(got.requests.length, 'requests the server saw').toBe(want.requests);
    expect(got.requests.filter((r) => r.executed).length, 'executions').toBe(want.executions);
    expect(got.attempts, 'attempts made by the client').toBe(want.attempts);
    expect(got.exchanges.length, 'token exchanges').toBe(want.exchanges);
    expect(got.waits, 'waits (fake clock)').toEqual(want.waits);
    for (const r of got.requests) expect(r.path).toMatch(/^\/acme\/chat\//);

    // Dedupe keys: one key for the whole call (D), none invented for other operations.
    const keys = new Set(got.requests.map((r) => r.clientMsgId));
    if (row.dedupe) {
      if (got.requests.length > 0) {
        expect(keys.size, 'one dedupe key per call').toBe(1);
        expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
      }
    } else {
      expect([...keys].filter((k) => k !== undefined)).toEqual([]);
    }

    // Tokens: the seeded one first; after a 401 the freshly exchanged one.
    if (fault === '401-once' || fault === '401-twice') {
      expect(got.requests.map((r) => r.authorization)).toEqual([`Bearer ${SEEDED_TOKEN}`, 'Bearer tok-1']);
    } else if (fault === 'store-down' || fault === 'store-slow') {
      // Nothing came from the store: the client's own exchange.
      expect(got.requests.map((r) => r.authorization)).toEqual(['Bearer tok-1']);
    } else {
      for (const r of got.requests) expect(r.authorization).toBe(`Bearer ${SEEDED_TOKEN}`);
    }

    // Issue 16: a huge Retry-After pauses the client for 1 hour at most, and the caller can see and clear it;
    // a garbage one pauses nothing.
    if (fault === '429-huge') {
      expect(got.client.rateLimit.remainingMs).toBe(3_600_000);
      got.client.rateLimit.clear();
      expect(got.client.rateLimit.pausedUntil).toBeNull();
    }
    if (fault === '429-garbage') expect(got.client.rateLimit.pausedUntil).toBeNull();

    // Revocation: credentials discarded (the stored token too), later calls fail at once, unsent.
    if (fault === '401-app-deleted') {
      expect(got.error).toBeInstanceOf(CredentialsRevokedError);
      expect((got.error as CredentialsRevokedError).reason).toBe('app_deleted');
      expect(got.store.token).toBeNull();
      expect(got.afterRevoke).toEqual({ outcome: 'CredentialsRevokedError', requests: 0 });
    }
  });

  it('across the matrix: no N call executed twice, no D call with two different keys', () => {
    expect(results.size).toBe(ROWS.length * FAULTS.length);
    for (const [cell, o] of results) {
      const row = ROWS.find((r) => cell.startsWith(`${r.name}|`))!;
      if (row.cls === 'N') expect(o.requests.filter((r) => r.executed).length, cell).toBeLessThanOrEqual(1);
      if (row.dedupe) expect(new Set(o.requests.map((r) => r.clientMsgId)).size, cell).toBeLessThanOrEqual(1);
    }
  });
});
