import { MADE_ID_PATTERN } from '../../common/ids.js';

// Id shapes checked before any query: a malformed id is a 400, never a lookup. A campaign's id is
// made by the server (MADE_ID_PATTERN).

/** Session ids come from the tracker (one per tab): UUIDs or similar URL-safe tokens. */
export const SESSION_ID_PATTERN = '^[A-Za-z0-9_-]{8,64}$';

const campaignId = new RegExp(MADE_ID_PATTERN);
const sessionId = new RegExp(SESSION_ID_PATTERN);

export const isCampaignId = (value: string): boolean => campaignId.test(value);
export const isSessionId = (value: string): boolean => sessionId.test(value);
