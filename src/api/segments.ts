import { api, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import type { Ok } from '../../common/api-types.js';
import type { Segment, SegmentList } from '../../common/api/segments.js';
import { filterParams, type SessionFilters } from '../lib/sessionFilters.js';

export const segmentKeys = { campaign: (campaignId: string) => ['segments', campaignId] as const };

export const fetchSegments = (campaignId: string, client: ApiClient = api) => client.get<SegmentList>(API_PATHS.segments(campaignId));

/** The filters as a segment keeps them: the list's query parameters, as in the URL. */
const asParams = (filters: SessionFilters) => Object.fromEntries(filterParams(filters));

export const saveSegment = (campaignId: string, name: string, filters: SessionFilters, client: ApiClient = api) =>
  client.post<Segment>(API_PATHS.segments(campaignId), { name, filters: asParams(filters) });

export const renameSegment = (campaignId: string, segmentId: string, name: string, client: ApiClient = api) =>
  client.patch<Segment>(API_PATHS.segment(campaignId, segmentId), { name });

export const deleteSegment = (campaignId: string, segmentId: string, client: ApiClient = api) => client.delete<Ok>(API_PATHS.segment(campaignId, segmentId));
