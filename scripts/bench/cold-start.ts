/**
 * 3. Cold start: a fresh `node app.mjs` that imports a client and makes its first call to the
 * bench server (already running, its own process), timed from spawn to exit by the parent.
 * Apps: bare Node doing a fetch (the floor), openapi-fetch, our ImClient ('im-server-sdk',
 * dist/esm), our standalone function ('im-server-sdk/funcs'), and an empty Node process; then,
 * to explain the difference (no target): our import alone, ours with validation off, and bare
 * Node doing what our first call does at the least (POST /token, then the GET).
 * Runs interleaved; each app also reports, from inside (performance.now() counts from process
 * start), when its import finished and when its first call answered. One more, unmeasured run of
 * each app under a module-loading hook counts the module files it loads before its import
 * finished and during its first call.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  'ours-import': {
    label: "ours: import { ImClient } from 'im-server-sdk' alone, no call (explanation)",
    code: `import { ImClient } from 'im-server-sdk';
const importedAt = performance.now();
if (typeof ImClient !== 'function') throw new Error('no ImClient');
console.log(JSON.stringify({ importedAt, answeredAt: importedAt }));`,
  },
  'ours-novalid': {
    label: 'ours: ImClient, validateRequests: false (explanation: no validator module to load)',
    code: `import { ImClient } from 'im-server-sdk';
const importedAt = performance.now();
const im = new ImClient({ baseUrl: process.argv[2], appKey: 'bench-org#bench-app', clientId: 'c', clientSecret: 's', validateRequests: false });
await im.users.get({ username: 'alice' });
${REPORT}`,
  },
  'bare-fetch-2': {
    label: 'bare Node: POST /token, then the GET (explanation: what our first call sends)',
    code: `const importedAt = performance.now();
const t = await fetch(process.argv[2] + '/bench-org/bench-app/token', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'c', client_secret: 's' }) });
const { access_token } = await t.json();
const res = await fetch(process.argv[2] + '/bench-org/bench-app/users/alice', { headers: { authorization: 'Bearer ' + access_token } });
await res.json();
${REPORT}`,
  },
};

/** Module files an app loaded (file: URLs only; built-ins and Node's own are not files). */
export interface ModuleCount {
  importModules: number;
  importBytes: number;
  firstCallModules: number;
  firstCallBytes: number;
}

export interface ColdStartResult {
  runs: number;
  rows: {
    app: string;
    label: string;
    wallMs: number;
    cpuMs: number | undefined;
    importedAtMs: number | undefined;
    answeredAtMs: number | undefined;
    runsMs: number[];
    modules?: ModuleCount;
  }[];
}

const IMPORTED_LINE = 'const importedAt = performance.now();';
const MARK = 'IMPORTED';

/**
 * One unmeasured run of an app with a module `load` hook (node:module register) that appends
 * each URL it loads to a log; the app appends a mark when its import finished.
 */
async function countModules(
  appsDir: string,
  name: string,
  code: string,
  baseUrl: string,
): Promise<ModuleCount | undefined> {
  if (!code.includes(IMPORTED_LINE)) return undefined;
  const log = join(appsDir, `modules-${name}.log`);
  writeFileSync(log, '');
  const hooks = `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`;
  const register = join(appsDir, 'cold-register-hooks.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));\n`,
  );
  const app = join(appsDir, `cold-${name}.counted.mjs`);
  const marked = code.replace(IMPORTED_LINE, `${IMPORTED_LINE} markImported(${JSON.stringify(log)}, '${MARK}\\n');`);
  writeFileSync(app, `import { appendFileSync as markImported } from 'node:fs';\n${marked}\n`);
  const r = await timedRun(process.execPath, ['--import', register, app, baseUrl], { cwd: appsDir });
  if (r.code !== 0) throw new Error(`module count of ${name} exited ${r.code}: ${r.stderr.slice(-1500)}`);
  const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const mark = lines.indexOf(MARK);
  const files = (xs: string[]) => [...new Set(xs.filter((u) => u.startsWith('file:') && !u.endsWith('.counted.mjs')))];
  const bytes = (xs: string[]) => xs.reduce((a, u) => a + statSync(fileURLToPath(u)).size, 0);
  const before = files(mark < 0 ? lines : lines.slice(0, mark));
  const after = files(mark < 0 ? [] : lines.slice(mark + 1)).filter((u) => !before.includes(u));
  return {
    importModules: before.length,
    importBytes: bytes(before),
    firstCallModules: after.length,
    firstCallBytes: bytes(after),
  };
}

export async function benchColdStart(opts: { runs: number; appsDir: string }): Promise<ColdStartResult> {
  for (const [name, app] of Object.entries(COLD_APPS))
    writeFileSync(join(opts.appsDir, `cold-${name}.mjs`), app.code + '\n');
  const server = await startBenchServer();
  const samples: Record<string, { wall: number[]; cpu: number[]; imported: number[]; answered: number[] }> = {};
  const modules: Record<string, ModuleCount> = {};
  try {
    const names = Object.keys(COLD_APPS);
    // one unmeasured round warms the file cache
    for (const name of names)
      await timedRun(process.execPath, [join(opts.appsDir, `cold-${name}.mjs`), server.baseUrl], { cwd: opts.appsDir });
    for (let i = 0; i < opts.runs; i++) {
      for (const name of names) {
        const r = await timedRun(process.execPath, [join(opts.appsDir, `cold-${name}.mjs`), server.baseUrl], {
          cwd: opts.appsDir,
        });
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
    for (const [name, app] of Object.entries(COLD_APPS)) {
      const count = await countModules(opts.appsDir, name, app.code, server.baseUrl);
      if (count) modules[name] = count;
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
        ...(modules[app] ? { modules: modules[app] } : {}),
      };
    }),
  };
}
