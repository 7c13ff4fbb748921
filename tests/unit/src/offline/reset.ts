import { IDBFactory } from 'fake-indexeddb';
import { closeOfflineDb } from '../../../../src/offline/db.js';
import { openReplayStream } from '../../../../src/offline/replayStore.js';
import { readAllBytes } from '../../../../src/offline/compress.js';

/** Each test starts from an empty device. */
export async function freshDevice(): Promise<void> {
  await closeOfflineDb();
  globalThis.indexedDB = new IDBFactory();
}

/** A saved replay with its answer read whole, as the service worker hands it on (marks it opened). */
export async function loadReplay(campaignId: string, sessionId: string, now?: number) {
  const saved = await openReplayStream(campaignId, sessionId, now);
  return saved && { replay: saved.replay, body: await readAllBytes(saved.body) };
}
