// Copied by im-openapi from templates/examples/walk-list.ts. Do not edit here: edit the template and run `npm run generate`.
// Walk a paged list: `for await` follows next_cursor until it is null; a page's cursor can be
// saved and passed back as `cursor` to resume later.
import { ImClient } from 'im-server-sdk';

const im = new ImClient({
  baseUrl: process.env.IM_BASE_URL ?? 'http://127.0.0.1:4010',
  appKey: process.env.IM_APP_KEY ?? 'demo-org#demo-app',
  clientId: process.env.IM_CLIENT_ID ?? 'demo-client-id',
  clientSecret: process.env.IM_CLIENT_SECRET ?? 'demo-client-secret',
});

for await (const group of im.groups.ofUser({ username: 'alice' })) console.log(group);

const first = await im.users.list();
console.log(first.items.length, 'users on the first page; resume from', first.nextCursor);
if (first.nextCursor) {
  const next = await im.users.list({ cursor: first.nextCursor });
  console.log(next.items.length, 'more');
}
