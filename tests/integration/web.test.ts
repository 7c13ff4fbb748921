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
