import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { appendChunk } from '../../server/recordings/seed.js';
import { insertSession } from '../../server/recordings/seed.js';
import type { Campaign, ReplayEvent, Session } from '../../common/api-types.js';
import { createCampaign, rawGet } from './ingest-support.js';
import { recordingFileFlaw } from '../../common/recording-file.js';

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let campaign: Campaign;

const event = (type: number, timestamp: number, data: unknown = {}): ReplayEvent => ({ type, data, timestamp });

interface RecordingFile {
  format: string;
  version: number;
  campaignId: string;
  session: Session;
  events: ReplayEvent[];
}

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'Export Owner');
  campaign = await createCampaign(server, owner.headers, 'Exports');
  await insertSession(server.db, {
    campaign_id: campaign.id,
    id: 'export-session-1',
    started_at: 1_000,
    last_activity_at: 61_000,
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130',
    remote_ip: '198.51.100.7',
    language: 'en-GB',
    timezone: 'Europe/London',
    click_count: 3,
    pages: 'https://example.com/\nhttps://example.com/pricing',
  });
  const chunks = [
    [event(4, 1000, { href: 'https://example.com/' }), event(2, 1001, { node: { id: 1 } })],
    [event(3, 1500, { text: 'naïve “quotes” </script>' }), event(3, 1200)],
  ];
  for (const [seq, events] of chunks.entries()) await appendChunk(server.db, { campaignId: campaign.id, sessionId: 'export-session-1', seq, events });
});
afterAll(async () => server?.close());

describe('GET /api/v1/replay/export/:campaignId/:sessionId', () => {
  it('answers one gzip file to save: the format, its version, the session with its derived fields, the events in order', async () => {
    const response = await rawGet(server.url + `/api/v1/replay/export/${campaign.id}/export-session-1`, { ...owner.headers, 'accept-encoding': 'identity' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/gzip');
    expect(response.headers['content-disposition']).toBe('attachment; filename="tapedeck-export-session-1.json.gz"');
    expect(response.headers['content-encoding']).toBeUndefined();
    const file = JSON.parse(gunzipSync(response.body).toString('utf8')) as RecordingFile;
    expect(file.format).toBe('tapedeck-recording');
    expect(file.version).toBe(1);
    expect(file.campaignId).toBe(campaign.id);
    expect(file.session).toMatchObject({
      sessionId: 'export-session-1',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130',
      remoteIpAddress: '198.51.100.7',
      startedAt: 1_000,
      lastActivityAt: 61_000,
      clickCount: 3,
      pages: ['https://example.com/', 'https://example.com/pricing'],
    });
    expect(file.events.map((e) => e.timestamp)).toEqual([1000, 1001, 1200, 1500]);
    expect(file.events[3].data).toEqual({ text: 'naïve “quotes” </script>' });
    // What the app checks a file against before opening it (common/recording-file.ts).
    expect(recordingFileFlaw(file)).toBeNull();
  });

  it('answers 404 for an unknown session, 400 for a malformed id, 401 without a session', async () => {
    const unknown = await fetch(`${server.url}/api/v1/replay/export/${campaign.id}/no-such-session`, { headers: owner.headers });
    expect([unknown.status, await unknown.json()]).toEqual([404, { error: 'Session not found' }]);
    const malformed = await fetch(`${server.url}/api/v1/replay/export/${campaign.id}/bad!id`, { headers: owner.headers });
    expect(malformed.status).toBe(400);
    const anonymous = await fetch(`${server.url}/api/v1/replay/export/${campaign.id}/export-session-1`);
    expect(anonymous.status).toBe(401);
  });

  it('gives another owner nothing of the recording, and no session through another campaign', async () => {
    const stranger = await userSession(server, 'Export Stranger');
    const theirs = await fetch(`${server.url}/api/v1/replay/export/${campaign.id}/export-session-1`, { headers: stranger.headers });
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain('198.51.100.7');
    const other = await createCampaign(server, owner.headers, 'Other exports');
    const crossed = await fetch(`${server.url}/api/v1/replay/export/${other.id}/export-session-1`, { headers: owner.headers });
    expect(crossed.status).toBe(404);
  });
});
