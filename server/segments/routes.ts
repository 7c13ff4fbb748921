import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { MAX_SEGMENTS_PER_CAMPAIGN } from '../../common/segments.js';
import {
  Segment,
  SEGMENT_LIMIT_REACHED,
  SEGMENT_NOT_FOUND,
  SegmentBody,
  SegmentChanges,
  SegmentList,
  SegmentParams,
  SegmentsParams,
} from '../../common/api/segments.js';
import { Ok } from '../../common/api/shared.js';
import { requireUser } from '../auth/tokens.js';
import { HttpError, notFound, requiredText } from '../http/errors.js';
import { ownedCampaign, ownedCampaignWriter } from '../campaigns/ownership.js';
import { addSegment, changeSegment, deleteSegment, listSegments, SEGMENT_WRITES_PER_USER } from './repository.js';

/** A segment is a name and a few filters: a small body. */
const BODY_LIMIT = 4 * 1024;

const segmentName = (name: string) => requiredText(name, 'Segment name is required');

/** A campaign's segments: owner only (404 unknown campaign, 403 another owner's), as every campaign call. */
export async function registerSegments(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const preHandler = requireUser(ctx);
  const writer = ownedCampaignWriter(app, ctx.db, 'segment-user', SEGMENT_WRITES_PER_USER);

  api.get(
    '/api/v1/segments/:campaignId',
    { config: { permission: 'sessions.watch' }, preHandler, schema: { params: SegmentsParams, response: { 200: SegmentList } } },
    async (request, reply) => {
      const campaign = await ownedCampaign(ctx.db, request, request.params.campaignId);
      reply.header('cache-control', 'private, no-cache');
      return { segments: await listSegments(ctx.db, campaign.id) };
    },
  );

  api.post(
    '/api/v1/segments/:campaignId',
    {
      config: { permission: 'segments.write' },
      preHandler,
      bodyLimit: BODY_LIMIT,
      schema: { params: SegmentsParams, body: SegmentBody, response: { 201: Segment } },
    },
    async (request, reply) => {
      const campaign = await writer(request, reply, request.params.campaignId);
      const segment = await addSegment(ctx.db, campaign.id, { name: segmentName(request.body.name), filters: request.body.filters }, MAX_SEGMENTS_PER_CAMPAIGN);
      if (!segment) throw new HttpError(409, SEGMENT_LIMIT_REACHED);
      return reply.status(201).send(segment);
    },
  );

  api.patch(
    '/api/v1/segments/:campaignId/:segmentId',
    {
      config: { permission: 'segments.write' },
      preHandler,
      bodyLimit: BODY_LIMIT,
      schema: { params: SegmentParams, body: SegmentChanges, response: { 200: Segment } },
    },
    async (request, reply) => {
      const campaign = await writer(request, reply, request.params.campaignId);
      const { name, filters } = request.body;
      const segment = await changeSegment(ctx.db, campaign.id, request.params.segmentId, { name: name === undefined ? undefined : segmentName(name), filters });
      if (!segment) throw notFound(SEGMENT_NOT_FOUND);
      return segment;
    },
  );

  api.delete(
    '/api/v1/segments/:campaignId/:segmentId',
    { config: { permission: 'segments.write' }, preHandler, schema: { params: SegmentParams, response: { 200: Ok } } },
    async (request, reply) => {
      const campaign = await writer(request, reply, request.params.campaignId);
      if (!(await deleteSegment(ctx.db, campaign.id, request.params.segmentId))) throw notFound(SEGMENT_NOT_FOUND);
      return { ok: true as const };
    },
  );
}
