// A visitor's site for the browser figures: one page served on its own 127.0.0.1 port, so the
// tracker records it cross-origin, as it would on a customer's site.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Site {
  url: string;
  close(): Promise<void>;
}

export async function serveSite(html: string): Promise<Site> {
  const server = http.createServer((request, response) => {
    if (request.url === '/' || request.url?.startsWith('/?')) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(html);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
