import { useEffect, useMemo } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { sessionsQueryOptions } from '../api/sessions.js';
import { listQuery, neighbours, type Neighbours, type SessionListContext } from '../lib/sessionListContext.js';
import { useOnline } from '../offline/useOnline.js';
import { useSavedReplays } from '../offline/useSavedReplays.js';

// Previous and next session of a replay: its neighbours in the sessions list it was opened from
// (the same query, so the list page's answer, cached and kept for offline use, is reused). Pages
// are loaded until the session and the one after it are in (at most MAX_PAGES pages). Offline,
// only sessions saved on this device can open: the nearest saved ones are chosen, and with no
// list kept on the device, the saved replays of the campaign in the order /saved lists them.

/** 10 pages of 50: a replay deeper in a list than this has no Previous/Next until the list is scrolled to it. */
const MAX_PAGES = 10;

export function useSessionNeighbours(campaignId: string, sessionId: string, list: SessionListContext): Neighbours {
  const online = useOnline();
  const sessions = useInfiniteQuery({ ...sessionsQueryOptions(campaignId, listQuery(list)), enabled: Boolean(campaignId && sessionId) });
  const { replays } = useSavedReplays();

  const order = useMemo(() => (sessions.data?.pages ?? []).flatMap((page) => page.sessions.map((session) => session.sessionId)), [sessions.data]);
  const pageCount = sessions.data?.pages.length ?? 0;
  const at = order.indexOf(sessionId);
  const wantsMore = at === -1 || at === order.length - 1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = sessions;
  useEffect(() => {
    if (online && wantsMore && hasNextPage && !isFetchingNextPage && pageCount < MAX_PAGES) void fetchNextPage();
  }, [online, wantsMore, hasNextPage, isFetchingNextPage, pageCount, fetchNextPage]);

  return useMemo(() => {
    if (online) return neighbours(order, sessionId);
    const saved = (replays ?? []).filter((replay) => replay.campaignId === campaignId && !replay.imported).map((replay) => replay.sessionId);
    const playable = new Set(saved);
    const inList = neighbours(order, sessionId, playable);
    return inList.listed ? inList : neighbours(saved, sessionId);
  }, [online, order, sessionId, replays, campaignId]);
}
