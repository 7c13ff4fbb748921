import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ReplayParams } from '../../common/api/replay.js';
import { CreatedShare, CreateShareBody, ShareList, ShareTokenParams } from '../../common/api/shares.js';
import { Ok } from '../../common/api/shared.js';
import type { AppContext } from '../context.js';
import { requireUser } from '../auth/tokens.js';
import { HttpError, notFound } from '../http/errors.js';
import { minuteLimit } from '../http/rate-limit.js';
import { clientAddress } from '../http/client-address.js';
import { findSession } from '../sessions/repository.js';
import { toSession } from '../sessions/rows.js';
import { listChunks } from '../storage/chunks.js';
import { objectWithEvents, sessionComplete } from '../replay/stream.js';
import { ownedCampaignSession, ownedSession } from '../sessions/ownership.js';
import { ownedCampaign } from '../campaigns/ownership.js';
import { audit } from '../teams/audit.js';
import { isHeavy, sendGated } from '../replay/gate.js';
import { sendJsonStream } from '../replay/encoding.js';
import { withoutQuery } from '../../common/scrub.js';
import { createShare, findLiveShare, findShare, isShareToken, listShares, revokeShare, shareHashOf } from './repository.js';

/** What an expired, revoked or unknown link answers (the same for all three: a guess learns nothing). */
export const LINK_GONE = 'This link no longer works';
export const SHARE_NOT_FOUND = 'Share link not found';

/**
 * The shared page's policy: the app's own scripts only, no fetch but our API (the recorded site's
 * files still show, as images, styles and fonts), no form, no base, no framing. No Referer
 * either: the token in the address must not reach the recorded site with its images.
 */
export const SHARED_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' 'unsafe-inline' blob: https: http:",
  "img-src 'self' data: blob: https: http:",
  "font-src 'self' data: blob: https: http:",
  "media-src 'self' data: blob: https: http:",
  "connect-src 'self'",
  "frame-src 'self'",
  "child-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** A page's address as rrweb's Meta event (4) holds it, first in its data, as the tracker sends it. */
const META_HREF = /("type":4,"data":\{"href":)("(?:[^"\\]|\\.)*")/g;

/**
 * Events of a link without details carry page addresses without query string or fragment, also
 * in recordings stored before ingest dropped them (common/scrub.ts).
 */
export function withoutPageQueries(piece: Buffer): Buffer {
  if (!piece.includes('"type":4,')) return piece;
  const text = piece.toString('utf8');
  const scrubbed = text.replace(META_HREF, (_, head: string, href: string) => head + JSON.stringify(withoutQuery(JSON.parse(href) as string)));
  return scrubbed === text ? piece : Buffer.from(scrubbed);
}

/** Links one address may create, and shared replays it may open, per minute. */
const CREATES_PER_IP = 30;
const OPENS_PER_IP = 60;

export async function registerShares(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const createLimit = minuteLimit(app, 'share-create-ip', CREATES_PER_IP);
  const openLimit = minuteLimit(app, 'share-open-ip', OPENS_PER_IP);
  const sharedGate = ctx.replayGates.shared;

  api.post(
    '/api/v1/replay/share/:campaignId/:sessionId',
    {
      config: { permission: 'shares.manage' },
      preHandler: requireUser(ctx),
      schema: { params: ReplayParams, body: CreateShareBody, response: { 201: CreatedShare } },
    },
    async (request, reply) => {
      await createLimit(request, reply, clientAddress(request));
      const { campaign, session } = await ownedCampaignSession(ctx.db, request, request.params);
      const { expiresIn, includeDetails = false } = request.body;
      const { token, expiresAt } = await ctx.db.transaction().execute(async (trx) => {
        const made = await createShare(trx, { campaignId: session.campaign_id, sessionId: session.id, expiresIn, includeDetails });
        await audit(trx, request, campaign.workspace_id, {
          action: 'share.created',
          target: `session:${campaign.id}/${session.id}`,
          after: { expiresIn, includeDetails },
        });
        return made;
      });
      return reply.status(201).send({ url: `${ctx.config.publicUrl}/shared/${token}`, token, expiresAt });
    },
  );

  api.get(
    '/api/v1/replay/share/:campaignId/:sessionId',
    { config: { permission: 'shares.manage' }, preHandler: requireUser(ctx), schema: { params: ReplayParams, response: { 200: ShareList } } },
    async (request, reply) => {
      const session = await ownedSession(ctx.db, request, request.params);
      reply.header('cache-control', 'private, no-cache');
      return { links: await listShares(ctx.db, session.campaign_id, session.id) };
    },
  );

  // Takes the token, or a listed link's id (the owner's list never shows tokens).
  api.delete(
    '/api/v1/replay/share/:token',
    { config: { permission: 'shares.manage' }, preHandler: requireUser(ctx), schema: { params: ShareTokenParams, response: { 200: Ok } } },
    async (request) => {
      const hash = shareHashOf(request.params.token);
      const share = hash ? await findShare(ctx.db, hash) : undefined;
      if (!share) throw notFound(SHARE_NOT_FOUND);
      // A link of a campaign the caller cannot see answers as an unknown one; a missing permission is named.
      const campaign = await ownedCampaign(ctx.db, request, share.campaign_id).catch((error: unknown) => {
        if (error instanceof HttpError && error.statusCode === 404) throw notFound(SHARE_NOT_FOUND);
        throw error;
      });
      await ctx.db.transaction().execute(async (trx) => {
        if (await revokeShare(trx, share.token_hash))
          await audit(trx, request, campaign.workspace_id, { action: 'share.revoked', target: `session:${campaign.id}/${share.session_id}` });
      });
      return { ok: true as const };
    },
  );

  // The page itself: the app shell, under the stricter policy above and never indexed.
  const indexFile = path.join(ctx.config.distDir, 'app', 'index.html');
  app.get('/shared/:token', (_request, reply) => {
    if (!fs.existsSync(indexFile)) return reply.status(404).send({ error: 'Not found' });
    return reply
      .header('content-security-policy', SHARED_PAGE_CSP)
      .header('x-robots-tag', 'noindex, nofollow')
      .header('referrer-policy', 'no-referrer')
      .header('cache-control', 'no-cache')
      .type('text/html')
      .send(fs.createReadStream(indexFile));
  });

  // Public: no cookies read. Only that replay's events, and its details when the owner chose so.
  api.get('/api/v1/shared/:token', { config: { access: 'public' }, schema: { params: ShareTokenParams } }, async (request, reply) => {
    await openLimit(request, reply, clientAddress(request));
    reply.header('x-robots-tag', 'noindex, nofollow').header('cache-control', 'private, no-store').header('referrer-policy', 'no-referrer');
    const { token } = request.params;
    const share = isShareToken(token) ? await findLiveShare(ctx.db, token) : undefined;
    const session = share && (await findSession(ctx.db, share.campaign_id, share.session_id));
    if (!share || !session) throw notFound(LINK_GONE);
    const chunks = await listChunks(ctx.db, session.campaign_id, session.id);
    const details = share.include_details === 1 ? toSession(session) : null;
    const mapPiece = details ? undefined : withoutPageQueries;
    const head = `{"expiresAt":${share.expires_at},"complete":${sessionComplete(session, Date.now())},"details":${JSON.stringify(details)},"events":[`;
    return sendGated(
      sharedGate,
      request,
      reply,
      isHeavy(Number(session.byte_count), chunks),
      () => objectWithEvents(ctx.db, session, head, { chunks, mapPiece }),
      (body) => sendJsonStream(request, reply, body),
    );
  });
}
