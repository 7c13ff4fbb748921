import { Type } from 'typebox';
import { MAX_SEQ } from '../limits.js';

/** GET /api/v1/replay/live/{campaignId}/{sessionId}?after=<seq> (a Last-Event-ID header wins). */
export const LiveQuery = Type.Object({ after: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SEQ + 1 })) });
