/**
 * `npm run demo`: a newcomer's first five minutes, with no credentials and no network.
 *
 * Starts a mock of the service from spec/openapi.yaml (Stoplight Prism on 127.0.0.1), runs a short
 * example through the generated client (generated/src), prints each step and every HTTP exchange,
 * then stops the mock. The mock answers from the spec's schemas, so the values are placeholders.
 */
import { ImClient, ValidationError } from '../generated/src/index.js';
import { startMock, type MockServer } from './lib/mock-server.js';

const line = (s = ''): void => void process.stdout.write(`${s}\n`);

async function demo(mock: MockServer): Promise<void> {
  // Print every exchange on the wire (never the Authorization header: it carries the App Token).
  const wire: string[] = [];
  const loggingFetch = async (url: string, init: RequestInit): Promise<Response> => {
    const res = await fetch(url, init);
    const path = new URL(url).pathname + new URL(url).search;
    const key = typeof init.body === 'string' ? /"client_msg_id":"([^"]+)"/.exec(init.body)?.[1] : undefined;
    const text = `    ${init.method ?? 'GET'} ${path} → ${res.status}${key ? ` (client_msg_id ${key})` : ''}`;
    wire.push(text);
    line(text);
    return res;
  };

  const im = new ImClient({
    baseUrl: mock.baseUrl,
    appKey: 'acme#chat', // org_name#app_name
    clientId: 'demo-client-id',
    clientSecret: 'demo-client-secret', // any value: the mock checks the shape, not the secret
    fetch: loggingFetch,
  });

  line('1. Create a user (the client first exchanges its credentials for an App Token, then caches it)');
  const user = await im.users.create({ username: 'alice' });
  line(`   users.create → ${JSON.stringify(user)}`);

  line('2. Send a message (retry class D: the client fills client_msg_id so a resend is deduplicated)');
  const message = await im.messages.send({ from: 'alice', to: 'bob', text: 'Hello from im-server-sdk' });
  line(`   messages.send → ${JSON.stringify(message)}`);

  line('3. Walk a paged list (users.list; a page promise, following next_cursor until it is null)');
  // The mock answers with the spec's example page, whose next_cursor is null: the walk ends.
  let pages = 0;
  let items = 0;
  for await (const page of (await im.users.list()).pages()) {
    pages++;
    items += page.items.length;
    line(
      `   page ${pages} (cursor ${JSON.stringify(page.cursor)}): ${page.items.length} item(s), next_cursor ${JSON.stringify(page.nextCursor)}`,
    );
  }
  line(`   walked ${pages} page(s), ${items} items`);

  line('4. Bad input is refused before anything is sent');
  const before = wire.length;
  try {
    await im.users.get({ username: '' });
    throw new Error('users.get with an empty username was not refused');
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    line(`   ${e.name}: ${e.message}`);
    line(`   requests sent for it: ${wire.length - before}`);
  }

  line();
  line(`Done: ${wire.length} HTTP exchanges with the mock, one token exchange, no credentials needed.`);
}

async function main(): Promise<void> {
  line('Starting a mock of the service from spec/openapi.yaml (Stoplight Prism) on 127.0.0.1 ...');
  const mock = await startMock({ timeoutMs: 90_000 });
  line(`Mock listening on ${mock.baseUrl}`);
  line();
  let failed = false;
  try {
    await demo(mock);
  } catch (e) {
    failed = true;
    console.error(`demo failed: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
  } finally {
    await mock.stop();
    line('Mock stopped.');
  }
  process.exit(failed ? 1 : 0);
}

await main();
