// Shared by the ingest integration tests and the tracker's browser tests.
import crypto from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import { userSession } from '../helpers/auth.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { VISITOR_BROWSER } from '../helpers/visitor.js';
import type { Insertable } from 'kysely';
import type { Campaign } from '../../common/api-types.js';
import type { CampaignsTable } from '../../server/db/schema.js';

export interface CampaignOptions {
  /** The owner's user id; a fresh user when not given. */
  ownerId?: string;
  domains?: string;
  limit?: number;
  start?: number;
  end?: number;
  /** The campaign's console-capture setting (on unless told otherwise). */
  captureConsole?: boolean;
  /** How much of the visitor's address is stored; the column's default (full) when not given. */
  ipMode?: 'full' | 'truncated' | 'none';
  /** Other columns of the campaign row (its recording rules), as stored. */
  columns?: Partial<Insertable<CampaignsTable>>;
}

const DAY = 24 * 60 * 60 * 1000;

/** A campaign row owned by a fresh user, active now unless told otherwise. */
export async function makeCampaign(server: TestServer, options: CampaignOptions = {}): Promise<string> {
  const userId = options.ownerId ?? (await userSession(server, `Owner ${crypto.randomBytes(3).toString('hex')}`)).userId;
  const id = crypto.randomUUID();
  await server.db
    .insertInto('campaigns')
    .values({
      id,
      owner_id: userId,
      name: 'Ingest test',
      domains: options.domains ?? 'shop.example.com',
      session_limit: options.limit ?? 0,
      start_date_time: options.start ?? Date.now() - DAY,
      end_date_time: options.end ?? Date.now() + DAY,
      created_at: Date.now(),
      ...(options.captureConsole === false ? { capture_console: 0 } : {}),
      ...(options.ipMode ? { ip_mode: options.ipMode } : {}),
      ...options.columns,
    })
    .execute();
  return id;
}

export const sessionId = () => crypto.randomBytes(16).toString('hex');

export const info = (overrides: Record<string, unknown> = {}) => ({
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  ...VISITOR_BROWSER,
  screenWidth: 1920,
  screenHeight: 1080,
  referrer: 'https://search.example/',
  url: 'https://shop.example.com/cart',
  ...overrides,
});

export interface TestEvent {
  type: number;
  data: Record<string, unknown>;
  timestamp: number;
}

/** A page load as rrweb records it: meta, full snapshot, then a click. */
export function pageEvents(start = Date.now() - 3000): TestEvent[] {
  return [
    { type: 4, data: { href: 'https://shop.example.com/cart', width: 1280, height: 720 }, timestamp: start },
    { type: 2, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: { top: 0, left: 0 } }, timestamp: start + 5 },
    { type: 3, data: { source: 2, type: 2, id: 1, x: 10, y: 10 }, timestamp: start + 2000 },
  ];
}

export interface PostOptions {
  origin?: string | null;
  gzip?: boolean;
  headers?: Record<string, string>;
}

/** POSTs a batch the way the tracker does: text/plain, gzip unless told otherwise. */
export async function postBatch(server: TestServer, campaignId: string, body: unknown, options: PostOptions = {}) {
  const json = typeof body === 'string' ? body : JSON.stringify(body);
  const payload = Buffer.isBuffer(body) ? body : options.gzip === false ? Buffer.from(json) : zlib.gzipSync(json);
  const origin = options.origin === undefined ? 'https://shop.example.com' : options.origin;
  return fetch(`${server.url}/api/v1/ingest/${campaignId}`, {
    method: 'POST',
    body: new Uint8Array(payload),
    headers: { 'content-type': 'text/plain', ...(origin ? { origin } : {}), ...options.headers },
  });
}

export async function storedCounts(server: TestServer, campaignId: string) {
  const sessions = await server.db.selectFrom('sessions').select('id').where('campaign_id', '=', campaignId).execute();
  const chunks = await server.db.selectFrom('chunks').select('seq').where('campaign_id', '=', campaignId).execute();
  return { sessions: sessions.length, chunks: chunks.length };
}

/** A campaign made through the owner's own API call (example.com, no limit, always active unless `live` says when). */
export async function createCampaign(
  server: TestServer,
  headers: Record<string, string>,
  name: string,
  domains = 'example.com',
  live = { from: 1, to: 2e12 },
): Promise<Campaign> {
  const response = await fetch(`${server.url}/api/v1/campaign/create`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name, domains, limit: 0, start_date_time: live.from, end_date_time: live.to }),
  });
  return ((await response.json()) as { data: Campaign }).data;
}

/** A raw GET, so the test sees the bytes on the wire (fetch would decompress them). */
export function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(parts) }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/** A fresh server with an owner, their campaign, and another user who has no part in it. */
export async function ownerAndOther(ownerName: string, otherName: string, campaignName: string) {
  const { server, owner, stranger: other } = await serverWithStranger(ownerName, otherName);
  const campaign = await createCampaign(server, owner.headers, campaignName);
  return { server, owner, other, campaign };
}

/** A fresh server (PostgreSQL with TEST_DATABASE_URL) and a signed-in owner. */
export async function serverWithOwner(ownerName: string) {
  const server = await startServer();
  return { server, owner: await userSession(server, ownerName) };
}

/** serverWithOwner, and a campaign row of the owner's. */
export async function serverWithCampaign(ownerName: string) {
  const { server, owner } = await serverWithOwner(ownerName);
  return { server, owner, campaignId: await makeCampaign(server, { ownerId: owner.userId }) };
}

/** serverWithOwner, and another signed-in user who has no part in the owner's campaigns. */
export async function serverWithStranger(ownerName: string, strangerName: string) {
  const { server, owner } = await serverWithOwner(ownerName);
  return { server, owner, stranger: await userSession(server, strangerName) };
}
