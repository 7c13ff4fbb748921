// The API's payload types, derived from the schemas the server validates and serialises with
// (common/api/*), imported by the PWA, the server and the tracker.

export type { Ok } from './api/shared.js';
export type { User, SignInResponse, ValidateTokenResponse } from './api/auth.js';
export type { SignIn, SignInList } from './api/account.js';
export type { Campaign, CampaignListResponse, CreateCampaignPayload } from './api/campaigns.js';
export type { SessionInfo, Session, SessionCounts, SessionsResponse, StorageUse } from './api/sessions.js';
export type { ReplayEvent, ReplayInit, ReplayResponse } from './api/replay.js';
