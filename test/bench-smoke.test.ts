/**
 * Smoke run of the benchmark harness (`npm run bench -- --smoke`): tiny counts, every section
 * must come out with numbers. The targets are not checked here (the real benchmark is not part of
 * npm test; see scripts/bench/ and bench/RESULTS.md).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { builtPackage } from '../test-support/built-package.js';

const root = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'im-bench-smoke-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const positive = (x: unknown) => typeof x === 'number' && Number.isFinite(x) && x > 0;

describe('bench harness (smoke)', () => {
  it('produces every section with numbers', async () => {
    const md = join(dir, 'RESULTS.md');
    const json = join(dir, 'results.json');
    // the build of generated/ this test run shares with the consumers test (test-support/built-package.ts)
    const prebuilt = await builtPackage();
    // async (not spawnSync): a long synchronous wait starves vitest's worker RPC
    const run = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--import', 'tsx', join(root, 'scripts/bench/run.ts'), '--smoke', '--out', md, '--json', json],
        {
          cwd: root,
          encoding: 'utf8',
          maxBuffer: 64 * 2 ** 20,
          // a smoke run checks that every section produces numbers, not speed; the cap only stops a hang (at load
          // ~30 on the 2-core box the run passed 240 s, issue 33)
          timeout: 540_000,
          env: { ...process.env, IM_BENCH_PREBUILT_PACKAGE: prebuilt },
        },
        (error, _stdout, stderr) =>
          resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stderr }),
      );
    });
    expect(run.status, `${run.stderr}`.slice(-3000)).toBe(0);
    const r = JSON.parse(readFileSync(json, 'utf8'));
    expect(r.smoke).toBe(true);

    // 1. generation: ours (warm cache and no cache) and both peers timed, outputs counted
    expect(r.generation.tools.map((t: any) => t.name)).toEqual([
      'im-openapi (ours, after a spec edit: warm cache)',
      'openapi-typescript',
      '@hey-api/openapi-ts',
      'im-openapi (ours, first run of a fresh clone: no cache)',
    ]);
    for (const t of r.generation.tools) {
      expect(t.wallMs.every(positive)).toBe(true);
      expect(positive(t.output.files) && positive(t.output.lines)).toBe(true);
    }
    // 1b. scale: every size generated with its operation count, wall, CPU and memory
    expect(r.scale.rows.map((x: any) => x.operations)).toEqual([178, 356]);
    for (const row of r.scale.rows)
      expect(
        row.wallMs.every(positive) &&
          positive(row.files) &&
          (row.maxRssKb.length === 0 || row.maxRssKb.every(positive)),
        `${row.factor}×`,
      ).toBe(true);
    // 2. per-call: every client at every concurrency
    for (const c of r.perCall.concurrencies)
      for (const client of [
        'ours',
        'openapi-fetch',
        'fetch',
        'ours-fetch',
        'node-http',
        'ours-novalid',
        'fetch-signal',
      ]) {
        const row = r.perCall.rows.find((x: any) => x.client === client && x.concurrency === c);
        expect(positive(row?.callsPerSec) && positive(row?.cpuUsPerCall), `${client} @${c}`).toBe(true);
      }
    // 3. cold start
    for (const app of ['node-empty', 'bare-fetch', 'openapi-fetch', 'ours-client', 'ours-funcs'])
      expect(positive(r.coldStart.rows.find((x: any) => x.app === app)?.wallMs), app).toBe(true);
    // 4. size: bundles and the tarball
    for (const app of ['ours-one-op', 'ours-one-op-full', 'ours-all-ops', 'openapi-fetch-one-op', 'hey-api-one-op']) {
      const row = r.size.rows.find((x: any) => x.app === app);
      expect(positive(row?.gzip) && row.gzip < row.minified, app).toBe(true);
    }
    expect(positive(r.size.tarball?.size)).toBe(true);
    expect(r.size.tarball.orphans).toEqual([]);
    const client = r.size.rows.find((x: any) => x.app === 'ours-all-ops');
    expect(
      positive(client.start.minified) &&
        client.lazy.files >= r.size.operations &&
        client.validatorsAtStart.length === 0,
    ).toBe(true);
    expect(positive(r.size.sharedEdit.filesChanged)).toBe(true);
    // 5. type-check: both consumers compile without errors
    expect(r.typecheck.operations).toHaveLength(20);
    for (const row of r.typecheck.rows) {
      expect(positive(row.wallMs)).toBe(true);
      expect(row.errors, row.consumer).toBe('');
    }
    // 6. callbacks
    for (const k of ['events1', 'events100'])
      expect(positive(r.callbacks[k].oursNs) && positive(r.callbacks[k].floorNs), k).toBe(true);
    // every step of the explanation table was timed (the floor's 3 parts, ours' 5)
    for (const k of ['events1', 'events100'])
      expect(
        r.callbacks[k].steps.filter((s: { ns: number }) => positive(s.ns)),
        k,
      ).toHaveLength(8);
    // 7. upload: every byte arrived, throughput and memory measured
    expect(r.upload.serverBytes).toBe(2 * r.upload.runs * r.upload.total);
    for (const row of r.upload.rows) expect(positive(row.mbPerSec) && positive(row.peakRssMiB), row.mode).toBe(true);
    // 8. quota: both rows (with and without the shared limiter) counted by the quota server
    expect(r.quota.rows.map((x: any) => x.limiterPerSecond)).toEqual([0.9 * r.quota.quotaPerSecond, null]);
    for (const row of r.quota.rows)
      expect(positive(row.requests) && positive(row.throughputPerS), row.label).toBe(true);
    // 9. inbox: ours and the bare Streams loop, events per second
    expect(r.inbox.rows.map((x: any) => x.mode)).toEqual(['ours', 'bare']);
    for (const row of r.inbox.rows) expect(positive(row.eventsPerSec), row.mode).toBe(true);
    for (const row of r.inbox.rows) expect(Number.isFinite(row.bytesPerEvent), row.mode).toBe(true); // used_memory after − before ÷ events
    expect(r.inbox.redisProfile.map((c: any) => c.command)).toContain('evalsha'); // INFO commandstats of ours
    // 10. simulator: the default run and the 2 000-event run, timed
    expect(r.simulator.rows.map((x: any) => x.shape)).toEqual(['default', '2000 events']);
    for (const row of r.simulator.rows)
      expect(positive(row.medianRealMs) && positive(row.requests), row.shape).toBe(true);
    expect(r.simulator.rows[1].delivered).toBeGreaterThanOrEqual(2000);

    // the written file has every section and the table against the targets
    const text = readFileSync(md, 'utf8');
    for (const heading of [
      '## Machine',
      '## Tool versions',
      '## Method',
      '## Results against the targets',
      '## 1. Generation',
      '## 1b. Generation at scale',
      '## 2. Per-call overhead',
      '## 3. Cold start',
      '## 4. Size',
      '## 5. Type-check',
      '## 6. Callback verification',
      '## 7. Upload',
      '## 8. Quota at fleet scale',
      '## 9. Callback inbox',
      '## 10. Delivery simulator',
    ])
      expect(text).toContain(heading);
    expect(text).toContain('SMOKE RUN');
    expect(text).toContain('9. Callback inbox memory ≤ 80 bytes kept per processed event id');
    expect(text).toContain('9. Callback inbox memory ≤ 80 bytes per processed event id with 36-character ids');
    expect(text).toContain("Where redis-server's time goes for ours");
    expect(text).not.toMatch(/NaN|undefined/);
  }, 600_000);
});
