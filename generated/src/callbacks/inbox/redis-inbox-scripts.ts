// Copied by im-openapi from templates/runtime/callbacks/inbox/redis-inbox-scripts.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * The Lua scripts of `RedisInbox`, one per step that must be atomic (issue 33: fewer calls per
 * event, less Lua work per event). The id records they share (`pending`, `done:<k>`, members by
 * `idRecord`) are described in redis-id-records.ts; the KEYS and ARGV of the settles are built in
 * redis-settle.ts.
 */
// KEYS: stream, pending, then the live done buckets. ARGV: record (idRecord), id, eventJson per event.
// An id in the inbox, done within the retention, or earlier in this batch is not added.
export const APPEND = `
local recs = {}
for i = 1, #ARGV, 3 do recs[#recs + 1] = ARGV[i] end
local known = redis.call('SMISMEMBER', KEYS[2], unpack(recs))
for b = 3, #KEYS do
  if redis.call('EXISTS', KEYS[b]) == 1 then
    local d = redis.call('SMISMEMBER', KEYS[b], unpack(recs))
    for i = 1, #recs do if d[i] == 1 then known[i] = 1 end end
  end
end
local fresh, batch = {}, {}
for i, rec in ipairs(recs) do
  if known[i] == 0 and not batch[rec] then
    batch[rec] = true
    fresh[#fresh + 1] = rec
    redis.call('XADD', KEYS[1], '*', 'id', ARGV[i * 3 - 1], 'e', ARGV[i * 3], 'r', '0')
  end
end
if #fresh > 0 then redis.call('SADD', KEYS[2], unpack(fresh)) end
return #fresh`;

// KEYS: stream, retry, dead. ARGV: group, consumer, now, count, visibilityMs, maxAttempts, autoclaim ('1' = look for
// events of dead workers; done every quarter of the visibility timeout, not on every take).
// Returns a flat list: the due time of the next retry ('' = none), then entryId, eventId, eventJson, attempt, …
// (attempt counts this run).
export const TAKE = `
local out = {}
local count = tonumber(ARGV[4])
local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[3], 'LIMIT', 0, 100)
for _, m in ipairs(due) do
  local r = cjson.decode(m)
  redis.call('XADD', KEYS[1], '*', 'id', r.id, 'e', r.e, 'r', tostring(r.r), 'x', r.err)
  redis.call('ZREM', KEYS[2], m)
end
local function field(f, name)
  for i = 1, #f, 2 do if f[i] == name then return f[i + 1] end end
  return nil
end
local claimed = {nil, {}}
if ARGV[7] == '1' then claimed = redis.call('XAUTOCLAIM', KEYS[1], ARGV[1], ARGV[2], ARGV[5], '0-0', 'COUNT', count) end
for _, e in ipairs(claimed[2]) do
  local id, f = e[1], e[2]
  local p = redis.call('XPENDING', KEYS[1], ARGV[1], id, id, 1)
  local runs = tonumber(field(f, 'r')) + p[1][4]
  if runs > tonumber(ARGV[6]) then
    local err = field(f, 'x') or 'worker stopped before settling the event (visibility timeout)'
    redis.call('HSET', KEYS[3], field(f, 'id'), cjson.encode({e = field(f, 'e'), a = runs - 1, err = err, at = tonumber(ARGV[3])}))
    redis.call('XACK', KEYS[1], ARGV[1], id)
    redis.call('XDEL', KEYS[1], id)
  else
    table.insert(out, id); table.insert(out, field(f, 'id')); table.insert(out, field(f, 'e')); table.insert(out, runs)
    count = count - 1
  end
end
if count > 0 then
  local r = redis.call('XREADGROUP', 'GROUP', ARGV[1], ARGV[2], 'COUNT', count, 'STREAMS', KEYS[1], '>')
  if r then
    for _, e in ipairs(r[1][2]) do
      local f = e[2]
      table.insert(out, e[1]); table.insert(out, field(f, 'id')); table.insert(out, field(f, 'e')); table.insert(out, tonumber(field(f, 'r')) + 1)
    end
  end
end
local nxt = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
table.insert(out, 1, nxt[2] or '')
return out`;

