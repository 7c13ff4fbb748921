import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the receiver got, as it came. */
interface Received {
  at: number;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook endpoint on a loopback address (the outside world webhooks are sent to): it keeps every
 * request and answers the status `answer` set (200 unless told), or a redirect where `redirectTo` says.
 */
export async function startReceiver(host = '127.0.0.1') {
  const received: Received[] = [];
  const state = { status: 200, location: undefined as string | undefined };
  const server = http.createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      received.push({ at: Date.now(), path: request.url ?? '/', headers: request.headers, body: Buffer.concat(parts).toString('utf8') });
      if (state.location) response.writeHead(302, { location: state.location }).end();
      else response.writeHead(state.status).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    received,
    /** The status answered from now on. */
    answer(status: number) {
      state.status = status;
      state.location = undefined;
    },
    redirectTo(location: string) {
      state.location = location;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;
