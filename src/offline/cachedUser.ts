import type { User } from '../../common/api-types.js';
import { openOfflineDb } from './db.js';

// Being offline is not being signed out: the last user the server confirmed is kept on the
// device, so a network error during the auth check keeps them signed in. Only a 401 (or a
// logout) clears it.

const CACHED_USER_KEY = 'cachedUser';

export async function rememberUser(user: User): Promise<void> {
  const db = await openOfflineDb();
  await db.put('settings', user, CACHED_USER_KEY);
}

export async function cachedUser(): Promise<User | null> {
  try {
    const db = await openOfflineDb();
    const user = (await db.get('settings', CACHED_USER_KEY)) as User | undefined;
    return user ?? null;
  } catch {
    return null;
  }
}

export async function forgetUser(): Promise<void> {
  const db = await openOfflineDb();
  await db.delete('settings', CACHED_USER_KEY);
}
