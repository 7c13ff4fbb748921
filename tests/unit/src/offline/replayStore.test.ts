import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clearReplays,
  enforceBudget,
  getBudget,
  getSavedReplay,
  libraryBytes,
  listSavedReplays,
  removeCampaignReplays,
  removeReplay,
  saveReplay,
  setBudget,
  setPinned,
  rememberCampaignName,
} from '../../../../src/offline/replayStore.js';
import { gzip, gunzip } from '../../../../src/offline/compress.js';
import { openOfflineDb } from '../../../../src/offline/db.js';
import { freshDevice, loadReplay } from './reset.js';

function replayAnswer(events: number, seed = 1) {
  const answer = {
    init: {
      userAgent: 'Mozilla/5.0',
      remoteIpAddress: '203.0.113.9',
      language: 'en-GB',
      timezone: 'Europe/London',
      webdriver: false,
      cookiesEnabled: true,
      hasFocus: true,
      fullScreenEnabled: false,
    },
    events: Array.from({ length: events }, (_, i) => ({
      type: 3,
      data: { source: 1, positions: [{ x: (i * seed) % 1024, y: i % 768, id: 7, timeOffset: i }], note: `é✓ ${i}` },
      timestamp: 1_700_000_000_000 + i * 16,
    })),
    complete: true,
  };
  return { answer, bytes: new TextEncoder().encode(JSON.stringify(answer)) };
}

/** Incompressible filler so sizes are predictable in the eviction tests. */
function noise(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed * 2654435761;
  for (let i = 0; i < length; i += 1) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

const save = (sessionId: string, body: Uint8Array, now: number) => saveReplay({ campaignId: 'c1', sessionId, body, complete: true, eventCount: 1 }, now);

beforeEach(freshDevice);
afterEach(freshDevice);

describe('compression', () => {
  it('gzip then gunzip gives the same bytes back', async () => {
    const { bytes } = replayAnswer(500);
    const packed = await gzip(bytes);
    expect(packed.byteLength).toBeLessThan(bytes.byteLength / 3);
    expect(Buffer.from(await gunzip(packed)).equals(Buffer.from(bytes))).toBe(true);
  });
});

describe('replay store round trip', () => {
  it('loads the exact bytes it stored, compressed on the device', async () => {
    const { answer, bytes } = replayAnswer(2000);
    const saved = await saveReplay({ campaignId: 'camp-1', sessionId: 'sess-1', body: bytes, complete: true, eventCount: 2000 }, 1000);
    expect(saved).toMatchObject({ key: 'camp-1/sess-1', rawSize: bytes.byteLength, eventCount: 2000, savedAt: 1000, pinned: false, complete: true });
    expect(saved.size).toBeLessThan(bytes.byteLength / 3);

    const stored = await (await openOfflineDb()).get('replayBodies', 'camp-1/sess-1');
    expect(stored?.gzip.byteLength).toBe(saved.size);

    const loaded = await loadReplay('camp-1', 'sess-1', 5000);
    expect(loaded).not.toBeNull();
    expect(Buffer.from(loaded!.body).equals(Buffer.from(bytes))).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(loaded!.body)).events).toEqual(answer.events);
    expect(loaded!.replay.lastOpenedAt).toBe(5000);
    expect((await getSavedReplay('camp-1', 'sess-1'))?.lastOpenedAt).toBe(5000);
  });

  it('answers null for a replay that is not saved', async () => {
    expect(await loadReplay('camp-1', 'nope')).toBeNull();
  });

  it('a refreshed replay keeps its pin and takes the new bytes and complete flag', async () => {
    const first = replayAnswer(10);
    await saveReplay({ campaignId: 'c', sessionId: 's', body: first.bytes, complete: false, eventCount: 10 }, 1);
    await setPinned('c/s', true);
    const second = replayAnswer(20, 3);
    const refreshed = await saveReplay({ campaignId: 'c', sessionId: 's', body: second.bytes, complete: true, eventCount: 20 }, 2);
    expect(refreshed).toMatchObject({ pinned: true, complete: true, eventCount: 20, savedAt: 2 });
    expect(Buffer.from((await loadReplay('c', 's'))!.body).equals(Buffer.from(second.bytes))).toBe(true);
    expect(await listSavedReplays()).toHaveLength(1);
  });

  it('removes one replay and clears all', async () => {
    await save('a', noise(100, 1), 1);
    await save('b', noise(100, 2), 2);
    await save('c', noise(100, 3), 3);
    await removeReplay('c1/b');
    expect((await listSavedReplays()).map((r) => r.sessionId)).toEqual(['c', 'a']);
    expect(await loadReplay('c1', 'b')).toBeNull();
    await clearReplays();
    expect(await listSavedReplays()).toEqual([]);
    expect(await (await openOfflineDb()).count('replayBodies')).toBe(0);
  });
});

