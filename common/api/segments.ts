import { Type, type Static } from 'typebox';
import { MadeId } from './shared.js';
import { SessionsQuery } from './sessions.js';
import { MAX_SEGMENT_NAME, MAX_SEGMENTS_PER_CAMPAIGN } from '../segments.js';

// Segments: a campaign's sessions-list filters saved under a name (GET/POST/PATCH/DELETE
// /api/v1/segments/{campaignId}[/{segmentId}]). The filters are the list's own query
// parameters, checked by the list's own schema (without its paging).

export const SEGMENT_LIMIT_REACHED = `A campaign keeps at most ${MAX_SEGMENTS_PER_CAMPAIGN} segments: delete one first`;
export const SEGMENT_NOT_FOUND = 'Segment not found';

export const SegmentFilters = Type.Omit(SessionsQuery, ['cursor', 'limit'], { additionalProperties: false });
export type SegmentFilters = Static<typeof SegmentFilters>;

const name = () => Type.String({ minLength: 1, maxLength: MAX_SEGMENT_NAME });

export const SegmentBody = Type.Object({ name: name(), filters: SegmentFilters }, { additionalProperties: false });
export type SegmentBody = Static<typeof SegmentBody>;

/** PATCH: a new name, new filters, or both. */
export const SegmentChanges = Type.Object(
  { name: Type.Optional(name()), filters: Type.Optional(SegmentFilters) },
  { additionalProperties: false, minProperties: 1 },
);
export type SegmentChanges = Static<typeof SegmentChanges>;

export const SegmentsParams = Type.Object({ campaignId: Type.String({ maxLength: 64 }) });
export const SegmentParams = Type.Object({ campaignId: Type.String({ maxLength: 64 }), segmentId: MadeId() });

export const Segment = Type.Object({
  id: Type.String(),
  name: Type.String(),
  filters: SegmentFilters,
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
});
export type Segment = Static<typeof Segment>;

/** A campaign's segments, oldest first. */
export const SegmentList = Type.Object({ segments: Type.Array(Segment) });
export type SegmentList = Static<typeof SegmentList>;
