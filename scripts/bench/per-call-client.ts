/**
 * Child process: `count` calls of users.get (GET /{org}/{app}/users/{username}, a Q operation)
 * to the bench server with `concurrency` calls in flight, through one client:
 *   ours          — ImClient from the built package (request validation on, token cached after
 *                   the warm-up; one token exchange in all)
 *   ours-novalid  — the same with validateRequests: false (how much validation costs)
 *   openapi-fetch — createClient<paths>() with the bearer token as a static header
 *   fetch         — bare global fetch + res.json() (the floor)
 * Every client uses Node's global fetch (undici, keep-alive). Prints one JSON line.
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
  if (client === 'ours' || client === 'ours-novalid') {
    const { ImClient } = await import(esmEntry!);
    const im = new ImClient({
      baseUrl,
      appKey: `${ORG}#${APP}`,
      clientId: 'bench-client',
      clientSecret: 'bench-secret',
      validateRequests: client === 'ours',
    });
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
      const res = await fetch(`${baseUrl}/${encodeURIComponent(ORG)}/${encodeURIComponent(APP)}/users/${encodeURIComponent('alice')}`, { headers });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return res.json();
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

const call = await makeCall();
await drive(call, warmup);
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
