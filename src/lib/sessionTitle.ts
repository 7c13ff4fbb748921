import type { Session } from '../../common/api-types.js';

// What makes a session recognisable in a list (issue 36 item 4): who, where they went, what they
// did. Pure, so the cards, the rows and their tests share one wording.

/** "1 page", "1,234 pages". */
export const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** The identified user's id, or "Anonymous". */
export const sessionWho = (session: Pick<Session, 'userId'>) => session.userId || 'Anonymous';

/** A page's path (and query) from an entry URL; the text as it is when it is no URL. */
function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  } catch {
    return url;
  }
}

/** "/landing → /pay · 3 pages": the entry and exit pages and how many loads. */
export function sessionWhere(session: Pick<Session, 'pages' | 'entryUrl' | 'exitUrl' | 'pageCount'>): string {
  // A list kept on the device from an older version may lack the derived facts.
  const entry = session.pages?.[0] ?? (session.entryUrl ? pathOf(session.entryUrl) : null);
  const exit = session.exitUrl ?? entry;
  const route = !entry ? 'No page recorded' : exit && exit !== entry ? `${entry} → ${exit}` : entry;
  return `${route} · ${plural(session.pageCount ?? 0, 'page')}`;
}

/** How many custom events are named: a few are enough to recognise a visit. */
const NAMED_EVENTS = 3;

/** "120 events · 9 clicks · checkout ×2, add_to_cart": the recording's size and the page's own events, most sent first. */
export function sessionWhat(session: Pick<Session, 'eventCount' | 'clickCount' | 'events'>): string {
  const named = Object.entries(session.events ?? {})
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, NAMED_EVENTS)
    .map(([name, count]) => (count > 1 ? `${name} ×${count}` : name));
  return [plural(session.eventCount ?? 0, 'event'), plural(session.clickCount ?? 0, 'click'), ...(named.length ? [named.join(', ')] : [])].join(' · ');
}

type Problem = 'errorCount' | 'failedRequestCount' | 'rageClickCount' | 'deadClickCount' | 'quickBackCount' | 'excessiveScrollCount';

/** Each kind of trouble a session can have, in the order it is worth a look, and its badge's class. */
const PROBLEMS: [key: Problem, one: string, kind: string][] = [
  ['errorCount', 'error', 'badge-error'],
  ['failedRequestCount', 'failed request', 'badge-error'],
  ['rageClickCount', 'rage click', 'badge-rage'],
  ['deadClickCount', 'dead click', 'badge-dead'],
  ['quickBackCount', 'quick back', 'badge-dead'],
  ['excessiveScrollCount', 'excessive scroll', 'badge-dead'],
];

/** "2 errors", "1 rage click": only the troubles the session has (its badges, an issue's summary). */
export const sessionProblems = (session: Partial<Pick<Session, Problem>>): { text: string; kind: string }[] =>
  PROBLEMS.filter(([key]) => (session[key] ?? 0) > 0).map(([key, one, kind]) => ({ text: plural(session[key] ?? 0, one), kind }));
