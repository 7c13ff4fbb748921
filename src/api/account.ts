import { queryOptions } from '@tanstack/react-query';
import { api as defaultApi, type ApiClient } from './client.js';
import { API_PATHS } from './paths.js';
import type { Ok, SignInList } from '../../common/api-types.js';

// The account page's calls: the user's sign-ins (devices), signing them out, deleting the account.

export const signInsQueryOptions = (client: ApiClient = defaultApi) =>
  queryOptions({ queryKey: ['account', 'sign-ins'] as const, queryFn: () => client.get<SignInList>(API_PATHS.signIns) });

export const signOutDevice = (id: string, client: ApiClient = defaultApi) => client.delete<Ok>(API_PATHS.signIn(id));

export const signOutEverywhere = (client: ApiClient = defaultApi) => client.post<Ok>(API_PATHS.signOutEverywhere);

/** `confirm`: the account's email as the user typed it (the server checks it). */
export const deleteAccount = (confirm: string, client: ApiClient = defaultApi) => client.delete<Ok>(API_PATHS.account, { confirm });
