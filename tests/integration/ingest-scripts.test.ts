import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { buildTracker } from '../../tracker/build.mjs';
import { fillLoader } from '../../common/loader-script.js';
import { makeCampaign, sessionId, info, pageEvents, postBatch, rawGet } from './ingest-support.js';

describe('serving the tracker files', () => {
  let server: TestServer;
  let distDir: string;
  beforeAll(async () => {
    distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-dist-'));
    await buildTracker(path.join(distDir, 'tracker'));
    server = await startServer({ DIST_DIR: distDir, PUBLIC_URL: 'https://rec.example.org' });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(distDir, { recursive: true, force: true });
  });

  it('serves the readable loader with one campaign-id and one base-URL assignment, revalidated by ETag', async () => {
    const res = await fetch(`${server.url}/static/magicFormat.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const etag = res.headers.get('etag') as string;
    expect(etag).toMatch(/^".+"$/);
    const source = await res.text();
    expect(source.match(/var campaignId = /g)).toHaveLength(1);
    expect(source.match(/var baseUrl = /g)).toHaveLength(1);
    const again = await fetch(`${server.url}/static/magicFormat.js`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('serves the recorder gzip-compressed with a cache lifetime and an ETag', async () => {
    const res = await fetch(`${server.url}/static/recorder.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('max-age=3600');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const text = await res.text();
    expect(text).toContain('tapedeck');
    const etag = res.headers.get('etag') as string;
    expect((await fetch(`${server.url}/static/recorder.js`, { headers: { 'if-none-match': `W/${etag}` } })).status).toBe(304);
    expect((await fetch(`${server.url}/static/recorder.js`, { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
  });

  it.each(['/static/recorder.js', '/static/magicFormat.js', '/t/5b0c1f8e-8d3a-4c57-9a4e-2f0c9d7b6a11.js'])(
    'answers %s uncompressed to a caller that refuses gzip with q=0',
    async (file) => {
      const refused = await rawGet(server.url + file, { 'accept-encoding': 'gzip;q=0, identity' });
      expect(refused.status).toBe(200);
      expect(refused.headers['content-encoding']).toBeUndefined();
      expect(refused.body.length).toBeGreaterThan(100);
      const zipped = await rawGet(server.url + file, { 'accept-encoding': 'gzip;q=0.5' });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(zipped.body).equals(refused.body)).toBe(true);
    },
  );

  it('serves /t/{campaignId}.js as the loader filled in for that campaign', async () => {
    const campaignId = '5b0c1f8e-8d3a-4c57-9a4e-2f0c9d7b6a11';
    const res = await fetch(`${server.url}/t/${campaignId}.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const source = await (await fetch(`${server.url}/static/magicFormat.js`)).text();
    expect(await res.text()).toBe(fillLoader(source, campaignId, 'https://rec.example.org'));
    expect((await fetch(`${server.url}/t/${campaignId}.js`, { headers: { 'if-none-match': res.headers.get('etag') as string } })).status).toBe(304);
    expect((await fetch(`${server.url}/t/not-a-campaign.js`)).status).toBe(404);
    expect((await fetch(`${server.url}/t/${campaignId}.css`)).status).toBe(404);
  });

  it('keeps the loader within 1.5 KB and the whole download within 26 KB, gzip', () => {
    const gz = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(distDir, 'tracker', file)), { level: 9 }).length;
    expect(gz('magicFormat.js')).toBeLessThanOrEqual(1.5 * 1024);
    expect(gz('magicFormat.js') + gz('recorder.js')).toBeLessThanOrEqual(26 * 1024);
  });
});

describe('the visitor address and country', () => {
  const servers: TestServer[] = [];
  afterAll(async () => Promise.all(servers.map((s) => s.close())));

  async function ingestFrom(env: Record<string, string>, ipMode?: 'full' | 'truncated' | 'none', address = '8.8.8.8') {
    const server = await startServer(env);
    servers.push(server);
    const campaignId = await makeCampaign(server, { ipMode });
    const id = sessionId();
    const res = await postBatch(server, campaignId, { sessionId: id, seq: 0, info: info(), events: pageEvents() }, { headers: { 'x-forwarded-for': address } });
    expect(res.status).toBe(200);
    return server.db.selectFrom('sessions').select(['remote_ip', 'country', 'ip_mode']).where('id', '=', id).executeTakeFirstOrThrow();
  }

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    expect(await ingestFrom({})).toEqual({ remote_ip: '127.0.0.1', country: null, ip_mode: 'full' });
  });

  it('takes the address from X-Forwarded-For behind a trusted proxy and looks up its country offline', async () => {
    expect(await ingestFrom({ TRUST_PROXY: '1' })).toEqual({ remote_ip: '8.8.8.8', country: 'United States', ip_mode: 'full' });
  });

  it('stores a truncated address or none as the campaign says, and the mode with the session, the country still from the full one', async () => {
    expect(await ingestFrom({ TRUST_PROXY: '1' }, 'truncated')).toEqual({ remote_ip: '8.8.8.0', country: 'United States', ip_mode: 'truncated' });
    expect(await ingestFrom({ TRUST_PROXY: '1' }, 'truncated', '2001:4860:4860::8888')).toEqual({
      remote_ip: '2001:4860:4860::',
      country: 'United States',
      ip_mode: 'truncated',
    });
    expect(await ingestFrom({ TRUST_PROXY: '1' }, 'none')).toEqual({ remote_ip: null, country: 'United States', ip_mode: 'none' });
  });
});
