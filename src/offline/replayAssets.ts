// Replays reference the recorded site's images, fonts and stylesheets by URL, so a replay
// saved for offline would render unstyled without them. These helpers find those URLs in the
// events and keep the files in one Cache Storage cache that the service worker answers from.

import { EventType, IncrementalSource } from '@rrweb/types';
import { ASSET_CACHE, hasCaches } from './assetCache.js';

/** Cap per replay: a page with thousands of images should not fill the device. */
export const MAX_ASSETS_PER_REPLAY = 300;

interface SerializedNode {
  type?: number;
  tagName?: string;
  attributes?: Record<string, unknown>;
  childNodes?: SerializedNode[];
  textContent?: string;
}

interface LooseEvent {
  type: number;
  data?: unknown;
}

export const CSS_URL = /url\(\s*(['"]?)([^'")]+)\1\s*\)/g;

function cssUrls(css: string, into: string[]): void {
  for (const match of css.matchAll(CSS_URL)) into.push(match[2]);
}

function srcsetUrls(srcset: string, into: string[]): void {
  for (const candidate of srcset.split(',')) {
    const url = candidate.trim().split(/\s+/)[0];
    if (url) into.push(url);
  }
}

/** The replay never runs scripts nor loads frames by URL: their src is not an asset. */
const NOT_ASSETS = new Set(['script', 'iframe', 'frame', 'a']);

function attributeUrls(tagName: string | undefined, attributes: Record<string, unknown>, into: string[]): void {
  if (tagName && NOT_ASSETS.has(tagName.toLowerCase())) return;
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value !== 'string' || !value) continue;
    if (name === 'src' || name === 'poster') into.push(value);
    else if (name === 'srcset') srcsetUrls(value, into);
    else if (name === 'style' || name === '_cssText') cssUrls(value, into);
    else if (name === 'href' && tagName === 'link') {
      const rel = String(attributes.rel ?? '').toLowerCase();
      if (/stylesheet|icon|preload/.test(rel)) into.push(value);
    }
  }
}

function nodeUrls(node: SerializedNode | undefined, into: string[]): void {
  if (!node || typeof node !== 'object') return;
  if (node.attributes) attributeUrls(node.tagName, node.attributes, into);
  if (typeof node.textContent === 'string' && node.textContent.includes('url(')) cssUrls(node.textContent, into);
  for (const child of node.childNodes ?? []) nodeUrls(child, into);
}

function stringsOf(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) value.forEach((item) => stringsOf(item, into));
  else if (value && typeof value === 'object') Object.values(value).forEach((item) => stringsOf(item, into));
}

/** Absolute http(s) URLs of the images, fonts and stylesheets the events reference. */
export function collectAssetUrls(events: LooseEvent[]): string[] {
  let base = '';
  const resolve = (raw: string) => {
    try {
      const url = new URL(raw.trim(), base || undefined);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url.href.replace(/#.*$/, '') : null;
    } catch {
      return null;
    }
  };
  const urls = new Set<string>();
  for (const event of events) {
    const data = event.data as Record<string, unknown> | undefined;
    if (!data) continue;
    const raw: string[] = [];
    if (event.type === EventType.Meta && typeof data.href === 'string') base = data.href;
    else if (event.type === EventType.FullSnapshot) nodeUrls(data.node as SerializedNode, raw);
    else if (event.type === EventType.IncrementalSnapshot && data.source === IncrementalSource.Mutation) {
      for (const add of (data.adds as { node?: SerializedNode }[] | undefined) ?? []) nodeUrls(add.node, raw);
      for (const change of (data.attributes as { attributes?: Record<string, unknown> }[] | undefined) ?? []) {
        attributeUrls(undefined, change.attributes ?? {}, raw);
      }
    } else if (event.type === EventType.IncrementalSnapshot) {
      // Style sheet rule and adopted style sheet events (IncrementalSource.StyleSheetRule,
      // AdoptedStyleSheet) carry CSS text.
      const texts: string[] = [];
      stringsOf(data.adds ?? data.styles ?? [], texts);
      texts.filter((text) => text.includes('url(')).forEach((text) => cssUrls(text, raw));
    }
    for (const url of raw) {
      const absolute = resolve(url);
      if (absolute) urls.add(absolute);
      if (urls.size >= MAX_ASSETS_PER_REPLAY) return [...urls];
    }
  }
  return [...urls];
}

/** A recorded site that no longer answers must not hold a save up for long. */
const ASSET_TIMEOUT_MS = 15_000;

async function fetchAsset(url: string): Promise<Response | null> {
  const signal = () => AbortSignal.timeout(ASSET_TIMEOUT_MS);
  try {
    const response = await fetch(url, { mode: 'cors', credentials: 'omit', signal: signal() });
    if (response.ok) return response;
  } catch {
    // Not CORS-enabled: keep an opaque copy, which the replay's <img>/<link> can still use.
  }
  try {
    const response = await fetch(url, { mode: 'no-cors', credentials: 'omit', signal: signal() });
    return response.ok || response.type === 'opaque' ? response : null;
  } catch {
    return null;
  }
}

const isReadableStylesheet = (response: Response) => response.type !== 'opaque' && (response.headers.get('Content-Type') ?? '').includes('text/css');

/** Fonts and images a stylesheet file itself references (one level deep). */
async function stylesheetUrls(response: Response, base: string): Promise<string[]> {
  const found: string[] = [];
  cssUrls(await response.text(), found);
  return found.flatMap((raw) => {
    try {
      const url = new URL(raw, base);
      return url.protocol === 'http:' || url.protocol === 'https:' ? [url.href] : [];
    } catch {
      return [];
    }
  });
}

/** Fetches and keeps the assets not cached yet, four at a time. Returns the URLs now cached. */
export async function cacheAssets(urls: string[]): Promise<string[]> {
  if (!hasCaches() || urls.length === 0) return [];
  const cache = await caches.open(ASSET_CACHE);
  const cached: string[] = [];
  const queue = [...urls];
  const worker = async () => {
    for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
      if (await cache.match(url)) {
        cached.push(url);
        continue;
      }
      const response = await fetchAsset(url);
      if (!response) continue;
      try {
        if (isReadableStylesheet(response) && cached.length + queue.length < MAX_ASSETS_PER_REPLAY)
          queue.push(...(await stylesheetUrls(response.clone(), url)).filter((u) => !urls.includes(u)));
        await cache.put(url, response);
        cached.push(url);
      } catch {
        // Quota or an uncacheable answer: the replay still plays, without this file.
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return cached;
}
