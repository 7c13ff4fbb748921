// Saved segments: caps shared by the API's schemas (common/api/segments.ts) and the sessions
// list's form. Plain values, no schemas: the PWA reads them without loading TypeBox.

export const MAX_SEGMENT_NAME = 100;
export const MAX_SEGMENTS_PER_CAMPAIGN = 50;
