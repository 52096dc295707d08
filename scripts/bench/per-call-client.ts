/**
 * Child process: `count` calls of users.get (GET /{org}/{app}/users/{username}, a Q operation)
 * to the bench server with `concurrency` calls in flight, through one client:
 *   ours          — ImClient from the built package with its defaults: on Node the node:http
 *                   transport (keep-alive agent), retries (maxRetries 2), per-attempt timeout
 *                   (60 s), request validation and auth on (token cached after the warm-up;
 *                   one token exchange in all)
 *   ours-novalid  — the same with validateRequests: false (how much validation costs)
 *   ours-fetch    — the same with transport: 'fetch' (the transport before issue 18)
 *   node-http     — bare http.request on a keep-alive Agent + JSON.parse: the ceiling of any
 *                   node:http client (an explanation, not a target)
 *   openapi-fetch — createClient<paths>() with the bearer token as a static header
 *   fetch         — bare global fetch + res.json() (the floor)
 *   fetch-signal  — bare fetch with what our per-attempt timeout adds: an AbortController
 *                   (plus one following the call's own), a setTimeout/clearTimeout, the signal
 *                   given to fetch (an explanation, not a target)
 *   validator-load — not a client: times `await op.loadValidator()` (the dynamic import() that
 *                   the core runs on every validated call) and `validate(params)` for users.get
 * The peers and `ours-fetch` use Node's global fetch (undici, keep-alive). Prints one JSON line.
 */
const [client, countArg, concArg, warmArg, baseUrl, esmEntry] = process.argv.slice(2);
const count = Number(countArg);
const concurrency = Number(concArg);
const warmup = Number(warmArg);
const ORG = 'bench-org';
const APP = 'bench-app';
const TOKEN = 'bench-app-token';

type Call = (i: number) => Promise<unknown>;

async function makeCall(): Promise<Call> {
  if (client === 'ours' || client === 'ours-novalid' || client === 'ours-fetch') {
    const { ImClient } = await import(esmEntry!);
    const im = new ImClient({
      baseUrl,
      appKey: `${ORG}#${APP}`,
      clientId: 'bench-client',
      clientSecret: 'bench-secret',
      validateRequests: client !== 'ours-novalid',
      ...(client === 'ours-fetch' ? { transport: 'fetch' } : {}),
    });
    const want = client === 'ours-fetch' ? 'fetch' : 'node';
    if (im.transport !== want)
      throw new Error(`${client}: the client chose the ${im.transport} transport, not ${want}`);
    return () => im.users.get({ username: 'alice' });
  }
  if (client === 'openapi-fetch') {
    const { default: createClient } = await import('openapi-fetch');
    const api = createClient<any>({ baseUrl, headers: { Authorization: `Bearer ${TOKEN}` } });
    return async () => {
      const { data, error } = await api.GET('/{org_name}/{app_name}/users/{username}', {
        params: { path: { org_name: ORG, app_name: APP, username: 'alice' } },
      });
      if (error) throw new Error('call failed');
      return data;
    };
  }
  if (client === 'fetch') {
    const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json' };
    return async () => {
      const res = await fetch(
        `${baseUrl}/${encodeURIComponent(ORG)}/${encodeURIComponent(APP)}/users/${encodeURIComponent('alice')}`,
        { headers },
      );
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return res.json();
    };
  }
  if (client === 'node-http') {
    const http = await import('node:http');
    const agent = new http.Agent({ keepAlive: true });
    const url = new URL(baseUrl!);
    const path = `/${encodeURIComponent(ORG)}/${encodeURIComponent(APP)}/users/${encodeURIComponent('alice')}`;
    const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json' };
    return () =>
      new Promise((resolve, reject) => {
        const req = http.request(
          { hostname: url.hostname, port: url.port, path, method: 'GET', headers, agent },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              res.statusCode === 200
                ? resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')))
                : reject(new Error(`HTTP ${res.statusCode}`)),
            );
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end();
      });
  }
  if (client === 'fetch-signal') {
    const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json' };
    return async () => {
      const scope = new AbortController();
      const attempt = new AbortController();
      const follow = () => attempt.abort(scope.signal.reason);
      scope.signal.addEventListener('abort', follow, { once: true });
      const timer = setTimeout(() => attempt.abort(), 60_000);
      try {
        const res = await fetch(
          `${baseUrl}/${encodeURIComponent(ORG)}/${encodeURIComponent(APP)}/users/${encodeURIComponent('alice')}`,
          { headers, signal: attempt.signal, redirect: 'manual' },
        );
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        return JSON.parse(await res.text());
      } finally {
        clearTimeout(timer);
        scope.signal.removeEventListener('abort', follow);
      }
    };
  }
  throw new Error(`unknown client ${client}`);
}

async function drive(call: Call, n: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      const r = (await call(i)) as { username?: string };
      if (r?.username !== 'alice') throw new Error(`unexpected answer ${JSON.stringify(r)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
}

if (client === 'validator-load') {
  const { operations } = await import(esmEntry!);
  const op = operations['users.get'];
  const time = async (f: () => unknown) => {
    for (let i = 0; i < warmup; i++) await f();
    const s = performance.now();
    for (let i = 0; i < count; i++) await f();
    return ((performance.now() - s) * 1000) / count;
  };
  const loadUs = await time(() => op.loadValidator());
  const v = await op.loadValidator();
  const validateUs = await time(() => v.validate({ username: 'alice' }));
  console.log(JSON.stringify({ client, count, loadUs, validateUs }));
  process.exit(0);
}

/**
 * IM_BENCH_ALLOC=1 (per-call-alloc.ts): V8's sampling heap profiler over the measured calls, WITH
 * the objects the GC already collected (what a call allocates, not what it keeps); bytes per call,
 * in all and by function. Allocation does not depend on the machine's load, CPU time does.
 */
async function allocationsOf(run: () => Promise<void>): Promise<{ bytesPerCall: number; byFunction: object[] }> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 256,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await run();
  const { profile } = await session.post('HeapProfiler.stopSampling');
  type Node = {
    callFrame: { functionName: string; url: string; lineNumber: number };
    selfSize: number;
    children: Node[];
  };
  const by = new Map<string, number>();
  const walk = (n: Node): void => {
    const { functionName, url, lineNumber } = n.callFrame;
    const file = url.replace(/^.*\/(dist\/esm|bench-children)\//, '');
    const name = `${functionName || '(anonymous)'} — ${file ? `${file}:${lineNumber + 1}` : '(native)'}`;
    by.set(name, (by.get(name) ?? 0) + n.selfSize);
    for (const c of n.children) walk(c);
  };
  walk(profile.head as unknown as Node);
  const all = [...by].map(([name, bytes]) => ({ name, bytes: bytes / count })).sort((a, b) => b.bytes - a.bytes);
  return { bytesPerCall: all.reduce((a, f) => a + f.bytes, 0), byFunction: all.slice(0, 40) };
}

const call = await makeCall();
await drive(call, warmup);
if (process.env.IM_BENCH_ALLOC === '1') {
  console.log(JSON.stringify({ client, count, concurrency, ...(await allocationsOf(() => drive(call, count))) }));
  process.exit(0);
}
const cpu = process.cpuUsage();
const started = performance.now();
await drive(call, count);
const wallMs = performance.now() - started;
const used = process.cpuUsage(cpu);
console.log(
  JSON.stringify({
    client,
    count,
    concurrency,
    wallMs,
    callsPerSec: (count / wallMs) * 1000,
    cpuUsPerCall: (used.user + used.system) / count,
  }),
);
