import { gunzipStream, gzip } from './compress.js';
import { importedKey, openOfflineDb, replayKey, type OfflineDb, type SavedFacts, type SavedReplay } from './db.js';
import { isQuotaError, OfflineQuotaError } from './errors.js';
import { notifyOfflineChange } from './channel.js';
import { dropAssets } from './assetCache.js';
import type { Note } from '../../common/api/notes.js';

// The offline replay library: each replay answer is stored gzip-compressed with its metadata.
// Unpinned replays are evicted least-recently-opened first once the library passes the budget
// the user set; pinned ones are never evicted.

export const DEFAULT_BUDGET_BYTES = 200 * 1024 * 1024;
const BUDGET_KEY = 'replayBudgetBytes';

export interface ReplayToSave {
  campaignId: string;
  sessionId: string;
  /** The replay answer's exact bytes. */
  body: Uint8Array;
  complete: boolean;
  eventCount: number;
  assets?: string[];
  campaignName?: string;
  facts?: SavedFacts;
  /** A recording file kept by the user: saved under its own key (db.ts, importedKey). */
  imported?: boolean;
}

export async function getBudget(): Promise<number> {
  const db = await openOfflineDb();
  const value = await db.get('settings', BUDGET_KEY);
  return typeof value === 'number' && value > 0 ? value : DEFAULT_BUDGET_BYTES;
}

/** Sets the library budget and evicts at once down to it. Returns the evicted replays' keys. */
export async function setBudget(bytes: number): Promise<string[]> {
  if (!Number.isFinite(bytes) || bytes <= 0) throw new Error('The storage budget must be a positive number.');
  const db = await openOfflineDb();
  await db.put('settings', Math.round(bytes), BUDGET_KEY);
  return enforceBudget(bytes);
}

export async function listSavedReplays(): Promise<SavedReplay[]> {
  const db = await openOfflineDb();
  const all = await db.getAll('replays');
  return all.sort((a, b) => b.savedAt - a.savedAt);
}

/** The device's copy of the server's replay (never an imported file, whatever ids it names). */
export async function getSavedReplay(campaignId: string, sessionId: string): Promise<SavedReplay | undefined> {
  const db = await openOfflineDb();
  const replay = await db.get('replays', replayKey(campaignId, sessionId));
  return replay?.imported ? undefined : replay;
}

export async function libraryBytes(): Promise<number> {
  const all = await listSavedReplays();
  return all.reduce((sum, replay) => sum + replay.size, 0);
}

/** Unpinned replays, the one opened longest ago first. */
function evictionOrder(all: SavedReplay[], keep?: string): SavedReplay[] {
  return all.filter((replay) => !replay.pinned && replay.key !== keep).sort((a, b) => a.lastOpenedAt - b.lastOpenedAt || a.savedAt - b.savedAt);
}

async function deleteReplays(db: OfflineDb, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const tx = db.transaction(['replays', 'replayBodies'], 'readwrite');
  const gone = await Promise.all(keys.map((key) => tx.objectStore('replays').get(key)));
  await Promise.all(keys.flatMap((key) => [tx.objectStore('replays').delete(key), tx.objectStore('replayBodies').delete(key)]));
  const remaining = await tx.objectStore('replays').getAll();
  await tx.done;
  const stillUsed = new Set(remaining.flatMap((replay) => replay.assets));
  await dropAssets(gone.flatMap((replay) => replay?.assets ?? []).filter((url) => !stillUsed.has(url)));
}

/**
 * Evicts unpinned replays, least recently opened first, until the library fits `budget`.
 * `keep` (the replay being saved) is never evicted. Returns the evicted keys.
 */
export async function enforceBudget(budget?: number, keep?: string): Promise<string[]> {
  const limit = budget ?? (await getBudget());
  const db = await openOfflineDb();
  const all = await db.getAll('replays');
  let total = all.reduce((sum, replay) => sum + replay.size, 0);
  const evicted: string[] = [];
  for (const replay of evictionOrder(all, keep)) {
    if (total <= limit) break;
    evicted.push(replay.key);
    total -= replay.size;
  }
  await deleteReplays(db, evicted);
  if (evicted.length > 0) notifyOfflineChange({ type: 'replays' });
  return evicted;
}

