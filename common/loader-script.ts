// The loader (tracker/loader.js, served as /static/magicFormat.js) holds exactly one campaign-id
// assignment and one base-URL assignment. Filling them in is the only edit a script download,
// a copy, or the hosted /t/{campaignId}.js makes. Pure, so the PWA and the server share it.

const CAMPAIGN_ID = /^([ \t]*var campaignId = )[^\n;]*;/gm;
const BASE_URL = /^([ \t]*var baseUrl = )[^\n;]*;/gm;

/** A JavaScript string literal that cannot end a <script> element or break a line. */
function literal(value: string): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function replaceOne(source: string, pattern: RegExp, value: string, what: string): string {
  const count = source.match(pattern)?.length ?? 0;
  if (count !== 1) throw new Error(`The loader must hold exactly one ${what} assignment (found ${count})`);
  return source.replace(pattern, (_match, head: string) => `${head}${literal(value)};`);
}

/** The loader source with this campaign's id and the server's base URL (no trailing slash). */
export function fillLoader(source: string, campaignId: string, baseUrl: string): string {
  const withId = replaceOne(source, CAMPAIGN_ID, campaignId, 'campaign-id');
  return replaceOne(withId, BASE_URL, baseUrl.replace(/\/+$/, ''), 'base-URL');
}
