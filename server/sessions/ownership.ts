import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/index.js';
import { ownedCampaign } from '../campaigns/ownership.js';
import { badRequest, notFound } from '../http/errors.js';
import { isSessionId } from '../storage/ids.js';
import { findSession } from './repository.js';

export const SESSION_NOT_FOUND = 'Session not found';

/** The caller's session and its campaign, for the route's permission: 400 for a malformed id, 404 when their campaign has no such session. */
export async function ownedCampaignSession(db: Db, request: FastifyRequest, params: { campaignId: string; sessionId: string }) {
  const campaign = await ownedCampaign(db, request, params.campaignId);
  if (!isSessionId(params.sessionId)) throw badRequest('Invalid session id');
  const session = await findSession(db, campaign.id, params.sessionId);
  if (!session) throw notFound(SESSION_NOT_FOUND);
  return { campaign, session };
}

/** The caller's session (replay, export, share, notes, stars, live), as ownedCampaignSession finds it. */
export async function ownedSession(db: Db, request: FastifyRequest, params: { campaignId: string; sessionId: string }) {
  return (await ownedCampaignSession(db, request, params)).session;
}
