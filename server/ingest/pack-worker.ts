import { packBatch, type PackOptions, type PackOutcome } from './pack.js';

/** A worker thread's task: one batch's bytes in, its packed chunk (compressed, small) out. */
export default function run({ raw, now, options }: { raw: Uint8Array; now: number; options?: PackOptions }): PackOutcome {
  return packBatch(raw, now, options);
}
