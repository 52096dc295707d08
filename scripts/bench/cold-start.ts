/**
 * 3. Cold start: a fresh `node app.mjs` that imports a client and makes its first call to the
 * bench server (already running, its own process), timed from spawn to exit by the parent.
 * Apps: bare Node doing a fetch (the floor), openapi-fetch, our ImClient ('im-server-sdk',
 * dist/esm), our standalone function ('im-server-sdk/funcs'), and an empty Node process.
 * Runs interleaved; each app also reports, from inside (performance.now() counts from process
 * start), when its import finished and when its first call answered.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { median, startBenchServer, timedRun } from './lib.js';

const REPORT = `console.log(JSON.stringify({ importedAt, answeredAt: performance.now() }));`;

export const COLD_APPS: Record<string, { label: string; code: string }> = {
  'node-empty': { label: 'node, empty script (process start/exit)', code: `` },
  'bare-fetch': {
    label: 'bare Node: fetch + res.json() (floor)',
    code: `const importedAt = performance.now();
const res = await fetch(process.argv[2] + '/bench-org/bench-app/users/alice', { headers: { authorization: 'Bearer bench-app-token' } });
await res.json();
${REPORT}`,
  },
  'openapi-fetch': {
    label: 'openapi-fetch (static bearer token)',
    code: `import createClient from 'openapi-fetch';
const importedAt = performance.now();
const api = createClient({ baseUrl: process.argv[2], headers: { Authorization: 'Bearer bench-app-token' } });
const { error } = await api.GET('/{org_name}/{app_name}/users/{username}', { params: { path: { org_name: 'bench-org', app_name: 'bench-app', username: 'alice' } } });
if (error) throw new Error('failed');
${REPORT}`,
  },
  'ours-client': {
    label: "ours: ImClient from 'im-server-sdk' (token exchange + call, validation on)",
    code: `import { ImClient } from 'im-server-sdk';
const importedAt = performance.now();
const im = new ImClient({ baseUrl: process.argv[2], appKey: 'bench-org#bench-app', clientId: 'c', clientSecret: 's' });
await im.users.get({ username: 'alice' });
${REPORT}`,
  },
  'ours-funcs': {
    label: "ours: usersGet from 'im-server-sdk/funcs' (token exchange + call, validation on)",
    code: `import { ImCore, usersGet } from 'im-server-sdk/funcs';
const importedAt = performance.now();
const core = new ImCore({ baseUrl: process.argv[2], appKey: 'bench-org#bench-app', clientId: 'c', clientSecret: 's' });
await usersGet(core, { username: 'alice' });
${REPORT}`,
  },
};

export interface ColdStartResult {
  runs: number;
  rows: { app: string; label: string; wallMs: number; cpuMs: number | undefined; importedAtMs: number | undefined; answeredAtMs: number | undefined; runsMs: number[] }[];
}

export async function benchColdStart(opts: { runs: number; appsDir: string }): Promise<ColdStartResult> {
  for (const [name, app] of Object.entries(COLD_APPS)) writeFileSync(join(opts.appsDir, `cold-${name}.mjs`), app.code + '\n');
  const server = await startBenchServer();
  const samples: Record<string, { wall: number[]; cpu: number[]; imported: number[]; answered: number[] }> = {};
  try {
    const names = Object.keys(COLD_APPS);
    // one unmeasured round warms the file cache
    for (const name of names) await timedRun(process.execPath, [join(opts.appsDir, `cold-${name}.mjs`), server.baseUrl], { cwd: opts.appsDir });
    for (let i = 0; i < opts.runs; i++) {
      for (const name of names) {
        const r = await timedRun(process.execPath, [join(opts.appsDir, `cold-${name}.mjs`), server.baseUrl], { cwd: opts.appsDir });
        if (r.code !== 0) throw new Error(`cold-start app ${name} exited ${r.code}: ${r.stderr.slice(-1500)}`);
        const s = (samples[name] ??= { wall: [], cpu: [], imported: [], answered: [] });
        s.wall.push(r.wallMs);
        if (r.cpuMs !== undefined) s.cpu.push(r.cpuMs);
        const line = r.stdout.trim().split('\n').pop();
        if (line) {
          const j = JSON.parse(line);
          s.imported.push(j.importedAt);
          s.answered.push(j.answeredAt);
        }
      }
    }
  } finally {
    await server.stop();
  }
  return {
    runs: opts.runs,
    rows: Object.entries(COLD_APPS).map(([app, { label }]) => {
      const s = samples[app]!;
      return {
        app,
        label,
        wallMs: median(s.wall),
        cpuMs: s.cpu.length ? median(s.cpu) : undefined,
        importedAtMs: s.imported.length ? median(s.imported) : undefined,
        answeredAtMs: s.answered.length ? median(s.answered) : undefined,
        runsMs: s.wall.map((x) => Math.round(x)),
      };
    }),
  };
}