// Settles a batch of events (those whose handlers finished together), each on its own terms; the
// ownership check, the id records, the acks and deletions of the batch are one call each.
// KEYS: stream, stats, pending, the current done bucket, then nb live done buckets, then per
// event: mark:<entity> (or the stream when unguarded), s:<key> per change.
// ARGV: group, retentionMs, doneTtlMs, count, nb, nc, then per consumer: name, lowest and highest entryId of
// its events; then per event: entryId, consumer, id record, guard, v, t, n, then op ('!op' = always), value per change.
// Returns one outcome per event, or 'E:<message>' for an event whose changes cannot apply.
export const SETTLE = `
local group, nb, nc = ARGV[1], tonumber(ARGV[5]), tonumber(ARGV[6])
local MAXP = 10000
local owner, partial = {}, {}
local a = 7
for c = 1, nc do
  local p = redis.call('XPENDING', KEYS[1], group, ARGV[a + 1], ARGV[a + 2], MAXP, ARGV[a])
  for _, e in ipairs(p) do owner[e[1]] = e[2] end
  if #p >= MAXP then partial[ARGV[a]] = true end
  a = a + 3
end
local function holds(entry, consumer)
  if owner[entry] == consumer then return true end
  if not partial[consumer] then return false end
  local p = redis.call('XPENDING', KEYS[1], group, entry, entry, 1)
  return #p > 0 and p[1][2] == consumer
end
local events, ids = {}, {}
local k = 5 + nb
for r = 1, tonumber(ARGV[4]) do
  local n = tonumber(ARGV[a + 6])
  local e = {entry = ARGV[a], consumer = ARGV[a + 1], id = ARGV[a + 2], guard = ARGV[a + 3], mark = KEYS[k], v = ARGV[a + 4], t = ARGV[a + 5], keys = {}, ops = {}}
  for i = 1, n do
    e.keys[i] = KEYS[k + i]
    e.ops[i * 2 - 1] = ARGV[a + 5 + i * 2]
    e.ops[i * 2] = ARGV[a + 6 + i * 2]
  end
  events[r], ids[r] = e, e.id
  k = k + 1 + n
  a = a + 7 + 2 * n
end
local inInbox = redis.call('SMISMEMBER', KEYS[3], unpack(ids))
local processed, superseded = 0, 0
local acked, doneIds, doneHere = {}, {}, {}
local function wasDone(id)
  for b = 5, 4 + nb do
    if redis.call('SISMEMBER', KEYS[b], id) == 1 then return true end
  end
  return false
end
local function refused(e)
  -- a script that fails half-way keeps its earlier writes: check every change BEFORE writing anything
  for i, key in ipairs(e.keys) do
    if string.gsub(e.ops[i * 2 - 1], '^!', '') == 'incr' then
      local ty = redis.call('TYPE', key).ok
      if ty ~= 'none' and (ty ~= 'string' or not string.match(redis.call('GET', key), '^%-?%d+$')) then
        return 'E:incr of state key ' .. key .. ', which does not hold an integer; nothing was written'
      end
    end
  end
  return nil
end
local function newerMark(mark, v, t)
  if redis.call('EXISTS', mark) == 0 then return true end
  local sv = redis.call('HGET', mark, 'v') or ''
  local st = redis.call('HGET', mark, 't') or ''
  local c = 0
  if v ~= '' and sv ~= '' then c = (v < sv and -1) or (v > sv and 1) or 0 end
  if c == 0 and t ~= '' and st ~= '' then c = (t < st and -1) or (t > st and 1) or 0 end
  return c == 1
end
local function settle(e, inInboxNow)
  if not holds(e.entry, e.consumer) then return 'lost' end
  local bad = refused(e)
  if bad then return bad end
  acked[#acked + 1] = e.entry
  -- the id leaves the inbox; when it was not in it (an entry appended again after its record went), the done records decide
  if doneHere[e.id] or (inInboxNow == 0 and wasDone(e.id)) then return 'duplicate' end
  doneHere[e.id] = true
  doneIds[#doneIds + 1] = e.id
  processed = processed + 1
  local newer = true
  if e.guard == '1' then
    newer = newerMark(e.mark, e.v, e.t)
    if newer then
      redis.call('HSET', e.mark, 'v', e.v, 't', e.t)
      redis.call('PEXPIRE', e.mark, ARGV[2])
    else
      superseded = superseded + 1
    end
  end
  for i, key in ipairs(e.keys) do
    local op, value = e.ops[i * 2 - 1], e.ops[i * 2]
    local always = string.sub(op, 1, 1) == '!'
    if always then op = string.sub(op, 2) end
    if newer or always then
      if op == 'set' then redis.call('SET', key, value)
      elseif op == 'del' then redis.call('DEL', key)
      else redis.call('INCRBY', key, value) end
    end
  end
  if newer then return 'applied' end
  return 'superseded'
end
local out = {}
for r, e in ipairs(events) do out[r] = settle(e, inInbox[r]) end
if #acked > 0 then
  redis.call('XACK', KEYS[1], group, unpack(acked))
  redis.call('XDEL', KEYS[1], unpack(acked))
end
if #doneIds > 0 then
  redis.call('SREM', KEYS[3], unpack(doneIds))
  redis.call('SADD', KEYS[4], unpack(doneIds))
  redis.call('PEXPIRE', KEYS[4], ARGV[3])
end
if processed > 0 then redis.call('HINCRBY', KEYS[2], 'processed', processed) end
if superseded > 0 then redis.call('HINCRBY', KEYS[2], 'superseded', superseded) end
return out`;

