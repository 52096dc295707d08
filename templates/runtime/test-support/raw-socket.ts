/**
 * Test support: a raw TCP connection to a receiver under test, for what an HTTP client cannot do
 * (drip-feed a body, send a declared length and stop, count when the server closes). Used by
 * callbacks/receiver-limits.test.ts and test/callbacks-body-deadline.test.ts.
 */
import { connect, type Socket } from 'node:net';

export interface RawSocket {
  socket: Socket;
  /** Everything received so far, as latin1 text (HTTP heads are ASCII). */
  received: () => string;
  /** When the server closed the connection, in ms after it was opened. */
  closedAfter: Promise<number>;
}

/** Opens a connection to 127.0.0.1:port; `track` collects the socket so the test's afterEach destroys it. */
export function rawSocket(port: number, track: Socket[]): RawSocket {
  const opened = Date.now();
  const socket = connect({ host: '127.0.0.1', port });
  track.push(socket);
  let text = '';
  socket.on('data', (d) => (text += d.toString('latin1')));
  socket.on('error', () => undefined);
  const closedAfter = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - opened)));
  return { socket, received: () => text, closedAfter };
}

/** The promise's value, or 'still open' when it has not settled within ms. */
export const within = <T>(ms: number, p: Promise<T>): Promise<T | 'still open'> =>
  Promise.race([p, new Promise<'still open'>((r) => setTimeout(() => r('still open'), ms))]);
