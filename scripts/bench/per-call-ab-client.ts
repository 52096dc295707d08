/**
 * Child of per-call-ab.ts: in ONE process, clients of two builds of the package (A = a git
 * revision, B = the working tree) and bare node:http call users.get on the bench server in
 * interleaved rounds (A, B, bare, then bare, B, A, …), so load on a shared machine falls on all
 * alike. Per round: process CPU (user + system) and wall time over `calls` calls with
 * `concurrency` in flight. Prints one JSON line:
 * { rounds: { [client]: µs CPU per call[] }, rates: { [client]: calls/s[] } }.
 */
import http from 'node:http';

const [aEntry, bEntry, baseUrl, callsArg, roundsArg, warmArg, concArg] = process.argv.slice(2);
const calls = Number(callsArg);
const rounds = Number(roundsArg);
const warmup = Number(warmArg);
const concurrency = Number(concArg ?? 1);

type Call = () => Promise<unknown>;

async function ours(entry: string): Promise<Call> {
  const { ImClient } = await import(entry);
  const im = new ImClient({
    baseUrl,
    appKey: 'bench-org#bench-app',
    clientId: 'bench-client',
    clientSecret: 'bench-secret',
  });
  if (im.transport !== 'node') throw new Error(`the client chose the ${im.transport} transport, not node`);
  return () => im.users.get({ username: 'alice' });
}

/** The same bare client as per-call-client.ts's `node-http` (a child compiles alone: no local imports to share it). */
function bare(): Call {
  const agent = new http.Agent({ keepAlive: true });
  const url = new URL(baseUrl!);
  const headers = { authorization: 'Bearer bench-app-token', accept: 'application/json' };
  return () =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          hostname: url.hostname,
          port: url.port,
          path: '/bench-org/bench-app/users/alice',
          method: 'GET',
          headers,
          agent,
        },
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

const clients: Record<string, Call> = { A: await ours(aEntry!), B: await ours(bEntry!), 'bare node:http': bare() };
const names = Object.keys(clients);
/** `n` calls with `concurrency` in flight (workers take the next call when theirs answers). */
const run = async (call: Call, n: number): Promise<void> => {
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const r = (await call()) as { username?: string };
      if (r?.username !== 'alice') throw new Error(`unexpected answer ${JSON.stringify(r)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
};
for (const name of names) await run(clients[name]!, warmup);
const out: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
const rates: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
for (let r = 0; r < rounds; r++) {
  for (const name of r % 2 ? [...names].reverse() : names) {
    const before = process.cpuUsage();
    const started = performance.now();
    await run(clients[name]!, calls);
    const wallMs = performance.now() - started;
    const used = process.cpuUsage(before);
    out[name]!.push((used.user + used.system) / calls);
    rates[name]!.push((calls / wallMs) * 1000);
  }
}
console.log(JSON.stringify({ rounds: out, rates }));
