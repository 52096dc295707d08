/**
 * Child process: streams a generated source of `total` bytes (an async generator of 64 KiB
 * chunks, never held whole) to the bench server, sampling RSS and arrayBuffers every 10 ms.
 *   ours  — im.media.upload(source, { partSize, concurrency, size }): create upload, part
 *           addresses per part, PUT parts, complete
 *   fetch — the floor: the same parts cut by hand and PUT with bare fetch, same concurrency,
 *           no API calls around them
 * argv: <mode> <total bytes> <part size> <concurrency> <baseUrl> <dist/esm/index.js>
 */
const [mode, totalArg, partArg, concArg, baseUrl, esmEntry] = process.argv.slice(2);
const total = Number(totalArg);
const partSize = Number(partArg);
const concurrency = Number(concArg);

async function* source(): AsyncGenerator<Uint8Array> {
  const chunk = new Uint8Array(64 * 1024).fill(7);
  for (let sent = 0; sent < total; sent += chunk.length)
    yield sent + chunk.length <= total ? chunk : chunk.subarray(0, total - sent);
}

const base = process.memoryUsage();
let peakRss = base.rss;
let peakAb = base.arrayBuffers;
const sample = () => {
  const m = process.memoryUsage();
  if (m.rss > peakRss) peakRss = m.rss;
  if (m.arrayBuffers > peakAb) peakAb = m.arrayBuffers;
};
const timer = setInterval(sample, 10);

async function floor(): Promise<number> {
  const it = source()[Symbol.asyncIterator]();
  let partNumber = 0;
  let reading = Promise.resolve();
  let pending: Uint8Array | undefined;
  const nextPart = (): Promise<{ n: number; bytes: Uint8Array } | null> => {
    const result = reading.then(async () => {
      const buf = new Uint8Array(partSize);
      let filled = 0;
      while (filled < partSize) {
        const chunk = pending ?? (await it.next()).value;
        pending = undefined;
        if (!chunk) break;
        const take = Math.min(chunk.length, partSize - filled);
        buf.set(chunk.subarray(0, take), filled);
        filled += take;
        if (take < chunk.length) pending = chunk.subarray(take);
      }
      return filled ? { n: ++partNumber, bytes: buf.subarray(0, filled) } : null;
    });
    reading = result.then(() => undefined);
    return result;
  };
  let sent = 0;
  const worker = async () => {
    for (;;) {
      const part = await nextPart();
      if (!part) return;
      const res = await fetch(`${baseUrl}/upload/floor/${part.n}`, {
        method: 'PUT',
        body: part.bytes as Uint8Array<ArrayBuffer>,
        headers: { 'content-type': 'application/octet-stream' },
      });
      await res.body?.cancel();
      if (!res.ok) throw new Error(`part ${part.n}: HTTP ${res.status}`);
      sent += part.bytes.length;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return sent;
}

const started = performance.now();
let bytesSent: number;
let parts = 0;
if (mode === 'ours') {
  const { ImClient } = await import(esmEntry!);
  const im = new ImClient({ baseUrl, appKey: 'bench-org#bench-app', clientId: 'c', clientSecret: 's' });
  const r = await im.media.upload(source(), { partSize, concurrency, size: total, onProgress: sample });
  bytesSent = r.bytesSent;
  parts = r.parts;
} else {
  bytesSent = await floor();
  parts = Math.ceil(total / partSize);
}
const wallMs = performance.now() - started;
clearInterval(timer);
sample();
if (bytesSent !== total) throw new Error(`sent ${bytesSent} of ${total}`);
console.log(
  JSON.stringify({
    mode,
    total,
    partSize,
    concurrency,
    parts,
    wallMs,
    mbPerSec: total / 1e6 / (wallMs / 1000),
    baseRssMiB: base.rss / 2 ** 20,
    peakRssMiB: peakRss / 2 ** 20,
    rssGrowthMiB: (peakRss - base.rss) / 2 ** 20,
    peakArrayBuffersMiB: peakAb / 2 ** 20,
  }),
);
