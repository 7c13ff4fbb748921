import { queryOptions } from '@tanstack/react-query';
import { api } from './client.js';
import type { ApiKeyItem, CreatedApiKey } from '../../common/api/api-keys.js';
import type { ApiKeyScope } from '../../common/api-keys.js';

// A workspace's API keys (issue 38; docs/api.md, "API keys"): made, listed, revoked.

export const apiKeyPaths = {
  list: (workspaceId: string) => `/api/v1/api-keys?workspace_id=${encodeURIComponent(workspaceId)}`,
  create: '/api/v1/api-keys',
  key: (apiKeyId: string) => `/api/v1/api-keys/${encodeURIComponent(apiKeyId)}`,
};

export const apiKeyKeys = { list: (workspaceId: string) => ['workspaces', workspaceId, 'api-keys'] as const };

export const apiKeysQueryOptions = (workspaceId: string) =>
  queryOptions({ queryKey: apiKeyKeys.list(workspaceId), queryFn: async () => (await api.get<{ data: ApiKeyItem[] }>(apiKeyPaths.list(workspaceId))).data });

export interface NewKey {
  name: string;
  scopes: ApiKeyScope[];
  /** Epoch ms; none: the key never expires. */
  expiresAt?: number;
}

export const createApiKey = async (workspaceId: string, { name, scopes, expiresAt }: NewKey) =>
  (await api.post<CreatedApiKey>(apiKeyPaths.create, { name, scopes, workspace_id: workspaceId, ...(expiresAt ? { expires_at: expiresAt } : {}) })).data;

export const revokeApiKey = (apiKeyId: string) => api.delete(apiKeyPaths.key(apiKeyId));
