import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { api, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import type { Erased, PeoplePage, Person } from '../../common/api/people.js';

export const personKey = (campaignId: string, userId: string) => ['person', campaignId, userId] as const;

const fetchPerson = (campaignId: string, userId: string, client: ApiClient = api) => client.get<Person>(API_PATHS.person(campaignId, userId));

export const personQueryOptions = (campaignId: string, userId: string) =>
  queryOptions({ queryKey: personKey(campaignId, userId), queryFn: () => fetchPerson(campaignId, userId) });

/** Erases every session of the person; answers how many. */
export const erasePerson = (campaignId: string, userId: string, client: ApiClient = api) => client.delete<Erased>(API_PATHS.person(campaignId, userId));

/** The data-subject access export: the same answer as a file the browser downloads (the session cookie goes with a same-origin link). */
export const personExportUrl = (campaignId: string, userId: string) => `${API_PATHS.person(campaignId, userId)}?download=true`;

/** The campaign's people directory, searched by `q` (an id's start, `key=value`, or a trait's value), a page at a time. */
export const peopleQueryOptions = (campaignId: string, q: string, client: ApiClient = api) =>
  infiniteQueryOptions({
    queryKey: ['people', campaignId, q] as const,
    queryFn: ({ pageParam }) => {
      const params = new URLSearchParams({ ...(q.trim() ? { q: q.trim() } : {}), ...(pageParam ? { cursor: pageParam } : {}) });
      return client.get<PeoplePage>(`${API_PATHS.people(campaignId)}${params.size ? `?${params}` : ''}`);
    },
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });
