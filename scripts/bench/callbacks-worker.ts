/**
 * Child process: verifyCallback + parse of a signed callback request (1 event, 100 events) vs
 * the floor: bare crypto.createHmac over the same bytes (timestamp.nonce.body), a constant-time
 * compare with the header's signature and JSON.parse. Batches alternate (floor, ours, floor, …);
 * two variants of the floor (strict UTF-8 decoding with a new TextDecoder; called through an
 * async function and awaited; the kit's own parseSignatureHeader + computeSignature in place of
 * the inline HMAC) show what those steps of verifyCallback cost;
 * prints one JSON line with the median ns per verification of each.
 * argv: <path of dist/esm/callbacks.js> <rounds> <iterations for 1 event> <iterations for 100 events>
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const [callbacksEntry, roundsArg, iter1Arg, iter100Arg] = process.argv.slice(2);
const kit = await import(callbacksEntry!);
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

  const floor = () => {
    const h = createHmac('sha256', SECRET);
    h.update(`${ts}.${nonce}.`);
    h.update(raw);
    const expected = h.digest();
    const given = Buffer.from(sigHeader.slice(3), 'hex');
    if (given.length !== expected.length || !timingSafeEqual(expected, given)) throw new Error('floor: mismatch');
    return JSON.parse(raw.toString('utf8'));
  };
  // Explanations, not targets: the floor with one of verifyCallback's extra steps added.
  const floorStrictUtf8 = () => {
    const h = createHmac('sha256', SECRET);
    h.update(`${ts}.${nonce}.`);
    h.update(raw);
    const expected = h.digest();
    const given = Buffer.from(sigHeader.slice(3), 'hex');
    if (given.length !== expected.length || !timingSafeEqual(expected, given)) throw new Error('floor: mismatch');
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw));
  };
  const floorAsync = async () => floor();
  const floorKitSignature = () => {
    const parsed = kit.parseSignatureHeader(sigHeader);
    if (!parsed.ok) throw new Error('floor: bad header');
    const expected = kit.computeSignature(SECRET, ts, nonce, raw);
    if (!parsed.candidates.some((c: Buffer) => c.length === expected.length && timingSafeEqual(expected, c))) throw new Error('floor: mismatch');
    return JSON.parse(raw.toString('utf8'));
  };
  const ours = async () => {
    const v = await kit.verifyCallback({ headers, rawBody: raw, secrets: SECRET, now: NOW * 1000 });
    return v.body;
  };
  if ((floor().events?.length ?? 0) !== events || ((await ours()) as { events: unknown[] }).events.length !== events) throw new Error('bad sample');

  const floorNs: number[] = [];
  const oursNs: number[] = [];
  const strictNs: number[] = [];
  const asyncNs: number[] = [];
  const kitSigNs: number[] = [];
  let sink = 0;
  // warm-up
  for (let i = 0; i < Math.max(50, iterations >> 2); i++) {
    sink += floor().events.length;
    sink += ((await ours()) as { events: unknown[] }).events.length;
  }
  for (let r = 0; r < rounds; r++) {
    let s = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) sink += floor().events.length;
    floorNs.push(Number(process.hrtime.bigint() - s) / iterations);
    s = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) sink += ((await ours()) as { events: unknown[] }).events.length;
    oursNs.push(Number(process.hrtime.bigint() - s) / iterations);
    s = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) sink += floorStrictUtf8().events.length;
    strictNs.push(Number(process.hrtime.bigint() - s) / iterations);
    s = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) sink += (await floorAsync()).events.length;
    asyncNs.push(Number(process.hrtime.bigint() - s) / iterations);
    s = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) sink += floorKitSignature().events.length;
    kitSigNs.push(Number(process.hrtime.bigint() - s) / iterations);
  }
  out[`events${events}`] = { bytes: raw.length, iterations, rounds, floorNs: median(floorNs), oursNs: median(oursNs), floorStrictUtf8Ns: median(strictNs), floorAsyncNs: median(asyncNs), floorKitSignatureNs: median(kitSigNs), floorRuns: floorNs.map(Math.round), oursRuns: oursNs.map(Math.round), sink };
}
console.log(JSON.stringify(out));
