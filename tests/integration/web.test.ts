import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

describe('serving the PWA', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  it.each(['/', '/dashboard', '/createCampaign', '/campaign/abc', '/campaign/abc/session/def', '/auth/google/callback', '/no/such/page'])(
    'answers %s with the app shell',
    async (route) => {
      const res = await fetch(server.url + route, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toContain('<div id="root">');
    },
  );

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await fetch(server.url + '/api/v1/nothing', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Not found' });
  });
});

describe('compression of the app shell', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  it('sends built scripts gzip-encoded to clients that accept it', async () => {
    const html = await (await fetch(server.url + '/', { headers: { accept: 'text/html' } })).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const res = await fetch(server.url + script, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('cache-control')).toContain('immutable');
    expect((await res.text()).length).toBeGreaterThan(100);
  });

  it('sends built scripts uncompressed to a caller that refuses gzip with q=0', async () => {
    const html = await (await fetch(server.url + '/', { headers: { accept: 'text/html' } })).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const res = await fetch(server.url + script, { headers: { 'accept-encoding': 'gzip;q=0' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBeNull();
    expect((await res.text()).length).toBeGreaterThan(100);
  });
});