describe('deleting a campaign', () => {
  it('removes only that campaign’s replays', async () => {
    await saveReplay({ campaignId: 'gone', sessionId: 'a', body: noise(100, 1), complete: true, eventCount: 1 }, 1);
    await saveReplay({ campaignId: 'gone', sessionId: 'b', body: noise(100, 2), complete: true, eventCount: 1 }, 2);
    await saveReplay({ campaignId: 'kept', sessionId: 'a', body: noise(100, 3), complete: true, eventCount: 1 }, 3);
    await removeCampaignReplays('gone');
    expect((await listSavedReplays()).map((r) => r.key)).toEqual(['kept/a']);
  });
});

describe('eviction past the budget', () => {
  it('evicts the least recently opened unpinned replays first', async () => {
    await save('a', noise(10_000, 1), 1);
    await save('b', noise(10_000, 2), 2);
    await save('c', noise(10_000, 3), 3);
    await loadReplay('c1', 'a', 10); // a is now the most recently opened
    const each = (await getSavedReplay('c1', 'a'))!.size;

    await setBudget(each * 3 + 10);
    await save('d', noise(10_000, 4), 11);
    // b was opened longest ago, so it goes; a (reopened) and c stay.
    expect((await listSavedReplays()).map((r) => r.sessionId).sort()).toEqual(['a', 'c', 'd']);

    await save('e', noise(10_000, 5), 12);
    expect((await listSavedReplays()).map((r) => r.sessionId).sort()).toEqual(['a', 'd', 'e']);
    expect(await libraryBytes()).toBeLessThanOrEqual(each * 3 + 10);
  });

  it('never evicts pinned replays', async () => {
    await save('old-pinned', noise(10_000, 1), 1);
    await save('old', noise(10_000, 2), 2);
    await setPinned('c1/old-pinned', true);
    const each = (await getSavedReplay('c1', 'old'))!.size;
    await setBudget(each * 2 + 10);
    await save('new', noise(10_000, 3), 3);
    expect((await listSavedReplays()).map((r) => r.sessionId).sort()).toEqual(['new', 'old-pinned']);

    // Lowering the budget below the pinned bytes evicts every unpinned replay and no pinned one.
    const evicted = await setBudget(1);
    expect(evicted).toEqual(['c1/new']);
    expect((await listSavedReplays()).map((r) => r.sessionId)).toEqual(['old-pinned']);
  });

  it('unpinning a replay lets it be evicted when over budget', async () => {
    await save('a', noise(10_000, 1), 1);
    await setPinned('c1/a', true);
    await setBudget(100);
    expect(await listSavedReplays()).toHaveLength(1);
    await setPinned('c1/a', false);
    expect(await listSavedReplays()).toHaveLength(0);
  });

  it('keeps the budget the user set and refuses nonsense', async () => {
    expect(await getBudget()).toBe(200 * 1024 * 1024);
    await setBudget(50 * 1024 * 1024);
    expect(await getBudget()).toBe(50 * 1024 * 1024);
    await expect(setBudget(0)).rejects.toThrow('positive');
    expect(await enforceBudget()).toEqual([]);
  });
});

describe('campaign names kept with saved replays', () => {
  beforeEach(freshDevice);

  it('keeps the name for every saved replay of the campaign, and a refresh keeps it', async () => {
    const body = new TextEncoder().encode(JSON.stringify({ init: {}, events: [], complete: true }));
    await saveReplay({ campaignId: 'c1', sessionId: 's1', body, complete: true, eventCount: 0 });
    await saveReplay({ campaignId: 'c1', sessionId: 's2', body, complete: true, eventCount: 0 });
    await saveReplay({ campaignId: 'c2', sessionId: 's3', body, complete: true, eventCount: 0 });
    await rememberCampaignName('c1', 'Spring Sale');
    expect((await listSavedReplays()).map((r) => [r.sessionId, r.campaignName]).sort()).toEqual([
      ['s1', 'Spring Sale'],
      ['s2', 'Spring Sale'],
      ['s3', undefined],
    ]);
    // The service worker refreshes a replay without knowing the name: it stays.
    await saveReplay({ campaignId: 'c1', sessionId: 's1', body, complete: true, eventCount: 0 });
    expect((await getSavedReplay('c1', 's1'))?.campaignName).toBe('Spring Sale');
  });
});
