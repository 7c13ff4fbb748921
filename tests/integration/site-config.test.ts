import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

// GET /api/v1/config: public, no cookies, and the contact address only when the owner set one.
describe('GET /api/v1/config', () => {
  let plain: TestServer;
  let withContact: TestServer;
  beforeAll(async () => {
    [plain, withContact] = await Promise.all([startServer(), startServer({ CONTACT_EMAIL: 'hello@shop.example' })]);
  });
  afterAll(async () => Promise.all([plain?.close(), withContact?.close()]));

  it('answers null when CONTACT_EMAIL is unset', async () => {
    const res = await fetch(`${plain.url}/api/v1/config`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ contactEmail: null });
  });

  it("answers the owner's address to anyone, signed in or not", async () => {
    const res = await fetch(`${withContact.url}/api/v1/config`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('max-age=');
    expect(await res.json()).toEqual({ contactEmail: 'hello@shop.example' });
  });
});
