import { Type, type Static } from 'typebox';
import { MadeId, Nullable } from './shared.js';
import { API_KEY_NAME_MAX, API_KEY_SCOPES } from '../api-keys.js';

// The API of a workspace's API keys (issue 38; docs/api.md, "API keys").

const EPOCH_MS_MAX = 8_640_000_000_000_000;

const scope = Type.Union(API_KEY_SCOPES.map((name) => Type.Literal(name)));

export const ApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: API_KEY_NAME_MAX }),
    scopes: Type.Array(scope, { minItems: 1, maxItems: API_KEY_SCOPES.length, uniqueItems: true }),
    /** The workspace the key belongs to; the caller's personal workspace without one. */
    workspace_id: Type.Optional(MadeId()),
    /** When the key stops working (epoch ms, in the future); never without one. */
    expires_at: Type.Optional(Type.Integer({ minimum: 0, maximum: EPOCH_MS_MAX })),
  },
  { additionalProperties: false },
);

/** The only answer that holds the key itself. */
export const CreatedApiKey = Type.Object({ data: Type.Object({ id: Type.String(), key: Type.String(), prefix: Type.String() }) });
export type CreatedApiKey = Static<typeof CreatedApiKey>;

export const ApiKeyQuery = Type.Object({ workspace_id: Type.Optional(MadeId()) }, { additionalProperties: false });
export const ApiKeyParams = Type.Object({ apiKeyId: MadeId() });

export const ApiKeyItem = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  scopes: Type.Array(Type.String()),
  last_used_at: Nullable(Type.Integer()),
  expires_at: Nullable(Type.Integer()),
  created_at: Type.Integer(),
});
export type ApiKeyItem = Static<typeof ApiKeyItem>;
export const ApiKeyList = Type.Object({ data: Type.Array(ApiKeyItem) });
