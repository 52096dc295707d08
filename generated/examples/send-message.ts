// Copied by im-openapi from templates/examples/send-message.ts. Do not edit here: edit the template and run `npm run generate`.
// Send a message. messages.send is class D: the client fills client_msg_id once and reuses it
// on every resend, so a timeout never turns into a double send. Pass your own id to make a
// resend from another process safe too.
import { ImClient } from 'im-server-sdk';

const im = new ImClient({
  baseUrl: process.env.IM_BASE_URL ?? 'http://127.0.0.1:4010',
  appKey: process.env.IM_APP_KEY ?? 'demo-org#demo-app',
  clientId: process.env.IM_CLIENT_ID ?? 'demo-client-id',
  clientSecret: process.env.IM_CLIENT_SECRET ?? 'demo-client-secret',
});

const controller = new AbortController();
const { data, response } = await im.messages
  .send(
    { client_msg_id: 'order-42-shipped', from: 'shop', to: 'alice', body: 'Your order has shipped' },
    { timeoutMs: 5_000, signal: controller.signal },
  )
  .withResponse();
console.log(response.status, response.requestId, data);
