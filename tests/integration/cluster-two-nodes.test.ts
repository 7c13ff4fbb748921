import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, usingPostgres } from '../helpers/server.js';
import { spawnServer, type ServerProcess } from './spawn-server.js';
import { signIn, type SignedIn } from '../helpers/signin.js';
import { roundRobin, type Served } from '../helpers/cluster.js';
import { info, pageEvents, sessionId } from './ingest-support.js';
import type { Browser } from 'playwright-core';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { buildTracker } from '../../tracker/build.mjs';
import { flushRecorder, recorderRunning, startSite, type Site } from '../e2e/tracker-site.js';

// A deployment of two server processes on one fresh PostgreSQL database, behind a plain
// round-robin proxy, with nothing shared but DATABASE_URL: every step must work whichever node
// serves it. PostgreSQL only (SQLite is one server by design).
if (!usingPostgres()) {
  const message = 'cluster tests skipped: two servers need a shared PostgreSQL; set TEST_DATABASE_URL (CI does)';
  console.warn(`\n${'!'.repeat(message.length)}\n${message}\n${'!'.repeat(message.length)}\n`);
}

const nodesServing = (served: Served[], pathStart: string) => new Set(served.filter((s) => s.path.startsWith(pathStart)).map((s) => s.node));

const DAY = 24 * 60 * 60 * 1000;
const SITE = 'https://shop.example.com';
/** Batches one session may send a minute, counted across both nodes. */
const BATCHES_PER_SESSION = 6;

