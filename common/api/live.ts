import { Type } from 'typebox';

/**
 * GET /api/v1/replay/live/{campaignId}/{sessionId}?after=<held batches> (a Last-Event-ID header
 * wins): the highest seq held, then the missing seqs or ranges below it (common/held-batches.ts).
 */
export const LiveQuery = Type.Object({ after: Type.Optional(Type.String({ maxLength: 400 })) });