async function evictOldest(keep: string): Promise<boolean> {
  const db = await openOfflineDb();
  const [oldest] = evictionOrder(await db.getAll('replays'), keep);
  if (!oldest) return false;
  await deleteReplays(db, [oldest.key]);
  return true;
}

async function writeReplay(db: OfflineDb, replay: SavedReplay, compressed: Uint8Array): Promise<void> {
  const tx = db.transaction(['replays', 'replayBodies'], 'readwrite');
  const body = compressed.buffer.slice(compressed.byteOffset, compressed.byteOffset + compressed.byteLength) as ArrayBuffer;
  try {
    await Promise.all([tx.objectStore('replayBodies').put({ key: replay.key, gzip: body }), tx.objectStore('replays').put(replay)]);
    await tx.done;
  } catch (error) {
    // Never keep metadata without its body (or the reverse): undo the whole write.
    try {
      tx.abort();
    } catch {
      // Already aborted by the browser.
    }
    await tx.done.catch(() => undefined);
    // A quota failure surfaces as the put's error or as the transaction's abort reason.
    throw isQuotaError(error) || isQuotaError(tx.error) ? new OfflineQuotaError() : error;
  }
}

/**
 * Saves (or refreshes) a replay. Makes room under the budget first; if the device itself is
 * full, evicts more unpinned replays and retries; throws OfflineQuotaError when nothing is left
 * to evict. A refreshed replay keeps its pin.
 */
export async function saveReplay(input: ReplayToSave, now = Date.now()): Promise<SavedReplay> {
  const db = await openOfflineDb();
  const key = (input.imported ? importedKey : replayKey)(input.campaignId, input.sessionId);
  const compressed = await gzip(input.body);
  const previous = await db.get('replays', key);
  const replay: SavedReplay = {
    key,
    campaignId: input.campaignId,
    campaignName: input.campaignName ?? previous?.campaignName,
    sessionId: input.sessionId,
    size: compressed.byteLength,
    rawSize: input.body.byteLength,
    eventCount: input.eventCount,
    savedAt: now,
    lastOpenedAt: Math.max(now, previous?.lastOpenedAt ?? 0),
    pinned: previous?.pinned ?? false,
    complete: input.complete,
    assets: input.assets ?? previous?.assets ?? [],
    ...(input.facts ? { facts: input.facts } : {}),
    // A refreshed copy keeps the notes it had until the replay page sees newer ones.
    ...(previous?.notes ? { notes: previous.notes } : {}),
    ...(input.imported ? { imported: true as const } : {}),
  };
  const budget = await getBudget();
  await enforceBudget(budget - replay.size + (previous?.size ?? 0), key);
  for (;;) {
    try {
      await writeReplay(db, replay, compressed);
      break;
    } catch (error) {
      if (!(error instanceof OfflineQuotaError)) throw error;
      if (!(await evictOldest(key))) {
        notifyOfflineChange({ type: 'quota', message: error.message });
        throw error;
      }
    }
  }
  notifyOfflineChange({ type: 'replays' });
  return replay;
}

/** Keeps the campaign's name with its saved replays, so /saved and the replay page show it offline. */
export async function rememberCampaignName(campaignId: string, campaignName: string): Promise<void> {
  const db = await openOfflineDb();
  const tx = db.transaction('replays', 'readwrite');
  // An imported file's campaign id is only what the file says: it does not take the campaign's name.
  const stale = (await tx.store.getAll()).filter((replay) => replay.campaignId === campaignId && !replay.imported && replay.campaignName !== campaignName);
  await Promise.all(stale.map((replay) => tx.store.put({ ...replay, campaignName })));
  await tx.done;
  if (stale.length > 0) notifyOfflineChange({ type: 'replays' });
}