// Settles events done without state changes or ordering guard (a handler that returned, a commit of
// nothing), all held by one consumer: the common case, with two arguments per event and no per-event
// tables. The same outcomes as SETTLE for such events. The acked entries leave the stream by one XTRIM
// where they are older than every entry still in flight, by XDEL otherwise (the stream keeps only events
// in flight or not yet read, as with XDEL alone).
// KEYS: stream, stats, pending, the current done bucket, then the live done buckets.
// ARGV: group, consumer, doneTtlMs, lowest and highest entryId, then entryId, id record per event.
// Returns one letter per event: a (applied), d (duplicate), l (lost).
export const ACK = `
local group, consumer, MAXP = ARGV[1], ARGV[2], 10000
local p = redis.call('XPENDING', KEYS[1], group, ARGV[4], ARGV[5], MAXP, consumer)
local own = {}
for _, e in ipairs(p) do own[e[1]] = true end
local recs = {}
for i = 7, #ARGV, 2 do recs[#recs + 1] = ARGV[i] end
local inInbox = redis.call('SMISMEMBER', KEYS[3], unpack(recs))
local out, acked, done, seen = {}, {}, {}, {}
local function wasDone(rec)
  for b = 5, #KEYS do
    if redis.call('SISMEMBER', KEYS[b], rec) == 1 then return true end
  end
  return false
end
for i, rec in ipairs(recs) do
  local entry = ARGV[4 + 2 * i]
  local holds = own[entry]
  if not holds and #p >= MAXP then
    local q = redis.call('XPENDING', KEYS[1], group, entry, entry, 1)
    holds = #q > 0 and q[1][2] == consumer
  end
  if not holds then out[i] = 'l'
  else
    acked[#acked + 1] = entry
    if seen[rec] or (inInbox[i] == 0 and wasDone(rec)) then out[i] = 'd'
    else
      seen[rec] = true
      done[#done + 1] = rec
      out[i] = 'a'
    end
  end
end
if #acked > 0 then
  redis.call('XACK', KEYS[1], group, unpack(acked))
  -- the entries up to this consumer's newest here (ARGV[5]) and before the oldest one still
  -- unacknowledged were all delivered (entry ids only grow) and acknowledged: one exact XTRIM drops
  -- them (whole stream nodes at once, where XDEL seeks each entry); XDEL only for acked entries past
  -- an older one still in flight
  local function parts(id)
    local ms, seq = string.match(id, '^(%d+)-(%d+)$')
    return tonumber(ms), tonumber(seq), ms
  end
  local function before(x, y)
    local xm, xs = parts(x)
    local ym, ys = parts(y)
    return xm < ym or (xm == ym and xs < ys)
  end
  local _, hs, hms = parts(ARGV[5])
  local minid = hms .. '-' .. string.format('%d', hs + 1)
  local oldest = redis.call('XPENDING', KEYS[1], group)[2]
  local rest = {}
  if oldest and before(oldest, minid) then
    minid = oldest
    for _, id in ipairs(acked) do if before(oldest, id) then rest[#rest + 1] = id end end
  end
  redis.call('XTRIM', KEYS[1], 'MINID', minid)
  if #rest > 0 then redis.call('XDEL', KEYS[1], unpack(rest)) end
end
if #done > 0 then
  redis.call('SREM', KEYS[3], unpack(done))
  redis.call('SADD', KEYS[4], unpack(done))
  redis.call('PEXPIRE', KEYS[4], ARGV[3])
  redis.call('HINCRBY', KEYS[2], 'processed', #done)
end
return table.concat(out)`;

// KEYS: stream, retry, dead. ARGV: group, entryId, consumer, eventId, eventJson, runs, error, dueAt ('' = dead), now.
// The id stays in `pending`: a retried or dead-lettered event is still in the inbox.
export const FAIL = `
local p = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[2], ARGV[2], 1)
if #p == 0 or p[1][2] ~= ARGV[3] then return 0 end
redis.call('XACK', KEYS[1], ARGV[1], ARGV[2])
redis.call('XDEL', KEYS[1], ARGV[2])
if ARGV[8] == '' then
  redis.call('HSET', KEYS[3], ARGV[4], cjson.encode({e = ARGV[5], a = tonumber(ARGV[6]), err = ARGV[7], at = tonumber(ARGV[9])}))
else
  redis.call('ZADD', KEYS[2], ARGV[8], cjson.encode({id = ARGV[4], e = ARGV[5], r = tonumber(ARGV[6]), err = ARGV[7]}))
end
return 1`;

// KEYS: stream, dead. ARGV: one event id, or none for all.
export const REPLAY = `
local ids = ARGV
if #ids == 0 then ids = redis.call('HKEYS', KEYS[2]) end
local n = 0
for _, id in ipairs(ids) do
  local d = redis.call('HGET', KEYS[2], id)
  if d then
    redis.call('XADD', KEYS[1], '*', 'id', id, 'e', cjson.decode(d).e, 'r', '0')
    redis.call('HDEL', KEYS[2], id)
    n = n + 1
  end
end
return n`;
