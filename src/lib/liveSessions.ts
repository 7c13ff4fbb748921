// How the sessions page merges what the live stream pushes (GET .../live: `session` with the list
// item's shape, `deleted` with {id}) into a cached list: pure, so the rules are tested on plain data.
import type { InfiniteData } from '@tanstack/react-query';
import type { Session, SessionsResponse } from '../../common/api-types.js';
import type { SessionsQuery } from '../api/sessions.js';
import { hasFilters } from './sessionFilters.js';

export type LiveChange = { kind: 'session'; session: Session } | { kind: 'deleted'; id: string };

export type SessionPages = InfiniteData<SessionsResponse, string | null>;

export interface LiveMerge {
  /** The list with the change applied (the same object when nothing changed). */
  data: SessionPages | undefined;
  /** Fetch this list again soon: the counters may have changed (a session new to it, deleted, or
   * given another verdict), or a filter or sort decides where the change goes. */
  refetch: boolean;
}

/** A new session goes at the top only of a list that shows every session, newest first. */
function takesNewAtTop(query: SessionsQuery, session: Session): boolean {
  if (query.search.trim() || hasFilters(query.filters ?? {})) return false;
  return query.type === 'all' || (query.type === 'bot') === session.isBot;
}

/** Still shown by the list's type filter after the change (the other filters are the server's to judge). */
const keepsType = (query: SessionsQuery, session: Session) => query.type === 'all' || (query.type === 'bot') === session.isBot;

export function mergeLiveChange(data: SessionPages | undefined, query: SessionsQuery, change: LiveChange): LiveMerge {
  if (!data) return { data, refetch: false };
  const id = change.kind === 'session' ? change.session.sessionId : change.id;
  const pageIndex = data.pages.findIndex((page) => page.sessions.some((s) => s.sessionId === id));
  const without = (sessions: Session[]) => sessions.filter((s) => s.sessionId !== id);

  if (change.kind === 'deleted') return { data: pageIndex < 0 ? data : withPage(data, pageIndex, without), refetch: true };

  const { session } = change;
  if (pageIndex >= 0) {
    const before = data.pages[pageIndex].sessions.find((s) => s.sessionId === id);
    const verdictChanged = before?.isBot !== session.isBot;
    if (!keepsType(query, session)) return { data: withPage(data, pageIndex, without), refetch: true };
    // In place: a sort other than newest may move it, which the refetch settles. Live updates
    // carry no star: the one the list had stays.
    const replaced = withPage(data, pageIndex, (sessions) =>
      sessions.map((s) => (s.sessionId === id ? { ...session, starred: session.starred ?? s.starred } : s)),
    );
    return { data: replaced, refetch: verdictChanged || query.filters?.sort !== undefined };
  }
  if (data.pages.length === 0 || !takesNewAtTop(query, session)) return { data, refetch: true };
  return { data: withPage(data, 0, (sessions) => [session, ...sessions]), refetch: true };
}

function withPage(data: SessionPages, index: number, change: (sessions: Session[]) => Session[]): SessionPages {
  const pages = data.pages.map((page, i) => (i === index ? { ...page, sessions: change(page.sessions) } : page));
  return { ...data, pages };
}

/** Reads one message of the live stream; null for anything not in the contract. */
export function parseLiveMessage(event: string, data: string): LiveChange | null {
  try {
    const body = JSON.parse(data) as unknown;
    if (!body || typeof body !== 'object') return null;
    if (event === 'session' && typeof (body as Session).sessionId === 'string') return { kind: 'session', session: body as Session };
    if (event === 'deleted' && typeof (body as { id?: unknown }).id === 'string') return { kind: 'deleted', id: (body as { id: string }).id };
  } catch {
    // not JSON: ignored
  }
  return null;
}
