// Copied by im-openapi from templates/runtime/testing/cli.ts. Do not edit here: edit the template and run `npm run generate`.
/**
 * im-fake: the fake service as a process, for tools in other languages.
 *
 *   npx im-fake --port 4010 [--app-key demo-org#demo-app] [--client-id ID] [--seed-file state.json]
 *
 * Prints the base URL and the credentials to use, then serves until SIGINT/SIGTERM. The client
 * secret may come from IM_FAKE_CLIENT_SECRET. Loopback only unless --host and --allow-remote.
 * Exit code: 0 after a signal, 2 for usage errors, 1 when the fake cannot start.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { FakeService, FakeServiceOptions } from './types.js';

const USAGE = `usage: im-fake [--port <n>] [--host <addr> --allow-remote] [--app-key <org#app>]
               [--client-id <id>] [--client-secret <secret> | env IM_FAKE_CLIENT_SECRET]
               [--token-ttl <seconds>] [--per-second <n>] [--page-size <n>]
               [--seed-file <state.json>] [--random-faults <rate>] [--random-seed <n>]
       im-fake --help | --version`;

const HELP = `im-fake: a stateful fake of the messaging service's REST API on 127.0.0.1, for tests in any language.

${USAGE}

  --port <n>            port to listen on (default 4010; 0 picks a free one)
  --host <addr>         address to listen on (default 127.0.0.1); another than loopback needs --allow-remote
  --app-key <org#app>   the application it serves (default demo-org#demo-app)
  --client-id <id>      the Client ID it accepts (default fake-client-id)
  --client-secret <s>   the Client Secret it accepts (default fake-client-secret; or IM_FAKE_CLIENT_SECRET)
  --token-ttl <s>       App Token lifetime, 300 to 31536000 seconds (default 604800)
  --per-second <n>      the application's quota: more requests a second get 429 with Retry-After
  --page-size <n>       items per page of list operations (default 20)
  --seed-file <file>    JSON state to start with ({ "users": [{ "username": "alice" }], "groups": [...] })
  --random-faults <r>   share of calls (0 to 1) that get a random fault (5xx, 429, dropped, slow)
  --random-seed <n>     seed of the random faults (default 1)

It prints one line of JSON: {"baseUrl": …, "appKey": …, "clientId": …}. Stop it with Ctrl-C.`;

function int(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new TypeError(`--${name} must be a whole number, got ${JSON.stringify(value)}`);
  return n;
}

/** The options the arguments ask for, or what to print instead; throws a TypeError naming the bad argument. */
function optionsOf(argv: readonly string[], env: NodeJS.ProcessEnv): FakeServiceOptions | 'help' | 'version' {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'allow-remote': { type: 'boolean' },
      'app-key': { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      'token-ttl': { type: 'string' },
      'per-second': { type: 'string' },
      'page-size': { type: 'string' },
      'seed-file': { type: 'string' },
      'random-faults': { type: 'string' },
      'random-seed': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  if (values.version) return 'version';
  const rate = values['random-faults'] === undefined ? undefined : Number(values['random-faults']);
  if (rate !== undefined && !(rate >= 0 && rate <= 1))
    throw new TypeError('--random-faults must be a number from 0 to 1');
  const secret = values['client-secret'] ?? env.IM_FAKE_CLIENT_SECRET;
  return {
    port: int('port', values.port) ?? 4010,
    ...(values.host ? { host: values.host } : {}),
    ...(values['allow-remote'] ? { allowRemote: true } : {}),
    ...(values['app-key'] ? { appKey: values['app-key'] } : {}),
    ...(values['client-id'] ? { clientId: values['client-id'] } : {}),
    ...(secret ? { clientSecret: secret } : {}),
    ...(values['token-ttl'] ? { tokenTtlSeconds: int('token-ttl', values['token-ttl'])! } : {}),
    ...(values['per-second'] ? { perSecond: int('per-second', values['per-second'])! } : {}),
    ...(values['page-size'] ? { pageSize: int('page-size', values['page-size'])! } : {}),
    ...(values['random-seed'] ? { randomSeed: int('random-seed', values['random-seed'])! } : {}),
    ...(rate ? { randomFaults: { rate } } : {}),
    ...(values['seed-file'] ? { initialState: JSON.parse(readFileSync(values['seed-file'], 'utf8')) } : {}),
  };
}

export async function runImFake(
  argv: readonly string[],
  create: (options: FakeServiceOptions) => Promise<FakeService>,
  io: {
    version: string;
    out?: (line: string) => void;
    err?: (line: string) => void;
    env?: NodeJS.ProcessEnv;
    signal?: AbortSignal;
  },
): Promise<number> {
  const out = io.out ?? ((l: string) => void process.stdout.write(`${l}\n`));
  const err = io.err ?? ((l: string) => void process.stderr.write(`${l}\n`));
  let options: FakeServiceOptions;
  try {
    const asked = optionsOf(argv, io.env ?? process.env);
    if (asked === 'help') return out(HELP), 0;
    if (asked === 'version') return out(io.version), 0;
    options = asked;
  } catch (e) {
    err(`im-fake: ${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
    return 2;
  }
  let fake: FakeService;
  try {
    fake = await create(options);
  } catch (e) {
    // the options' names as this command spells them
    err(
      `im-fake: ${(e instanceof Error ? e.message : String(e)).replace('createFakeService: ', '').replace('allowRemote: true', '--allow-remote')}`,
    );
    return 1;
  }
  out(
    JSON.stringify({
      baseUrl: fake.baseUrl,
      appKey: `${fake.orgName}#${fake.appName}`,
      clientId: fake.clientOptions.clientId,
    }),
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    io.signal?.addEventListener('abort', stop, { once: true });
  });
  await fake.close();
  return 0;
}
