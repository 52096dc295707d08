/**
 * Redis replies in one shape, whatever client and protocol produced them. The stores read only
 * this shape (`RedisReply`): text, integers, null and arrays, as RESP2 has them. The clients differ:
 * node-redis 4 and ioredis 5 speak RESP2; node-redis 6 (and 5 with `RESP: 3`) speak RESP3 and hand
 * maps over as plain objects (HGETALL, CONFIG GET, XREADGROUP); ioredis 6 speaks RESP3 and, by
 * default, flattens maps into `[key, value, …]` arrays (`replyMapping: 'resp3'`: objects); byte
 * replies may be Buffers and verbatim strings (INFO) String objects. `normalizeReply` turns each
 * into what RESP2 would have answered for that command.
 */

/** A reply as the stores read it: RESP2's shapes. */
export type RedisReply = string | number | null | RedisReply[];

const UTF8 = new TextDecoder();

/**
 * A map reply (RESP3) as RESP2 answers the same command: a flat `[key, value, …]` list, except for
 * the stream reads, whose RESP2 answer is a list of `[stream, entries]` pairs.
 */
export function normalizeReply(command: string, raw: unknown): RedisReply {
  const reply = toResp2(raw);
  const name = command.toUpperCase();
  if ((name === 'XREADGROUP' || name === 'XREAD') && Array.isArray(reply) && typeof reply[0] === 'string') {
    // a map of stream → entries, flattened (ioredis 6) or from an object (node-redis 6): pair it up again
    const pairs: RedisReply[] = [];
    for (let i = 0; i + 1 < reply.length; i += 2) pairs.push([reply[i]!, reply[i + 1]!]);
    return pairs;
  }
  return reply;
}

function toResp2(value: unknown): RedisReply {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === 'boolean') return value ? 1 : 0; // RESP3 booleans; RESP2 answers 1 / 0
  if (value instanceof Uint8Array) return UTF8.decode(value);
  if (value instanceof String) return value.toString(); // a verbatim string (RESP3 INFO) as node-redis wraps it
  if (Array.isArray(value)) return value.map(toResp2);
  if (value instanceof Set) return [...value].map(toResp2);
  if (value instanceof Map) return [...value].flatMap(([k, v]) => [toResp2(k), toResp2(v)]);
  if (value instanceof Error) throw value; // an error inside a reply (a script's error_reply in a list)
  if (typeof value === 'object')
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => [k, toResp2(v)]);
  return String(value);
}

/** A reply as text (a bulk or simple string), else null. */
export function replyText(reply: unknown): string | null {
  if (typeof reply === 'string') return reply;
  if (reply instanceof Uint8Array) return UTF8.decode(reply);
  return null;
}

/** A reply as a number (an integer reply, or digits as text), else `fallback`. */
export function replyNumber(reply: unknown, fallback = 0): number {
  const n = typeof reply === 'number' ? reply : Number(replyText(reply) ?? Number.NaN);
  return Number.isFinite(n) ? n : fallback;
}

/** A flat `[key, value, …]` reply (HGETALL, CONFIG GET) as pairs. */
export function replyPairs(reply: RedisReply): Array<[string, RedisReply]> {
  if (!Array.isArray(reply)) return [];
  const out: Array<[string, RedisReply]> = [];
  for (let i = 0; i + 1 < reply.length; i += 2) out.push([replyText(reply[i]) ?? String(reply[i]), reply[i + 1]!]);
  return out;
}

/** An XREADGROUP / XREAD reply (`[[stream, [[id, [field, value, …]], …]], …]`) as entries with their fields. */
export function streamEntries(reply: RedisReply): { id: string; fields: Record<string, string> }[] {
  const out: { id: string; fields: Record<string, string> }[] = [];
  if (!Array.isArray(reply)) return out;
  for (const stream of reply) {
    const entries = Array.isArray(stream) ? stream[1] : undefined;
    if (!Array.isArray(entries)) continue;
    for (const e of entries) {
      if (!Array.isArray(e) || !Array.isArray(e[1])) continue;
      const fields: Record<string, string> = {};
      for (const [name, value] of replyPairs(e[1])) fields[name] = replyText(value) ?? '';
      out.push({ id: replyText(e[0]) ?? '', fields });
    }
  }
  return out;
}
