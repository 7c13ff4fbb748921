// A visit's UTM parameters (utm_source, utm_medium, utm_campaign): the tracker reads them from the
// entry page's address before that address loses its query string (common/scrub.ts pageUrl), and
// ingest applies the same rule again to what arrives, whoever sent it.
import { maskText, storable } from './scrub.js';

/** The longest UTM value a session keeps. */
export const UTM_MAX = 100;

/** A UTM value as a session keeps it: masked as captured text, cut to UTM_MAX, trimmed; empty is none. */
export const utmValue = (value: string | null | undefined): string | undefined => storable(maskText(value ?? ''), UTM_MAX).trim() || undefined;

/** The UTM parameters of a page's query string ("?utm_source=news&…"), each as a session keeps it. */
export function utmOf(search: string): { utmSource?: string; utmMedium?: string; utmCampaign?: string } {
  const query = new URLSearchParams(search);
  const value = (name: string) => utmValue(query.get('utm_' + name));
  return { utmSource: value('source'), utmMedium: value('medium'), utmCampaign: value('campaign') };
}
