/** Id shapes checked before any query: a malformed id is a 400, never a lookup. */
export const CAMPAIGN_ID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
/** Session ids come from the tracker (one per tab): UUIDs or similar URL-safe tokens. */
export const SESSION_ID_PATTERN = '^[A-Za-z0-9_-]{8,64}$';

const campaignId = new RegExp(CAMPAIGN_ID_PATTERN);
const sessionId = new RegExp(SESSION_ID_PATTERN);

export const isCampaignId = (value: string): boolean => campaignId.test(value);
/** Funnels are named as campaigns are (a UUID): any other id is no funnel's, and is never looked up. */
export const isFunnelId = (value: string): boolean => campaignId.test(value);
export const isSessionId = (value: string): boolean => sessionId.test(value);
