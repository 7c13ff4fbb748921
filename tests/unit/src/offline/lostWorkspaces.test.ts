import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../../../src/api/client.js';
import { dropLostReplays } from '../../../../src/offline/lostWorkspaces.js';
import { listSavedReplays, saveReplay } from '../../../../src/offline/replayStore.js';
import { freshDevice } from './reset.js';

// Issue 37: a member removed from a workspace loses the device's saved copies of that workspace's
// replays at their next sign-in; replays of campaigns still reached, and recording files the user
// opened, stay.

const body = new TextEncoder().encode(JSON.stringify({ events: [], complete: true }));
const save = (campaignId: string, sessionId: string, imported = false) => saveReplay({ campaignId, sessionId, body, complete: true, eventCount: 0, imported });

/** An API client whose campaign list answers `answer` (status 200) or fails with `status`. */
function clientAnswering(answer: unknown, status = 200) {
  const calls: string[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    calls.push(String(input));
    return new Response(JSON.stringify(answer), { status, headers: { 'content-type': 'application/json' } });
  };
  return { client: createApiClient({ fetch: fetch as typeof globalThis.fetch }), calls };
}

beforeEach(freshDevice);
afterEach(freshDevice);

describe('saved replays after sign-in', () => {
  it("drops the replays of campaigns no workspace of the account holds, keeps the others and the user's own files", async () => {
    await save('kept-campaign', 's1');
    await save('lost-campaign', 's2');
    await save('lost-campaign', 's3');
    await save('lost-campaign', 's4', true);
    const { client, calls } = clientAnswering({ data: [{ id: 'kept-campaign', name: 'Kept' }] });

    const removed = await dropLostReplays(client);

    expect(calls).toEqual(['/api/v1/campaign/getAll']);
    expect(removed.sort()).toEqual(['lost-campaign/s2', 'lost-campaign/s3']);
    expect((await listSavedReplays()).map((replay) => replay.key).sort()).toEqual(['file:lost-campaign/s4', 'kept-campaign/s1']);
  });

  it('removes nothing when the campaign list cannot be had', async () => {
    await save('some-campaign', 's1');
    await expect(dropLostReplays(clientAnswering({ error: 'busy' }, 503).client)).rejects.toThrow();
    expect(await dropLostReplays(clientAnswering({ unexpected: true }).client)).toEqual([]);
    expect((await listSavedReplays()).map((replay) => replay.key)).toEqual(['some-campaign/s1']);
  });
});
