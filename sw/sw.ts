/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import { ExpirationPlugin } from 'workbox-expiration';
import { OFFLINE_WRITE_MESSAGE } from '../src/offline/network.js';
import { removeCampaignReplays } from '../src/offline/replayStore.js';
import { handleReplay, isReplayRequest } from './replayRoute.js';
import { handleAsset, isAssetRequest } from './assetRoute.js';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null } | string> };

// The app shell is precached (index.html, the entry chunks, icons, manifest), with the player's
// code (rrweb-player and its styles) so replays play offline on any device. The API, the
// tracker (/static, /t) and sign-in (/oidc) never come from the precache.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every route of the app opens offline: navigations get the precached shell. A shared replay
// (/shared/{token}) always comes from the server, with its own strict CSP and noindex headers.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [/^\/api\//, /^\/oidc(\/|$)/, /^\/static\//, /^\/t\//, /^\/shared\//],
  }),
);

registerRoute(isReplayRequest, handleReplay);

// Other lazy chunks (terser) are not precached; they are kept the first time they load.
registerRoute(
  ({ url, request }) => url.origin === self.location.origin && url.pathname.startsWith('/assets/') && request.method === 'GET',
  new CacheFirst({ cacheName: 'tapedeck-lazy-chunks', plugins: [new ExpirationPlugin({ maxEntries: 80, purgeOnQuotaError: true })] }),
);

registerRoute(isAssetRequest, handleAsset);

// A write with no network is refused with a clear message, never queued and lost.
const DELETE_CAMPAIGN = /^\/api\/v1\/campaign\/delete\/([^/]+)$/;
const refuseOfflineWrite = async ({ request, url }: { request: Request; url: URL }) => {
  try {
    const response = await fetch(request);
    // A deleted campaign's saved replays leave the device with it.
    const deleted = request.method === 'DELETE' && response.ok ? DELETE_CAMPAIGN.exec(url.pathname) : null;
    if (deleted) await removeCampaignReplays(decodeURIComponent(deleted[1])).catch(() => undefined);
    return response;
  } catch {
    return Response.json({ error: OFFLINE_WRITE_MESSAGE }, { status: 503, statusText: 'Offline' });
  }
};
const isApiWrite = ({ url }: { url: URL }) => url.origin === self.location.origin && url.pathname.startsWith('/api/');
for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) registerRoute(isApiWrite, refuseOfflineWrite, method);

// Updates wait for the user: the page asks for SKIP_WAITING after they accept the prompt.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// The first install takes control at once so the first replay watched is kept too.
clientsClaim();
