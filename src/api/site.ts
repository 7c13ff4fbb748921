import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import type { SiteConfig } from '../../common/api/site.js';

/** The server's public settings (its contact address); fixed while the server runs. */
export async function fetchSiteConfig(client: ApiClient = api): Promise<SiteConfig> {
  const body = await client.get<Partial<SiteConfig>>(API_PATHS.siteConfig);
  return { contactEmail: typeof body?.contactEmail === 'string' && body.contactEmail ? body.contactEmail : null };
}

export const siteConfigQueryOptions = () =>
  queryOptions({ queryKey: ['siteConfig'] as const, queryFn: () => fetchSiteConfig(), staleTime: 60 * 60 * 1000, retry: 1 });

/** The contact address to show, or null: unset on the server, not loaded yet, or unreachable. */
export function useContactEmail(): string | null {
  return useQuery(siteConfigQueryOptions()).data?.contactEmail ?? null;
}
