import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { userSession } from '../helpers/auth.js';
import { insertSession } from '../../server/recordings/seed.js';
import { appendChunk } from '../../server/recordings/seed.js';
import { sweepExpiredRecordings } from '../../server/campaigns/retention.js';
import { NOTE_WRITES_PER_USER } from '../../server/notes/repository.js';
import { NOTE_LIMIT_REACHED, type Note, type NoteList } from '../../common/api/notes.js';
import { MAX_NOTE_TEXT, MAX_NOTES_PER_SESSION } from '../../common/notes.js';
import { recordingFileFlaw, type RecordingFile } from '../../common/recording-file.js';
import type { Campaign } from '../../common/api-types.js';
import { createCampaign, rawGet } from './ingest-support.js';

// Notes at moments of a replay: owner only, author-only changes, bounded, exported, and gone with their session.

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.now();
const T = NOW - 60_000;

let server: TestServer;
let owner: Awaited<ReturnType<typeof userSession>>;
let other: Awaited<ReturnType<typeof userSession>>;
let campaign: Campaign;

async function recording(campaignId: string, id: string, startedAt = T): Promise<void> {
  await insertSession(server.db, { campaign_id: campaignId, id, started_at: startedAt });
  await appendChunk(server.db, {
    campaignId,
    sessionId: id,
    seq: 0,
    events: [{ type: 4, data: { href: 'https://example.com/', width: 1, height: 1 }, timestamp: startedAt }],
  });
}

beforeAll(async () => {
  server = await startServer();
  owner = await userSession(server, 'Note Owner');
  other = await userSession(server, 'Other Owner');
  campaign = await createCampaign(server, owner.headers, 'Notes');
  await recording(campaign.id, 'noted-session-01');
});
afterAll(async () => server?.close());

const url = (sessionId: string, noteId?: string, campaignId = campaign.id) =>
  `${server.url}/api/v1/notes/${campaignId}/${sessionId}${noteId ? `/${noteId}` : ''}`;
