import { clearReplays } from './replayStore.js';
import { dropAllAssets } from './assetCache.js';
import { queryPersister } from './queryPersister.js';
import { forgetUser } from './cachedUser.js';
import { notifyOfflineChange } from './channel.js';

/**
 * Logout: removes this user's data from the device — saved replays, the assets they reference,
 * the persisted query cache and the remembered user — so the next person on a shared device
 * sees none of it. The budget setting is a device preference and stays.
 */
export async function wipeOfflineData(): Promise<void> {
  await Promise.all([clearReplays(), queryPersister.removeClient(), forgetUser()]);
  await dropAllAssets(); // after the replays, whose removal touches the same cache
  notifyOfflineChange({ type: 'wiped' });
}
