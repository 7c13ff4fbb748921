// The one scrubber of what a visitor's page hands us: text that a database column can hold,
// and (for captured text and URLs) visitor data hidden before anything is kept. The tracker
// applies it before anything leaves the page; ingest applies it again, for old or home-made
// senders, so what is stored is clean whoever sent it.
import { CAPTURED_TAGS } from './captured.js';

/** NUL characters and lone surrogates: a text column of PostgreSQL refuses them (SQLite takes them). */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text as a database column keeps it, the same on both databases: cut to `max`, then the
 * unstorable characters dropped (a pair the cut split among them).
 */
export const storable = (text: string | undefined, max?: number): string => (text ?? '').slice(0, max).replace(UNSTORABLE, '');

// Visitor data in captured text: e-mail addresses (also percent-encoded or with a full-width
// at sign) and runs of 6 or more digits — card, phone and account numbers — ASCII or full-width,
// alone or with spaces, dots, slashes or hyphens between (`4111.1111.1111.1111`). A digit is
// masked as `*`, never `#`: in a URL that would read as a fragment, and the server scrubs again
// what the tracker scrubbed, which must change nothing the second time.
const EMAIL = /[\w.+%-]+(?:@|%40|＠)[\w.-]+\.\w+/g;
const DIGIT_RUN = /[0-9０-９](?:[\s./-]?[0-9０-９]){5,}/g;
const DIGIT = /[0-9０-９]/g;

// A URL's query string and fragment inside text (an error's source, a stack frame, a message),
// up to what ends the URL there: white space, a bracket, or a stack frame's ":line:column".
const URL_QUERY = /(:\/\/[^\s?#()]*)[?#][^\s()]*?((?::\d+){0,2})(?=[\s()]|$)/g;

/** Captured text with URLs' query strings and fragments dropped, e-mails shown as `[email]` and each digit of a long run as `*`. */
export const maskText = (text: string): string =>
  text
    .replace(URL_QUERY, '$1$2')
    .replace(EMAIL, '[email]')
    .replace(DIGIT_RUN, (run) => run.replace(DIGIT, '*'));

/** A URL without its query string and fragment, where sites put tokens and e-mails: what page addresses keep. */
export const withoutQuery = (url: string): string => url.split(/[?#]/)[0];

/** A captured request's URL: no query string or fragment, its path masked as text, its origin as it is. */
export function requestUrl(url: string): string {
  const path = withoutQuery(url);
  const origin = /^[a-z][\w+.-]*:\/\/[^/]*/i.exec(path)?.[0] ?? '';
  return origin + maskText(path.slice(origin.length));
}

interface EventLike {
  type: number;
  data: unknown;
}

/** Each string of a captured entry's payload scrubbed: the request's URL as a URL, the rest as text. */
function scrubPayload(tag: unknown, payload: Record<string, unknown>): boolean {
  let changed = false;
  for (const [key, value] of Object.entries(payload)) {
    if (typeof value !== 'string') continue;
    const scrubbed = storable(tag === CAPTURED_TAGS.request && key === 'url' ? requestUrl(value) : maskText(value));
    if (scrubbed !== value) [payload[key], changed] = [scrubbed, true];
  }
  return changed;
}

/**
 * An event of a visitor's batch scrubbed in place, as ingest stores it: a page's address (rrweb's
 * Meta event, 4) as the campaign keeps it (pageUrl: path only unless `masked` names the query
 * parameters to hide), captured errors, console messages and requests (Custom events, 5)
 * masked. True when anything changed.
 */
export function scrubEvent(event: EventLike, masked?: readonly string[] | null): boolean {
  const data = event.data as { href?: unknown; tag?: unknown; payload?: unknown };
  if (event.type === 4 && typeof data.href === 'string') {
    const href = storable(pageUrl(data.href, masked));
    if (href === data.href) return false;
    data.href = href;
    return true;
  }
  const captured = event.type === 5 && Object.values<unknown>(CAPTURED_TAGS).includes(data.tag) && data.payload && typeof data.payload === 'object';
  return captured ? scrubPayload(data.tag, data.payload as Record<string, unknown>) : false;
}

/**
 * A page's address as a campaign keeps it. `masked` null or absent: path only (the default).
 * Else the query string is kept with the named parameters' values shown as `*` and the rest
 * masked as text; the fragment always goes (sign-in flows put tokens there). Applying it twice
 * changes nothing the second time.
 */
export function pageUrl(url: string, masked?: readonly string[] | null): string {
  const base = url.split('#')[0];
  const at = base.indexOf('?');
  if (!masked || at < 0) return withoutQuery(url);
  const pairs = base
    .slice(at + 1)
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const name = pair.split('=')[0];
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a malformed escape: compared as written
      }
      return masked.includes(decoded.toLowerCase()) ? name + '=*' : maskText(pair);
    });
  return base.slice(0, at) + (pairs.length ? '?' + pairs.join('&') : '');
}
