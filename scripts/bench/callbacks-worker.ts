/**
 * Child process: verifyCallback + parse of a signed callback request (1 event, 100 events) vs
 * the floor: bare crypto.createHmac over the same bytes (timestamp.nonce.body), a constant-time
 * compare with the header's signature (Buffer.from hex + timingSafeEqual) and JSON.parse.
 * Batches alternate in short slices (floor, ours, then each step alone, floor, ours, …) so load
 * falls on all alike. The steps explain the difference: the floor's three parts, and verifyCallback's parts
 * (its header reading, signature header parsing, HMAC + compare, strict UTF-8 decode + parse,
 * the synchronous whole, the async whole); whatever the named parts leave is printed as such.
 * Each is timed by the wall clock and by this process's CPU time (which waiting for a core on a
 * busy machine does not inflate). Prints one JSON line with the median ns per verification of each.
 * argv: <path of dist/esm/callbacks.js> <path of the bundled callbacks-steps.mjs> <rounds> <iterations for 1 event> <iterations for 100 events>
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const [callbacksEntry, stepsEntry, roundsArg, iter1Arg, iter100Arg] = process.argv.slice(2);
const kit = await import(callbacksEntry!);
const steps = await import(stepsEntry!);
const rounds = Number(roundsArg);
const SECRET = 'whsec_bench_0123456789abcdef';
const NOW = 1767225600;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const out: Record<string, unknown> = {};
for (const [events, iterations] of [
  [1, Number(iter1Arg)],
  [100, Number(iter100Arg)],
] as const) {
  const body = kit.sampleCallbackBody('event', { events, now: NOW * 1000 });
  const signed = kit.signCallbackRequest({
    body,
    secret: SECRET,
    timestamp: NOW,
    nonce: '0123456789abcdef0123456789abcdef',
  });
  const headers: Record<string, string> = signed.headers;
  const raw = Buffer.from(signed.body as string, 'utf8');
  const sigHeader = headers['X-IM-Signature']!;
  const ts = headers['X-IM-Timestamp']!;
  const nonce = headers['X-IM-Nonce']!;
  const options = { headers, rawBody: raw, secrets: SECRET, now: NOW * 1000 };
  const parsed = steps.parseSignatureHeader(sigHeader);
  if (!parsed.ok) throw new Error('bad sample header');
  const strict = new TextDecoder('utf-8', { fatal: true });

  const floor = () => {
    const h = createHmac('sha256', SECRET);
    h.update(`${ts}.${nonce}.`);
    h.update(raw);
    const expected = h.digest();
    const given = Buffer.from(sigHeader.slice(3), 'hex');
    if (given.length !== expected.length || !timingSafeEqual(expected, given)) throw new Error('floor: mismatch');
    return JSON.parse(raw.toString('utf8'));
  };
  // Awaited in the loop itself, as an app awaits it (no async wrapper of the harness's own).
  const ours = (): Promise<{ body: { events: unknown[] } }> => kit.verifyCallback(options);
  // Each returns something used, so that no step is optimised away.
  const parts: Array<[string, () => unknown]> = [
    [
      'floor: createHmac + update × 2 + digest',
      () => createHmac('sha256', SECRET).update(`${ts}.${nonce}.`).update(raw).digest(),
    ],
    [
      'floor: Buffer.from(hex) + timingSafeEqual',
      () => timingSafeEqual(raw.subarray(0, 32), Buffer.from(sigHeader.slice(3), 'hex')),
    ],
    ['floor: toString + JSON.parse', () => JSON.parse(raw.toString('utf8'))],
    ['ours: read the X-IM-* headers (readCallbackHeaders)', () => steps.readCallbackHeaders(headers)],
    ['ours: parse X-IM-Signature (parseSignatureHeader)', () => steps.parseSignatureHeader(sigHeader)],
    [
      'ours: HMAC + constant-time compare (matchSignature)',
      () => steps.matchSignature([SECRET], ts, nonce, raw, parsed.candidates),
    ],
    ['ours: strict UTF-8 decode + JSON.parse', () => JSON.parse(strict.decode(raw))],
    ['ours: verifyCallbackSync (all of it, no promise)', () => kit.verifyCallbackSync(options).body],
  ];
  const check = (x: unknown) => (x ? 1 : 0);
  if ((floor().events?.length ?? 0) !== events || (await ours()).body.events.length !== events)
    throw new Error('bad sample');
  if (steps.matchSignature([SECRET], ts, nonce, raw, parsed.candidates) !== 0)
    throw new Error('steps: the signature does not match');

  let sink = 0;
  for (let i = 0; i < Math.max(50, iterations >> 2); i++) {
    sink += floor().events.length;
    sink += (await ours()).body.events.length;
    for (const [, run] of parts) sink += check(run());
  }
  // Wall time, and the CPU time of this process (process.cpuUsage: time spent waiting for a core
  // on a busy machine does not count in it), both in ns per call.
  const wallNow = () => Number(process.hrtime.bigint());
  const cpuNow = () => {
    const c = process.cpuUsage();
    return (c.user + c.system) * 1000;
  };
  const NAMES = ['floor', 'ours', ...parts.map(([name]) => name)];
  const wall = NAMES.map((): number[] => []);
  const cpu = NAMES.map((): number[] => []);
  // A round is SLICES slices; each slice runs every variant for iterations / SLICES calls, so
  // the variants of one round take turns every few milliseconds and a burst of load on the
  // machine falls on all of them alike.
  const SLICES = Math.min(20, iterations);
  const perSlice = Math.max(1, Math.floor(iterations / SLICES));
  const calls = perSlice * SLICES;
  for (let r = 0; r < rounds; r++) {
    const w = NAMES.map(() => 0);
    const c = NAMES.map(() => 0);
    for (let slice = 0; slice < SLICES; slice++) {
      for (let v = 0; v < NAMES.length; v++) {
        const w0 = wallNow();
        const c0 = cpuNow();
        if (v === 0) for (let i = 0; i < perSlice; i++) sink += floor().events.length;
        else if (v === 1) for (let i = 0; i < perSlice; i++) sink += (await ours()).body.events.length;
        else for (let i = 0; i < perSlice; i++) sink += check(parts[v - 2]![1]());
        c[v]! += cpuNow() - c0;
        w[v]! += wallNow() - w0;
      }
    }
    for (let v = 0; v < NAMES.length; v++) {
      wall[v]!.push(w[v]! / calls);
      cpu[v]!.push(c[v]! / calls);
    }
  }
  out[`events${events}`] = {
    bytes: raw.length,
    iterations: calls,
    rounds,
    floorNs: median(wall[0]!),
    oursNs: median(wall[1]!),
    floorCpuNs: median(cpu[0]!),
    oursCpuNs: median(cpu[1]!),
    steps: parts.map(([name], p) => ({ name, ns: median(wall[p + 2]!), cpuNs: median(cpu[p + 2]!) })),
    floorRuns: wall[0]!.map(Math.round),
    oursRuns: wall[1]!.map(Math.round),
    floorCpuRuns: cpu[0]!.map(Math.round),
    oursCpuRuns: cpu[1]!.map(Math.round),
    sink,
  };
}
console.log(JSON.stringify(out));
