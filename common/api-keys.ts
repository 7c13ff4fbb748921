// API keys' scopes and caps (issue 38), shared by the server and the PWA without the schemas'
// library: common/api/api-keys.ts builds the API's schemas from them.

/** What a key may be allowed to do, one scope each; server/api-keys/scopes.ts gives every route its scope. */
export const API_KEY_SCOPES = [
  'sessions:read',
  'recordings:read',
  'recordings:delete',
  'people:read',
  'people:delete',
  'campaigns:write',
  'insights:read',
] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export const isApiKeyScope = (value: string): value is ApiKeyScope => (API_KEY_SCOPES as readonly string[]).includes(value);

/** What each scope allows, in the app's words (the key form's checkboxes). */
export const SCOPE_TEXTS: Record<ApiKeyScope, string> = {
  'sessions:read': 'List campaigns, sessions, notes, stars and segments',
  'recordings:read': 'Retrieve and download recordings',
  'recordings:delete': 'Delete recordings',
  'people:read': 'Read the people directory and a person',
  'people:delete': "Erase a person's data",
  'campaigns:write': 'Create, change and delete campaigns',
  'insights:read': 'Read insights, funnels and heatmaps',
};

/** Every key starts with it, so a leaked one is recognised (secret scanners, logs). */
export const API_KEY_PREFIX = 'td_';
export const API_KEY_NAME_MAX = 100;
/** Keys a workspace may hold that are not revoked (expired ones count until revoked). */
export const API_KEYS_PER_WORKSPACE = 50;