function call(method: string, path: string, body?: unknown, headers: Record<string, string> = owner.headers) {
  return fetch(path, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
async function notesOf(sessionId: string, campaignId = campaign.id): Promise<Note[]> {
  const response = await call('GET', url(sessionId, undefined, campaignId));
  expect(response.status).toBe(200);
  return ((await response.json()) as NoteList).notes;
}
const noteRows = (sessionId: string) => server.db.selectFrom('notes').selectAll().where('session_id', '=', sessionId).execute();

describe('notes', () => {
  it('adds notes at moments, lists them in the recording order with their author, edits and deletes them', async () => {
    const late = await call('POST', url('noted-session-01'), { text: 'Pays here', timestamp: T + 5000 });
    expect(late.status).toBe(201);
    const paid = (await late.json()) as Note;
    expect(paid).toMatchObject({ text: 'Pays here', timestamp: T + 5000, author: { id: owner.userId, name: 'Note Owner' } });
    const early = (await (await call('POST', url('noted-session-01'), { text: '  Lands  ', timestamp: T + 1000 })).json()) as Note;
    expect(early.text).toBe('Lands');
    expect((await notesOf('noted-session-01')).map((n) => n.text)).toEqual(['Lands', 'Pays here']);

    const edited = await call('PATCH', url('noted-session-01', paid.id), { text: 'Pays, then leaves', timestamp: T + 500 });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ id: paid.id, text: 'Pays, then leaves', timestamp: T + 500 });
    expect((await notesOf('noted-session-01')).map((n) => n.text)).toEqual(['Pays, then leaves', 'Lands']);

    expect((await call('DELETE', url('noted-session-01', early.id))).status).toBe(200);
    expect((await notesOf('noted-session-01')).map((n) => n.id)).toEqual([paid.id]);
    expect((await call('DELETE', url('noted-session-01', early.id))).status).toBe(404);
  });

  it('refuses empty, too long or ill-formed notes, writing nothing', async () => {
    await recording(campaign.id, 'bounds-session-1');
    const bad = [
      { text: '', timestamp: T },
      { text: '   ', timestamp: T },
      { text: 'x'.repeat(MAX_NOTE_TEXT + 1), timestamp: T },
      { text: 'no moment' },
      { text: 'bad moment', timestamp: -1 },
      { text: 'bad moment', timestamp: 1.5 },
      { text: 'extra', timestamp: T, author: 'someone' },
    ];
    for (const body of bad) {
      const response = await call('POST', url('bounds-session-1'), body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBeTruthy();
    }
    expect((await call('POST', url('bounds-session-1'), { text: 'x'.repeat(MAX_NOTE_TEXT), timestamp: T })).status).toBe(201);
    expect(await noteRows('bounds-session-1')).toHaveLength(1);
    const [note] = await notesOf('bounds-session-1');
    expect((await call('PATCH', url('bounds-session-1', note.id), {})).status).toBe(400);
    expect((await call('PATCH', url('bounds-session-1', note.id), { text: 'x'.repeat(MAX_NOTE_TEXT + 1) })).status).toBe(400);
  });

  it(`keeps at most ${MAX_NOTES_PER_SESSION} notes a session`, async () => {
    await recording(campaign.id, 'full-session-001');
    const rows = Array.from({ length: MAX_NOTES_PER_SESSION }, (_, i) => ({
      id: crypto.randomUUID(),
      campaign_id: campaign.id,
      session_id: 'full-session-001',
      author_id: owner.userId,
      text: `n${i}`,
      timestamp: T + i,
      created_at: NOW,
      updated_at: NOW,
    }));
    await server.db.insertInto('notes').values(rows).execute();
    const refused = await call('POST', url('full-session-001'), { text: 'one more', timestamp: T });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({ error: NOTE_LIMIT_REACHED });
  });

  it("answers 404 for another workspace's campaign or an unknown session, and lets only the author change a note", async () => {
    await recording(campaign.id, 'guarded-session1');
    const mine = (await (await call('POST', url('guarded-session1'), { text: 'Mine', timestamp: T })).json()) as Note;
    expect((await call('GET', url('guarded-session1'), undefined, other.headers)).status).toBe(404);
    expect((await call('POST', url('guarded-session1'), { text: 'Theirs', timestamp: T }, other.headers)).status).toBe(404);
    expect((await call('PATCH', url('guarded-session1', mine.id), { text: 'Theirs' }, other.headers)).status).toBe(404);
    expect((await call('DELETE', url('guarded-session1', mine.id), undefined, other.headers)).status).toBe(404);
    expect((await call('GET', url('no-such-session1'))).status).toBe(404);
    expect((await call('POST', url('no-such-session1'), { text: 'x', timestamp: T })).status).toBe(404);
    expect((await call('GET', url('bad id!'))).status).toBe(400);
    expect(
      (await call('POST', url('guarded-session1'), { text: 'Cross-site', timestamp: T }, { cookie: owner.cookie, origin: 'https://evil.example' })).status,
    ).toBe(403);

    // A note someone else wrote (e.g. before the campaign changed hands) is theirs to change.
    const theirs = {
      id: crypto.randomUUID(),
      campaign_id: campaign.id,
      session_id: 'guarded-session1',
      author_id: other.userId,
      text: 'Theirs',
      timestamp: T + 1,
      created_at: NOW,
      updated_at: NOW,
    };
    await server.db.insertInto('notes').values(theirs).execute();
    expect((await call('PATCH', url('guarded-session1', theirs.id), { text: 'Changed' })).status).toBe(403);
    expect((await call('DELETE', url('guarded-session1', theirs.id))).status).toBe(403);
    expect((await notesOf('guarded-session1')).map((n) => [n.text, n.author.name])).toEqual([
      ['Mine', 'Note Owner'],
      ['Theirs', 'Other Owner'],
    ]);
  });

  it('limits how many notes one user writes a minute', async () => {
    const busy = await userSession(server, 'Busy Noter');
    const theirs = await createCampaign(server, busy.headers, 'Busy');
    await recording(theirs.id, 'busy-session-001');
    const statuses: number[] = [];
    for (let i = 0; i <= NOTE_WRITES_PER_USER; i++)
      statuses.push((await call('POST', url('busy-session-001', undefined, theirs.id), { text: `n${i}`, timestamp: T }, busy.headers)).status);
    expect(statuses.slice(0, NOTE_WRITES_PER_USER).every((s) => s === 201)).toBe(true);
    expect(statuses[NOTE_WRITES_PER_USER]).toBe(429);
  });

  it('travel with the exported recording, which stays a valid recording file', async () => {
    await recording(campaign.id, 'export-session-1');
    await call('POST', url('export-session-1'), { text: 'Look here', timestamp: T + 10 });
    const response = await rawGet(`${server.url}/api/v1/replay/export/${campaign.id}/export-session-1`, { ...owner.headers, 'accept-encoding': 'identity' });
    expect(response.status).toBe(200);
    const file = JSON.parse(gunzipSync(response.body).toString('utf8')) as RecordingFile;
    expect(recordingFileFlaw(file)).toBeNull();
    expect(file.notes).toEqual([{ text: 'Look here', timestamp: T + 10, author: 'Note Owner', createdAt: expect.any(Number) as number }]);
  });

  it('go with their session, their campaign, and a session the retention sweep deletes', async () => {
    await recording(campaign.id, 'deleted-session1');
    await call('POST', url('deleted-session1'), { text: 'Soon gone', timestamp: T });
    expect((await call('DELETE', `${server.url}/api/v1/streaming/sessions/${campaign.id}/deleted-session1`)).status).toBe(200);
    expect(await noteRows('deleted-session1')).toEqual([]);

    const doomed = await createCampaign(server, owner.headers, 'Doomed');
    await recording(doomed.id, 'doomed-session-1');
    await call('POST', url('doomed-session-1', undefined, doomed.id), { text: 'Soon gone', timestamp: T });
    expect((await call('DELETE', `${server.url}/api/v1/campaign/delete/${doomed.id}`)).status).toBe(200);
    expect(await noteRows('doomed-session-1')).toEqual([]);

    const week = await createCampaign(server, owner.headers, 'A week');
    await server.db.updateTable('campaigns').set({ retention_days: 7 }).where('id', '=', week.id).execute();
    await recording(week.id, 'expired-session1', NOW - 30 * DAY);
    await call('POST', url('expired-session1', undefined, week.id), { text: 'Soon gone', timestamp: NOW - 30 * DAY });
    expect(await noteRows('expired-session1')).toHaveLength(1);
    await sweepExpiredRecordings(server.db, { now: NOW });
    expect(await noteRows('expired-session1')).toEqual([]);
  });
});
