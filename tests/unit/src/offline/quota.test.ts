import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listSavedReplays, saveReplay, setPinned } from '../../../../src/offline/replayStore.js';
import { OfflineQuotaError, QUOTA_MESSAGE, isQuotaError } from '../../../../src/offline/errors.js';
import { onOfflineChange, type OfflineChange } from '../../../../src/offline/channel.js';
import { freshDevice } from './reset.js';

// The outside world here is a full disk: IndexedDB refuses a write with QuotaExceededError
// while the simulated device has no room for another replay body.

let roomFor = Number.POSITIVE_INFINITY;
const originalPut = IDBObjectStore.prototype.put;

function simulateDeviceWithRoomFor(bodies: number) {
  roomFor = bodies;
  IDBObjectStore.prototype.put = function put(this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
    if (this.name === 'replayBodies') {
      if (stored >= roomFor) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      stored += 1;
    }
    return originalPut.call(this, value, key);
  };
  const originalDelete = IDBObjectStore.prototype.delete;
  IDBObjectStore.prototype.delete = function del(this: IDBObjectStore, key: IDBValidKey | IDBKeyRange) {
    if (this.name === 'replayBodies') stored = Math.max(0, stored - 1);
    return originalDelete.call(this, key);
  };
  restoreDelete = () => {
    IDBObjectStore.prototype.delete = originalDelete;
  };
}
let stored = 0;
let restoreDelete = () => {};

const body = (n: number) => new TextEncoder().encode(JSON.stringify({ init: {}, events: [{ type: 4, data: { n }, timestamp: n }], complete: true }));
const save = (sessionId: string, now: number) => saveReplay({ campaignId: 'c', sessionId, body: body(now), complete: true, eventCount: 1 }, now);

beforeEach(async () => {
  await freshDevice();
  stored = 0;
});
afterEach(async () => {
  IDBObjectStore.prototype.put = originalPut;
  restoreDelete();
  await freshDevice();
});

describe('a full device', () => {
  it('recognises QuotaExceededError in its guises', () => {
    expect(isQuotaError(new DOMException('x', 'QuotaExceededError'))).toBe(true);
    expect(isQuotaError({ name: 'NS_ERROR_DOM_QUOTA_REACHED' })).toBe(true);
    expect(isQuotaError(new DOMException('x', 'AbortError'))).toBe(false);
    expect(isQuotaError(null)).toBe(false);
  });

  it('evicts the least recently opened unpinned replay to make room, then saves', async () => {
    simulateDeviceWithRoomFor(2);
    await save('first', 1);
    await save('second', 2);
    await save('third', 3);
    expect((await listSavedReplays()).map((r) => r.sessionId)).toEqual(['third', 'second']);
  });

  it('refuses with a clear message, and keeps what is saved, when only pinned replays are left', async () => {
    simulateDeviceWithRoomFor(1);
    await save('pinned', 1);
    await setPinned('c/pinned', true);
    const changes: OfflineChange[] = [];
    const stop = onOfflineChange((change) => changes.push(change));
    const attempt = save('too-much', 2);
    await expect(attempt).rejects.toBeInstanceOf(OfflineQuotaError);
    await expect(attempt).rejects.toThrow(QUOTA_MESSAGE);
    stop();
    expect(changes).toContainEqual({ type: 'quota', message: QUOTA_MESSAGE });
    expect((await listSavedReplays()).map((r) => r.sessionId)).toEqual(['pinned']);
  });
});
