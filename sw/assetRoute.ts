import type { RouteHandlerCallbackOptions } from 'workbox-core';
import { ASSET_CACHE } from '../src/offline/assetCache.js';

// Images, fonts and stylesheets a saved replay references answer from the asset cache, so the
// replay renders offline as it did online. Anything not kept goes to the network as usual.

const ASSET_DESTINATIONS = new Set(['image', 'font', 'style']);

export function isAssetRequest({ request }: { request: Request }): boolean {
  return request.method === 'GET' && ASSET_DESTINATIONS.has(request.destination);
}

export async function handleAsset({ request }: RouteHandlerCallbackOptions): Promise<Response> {
  // caches.match with a cacheName does not create the cache (open would, after a logout wipe).
  const kept = await caches.match(request.url, { cacheName: ASSET_CACHE, ignoreVary: true });
  return kept ?? fetch(request);
}
