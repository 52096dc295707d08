/**
 * Child process: verifyCallback + parse of a signed callback request (1 event, 100 events) vs
 * the floor: bare crypto.createHmac over the same bytes (timestamp.nonce.body), a constant-time
 * compare with the header's signature (Buffer.from hex + timingSafeEqual) and JSON.parse.
 * Batches alternate in short slices (floor, ours, then each step alone, floor, ours, …) so load
 * falls on all alike. The steps explain the difference: the floor's three parts, and verifyCallback's parts
 * (its header reading, signature header parsing, HMAC + compare, strict UTF-8 decode + parse,
 * the synchronous whole, the async whole); whatever the named parts leave is printed as such.
 * Prints one JSON line with the median ns per verification of each.
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
for (const [events, iterations] of [[1, Number(iter1Arg)], [100, Number(iter100Arg)]] as const) {
  const body = kit.sampleCallbackBody('event', { events, now: NOW * 1000 });
  const signed = kit.signCallbackRequest({ body, secret: SECRET, timestamp: NOW, nonce: '0123456789abcdef0123456789abcdef' });
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
  const ours = async () => (await kit.verifyCallback(options)).body;
  // Each returns something used, so that no step is optimised away.
  const parts: Array<[string, () => unknown]> = [
    ['floor: createHmac + update × 2 + digest', () => createHmac('sha256', SECRET).update(`${ts}.${nonce}.`).update(raw).digest()],
    ['floor: Buffer.from(hex) + timingSafeEqual', () => timingSafeEqual(raw.subarray(0, 32), Buffer.from(sigHeader.slice(3), 'hex'))],
    ['floor: toString + JSON.parse', () => JSON.parse(raw.toString('utf8'))],
    ['ours: read the X-IM-* headers (readCallbackHeaders)', () => steps.readCallbackHeaders(headers)],
    ['ours: parse X-IM-Signature (parseSignatureHeader)', () => steps.parseSignatureHeader(sigHeader)],
    ['ours: HMAC + constant-time compare (matchSignature)', () => steps.matchSignature([SECRET], ts, nonce, raw, parsed.candidates)],
    ['ours: strict UTF-8 decode + JSON.parse', () => JSON.parse(strict.decode(raw))],
    ['ours: verifyCallbackSync (all of it, no promise)', () => kit.verifyCallbackSync(options).body],
  ];
  const check = (x: unknown) => (x ? 1 : 0);
  if ((floor().events?.length ?? 0) !== events || ((await ours()) as { events: unknown[] }).events.length !== events) throw new Error('bad sample');
  if (steps.matchSignature([SECRET], ts, nonce, raw, parsed.candidates) !== 0) throw new Error('steps: the signature does not match');

  const floorNs: number[] = [];
  const oursNs: number[] = [];
  const partNs = parts.map((): number[] => []);
  let sink = 0;
  for (let i = 0; i < Math.max(50, iterations >> 2); i++) {
    sink += floor().events.length;
    sink += ((await ours()) as { events: unknown[] }).events.length;
    for (const [, run] of parts) sink += check(run());
  }
  // A round is SLICES slices; each slice runs every variant for iterations / SLICES calls, so
  // the variants of one round take turns every millisecond or so and a burst of load on the
  // machine falls on all of them alike.
  const SLICES = Math.min(20, iterations);
  const perSlice = Math.max(1, Math.floor(iterations / SLICES));
  const calls = perSlice * SLICES;
  for (let r = 0; r < rounds; r++) {
    let floorT = 0n;
    let oursT = 0n;
    const partT = parts.map(() => 0n);
    for (let slice = 0; slice < SLICES; slice++) {
      let s = process.hrtime.bigint();
      for (let i = 0; i < perSlice; i++) sink += floor().events.length;
      floorT += process.hrtime.bigint() - s;
      s = process.hrtime.bigint();
      for (let i = 0; i < perSlice; i++) sink += ((await ours()) as { events: unknown[] }).events.length;
      oursT += process.hrtime.bigint() - s;
      for (const [p, [, run]] of parts.entries()) {
        s = process.hrtime.bigint();
        for (let i = 0; i < perSlice; i++) sink += check(run());
        partT[p] = partT[p]! + (process.hrtime.bigint() - s);
      }
    }
    floorNs.push(Number(floorT) / calls);
    oursNs.push(Number(oursT) / calls);
    for (const [p, t] of partT.entries()) partNs[p]!.push(Number(t) / calls);
  }
  out[`events${events}`] = {
    bytes: raw.length,
    iterations: calls,
    rounds,
    floorNs: median(floorNs),
    oursNs: median(oursNs),
    steps: parts.map(([name], p) => ({ name, ns: median(partNs[p]!) })),
    floorRuns: floorNs.map(Math.round),
    oursRuns: oursNs.map(Math.round),
    sink,
  };
}
console.log(JSON.stringify(out));
