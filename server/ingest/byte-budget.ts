import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimits } from '../config.js';
import type { ByteCounter } from '../cluster/byte-counter.js';
import { clientAddress } from '../http/client-address.js';
import { HttpError } from '../http/errors.js';
import { MAX_BODY_BYTES } from '../../common/limits.js';

const MINUTE = 60_000;
const KIB = 1024;

/** The 429 answer's reason when a budget is spent (Retry-After says when the minute ends). */
export const byteBudgetSpent = (seconds: number) => `Too much data: try again in ${seconds} s`;

/**
 * Ingest bytes a minute, per client address and per campaign (RATE_INGEST_MB_PER_IP,
 * RATE_INGEST_MB_PER_CAMPAIGN; 0 turns one off), counted in KiB of request body where the rate
 * limits count, so every node shares them. A body counts even when it is refused, as a request
 * counts under a rate limit; the address is charged first, so one sender past its own budget
 * does not spend the campaign's. A body with a Content-Length is charged before it is read (a
 * sender past its budget is refused without its body), any other once it has arrived.
 */
export function ingestByteBudgets(counter: ByteCounter, rates: Pick<RateLimits, 'ingestMbPerIp' | 'ingestMbPerCampaign'>) {
  const charge = async (reply: FastifyReply, key: string, megabytes: number, kib: number) => {
    if (megabytes === 0) return;
    const { total, ttlMs } = await counter.add(key, kib, MINUTE);
    if (total <= megabytes * KIB) return;
    const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
    reply.header('retry-after', seconds);
    throw new HttpError(429, byteBudgetSpent(seconds));
  };
  const charged = new WeakSet<FastifyRequest>();
  const chargeBody = async (request: FastifyRequest, reply: FastifyReply, campaignId: string, bytes: number) => {
    charged.add(request);
    const kib = Math.max(1, Math.ceil(bytes / KIB));
    await charge(reply, `ingest-bytes-ip:${clientAddress(request)}`, rates.ingestMbPerIp, kib);
    await charge(reply, `ingest-bytes-campaign:${campaignId}`, rates.ingestMbPerCampaign, kib);
  };
  return {
    /** Before the body: what Content-Length declares (at most what ingest reads), if it says. */
    declared: async (request: FastifyRequest, reply: FastifyReply, campaignId: string): Promise<void> => {
      const length = Number(request.headers['content-length']);
      if (Number.isSafeInteger(length) && length >= 0) await chargeBody(request, reply, campaignId, Math.min(length, MAX_BODY_BYTES + 1));
    },
    /** Once the body has arrived, unless it was charged before. */
    received: async (request: FastifyRequest, reply: FastifyReply, campaignId: string, bytes: number): Promise<void> => {
      if (!charged.has(request)) await chargeBody(request, reply, campaignId, bytes);
    },
  };
}
