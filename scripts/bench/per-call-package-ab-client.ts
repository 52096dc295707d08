/**
 * Child of per-call-package-ab.ts: the package's own CPU per call, with no socket. In ONE process,
 * clients of two generated/ trees (A = a git revision, B = the working tree; their TypeScript
 * sources, run through tsx) call users.get through a stub transport that answers 200 with a fixed
 * body at once, in interleaved rounds (A, B, then B, A, …), `concurrency` calls in flight. What is
 * left is the package's code around the transport: checks, validation, request building, the
 * attempt loop, the answer's parsing, the promises between them. The stub is handed in the way
 * `withOptions` hands a transport on (`SHARED_TRANSPORT`, internal). Prints one JSON line:
 * { rounds: { A: µs CPU per call[], B: […] } }.
 */
const [aRoot, bRoot, callsArg, roundsArg, concArg] = process.argv.slice(2);
const calls = Number(callsArg);
const rounds = Number(roundsArg);
const concurrency = Number(concArg);

const BODY = JSON.stringify({ username: 'alice', nickname: 'Alice', created: 1700000000000, activated: true });
const TOKEN_BODY = JSON.stringify({ access_token: 'bench-app-token', expires_in: 7200, application: 'bench-app' });
const RAW_HEADERS: Record<string, string> = {
  'content-type': 'application/json',
  'content-length': String(BODY.length),
  date: 'Thu, 26 Nov 2026 23:00:00 GMT',
  connection: 'keep-alive',
  'keep-alive': 'timeout=5',
  'x-request-id': 'req-1',
};

/** The node transport's header view, as the stub's answers carry it. */
class StubHeaders {
  get(name: string): string | null {
    return RAW_HEADERS[name.toLowerCase()] ?? null;
  }
  forEach(callback: (value: string, name: string) => void): void {
    for (const name of Object.keys(RAW_HEADERS).sort()) callback(RAW_HEADERS[name]!, name);
  }
}

const stub = async (req: { url: string }) => ({
  kind: 'response' as const,
  status: 200,
  headers: new StubHeaders(),
  bodyText: req.url.endsWith('/token') ? TOKEN_BODY : BODY,
});

type Call = () => Promise<unknown>;

async function client(root: string): Promise<Call> {
  const { ImClient } = await import(`${root}/generated/src/index.ts`);
  const { SHARED_TRANSPORT } = await import(`${root}/generated/src/core/client-session.ts`);
  const im = new ImClient({
    baseUrl: 'http://127.0.0.1:9',
    appKey: 'bench-org#bench-app',
    clientId: 'bench-client',
    clientSecret: 'bench-secret',
    [SHARED_TRANSPORT]: { send: stub, transport: 'node' },
  });
  return () => im.users.get({ username: 'alice' });
}

const clients: Record<string, Call> = { A: await client(aRoot!), B: await client(bRoot!) };
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
for (const name of ['A', 'B']) await run(clients[name]!, calls);
const out: Record<string, number[]> = { A: [], B: [] };
for (let r = 0; r < rounds; r++) {
  for (const name of r % 2 ? ['B', 'A'] : ['A', 'B']) {
    const before = process.cpuUsage();
    await run(clients[name]!, calls);
    const used = process.cpuUsage(before);
    out[name]!.push((used.user + used.system) / calls);
  }
}
console.log(JSON.stringify({ rounds: out }));
