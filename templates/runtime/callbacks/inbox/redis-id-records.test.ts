/** Pure checks of the Redis inbox's id records: done buckets by time, and the member that stands for an id. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { doneBuckets, ID_DIGEST_CHARS, idRecord, RAW_ID_MAX_CHARS } from './redis-id-records.js';

describe('redis inbox id records', () => {
  it('done buckets: a lookup sees every bucket written within the retention, and the next one (a clock running ahead)', () => {
    const day = 24 * 60 * 60 * 1000;
    const retention = 7 * day;
    for (const now of [Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1) + 42 * 3600_000 - 1, Date.UTC(2026, 5, 30, 13, 7)]) {
      const at = doneBuckets('{p}:', retention, now);
      expect(at.ttlMs).toBeGreaterThanOrEqual(retention); // kept at least the retention after it was written
      expect(at.ttlMs).toBeLessThanOrEqual(retention * 1.25);
      // written any time within the retention before now, or by a clock up to an hour ahead: looked up
      for (const written of [now - retention + 1, now - day, now, now + 3600_000])
        expect(at.live, String(written - now)).toContain(doneBuckets('{p}:', retention, written).current);
      // written more than the retention + a quarter ago: expired, not looked up
      expect(at.live).not.toContain(doneBuckets('{p}:', retention, now - retention * 1.25 - 1).current);
    }
  });

  it('an id of up to 13 characters is its own record; a longer one is 14 characters of its SHA-256', () => {
    expect(idRecord('evt_12345678')).toBe('evt_12345678');
    expect(idRecord('x'.repeat(RAW_ID_MAX_CHARS))).toBe('x'.repeat(RAW_ID_MAX_CHARS));
    const uuid = 'evt_6f1c2a4e-8b1d-4c6e-9f2a-1b3c5d7e'; // 36 characters
    expect(idRecord(uuid)).toBe(createHash('sha256').update(uuid).digest('base64url').slice(0, 14));
    expect(idRecord(uuid)).toHaveLength(ID_DIGEST_CHARS);
    expect(idRecord(uuid)).toBe(idRecord(`${uuid}`)); // the same in every process
    // the two kinds never meet: raw records are shorter than digests
    expect(idRecord('y'.repeat(RAW_ID_MAX_CHARS + 1))).toHaveLength(ID_DIGEST_CHARS);
    expect(RAW_ID_MAX_CHARS).toBeLessThan(ID_DIGEST_CHARS);
    // ids one character apart get different records (100,000 near ids: no collision)
    const records = new Set(Array.from({ length: 100_000 }, (_, i) => idRecord(`evt_sim_${i}_`.padEnd(36, 'x'))));
    expect(records.size).toBe(100_000);
  });
});
