import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepImportedRecording, openImportedRecording } from '../../../../src/offline/importedRecordings.js';
import { keepReplay } from '../../../../src/offline/keepReplay.js';
import { getSavedReplay, listSavedReplays, rememberCampaignName, removeCampaignReplays, removeReplay, setPinned } from '../../../../src/offline/replayStore.js';
import { refreshIncompleteReplays } from '../../../../src/offline/setup.js';
import { freshDevice, loadReplay } from './reset.js';
import { recordingFile, replayAnswer } from './recording-fixtures.js';

// A recording file names a campaign and a session, but anyone can write one: kept, it must never
// take the place of the device's copy of that session's replay from the server.

const CAMPAIGN = '7d0b6c1e-5a3e-4a54-9a53-2f6f1f0c9b11';
const SESSION = 'real-session-0001';

/** The server's replay answer for the session, as the service worker keeps it. */
const serverAnswer = replayAnswer();

beforeEach(freshDevice);
afterEach(freshDevice);

describe('imported recording files', () => {
  it('a kept file naming a saved session leaves the server copy as it was, and is listed as imported beside it', async () => {
    await keepReplay(CAMPAIGN, SESSION, serverAnswer);
    await rememberCampaignName(CAMPAIGN, 'Real shop');
    const forged = recordingFile(CAMPAIGN, SESSION, 'Forged page');

    const kept = await keepImportedRecording(forged);

    expect(kept).toMatchObject({ imported: true, campaignId: CAMPAIGN, sessionId: SESSION, complete: true, eventCount: 2 });
    // The replay's address (the service worker and the page read these) still answers the server's bytes.
    expect(await getSavedReplay(CAMPAIGN, SESSION)).toMatchObject({ key: `${CAMPAIGN}/${SESSION}`, campaignName: 'Real shop', eventCount: 2 });
    expect((await getSavedReplay(CAMPAIGN, SESSION))?.imported).toBeUndefined();
    const served = await loadReplay(CAMPAIGN, SESSION);
    expect(Buffer.from(served!.body).equals(Buffer.from(serverAnswer))).toBe(true);
    // Both are listed; the file as an imported recording, which opens as the file it was.
    const listed = await listSavedReplays();
    expect(listed.map((replay) => [replay.key, replay.imported ?? false]).sort()).toEqual([
      [`${CAMPAIGN}/${SESSION}`, false],
      [`file:${CAMPAIGN}/${SESSION}`, true],
    ]);
    expect(await openImportedRecording(kept.key)).toEqual(forged);
    // A file's campaign id is only what the file says: it does not take the campaign's name.
    expect(listed.find((replay) => replay.imported)?.campaignName).toBeUndefined();
  });

  it('a kept file with no server copy is not served at the replay address either', async () => {
    const kept = await keepImportedRecording(recordingFile(CAMPAIGN, SESSION));
    expect(await getSavedReplay(CAMPAIGN, SESSION)).toBeUndefined();
    expect(await loadReplay(CAMPAIGN, SESSION)).toBeNull();
    // Saving the server's replay later neither touches the file nor is touched by it.
    await keepReplay(CAMPAIGN, SESSION, serverAnswer);
    expect(Buffer.from((await loadReplay(CAMPAIGN, SESSION))!.body).equals(Buffer.from(serverAnswer))).toBe(true);
    expect(await openImportedRecording(kept.key)).toEqual(recordingFile(CAMPAIGN, SESSION));
  });

  it('is pinned and removed by its own key, without touching the server copy', async () => {
    await keepReplay(CAMPAIGN, SESSION, serverAnswer);
    const kept = await keepImportedRecording(recordingFile(CAMPAIGN, SESSION));
    await setPinned(kept.key, true);
    expect((await listSavedReplays()).map((replay) => [replay.key, replay.pinned]).sort()).toEqual([
      [`${CAMPAIGN}/${SESSION}`, false],
      [kept.key, true],
    ]);
    await removeReplay(kept.key);
    expect((await listSavedReplays()).map((replay) => replay.key)).toEqual([`${CAMPAIGN}/${SESSION}`]);
    expect(await openImportedRecording(kept.key)).toBeNull();
    expect(await getSavedReplay(CAMPAIGN, SESSION)).toBeDefined();
  });

  it('is never refreshed from the server, and leaves with its campaign', async () => {
    await keepImportedRecording(recordingFile(CAMPAIGN, SESSION));
    const asked: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((input: RequestInfo | URL) => {
      asked.push(String(input));
      return Promise.reject(new TypeError('no network in this test'));
    }) as typeof fetch;
    try {
      await refreshIncompleteReplays(0);
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(asked).toEqual([]);
    await removeCampaignReplays(CAMPAIGN);
    expect(await listSavedReplays()).toEqual([]);
  });

  it('keeps every problem count the badges show, from the server answer and from a file', async () => {
    const counts = {
      durationMs: 61_000,
      errorCount: 1,
      failedRequestCount: 2,
      rageClickCount: 3,
      deadClickCount: 4,
      quickBackCount: 5,
      excessiveScrollCount: 6,
    };
    const answer = JSON.parse(new TextDecoder().decode(serverAnswer)) as { init: object };
    await keepReplay(CAMPAIGN, SESSION, new TextEncoder().encode(JSON.stringify({ ...answer, init: { ...answer.init, ...counts, clickCount: 9 } })));
    const file = recordingFile(CAMPAIGN, 'file-session-01');
    await keepImportedRecording({ ...file, session: { ...file.session, ...counts } });
    const listed = await listSavedReplays();
    // A file's session also says when its last batch came (whether it was still recording).
    const fromFile = { ...counts, lastActivityAt: file.session.lastActivityAt };
    expect(listed.map((replay) => replay.facts)).toEqual(expect.arrayContaining([counts, fromFile]));
    expect(listed).toHaveLength(2);
  });
});
