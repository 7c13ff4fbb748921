import { packBatch, type PackOutcome } from './pack-batch.js';

/** A worker thread's task: one batch's bytes in, its packed chunk (compressed, small) out. */
export default function run({ raw, now }: { raw: Uint8Array; now: number }): PackOutcome {
  return packBatch(raw, now);
}
