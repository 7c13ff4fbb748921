import { afterAll, describe, expect, it } from 'vitest';
import { BatchPacker, BUSY } from '../../../server/ingest/pack-pool.js';
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
