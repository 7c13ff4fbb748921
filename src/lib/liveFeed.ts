import { formatHeld, holds, withBatch, type HeldBatches } from '../../common/held-batches.js';

/** Offline, under a session that was still recording when its replay was saved. */
export const NOT_LIVE_OFFLINE = 'This session was still recording when saved; it is not live offline.';

/** The live replay stream's `after=`: the batches held (null when none: from the start). */
export const liveAfter = (held: HeldBatches): string | null => formatHeld(held) || null;

/** The seq a live batch's message id names (NaN for any other id: not taken). */
export const liveBatchSeq = (id: string): number => (/^\d{1,10}$/.test(id) ? Number(id) : NaN);

/**
 * What is held once the live batch of this seq is taken, or null when it is not to be taken: held
 * already (sent again after a reconnect) or no seq at all. A late batch of a lower seq fills its gap.
 */
export function takeLiveBatch(held: HeldBatches, seq: number): HeldBatches | null {
  if (!Number.isSafeInteger(seq) || seq < 0 || holds(held, seq)) return null;
  return withBatch(held, seq);
}
