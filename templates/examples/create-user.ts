// Create a user, and tell a fresh create from the echo of an earlier attempt.
import { AlreadyExistsError, ImClient } from 'im-server-sdk';

const im = new ImClient({
  baseUrl: process.env.IM_BASE_URL ?? 'http://127.0.0.1:4010',
  appKey: process.env.IM_APP_KEY ?? 'demo-org#demo-app',
  clientId: process.env.IM_CLIENT_ID ?? 'demo-client-id',
  clientSecret: process.env.IM_CLIENT_SECRET ?? 'demo-client-secret',
});

try {
  const user = await im.users.create({ username: 'alice' });
  console.log('created', user);
} catch (error) {
  // users.create is class U: a resent attempt may meet the user its own first attempt created.
  if (error instanceof AlreadyExistsError && error.mayBeEchoOfEarlierAttempt)
    console.log('created by our earlier attempt');
  else throw error;
}
