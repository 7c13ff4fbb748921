import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.js';
import type { Selectable } from 'kysely';
import type { CampaignsTable } from '../db/schema.js';
import { currentUserId } from '../auth/tokens.js';
import { badRequest, forbidden, notFound } from '../http/errors.js';
import { minuteLimit, type LimitReply } from '../http/rate-limit.js';
import { isCampaignId } from '../storage/ids.js';
import { findCampaign } from './repository.js';

export const CAMPAIGN_NOT_FOUND = 'Campaign not found';

/**
 * The signed-in caller's campaign: 400 for an id of the wrong shape, 404 when no such campaign,
 * 403 (no data) when it belongs to someone else. Used by every campaign, session and replay call.
 */
export async function ownedCampaign(db: Db, request: FastifyRequest, campaignId: string): Promise<Selectable<CampaignsTable>> {
  const userId = currentUserId(request);
  if (!isCampaignId(campaignId)) throw badRequest('Invalid campaign id');
  const campaign = await findCampaign(db, campaignId.toLowerCase());
  if (!campaign) throw notFound(CAMPAIGN_NOT_FOUND);
  if (campaign.owner_id !== userId) throw forbidden();
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
