// Copied by im-openapi from templates/runtime/callbacks/inbox/redis-id-records.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * How `RedisInbox` records the ids it has seen (issue 33: fewer bytes per id, same guarantees).
 *
 * `pending` is one set of the ids in the inbox (waiting, in flight, retrying or dead-lettered;
 * added by APPEND, removed by a settle); `done:<k>` is a set of the ids processed in the k-th time
 * bucket of `retention / DONE_BUCKETS_PER_RETENTION`, expiring `retention` after its bucket ends.
 * An id is a duplicate while it is in the inbox and for at least `retention` after it was
 * processed (up to a bucket longer).
 *
 * The sets hold `idRecord(id)`: an id of up to 13 characters as it is, a longer one as 14
 * characters of its SHA-256 (base64url, 84 bits). redis-server 7 stores a set member of up to 14
 * bytes in a 16-byte allocation and one of 15–30 bytes in 32 (a 36-character UUID-like id: 48),
 * so that every id costs ~64 bytes a member (measured: 63 at 14 characters, 79 at 15–30, 95 at 36).
 * The two kinds cannot meet (13 characters or fewer against exactly 14). Two different long ids
 * share a record with probability about n² / 2^85 for n ids recorded within one retention
 * (2.6 × 10⁻⁸ at a billion ids a week); ids come from the service and are signed, so nobody can
 * choose ids to make them collide.
 */
import { createHash } from 'node:crypto';

/** Done buckets per retention: a lookup checks this many + 2 sets; an id is kept up to 1/this longer than the retention. */
export const DONE_BUCKETS_PER_RETENTION = 4;

/** Longest id recorded as it is; longer ones are recorded by digest (`ID_DIGEST_CHARS` characters). */
export const RAW_ID_MAX_CHARS = 13;
export const ID_DIGEST_CHARS = 14;

/** The member that stands for event id `id` in the `pending` and `done:<k>` sets. */
export function idRecord(id: string): string {
  return id.length <= RAW_ID_MAX_CHARS
    ? id
    : createHash('sha256').update(id).digest('base64url').slice(0, ID_DIGEST_CHARS);
}

/**
 * The done-bucket keys an id lookup checks at `now` (oldest first: every bucket not yet expired,
 * and the next one, which a process whose clock runs ahead may already write) and the current one
 * a settle writes, with its expiry.
 */
export function doneBuckets(
  prefix: string,
  retentionMs: number,
  now: number,
): { live: string[]; current: string; ttlMs: number } {
  const width = Math.ceil(retentionMs / DONE_BUCKETS_PER_RETENTION);
  const current = Math.floor(now / width);
  const live: string[] = [];
  // bucket k expires at (k + 1) * width + retention: live while that is after now
  for (let k = Math.floor((now - retentionMs) / width); k <= current + 1; k++) live.push(`${prefix}done:${k}`);
  return { live, current: `${prefix}done:${current}`, ttlMs: (current + 1) * width + retentionMs - now };
}
