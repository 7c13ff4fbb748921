import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { ReplayInit } from '../../common/api-types.js';
import type { Note } from '../../common/api/notes.js';

// One IndexedDB database shared by the page and the service worker. Replay metadata and the
// compressed bodies live in separate stores so listing /saved never loads megabytes of events.

export const OFFLINE_DB_NAME = 'tapedeck-offline';
const OFFLINE_DB_VERSION = 1;

/** What the device knows about one saved replay. */
export interface SavedReplay {
  /** `${campaignId}/${sessionId}`; an imported recording file's is `file:${campaignId}/${sessionId}`. */
  key: string;
  campaignId: string;
  /** The campaign's name when the page knew it (the service worker saves replays without it). */
  campaignName?: string;
  sessionId: string;
  /** Compressed bytes on the device (what the budget counts). */
  size: number;
  /** Bytes of the replay answer before compression. */
  rawSize: number;
  eventCount: number;
  savedAt: number;
  lastOpenedAt: number;
  pinned: boolean;
  /** false while the session may still be recording; refreshed on reconnect. */
  complete: boolean;
  /** Images, fonts and stylesheets its events reference, kept in the asset cache. */
  assets: string[];
  /** The session's derived facts from the replay answer (none in a replay saved before they were sent). */
  facts?: SavedFacts;
  /** The replay's notes as last seen online (none in a replay saved before notes travelled with it). */
  notes?: Note[];
  /**
   * A recording file the user opened and kept, not a copy of the server's replay: its ids are
   * whatever the file says, so it lives under its own key and never answers for the server's.
   */
  imported?: true;
}

/** What /saved shows of a saved replay's derived facts: its length, the problem badges' counts, and
 * its last batch (whether it is still recording: common/recording-now.ts). */
const SAVED_FACTS = [
  'durationMs',
  'errorCount',
  'failedRequestCount',
  'rageClickCount',
  'deadClickCount',
  'quickBackCount',
  'excessiveScrollCount',
  'lastActivityAt',
  'closed',
] as const;

export type SavedFacts = Partial<Pick<ReplayInit, (typeof SAVED_FACTS)[number]>>;

/** The saved facts of a replay's init or a session (a recording file's), those it has. */
export function savedFactsOf(source: SavedFacts): SavedFacts {
  return Object.fromEntries(SAVED_FACTS.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));
}

export interface ReplayBody {
  key: string;
  /** gzip of the replay answer's exact bytes ({init, events, complete}). */
  gzip: ArrayBuffer;
}

export interface OfflineSchema extends DBSchema {
  replays: { key: string; value: SavedReplay; indexes: { lastOpenedAt: number } };
  replayBodies: { key: string; value: ReplayBody };
  settings: { key: string; value: unknown };
  queryCache: { key: string; value: unknown };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

let opening: Promise<OfflineDb> | null = null;

export function openOfflineDb(): Promise<OfflineDb> {
  opening ??= openDB<OfflineSchema>(OFFLINE_DB_NAME, OFFLINE_DB_VERSION, {
    upgrade(db) {
      const replays = db.createObjectStore('replays', { keyPath: 'key' });
      replays.createIndex('lastOpenedAt', 'lastOpenedAt');
      db.createObjectStore('replayBodies', { keyPath: 'key' });
      db.createObjectStore('settings');
      db.createObjectStore('queryCache');
    },
    blocking() {
      // A newer version wants the database: let it go, reopen on next use.
      void opening?.then((db) => db.close());
      opening = null;
    },
  }).catch((error: unknown) => {
    opening = null;
    throw error;
  });
  return opening;
}

/** Tests start each case from an empty database. */
export async function closeOfflineDb(): Promise<void> {
  const db = await opening?.catch(() => null);
  db?.close();
  opening = null;
}

export const replayKey = (campaignId: string, sessionId: string) => `${campaignId}/${sessionId}`;
/** An imported recording's key: a server's campaign id (a UUID) never holds a colon, so the two never meet. */
export const importedKey = (campaignId: string, sessionId: string) => `file:${replayKey(campaignId, sessionId)}`;
