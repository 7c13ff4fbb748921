import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.js';
import { currentUserId } from '../auth/tokens.js';
import { badRequest, notFound } from '../http/errors.js';
import { minuteLimit, type LimitReply } from '../http/rate-limit.js';
import { isCampaignId } from '../storage/ids.js';
import { campaignAccess } from '../teams/access.js';

export const CAMPAIGN_NOT_FOUND = 'Campaign not found';

/**
 * The signed-in caller's campaign, for the permission its route declares (teams/access.ts): 400
 * for an id of the wrong shape, 404 when there is no such campaign or it belongs to a workspace
 * the caller is not in (one answer: ids cannot be probed), 403 naming the permission when their
 * role there lacks it.
 * Used by every campaign, session and replay call.
 */
export async function ownedCampaign(db: Db, request: FastifyRequest, campaignId: string) {
  if (!isCampaignId(campaignId)) throw badRequest('Invalid campaign id');
  const campaign = await campaignAccess(db, request, campaignId.toLowerCase());
  if (!campaign) throw notFound(CAMPAIGN_NOT_FOUND);
  return campaign;
}

/** ownedCampaign for a write: counted first against the caller's per-minute limit `name` (429 beyond `perMinute`). */
export function ownedCampaignWriter(app: FastifyInstance, db: Db, name: string, perMinute: number) {
  const writeLimit = minuteLimit(app, name, perMinute);
  return async (request: FastifyRequest, reply: LimitReply, campaignId: string) => {
    await writeLimit(request, reply, currentUserId(request));
    return ownedCampaign(db, request, campaignId);
  };
}
