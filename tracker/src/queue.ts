import type { Batch } from './batch.js';

/**
 * Batches waiting for ingest, bounded in count and bytes. When full, the oldest batch goes and
 * its events are counted in `dropped`, which the tracker reports in its next batch.
 */
export class BatchQueue {
  items: Batch[] = [];
  bytes = 0;
  dropped = 0;

  constructor(
    private maxBatches: number,
    private maxBytes: number,
  ) {}

  push(batch: Batch): void {
    this.items.push(batch);
    this.bytes += batch.bytes;
    while (this.items.length > 1 && (this.items.length > this.maxBatches || this.bytes > this.maxBytes)) {
      const oldest = this.items.shift() as Batch;
      this.bytes -= oldest.bytes;
      this.dropped += oldest.events.length;
    }
  }

  remove(batch: Batch): void {
    const at = this.items.indexOf(batch);
    if (at < 0) return;
    this.items.splice(at, 1);
    this.bytes -= batch.bytes;
  }
}
