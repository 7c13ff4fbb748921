import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { CookieJar, browserFetch } from '../helpers/signin.js';
import { DEFAULT_TIMEOUTS } from '../../server/http/timeouts.js';
import { makeCampaign, sessionId, info, pageEvents, postBatch } from './ingest-support.js';

// HTTP hardening: security headers on the app shell, the API and the tracker's routes, and
// socket timeouts that cut off clients too slow to finish a request.

/** The CSP as a map of directive → sources. */
function csp(header: string | null): Map<string, string[]> {
  expect(header, 'a Content-Security-Policy header').toBeTruthy();
  return new Map(
    (header as string)
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

describe('security headers', () => {
  let server: TestServer;
  let campaignId: string;
  beforeAll(async () => {
    server = await startServer();
    campaignId = await makeCampaign(server);
  });
  afterAll(async () => server?.close());

  it('gives the app shell a CSP that runs only our own scripts but lets recorded pages render', async () => {
    const res = await fetch(`${server.url}/`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const policy = csp(res.headers.get('content-security-policy'));
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('script-src-attr')).toEqual(["'none'"]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    // Recorded pages: inline styles, and images, fonts and stylesheets from any web origin.
    expect(policy.get('style-src')).toEqual(expect.arrayContaining(["'self'", "'unsafe-inline'", 'https:', 'http:', 'blob:']));
    for (const directive of ['img-src', 'font-src'])
      expect(policy.get(directive)).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:', 'https:', 'http:']));
    expect(policy.get('worker-src')).toEqual(["'self'"]);
    expect(policy.has('upgrade-insecure-requests')).toBe(false);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    // PUBLIC_URL is http: no HSTS (it would lock browsers out of a plain-http install).
    expect(res.headers.get('strict-transport-security')).toBeNull();
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(await res.text()).toContain('<div id="root">');
  });

  it('gives deep links and the service worker the same policy', async () => {
    for (const route of ['/dashboard', '/sw.js']) {
      const res = await fetch(`${server.url}${route}`, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(200);
      expect(csp(res.headers.get('content-security-policy')).get('script-src')).toEqual(["'self'"]);
      await res.arrayBuffer();
    }
  });

  it('sends no referrer and no document rights from the API', async () => {
    for (const route of ['/api/v1/auth/me', '/api/v1/no-such-call']) {
      const res = await fetch(`${server.url}${route}`);
      expect([401, 404]).toContain(res.status);
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(await res.json()).toHaveProperty('error');
    }
  });

  it('keeps the tracker files loadable from any site: nosniff and Cross-Origin-Resource-Policy cross-origin', async () => {
    for (const route of [`/t/${campaignId}.js`, '/static/recorder.js', '/static/magicFormat.js']) {
      const res = await fetch(`${server.url}${route}`);
      expect(res.status, route).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect((await res.text()).length).toBeGreaterThan(0);
    }
  });

  it('keeps ingest usable cross-origin: its answers and preflights carry CORP cross-origin', async () => {
    const res = await postBatch(server, campaignId, { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() });
    expect(res.status).toBe(200);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    expect(await res.json()).toEqual({ stored: true });
    const preflight = await fetch(`${server.url}/api/v1/ingest/${campaignId}`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('leaves the built-in sign-in form its own stricter CSP', async () => {
    const jar = new CookieJar();
    const go = browserFetch(server, jar);
    let response = await go('/api/v1/auth/google/login');
    for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops++) {
      response = await go(new URL(response.headers.get('location') ?? '', server.config.publicUrl).href);
    }
    expect(response.status).toBe(200);
    expect(new URL(response.url).pathname).toMatch(/^\/oidc\/interaction\//);
    expect(await response.text()).toContain('<form');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('security headers on https', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ PUBLIC_URL: 'https://tapedeck.example.org' });
  });
  afterAll(async () => server?.close());

  it('sends HSTS when PUBLIC_URL is https', async () => {
    const res = await fetch(`${server.url}/`, { headers: { accept: 'text/html' } });
    expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=31536000$/);
    expect(await res.text()).toContain('<div id="root">');
  });
});

/** Writes the request's start, then nothing more; resolves with what the server sent before closing. */
function stalledRequest(url: string, start: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(start));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (data: string) => (answer += data));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
  });
}

describe('timeouts', () => {
  let server: TestServer;
  let campaignId: string;
  beforeAll(async () => {
    server = await startServer({}, { build: { timeouts: { requestMs: 600, headersMs: 300 } } });
    campaignId = await makeCampaign(server);
  });
  afterAll(async () => server?.close());

  it('bounds how long a client may take to send a request (defaults: 30 s whole request, 15 s headers)', async () => {
    expect(DEFAULT_TIMEOUTS.requestMs).toBe(30_000);
    const defaults = await startServer();
    try {
      expect(defaults.app.server.requestTimeout).toBe(30_000);
      expect(defaults.app.server.headersTimeout).toBe(15_000);
      expect(defaults.app.server.keepAliveTimeout).toBe(65_000);
      expect(defaults.app.server.timeout).toBe(60_000);
    } finally {
      await defaults.close();
    }
  });

  it('cuts off a client that sends the headers and then never finishes the body', async () => {
    const head = [
      `POST /api/v1/ingest/${campaignId} HTTP/1.1`,
      `Host: 127.0.0.1`,
      'Origin: https://shop.example.com',
      'Content-Type: text/plain',
      'Content-Length: 100000',
      '',
      '',
    ].join('\r\n');
    const answer = await stalledRequest(server.url, head + '{"sessionId":"');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('cuts off a client that never finishes its headers', async () => {
    const answer = await stalledRequest(server.url, 'GET /api/v1/auth/me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("closes a connection that never sent a byte (a browser's spare socket) without a 408 the browser would misread", async () => {
    expect(await stalledRequest(server.url, '')).toBe('');
  });

  it('still answers a prompt client on the same server', async () => {
    const res = await fetch(`${server.url}/api/v1/auth/me`);
    expect(res.status).toBe(401);
    expect(await res.json()).toHaveProperty('error');
  });
});
