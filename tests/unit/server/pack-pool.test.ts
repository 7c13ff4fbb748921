import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { BatchPacker, INLINE_MAX_BYTES } from '../../../server/ingest/pack.js';
import { BUSY } from '../../../server/ingest/pack-pool.js';
import { announcedSize } from '../../../server/ingest/pack.js';
import { HttpError } from '../../../server/http/errors.js';

describe('the ingest packing pool', () => {
  const packer = new BatchPacker(1);
  afterAll(() => packer.close());

  it('bounds the bytes waiting for a worker: past 64 MB a batch is told to come back (503), the rest are packed', async () => {
    const body = Buffer.alloc(4 * 1024 * 1024, 0x20); // 4 MB of spaces: not JSON, refused by the worker
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => packer.pack(body, Date.now())));
    const reasons = outcomes.map((o) => (o.status === 'rejected' && o.reason instanceof HttpError ? `${o.reason.statusCode} ${o.reason.message}` : o.status));
    expect(reasons.slice(0, 16)).toEqual(Array(16).fill('400 Malformed JSON body'));
    expect(reasons.slice(16)).toEqual(Array(4).fill(`503 ${BUSY}`));
    // Once the queue has drained, batches are taken again.
    await expect(packer.pack(body, Date.now())).rejects.toMatchObject({ statusCode: 400 });
  });

  const batch = (events: number) => {
    const now = Date.now();
    const list = Array.from({ length: events }, (_, i) => ({ type: 3, data: { source: 2 }, timestamp: now - i }));
    return zlib.gzipSync(JSON.stringify({ sessionId: 'abcdefgh', seq: 1, events: list }));
  };

  it("packs a small batch on the request thread: it is taken even while the workers' queue is full", async () => {
    const large = Buffer.alloc(4 * 1024 * 1024, 0x20);
    const flood = Array.from({ length: 20 }, () => packer.pack(large, Date.now()).catch((error: HttpError) => error.statusCode));
    const small = await packer.pack(batch(3), Date.now());
    expect(small.eventCount).toBe(3);
    expect(await Promise.all(flood)).toContain(503);
  });

  it('sends a batch that announces a small size but inflates past it to a worker, which packs it or refuses it at 16 MB', async () => {
    // Two gzip members: the size in the trailer is the last member's only.
    const now = Date.now();
    const events = Array.from({ length: 50 }, (_, i) => ({ type: 3, data: { source: 2, pad: 'x'.repeat(2000) }, timestamp: now - i }));
    const json = JSON.stringify({ sessionId: 'abcdefgh', seq: 1, events });
    const twoMembers = Buffer.concat([zlib.gzipSync(json.slice(0, -10)), zlib.gzipSync(json.slice(-10))]);
    expect(announcedSize(twoMembers)).toBe(10);
    expect(json.length).toBeGreaterThan(INLINE_MAX_BYTES);
    expect((await packer.pack(twoMembers, now)).eventCount).toBe(50);
    // A gzip bomb's forged trailer is never reached: inflating stops at the cap first.
    const bomb = zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20));
    bomb.writeUInt32LE(100, bomb.length - 4);
    expect(announcedSize(bomb)).toBe(100);
    await expect(packer.pack(bomb, now)).rejects.toMatchObject({ statusCode: 413, message: 'Batch is larger than 16777216 bytes once decompressed' });
  });
});

describe('the error handler', () => {
  it('answers our own 5xx with its status and reason, and hides anything else', async () => {
    const { default: Fastify } = await import('fastify');
    const { installErrorHandler } = await import('../../../server/http/errors.js');
    const app = Fastify();
    installErrorHandler(app);
    app.get('/busy', async (_request, reply) => {
      reply.header('retry-after', 2);
      throw new HttpError(503, BUSY);
    });
    app.get('/bug', async () => {
      throw new Error('secret detail');
    });
    const busy = await app.inject('/busy');
    expect([busy.statusCode, busy.json(), busy.headers['retry-after']]).toEqual([503, { error: BUSY }, '2']);
    const bug = await app.inject('/bug');
    expect([bug.statusCode, bug.json()]).toEqual([500, { error: 'Internal server error' }]);
    await app.close();
  });
});
