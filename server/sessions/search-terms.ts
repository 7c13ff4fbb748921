import { FILTER_MAX_CHARS } from '../../common/session-list.js';
import { storable } from '../../common/scrub.js';

// What the sessions list's search box finds a session by: its id, IP address and language, who it
// was (user id), the events it sent and the pages it saw, as terms matched by prefix. A session's
// terms are a JSON array on its row (`search_terms`); the database mirrors them into session_terms
// (migration 0031), whose (campaign_id, term) index answers a search as one range.

/** A term is cut here: a search is never longer (the list's query refuses a longer one). */
const MAX_TERM_CHARS = FILTER_MAX_CHARS.search;
/** Terms per session and per text: a long page path adds a few, a session at most this many. */
const MAX_TERMS = 200;
const MAX_TERMS_PER_TEXT = 6;

/** Where a word starts: after anything that is neither letter nor digit (`/`, `-`, `.`, space…). */
const WORD_START = /(?<=[^\p{L}\p{N}])(?=[\p{L}\p{N}])/gu;

/** Text as terms are kept: lower-cased, trimmed, without NULs and lone surrogates (PostgreSQL refuses them). */
const lowered = (text: string) => storable(text).trim().toLowerCase();

/** A search (or a text's rest from a word on) as a term: lowered, cut as terms are. */
export const searchKey = (text: string) => storable(lowered(text), MAX_TERM_CHARS);

/**
 * A text's terms: the whole text, and the rest of it from each word on, so "kettle" finds
 * /products/kettle and "abcd" finds s015-abcd-session, both by prefix.
 */
function termsOf(text: string): string[] {
  const whole = lowered(text);
  if (!whole) return [];
  const starts = [0, ...Array.from(whole.matchAll(WORD_START), (match) => match.index)];
  return starts.slice(0, MAX_TERMS_PER_TEXT).map((start) => searchKey(whole.slice(start)));
}

/** The texts' terms, most telling first (callers pass who before what), deduplicated and bounded. */
export function searchTerms(texts: readonly (string | null | undefined)[]): string[] {
  const terms = new Set<string>();
  for (const text of texts) {
    for (const term of text ? termsOf(text) : []) {
      if (terms.size === MAX_TERMS) return [...terms];
      terms.add(term);
    }
  }
  return [...terms];
}

/** Two terms columns' terms together (JSON arrays as written above), deduplicated and bounded as one. */
export function joinedTerms(first: string, second: string): string[] {
  const read = (column: string) => JSON.parse(column) as string[];
  return [...new Set([...read(first), ...read(second)])].slice(0, MAX_TERMS);
}

/** The upper end of a prefix's range: above every term that starts with it, in byte (code point) order. */
export const prefixEnd = (prefix: string) => `${prefix}\u{10FFFF}`;
