import type { ReplayEvent } from '../../common/api-types.js';
import { ASSET_CACHE } from './assetCache.js';
import { collectAssetUrls, CSS_URL } from './replayAssets.js';

// The player draws the recording in an about:blank iframe, which Chromium does not put under
// the service worker's control, so offline its requests for the recorded site's files fail
// even though the worker keeps them. Offline, the page therefore swaps those URLs in the
// events for blob: URLs of the kept copies. Files kept without CORS (opaque) cannot be read
// by the page and stay as they are.

const URL_END = `(?=["')\\s,\\\\]|$)`;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function keptBlobUrls(urls: string[], cache: Cache, made: Map<string, string>): Promise<void> {
  for (const url of urls) {
    if (made.has(url)) continue;
    const kept = await cache.match(url, { ignoreVary: true });
    if (!kept || kept.type === 'opaque') continue;
    const type = kept.headers.get('Content-Type') ?? '';
    if (type.includes('text/css')) {
      // A stylesheet's own url()s (fonts, backgrounds) must point at kept copies too.
      let css = await kept.text();
      const inner = [...css.matchAll(CSS_URL)].map((match) => match[2]);
      const absolute = inner.map((raw) => new URL(raw, url).href);
      made.set(url, ''); // guards against stylesheets that reference each other
      await keptBlobUrls(absolute, cache, made);
      inner.forEach((raw, i) => {
        const local = made.get(absolute[i]);
        if (local) css = css.split(raw).join(local);
      });
      made.set(url, URL.createObjectURL(new Blob([css], { type: 'text/css' })));
    } else {
      made.set(url, URL.createObjectURL(await kept.blob()));
    }
  }
}

/**
 * Replaces kept assets' URLs in events by blob: URLs (events unchanged when none are kept). One
 * swapper serves a whole replay read in batches: each kept file becomes one blob: URL.
 */
export function localAssetSwapper(): (events: ReplayEvent[]) => Promise<ReplayEvent[]> {
  const made = new Map<string, string>();
  return (events) => swapped(events, made);
}

async function swapped(events: ReplayEvent[], made: Map<string, string>): Promise<ReplayEvent[]> {
  if (typeof caches === 'undefined' || typeof URL.createObjectURL !== 'function') return events;
  const urls = collectAssetUrls(events);
  if (urls.length === 0) return events;
  await keptBlobUrls(urls, await caches.open(ASSET_CACHE), made);
  const swaps = [...made.entries()].filter(([url, local]) => local && urls.includes(url)).sort(([a], [b]) => b.length - a.length);
  if (swaps.length === 0) return events;
  let text = JSON.stringify(events);
  for (const [url, local] of swaps) text = text.replace(new RegExp(escapeRegExp(url) + URL_END, 'g'), local);
  return JSON.parse(text) as ReplayEvent[];
}

export const MISSING_ASSETS_MESSAGE =
  'Some images of this recording could not be saved on this device (the recorded site does not allow copies, or did not answer), so they are missing while offline.';

/** How many of the files the events reference have no copy on the device the page can use. */
export async function countAssetsNotKept(events: ReplayEvent[]): Promise<number> {
  const urls = collectAssetUrls(events);
  if (urls.length === 0) return 0;
  if (typeof caches === 'undefined') return urls.length;
  const cache = await caches.open(ASSET_CACHE);
  const usable = await Promise.all(
    urls.map(async (url) => {
      const kept = await cache.match(url, { ignoreVary: true });
      return kept !== undefined && kept.type !== 'opaque';
    }),
  );
  return usable.filter((ok) => !ok).length;
}
