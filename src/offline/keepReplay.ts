import type { ReplayEvent, ReplayInit, ReplayResponse } from '../../common/api-types.js';
import { savedFactsOf, type SavedFacts, type SavedReplay } from './db.js';
import { recordReplayAssets, saveReplay } from './replayStore.js';
import { cacheAssets, collectAssetUrls } from './replayAssets.js';
import { readReplayBody } from '../api/replayStream.js';
import { bytesStream } from './compress.js';

// One path from "a replay answer arrived" to "it is on the device", used by the service
// worker (every replay it fetches) and by the page ('Save for offline').

/** Header the page sets when it stores the answer itself, so the worker does not store it twice. */
export const PAGE_STORES_HEADER = 'X-Tapedeck-Page-Stores';

/** The derived facts /saved lists, from the answer's init (when the server sent them). */
function savedFacts(init: Partial<ReplayInit> | undefined): SavedFacts | undefined {
  if (!init || typeof init.durationMs !== 'number') return undefined;
  return savedFactsOf(init);
}

/** Stores the answer's exact bytes, then keeps the assets its events reference. */
export async function keepReplay(campaignId: string, sessionId: string, body: Uint8Array): Promise<SavedReplay> {
  // Read in short slices, not one JSON.parse: in the service worker a long parse would hold up
  // every request the app makes meanwhile (its code, first of all).
  const answer = await readReplayBody<ReplayResponse>(bytesStream(body), () => undefined);
  const events: ReplayEvent[] = answer.events;
  const assets = collectAssetUrls(events);
  const saved = await saveReplay({
    campaignId,
    sessionId,
    body,
    // Only a replay the server calls complete is served without asking the network again.
    complete: answer.complete === true,
    eventCount: events.length,
    assets,
    facts: savedFacts(answer.init),
  });
  const cached = await cacheAssets(assets);
  // Stylesheets bring their own fonts and images: remember those too, for removal later.
  const extra = cached.filter((url) => !assets.includes(url));
  if (extra.length) await recordReplayAssets(campaignId, sessionId, extra);
  return saved;
}
