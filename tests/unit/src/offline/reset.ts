import { IDBFactory } from 'fake-indexeddb';
import { closeOfflineDb } from '../../../../src/offline/db.js';

/** Each test starts from an empty device. */
export async function freshDevice(): Promise<void> {
  await closeOfflineDb();
  globalThis.indexedDB = new IDBFactory();
}