describe.skipIf(!usingPostgres())('two servers on one PostgreSQL behind a round-robin proxy', { timeout: 120_000 }, () => {
  const database = `cluster_${crypto.randomBytes(6).toString('hex')}`;
  const admin = () => new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  const dataDirs: string[] = [];
  const nodes: ServerProcess[] = [];
  const nodeUrls: string[] = [];
  let proxy: ReturnType<typeof roundRobin>;
  let site: { url: string; config: { publicUrl: string } };
  let owner: SignedIn;
  let distDir: string;
  let visitorSite: Site | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    const client = admin();
    await client.connect();
    await client.query(`create database ${database}`);
    await client.end();
    const databaseUrl = new URL(process.env.TEST_DATABASE_URL as string);
    databaseUrl.pathname = `/${database}`;

    // The nodes serve the tracker (the one-line install and the recorder) from their dist.
    distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-cluster-dist-'));
    await buildTracker(path.join(distDir, 'tracker'));
    const ports = [await freePort(), await freePort()];
    proxy = roundRobin(ports);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    const publicUrl = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
    site = { url: publicUrl, config: { publicUrl } };

    // Both start at once on an empty database: the migrations and the generated secrets race.
    for (const port of ports) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tapedeck-node-'));
      dataDirs.push(dataDir);
      nodeUrls.push(`http://127.0.0.1:${port}`);
      nodes.push(
        spawnServer({
          PORT: String(port),
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl.href,
          DIST_DIR: distDir,
          PUBLIC_URL: publicUrl,
          RATE_BATCHES_PER_SESSION: String(BATCHES_PER_SESSION),
        }),
      );
    }
    await Promise.all(nodes.map((node) => node.printed(/Tapedeck is running/)));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await visitorSite?.close();
    for (const node of nodes) node.child.kill('SIGTERM');
    await Promise.all(nodes.map((node) => node.exited));
    await new Promise((resolve) => proxy?.server.close(resolve));
    for (const dir of [...dataDirs, distDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
    const client = admin();
    await client.connect();
    await client.query(`drop database if exists ${database} with (force)`);
    await client.end();
  });

  const call = (url: string, init: RequestInit = {}) =>
    fetch(url, { ...init, headers: { ...owner.headers, 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });

  async function createCampaign(name: string, limit: number, domains = 'shop.example.com'): Promise<string> {
    const response = await call(`${site.url}/api/v1/campaign/create`, {
      method: 'POST',
      body: JSON.stringify({ name, domains, limit, start_date_time: Date.now() - DAY, end_date_time: Date.now() + DAY }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { data: { id: string } }).data.id;
  }

  /** A batch as the tracker sends it: gzip, text/plain, from the site's origin. */
  const postBatch = (campaignId: string, batch: Record<string, unknown>) =>
    fetch(`${site.url}/api/v1/ingest/${campaignId}`, {
      method: 'POST',
      body: new Uint8Array(zlib.gzipSync(JSON.stringify(batch))),
      headers: { 'content-type': 'text/plain', origin: SITE },
    });

  it('both nodes are ready, and neither kept a secret of its own in its DATA_DIR', async () => {
    for (const url of nodeUrls) expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ ok: true });
    for (const dir of dataDirs) expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('signs in through the proxy with the built-in provider, its requests landing on both nodes', async () => {
    const before = proxy.served.length;
    owner = await signIn(site, { name: 'Ada Cluster', email: 'ada@cluster.test' });
    expect(owner.user.email).toBe('ada@cluster.test');
    const signInRequests = proxy.served.slice(before);
    expect(nodesServing(signInRequests, '/oidc/')).toEqual(new Set([0, 1]));
    // A session made on one node is honoured by the other.
    for (const url of nodeUrls) expect((await call(`${url}/api/v1/auth/me`)).status).toBe(200);
  });

  it('records a session whose batches alternate between nodes, then lists and replays it through the proxy', async () => {
    const campaignId = await createCampaign('Two nodes', 0);
    const id = sessionId();
    const start = Date.now() - 60_000;
    const before = proxy.served.length;
    for (let seq = 0; seq < BATCHES_PER_SESSION; seq++) {
      const response = await postBatch(campaignId, { sessionId: id, seq, ...(seq === 0 ? { info: info() } : {}), events: pageEvents(start + seq * 5_000) });
      expect(await response.json()).toEqual({ stored: true });
    }
    const ingestNodes = proxy.served
      .slice(before)
      .filter((s) => s.path.startsWith('/api/v1/ingest/'))
      .map((s) => s.node);
    expect(ingestNodes).toHaveLength(BATCHES_PER_SESSION);
    expect(new Set(ingestNodes)).toEqual(new Set([0, 1]));

    const list = (await (await call(`${site.url}/api/v1/streaming/sessions/${campaignId}/`)).json()) as {
      sessions: Array<{ sessionId: string }>;
      counts: { total: number };
    };
    expect(list.sessions.map((s) => s.sessionId)).toEqual([id]);
    expect(list.counts.total).toBe(1);
    const replay = (await (await call(`${site.url}/api/v1/replay/retrieve/${campaignId}/${id}`)).json()) as { events: Array<{ timestamp: number }> };
    expect(replay.events).toHaveLength(BATCHES_PER_SESSION * 3);
    const times = replay.events.map((e) => e.timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));

    // The per-session limit is counted for the whole site, not per node.
    const extra = await Promise.all([0, 1, 2, 3].map((i) => postBatch(campaignId, { sessionId: id, seq: BATCHES_PER_SESSION + i, events: pageEvents(start) })));
    expect(extra.map((r) => r.status)).toEqual([429, 429, 429, 429]);
  });

  it.skipIf(!hasChromium)('records a visitor in Chromium whose batches land on both nodes, then lists and replays the visit through the proxy', async () => {
    visitorSite = await startSite();
    const campaignId = await createCampaign('Visitors', 0, `127.0.0.1:${visitorSite.port}`);
    visitorSite.install(`<script async src="${site.url}/t/${campaignId}.js"></script>`);
    browser = await launchChromium();
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
    const before = proxy.served.length;
    const ingestNodes = () => nodesServing(proxy.served.slice(before), `/api/v1/ingest/${campaignId}`);

    await page.goto(`${visitorSite.url}/checkout.html`);
    await recorderRunning(page);
    await flushRecorder(page);
    await page.click('#buy');
    await flushRecorder(page);
    await page.click('#next');
    await page.waitForURL(`${visitorSite.url}/thanks.html`);
    await recorderRunning(page);
    await page.click('#done');
    await flushRecorder(page);

    type Listed = { sessions: Array<{ sessionId: string }> };
    type Replayed = { events: Array<{ type: number; data: { source?: number; type?: number } }> };
    const visitAt = async (base: string) => {
      const { sessions } = (await (await call(`${base}/api/v1/streaming/sessions/${campaignId}/`)).json()) as Listed;
      if (sessions.length !== 1) return undefined;
      const { events } = (await (await call(`${base}/api/v1/replay/retrieve/${campaignId}/${sessions[0].sessionId}`)).json()) as Replayed;
      const snapshots = events.filter((e) => e.type === 2).length;
      const clicks = events.filter((e) => e.type === 3 && e.data.source === 2 && e.data.type === 2).length;
      return { snapshots, clicks };
    };
    // The recorder sends on its own schedule: wait for the whole visit, asking one node directly
    // so that only the visitor's requests go through the proxy (its batches take turns there).
    const stored = async () => {
      const visit = await visitAt(nodeUrls[0]);
      return visit && visit.snapshots === 2 && visit.clicks >= 2 && ingestNodes().size === 2;
    };
    for (let tries = 0; tries < 100 && !(await stored()); tries++) {
      if (tries % 10 === 9) await flushRecorder(page).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(ingestNodes()).toEqual(new Set([0, 1]));
    const throughProxy = await visitAt(site.url);
    expect(throughProxy?.snapshots).toBe(2); // one full snapshot per page
    expect(throughProxy?.clicks).toBeGreaterThanOrEqual(2);
  });

  it('admits exactly 5 of 50 visitors arriving at once on a limit-5 campaign, split across both nodes', async () => {
    const campaignId = await createCampaign('Limit five', 5);
    const before = proxy.served.length;
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => postBatch(campaignId, { sessionId: sessionId(), seq: 0, info: info(), events: pageEvents() })),
    );
    expect(nodesServing(proxy.served.slice(before), `/api/v1/ingest/${campaignId}`)).toEqual(new Set([0, 1]));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 403)).toHaveLength(45);
    const refusal = answers.find((r) => r.status === 403) as Response;
    expect(await refusal.json()).toEqual({ error: 'Session limit reached for this campaign' });
    const list = (await (await call(`${site.url}/api/v1/streaming/sessions/${campaignId}/`)).json()) as { counts: { total: number } };
    expect(list.counts.total).toBe(5);
  });

  it('refreshes on one node and carries on with the new cookies on the other; signing out on one ends the session on both', async () => {
    const [first, second] = nodeUrls;
    const refreshed = await call(`${first}/api/v1/auth/refresh`, { method: 'POST' });
    expect(refreshed.status).toBe(200);
    const cookies = new Map(
      refreshed.headers.getSetCookie().map((line) => {
        const pair = line.split(';')[0];
        return [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const;
      }),
    );
    const cookie = `td_access=${cookies.get('td_access')}; td_refresh=${cookies.get('td_refresh')}`;
    const headers = { cookie, origin: site.config.publicUrl };
    const me = await fetch(`${second}/api/v1/auth/me`, { headers });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe('ada@cluster.test');

    expect((await fetch(`${second}/api/v1/auth/logout`, { method: 'POST', headers })).status).toBe(200);
    expect((await fetch(`${first}/api/v1/auth/refresh`, { method: 'POST', headers })).status).toBe(401);
    expect((await fetch(`${first}/api/v1/auth/me`, { headers })).status).toBe(401);
  });
});