/** Adds asset URLs to a saved replay (after the service worker cached them). */
export async function recordReplayAssets(campaignId: string, sessionId: string, assets: string[]): Promise<void> {
  const db = await openOfflineDb();
  const tx = db.transaction('replays', 'readwrite');
  const replay = await tx.store.get(replayKey(campaignId, sessionId));
  if (replay && !replay.imported) await tx.store.put({ ...replay, assets: [...new Set([...replay.assets, ...assets])] });
  await tx.done;
}

/** Keeps a saved replay's notes as last seen online, so they travel with it offline; false when it is not saved. */
export async function recordReplayNotes(campaignId: string, sessionId: string, notes: Note[]): Promise<boolean> {
  const db = await openOfflineDb();
  const tx = db.transaction('replays', 'readwrite');
  const replay = await tx.store.get(replayKey(campaignId, sessionId));
  const kept = Boolean(replay && !replay.imported);
  if (replay && kept) await tx.store.put({ ...replay, notes });
  await tx.done;
  return kept;
}

/** A saved replay (by key) and its compressed body, marked as opened now (eviction goes by last opened); null when not saved. */
export async function openSaved(key: string, now = Date.now()): Promise<{ replay: SavedReplay; gzip: Uint8Array<ArrayBuffer> } | null> {
  const db = await openOfflineDb();
  const [replay, stored] = await Promise.all([db.get('replays', key), db.get('replayBodies', key)]);
  if (!replay || !stored) return null;
  const opened = { ...replay, lastOpenedAt: now };
  await db.put('replays', opened).catch(() => undefined); // a failed touch must not block playback
  return { replay: opened, gzip: new Uint8Array(stored.gzip) };
}

/** A saved replay's exact answer as a stream, inflated as it is read (the service worker answers with it), marking it opened now. */
export async function openReplayStream(
  campaignId: string,
  sessionId: string,
  now = Date.now(),
): Promise<{ replay: SavedReplay; body: ReadableStream<Uint8Array> } | null> {
  const saved = await openSaved(replayKey(campaignId, sessionId), now);
  // The server's replay only: an imported file never answers for it.
  return saved && !saved.replay.imported ? { replay: saved.replay, body: gunzipStream(saved.gzip) } : null;
}

/** Pins or unpins a saved replay or imported recording, by its key. */
export async function setPinned(key: string, pinned: boolean): Promise<void> {
  const db = await openOfflineDb();
  const tx = db.transaction('replays', 'readwrite');
  const replay = await tx.store.get(key);
  if (replay) await tx.store.put({ ...replay, pinned });
  await tx.done;
  notifyOfflineChange({ type: 'replays' });
  // Unpinning may leave the library over budget.
  if (!pinned) await enforceBudget();
}

/** Removes a saved replay or imported recording, by its key. */
export async function removeReplay(key: string): Promise<void> {
  const db = await openOfflineDb();
  await deleteReplays(db, [key]);
  notifyOfflineChange({ type: 'replays' });
}

export async function clearReplays(): Promise<void> {
  const db = await openOfflineDb();
  const keys = await db.getAllKeys('replays');
  await deleteReplays(db, keys);
  notifyOfflineChange({ type: 'replays' });
}

/** A deleted campaign's replays leave the device too. */
/**
 * Removes the saved replays (never the recording files the user opened) of every campaign not in
 * `kept`: the campaigns of the workspaces the user still belongs to. Returns the removed keys.
 */
export async function removeReplaysOutside(kept: ReadonlySet<string>): Promise<string[]> {
  const db = await openOfflineDb();
  const keys = (await db.getAll('replays')).filter((replay) => !replay.imported && !kept.has(replay.campaignId)).map((replay) => replay.key);
  if (keys.length === 0) return keys;
  await deleteReplays(db, keys);
  notifyOfflineChange({ type: 'replays' });
  return keys;
}

export async function removeCampaignReplays(campaignId: string): Promise<void> {
  const db = await openOfflineDb();
  const keys = (await db.getAll('replays')).filter((replay) => replay.campaignId === campaignId).map((replay) => replay.key);
  if (keys.length === 0) return;
  await deleteReplays(db, keys);
  notifyOfflineChange({ type: 'replays' });
}
