// The Cache Storage of replays' images, styles and fonts, apart from the code that finds them in
// recordings: dropping them is needed at start-up (the saved-replays store, sign-out), reading
// recordings only when a replay is saved, so rrweb's enums stay out of the first load.

export const ASSET_CACHE = 'tapedeck-replay-assets';

export const hasCaches = () => typeof caches !== 'undefined';

export async function dropAssets(urls: string[]): Promise<void> {
  // caches.open would create the cache again (e.g. right after a logout wiped it).
  if (!hasCaches() || urls.length === 0 || !(await caches.has(ASSET_CACHE))) return;
  const cache = await caches.open(ASSET_CACHE);
  await Promise.all(urls.map((url) => cache.delete(url)));
}

export async function dropAllAssets(): Promise<void> {
  if (hasCaches()) await caches.delete(ASSET_CACHE);
}
