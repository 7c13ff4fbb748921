// A site of our own for the browser figures, on its own 127.0.0.1 port: the visitor's site the
// tracker records cross-origin, or a bare page that replays with rrweb-player alone.
import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';

export interface Site {
  url: string;
  close(): Promise<void>;
}

export interface SiteFile {
  body: string | Buffer;
  type: string;
}

const types: Record<string, string> = { html: 'text/html; charset=utf-8', js: 'text/javascript', css: 'text/css', json: 'application/json' };

/** Serves `files` by path ('/' for the page); text is sent gzip to clients that accept it, like ours. */
export async function serveSite(files: string | Record<string, SiteFile>): Promise<Site> {
  const table = typeof files === 'string' ? { '/': { body: files, type: types.html } } : files;
  const gzipped = new Map(Object.entries(table).map(([p, f]) => [p, zlib.gzipSync(f.body)]));
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://x').pathname;
    const file = table[pathname];
    if (!file) return void response.writeHead(404).end();
    const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    response.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
    response.end(gzip ? gzipped.get(pathname) : file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const siteTypes = types;
