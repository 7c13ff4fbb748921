import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSave } from '@tanstack/react-query-persist-client';
import { PERSIST_MAX_AGE_MS, createIdbPersister, newestDataAt, persistOptions, shouldPersistQuery } from '../../../../src/offline/queryPersister.js';
import { openOfflineDb } from '../../../../src/offline/db.js';
import { freshDevice } from './reset.js';
import { onOfflineChange } from '../../../../src/offline/channel.js';

const campaigns = { data: [{ id: 'c1', name: 'Shop', domains: 'shop.example', limit: 0, start_date_time: 1, end_date_time: 2 }] };
const replay = { init: {}, events: Array.from({ length: 50 }, (_, i) => ({ type: 3, data: {}, timestamp: i })), complete: true };

function filledClient(): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { gcTime: PERSIST_MAX_AGE_MS } } });
  client.setQueryData(['campaigns', 'list'], campaigns);
  client.setQueryData(['sessions', 'c1'], { sessions: [{ sessionId: 's1' }] });
  client.setQueryData(['replay', 'c1', 's1'], replay);
  client.setQueryData(['anything', 'with-events'], replay);
  return client;
}

beforeEach(freshDevice);
afterEach(freshDevice);

describe('query cache persister (IndexedDB)', () => {
  it('restores lists into a new client, without replay event arrays', async () => {
    const persister = createIdbPersister({ throttleMs: 5 });
    await persistQueryClientSave({ queryClient: filledClient(), persister, buster: 'build-1', dehydrateOptions: persistOptions.dehydrateOptions });
    await persister.flush();

    const restored = new QueryClient();
    await persistQueryClientRestore({ queryClient: restored, persister, buster: 'build-1', maxAge: PERSIST_MAX_AGE_MS });
    expect(restored.getQueryData(['campaigns', 'list'])).toEqual(campaigns);
    expect(restored.getQueryData(['sessions', 'c1'])).toEqual({ sessions: [{ sessionId: 's1' }] });
    expect(restored.getQueryData(['replay', 'c1', 's1'])).toBeUndefined();
    expect(restored.getQueryData(['anything', 'with-events'])).toBeUndefined();
    expect(newestDataAt(restored.getQueryCache().getAll())).toBeGreaterThan(0);
  });

  it('discards a cache written by another build (buster)', async () => {
    const persister = createIdbPersister({ throttleMs: 5 });
    await persistQueryClientSave({ queryClient: filledClient(), persister, buster: 'build-1' });
    await persister.flush();
    const restored = new QueryClient();
    await persistQueryClientRestore({ queryClient: restored, persister, buster: 'build-2', maxAge: PERSIST_MAX_AGE_MS });
    expect(restored.getQueryData(['campaigns', 'list'])).toBeUndefined();
    expect(await (await openOfflineDb()).count('queryCache')).toBe(0);
  });

  it('saves the first change at once and coalesces the burst after it into one write of the latest state', async () => {
    const persister = createIdbPersister({ throttleMs: 20 });
    const db = await openOfflineDb();
    let writes = 0;
    const put = db.put.bind(db);
    db.put = ((...args: Parameters<typeof put>) => {
      writes += 1;
      return put(...args);
    }) as typeof db.put;
    const saves = Array.from({ length: 10 }, (_, i) => persister.persistClient({ timestamp: i, buster: 'b', clientState: { queries: [], mutations: [] } }));
    await Promise.all(saves);
    db.put = put;
    expect(writes).toBe(2);
    expect((await persister.restoreClient())?.timestamp).toBe(9);
    await persister.removeClient();
    expect(await persister.restoreClient()).toBeUndefined();
  });

  it('a full device is reported, not thrown, and the app goes on', async () => {
    const persister = createIdbPersister({ throttleMs: 5 });
    const db = await openOfflineDb();
    const put = db.put.bind(db);
    db.put = (() => Promise.reject(new DOMException('full', 'QuotaExceededError'))) as typeof db.put;
    const messages: string[] = [];
    const stop = onOfflineChange((change) => change.type === 'quota' && messages.push(change.message));
    await persister.persistClient({ timestamp: 1, buster: 'b', clientState: { queries: [], mutations: [] } });
    await persister.flush();
    db.put = put;
    stop();
    expect(messages).toEqual([
      'Storage is full: the latest lists could not be saved for offline use.',
      'Storage is full: the latest lists could not be saved for offline use.',
    ]);
  });

  it('persists only successful non-replay queries', () => {
    const client = filledClient();
    const byKey = (key: string) =>
      client
        .getQueryCache()
        .getAll()
        .find((q) => q.queryKey[0] === key)!;
    expect(shouldPersistQuery(byKey('campaigns'))).toBe(true);
    expect(shouldPersistQuery(byKey('replay'))).toBe(false);
    expect(shouldPersistQuery(byKey('anything'))).toBe(false);
    expect(persistOptions.maxAge).toBeLessThanOrEqual(PERSIST_MAX_AGE_MS);
  });
});
