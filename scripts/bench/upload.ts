/**
 * 7. Upload: im.media.upload of a generated source (never held whole) to the bench server (its
 * own process), vs the same parts PUT with bare fetch (the floor); runs alternate; throughput and
 * peak memory (RSS, arrayBuffers, sampled every 10 ms in the uploading process).
 */
import { median, runJsonChild, startBenchServer } from './lib.js';

export interface UploadSample {
  mode: string;
  total: number;
  partSize: number;
  concurrency: number;
  parts: number;
  wallMs: number;
  mbPerSec: number;
  baseRssMiB: number;
  peakRssMiB: number;
  rssGrowthMiB: number;
  peakArrayBuffersMiB: number;
}
export interface UploadResult {
  total: number;
  partSize: number;
  concurrency: number;
  runs: number;
  rows: {
    mode: string;
    label: string;
    mbPerSec: number;
    peakRssMiB: number;
    rssGrowthMiB: number;
    peakArrayBuffersMiB: number;
    parts: number;
    runsMbPerSec: number[];
  }[];
  serverBytes: number;
}

const LABELS: Record<string, string> = {
  ours: 'ours: im.media.upload (create, part addresses 16 at a time, PUT, complete)',
  fetch: 'floor: the same parts PUT with bare fetch, no API calls',
};

export async function benchUpload(opts: {
  total: number;
  partSize: number;
  concurrency: number;
  runs: number;
  esmEntry: string;
}): Promise<UploadResult> {
  const server = await startBenchServer();
  const samples: UploadSample[] = [];
  let serverBytes = 0;
  try {
    for (let i = 0; i < opts.runs; i++) {
      for (const mode of i % 2 ? ['fetch', 'ours'] : ['ours', 'fetch']) {
        samples.push(
          await runJsonChild<UploadSample>('upload-client.ts', [
            mode,
            String(opts.total),
            String(opts.partSize),
            String(opts.concurrency),
            server.baseUrl,
            opts.esmEntry,
          ]),
        );
      }
    }
    serverBytes = (await server.stats()).partBytes;
  } finally {
    await server.stop();
  }
  return {
    total: opts.total,
    partSize: opts.partSize,
    concurrency: opts.concurrency,
    runs: opts.runs,
    serverBytes,
    rows: ['ours', 'fetch'].map((mode) => {
      const s = samples.filter((x) => x.mode === mode);
      return {
        mode,
        label: LABELS[mode]!,
        mbPerSec: median(s.map((x) => x.mbPerSec)),
        peakRssMiB: Math.max(...s.map((x) => x.peakRssMiB)),
        rssGrowthMiB: Math.max(...s.map((x) => x.rssGrowthMiB)),
        peakArrayBuffersMiB: Math.max(...s.map((x) => x.peakArrayBuffersMiB)),
        parts: s[0]!.parts,
        runsMbPerSec: s.map((x) => Math.round(x.mbPerSec)),
      };
    }),
  };
}
