import { MADE_ID } from '../../common/ids.js';

// Id shapes checked before any query: a malformed id is a 400, never a lookup. A campaign's id is
// made by the server (MADE_ID).

/** Session ids come from the tracker (one per tab): UUIDs or similar URL-safe tokens. */
const SESSION_ID = /^[A-Za-z0-9_-]{8,64}$/;

export const isCampaignId = (value: string): boolean => MADE_ID.test(value);
export const isSessionId = (value: string): boolean => SESSION_ID.test(value);
